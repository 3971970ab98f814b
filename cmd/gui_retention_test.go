package cmd

import (
	"fmt"
	"strings"
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
	ui.Sync(func() { h.entry("Search tools").SetText("flood") })
	h.waitFor("flood", func() bool { return h.hasText("flood · ") })
	ui.Sync(func() {
		if !h.selectRow("flood") {
			t.Fatal("could not select flood")
		}
	})
	h.setArgs(fmt.Sprintf(`{"count": %d, "kind": "log"}`, n))
	h.tap("Run")
	h.waitFor("the flood in the inspector", func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			if !ok || !strings.HasSuffix(l.Text, " events") {
				return false
			}
			var calls, errs, got int
			_, _ = fmt.Sscanf(l.Text, "%d tool calls · %d errors · %d events", &calls, &errs, &got)
			return got > n
		}) != nil
	})
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
