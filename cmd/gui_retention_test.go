package cmd

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUISearchAfterFlood: after the demo server's flood (30,000
// notifications over HTTP) the log has sealed the session's first
// events, and the inspector's search still finds the handshake among
// them — read from core's log by Seq, not from a copy of the window's.
func TestGUISearchAfterFlood(t *testing.T) {
	const n = 30000
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runFlood(n, false)
	h.waitEvents("the flood in the inspector", n)
	if r := h.be.log.Retention(); r.Sealed == 0 {
		t.Fatalf("the log sealed nothing: %+v", r)
	}
	ui.Sync(func() { h.entry("Search titles and payloads").SetText("PROTOCOLVERSION") })
	h.waitFor("the handshake found", func() bool { return h.hasText("initialize #1") && h.hasText("result #1 · initialize") })
	var rows int
	ui.Sync(func() {
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.List); ok && l.Length() > 0 && l.Length() < 10 {
				rows = l.Length()
			}
		})
	})
	if rows == 0 {
		t.Error("no short list of search results in the window")
	}
}
