package cmd

import (
	"fmt"
	"io"
)

// runCollection runs a collection's saved calls and checks their
// expectations.
func runCollection(inv *Invocation, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "spyglass: --run is not ready yet")
	return exitUsage
}
