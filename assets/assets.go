// Package assets holds what Spyglass installs beside its binary: the icon
// (spyglass.svg, rendered to the PNG sizes under icons/ by `make icons`),
// the desktop entry, the AppStream metainfo and the trace MIME type under
// linux/ (installed by `make install`), and the README's screenshots. The
// window's own icon is embedded from here.
package assets

import _ "embed"

// Icon is the application icon, 256×256 PNG, for the window.
//
//go:embed icons/hicolor/256x256/apps/io.github.spyglass_mcp.spyglass.png
var Icon []byte
