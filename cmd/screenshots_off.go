//go:build !screenshots

package cmd

import (
	"io"

	"github.com/spyglass-mcp/spyglass/ui"
)

// startScreenshots does nothing: the screenshot script is only in builds
// with -tags screenshots (screenshots.go).
func startScreenshots(*ui.Window, io.Writer) {}
