// Command spyglass is a native desktop inspector for Model Context Protocol
// servers. Run it without arguments for the desktop app, or with --cli for
// the scriptable client; see README.md.
package main

import (
	"os"

	"github.com/spyglass-mcp/spyglass/cmd"
	"github.com/spyglass-mcp/spyglass/cmd/locale"
)

func main() {
	locale.Restore()
	os.Exit(cmd.Main(os.Args[1:]))
}
