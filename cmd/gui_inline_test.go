package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TestGUIRequestsInline: against the demo server, the elicitation and the
// sampling request that a tool call started on the Tools screen are
// answered in that call's panel (seed 000), and the queue takes no room
// below the screens for them;
// View Details opens the same panel as a modal and the inline place says
// so; the answers reach the tool and the panel goes away.
func TestGUIRequestsInline(t *testing.T) {
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	h.connectWithTools()

	// (conditions of waitFor run on the UI thread already)
	inTools := func(text string) *widget.Button {
		if h.w.InlineRequests("demo") == 0 {
			return nil
		}
		return h.button(text)
	}

	// elicitation (form mode)
	h.runTool("elicit_form", "")
	h.waitFor("the elicitation in the tool's panel", func() bool { return inTools("Decline") != nil })
	ui.Sync(func() {
		// the queue takes no room below the screens for it; the title
		// still counts it
		if h.hasText("1 pending request") {
			t.Error("the queue is shown below the screens for a request answered inline")
		}
		if title := h.win.Title(); !strings.Contains(title, "(1 waiting for you)") {
			t.Errorf("the title %q does not count the request", title)
		}
	})
	h.tap("Decline")
	h.waitFor("the declined result", func() bool {
		return h.hasText("The user chose decline") && h.w.InlineRequests("demo") == 0
	})

	// sampling, Manual Review: View Details opens the modal
	h.runTool("sample", "")
	h.waitFor("the sampling request in the tool's panel", func() bool { return inTools("View Details") != nil })
	ui.Sync(func() { test.Tap(h.button("View Details")) })
	h.waitFor("the modal", func() bool {
		return h.win.Canvas().Overlays().Top() != nil && h.hasText("Open in a dialog: answer it there.")
	})
	ui.Sync(func() {
		var reject *widget.Button
		walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if b, ok := esc.AsButton(o); ok && b.Text == "Reject Request" && reject == nil {
				reject = b
			}
		})
		if reject == nil {
			t.Fatal("no Reject Request in the sampling modal")
		}
		test.Tap(reject)
	})
	h.waitFor("the rejected sampling ends the call", func() bool {
		return h.w.InlineRequests("demo") == 0 && h.win.Canvas().Overlays().Top() == nil && !h.hasText("Running sample")
	})
}
