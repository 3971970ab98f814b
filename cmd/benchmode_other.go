//go:build !linux

package cmd

import (
	"io"

	"github.com/spyglass-mcp/spyglass/ui"
)

// startBench does nothing: the benchmark mode reads Linux's /proc
// (benchmode.go).
func startBench(*guiBackend, *ui.Window, string, io.Writer, io.Writer) {}
