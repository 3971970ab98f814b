//go:build !wip

package cmd

import (
	"fmt"
	"os"

	"github.com/spyglass-mcp/spyglass/ui"
)

// Main runs Spyglass with the given arguments (without the program name)
// and returns the process exit code.
func Main(args []string) int {
	ui.Run("Spyglass", nil)
	fmt.Fprintln(os.Stderr, "bye")
	return 0
}
