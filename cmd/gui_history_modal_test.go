package cmd

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/sampling"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// overlayButton is the button named text in the window's top overlay (a
// dialog), or nil.
func (h *guiHarness) overlayButton(text string) *widget.Button {
	top := h.win.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	var b *widget.Button
	walk(top, func(o fyne.CanvasObject) {
		if x, ok := esc.AsButton(o); ok && x.Text == text && b == nil {
			b = x
		}
	})
	return b
}

// overlayText reports whether the top overlay shows a label containing s.
func (h *guiHarness) overlayText(s string) bool {
	top := h.win.Canvas().Overlays().Top()
	found := false
	if top != nil {
		walk(top, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, s) {
				found = true
			}
		})
	}
	return found
}

// TestGUIElicitationModalFromInspector: the demo's elicit_form waits in
// the request queue; its elicitation/create row in the inspector offers
// View Details, which opens the form in a dialog (seed 000's modal view);
// the answer given there reaches the server and closes the dialog.
func TestGUIElicitationModalFromInspector(t *testing.T) {
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("elicit_form", "")
	h.waitFor("the queued elicitation", func() bool { return h.button("Submit") != nil })
	if err := h.w.OpenEvent("elicitation/create #", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	h.tap("View Details")
	h.waitFor("the modal form", func() bool {
		return h.overlayText("Server Request: User Input Required") && h.overlayButton("Decline") != nil && h.overlayText("Your name")
	})
	ui.Sync(func() { test.Tap(h.overlayButton("Decline")) })
	h.waitFor("the answer and the dialog closed", func() bool {
		return h.hasText("The user chose decline") && h.win.Canvas().Overlays().Top() == nil
	})
	// the row of an answered request opens it read-only: the request and
	// the answer sent, not a success toast
	if err := h.w.OpenEvent("elicitation/create #", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	h.tap("View Details")
	h.waitFor("the closed request's details", func() bool {
		return h.overlayText("no longer waits for an answer") && h.overlayText("Request · id") && h.overlayText("Response · id") &&
			h.overlayButton("Decline") == nil
	})
}

// TestGUIElicitationModalURL: link_account's page (URL mode) opens from
// the request queue in a dialog; after Open in Browser it waits there
// until notifications/elicitation/complete for that page arrives — sent
// when the test completes the page itself with the demo's complete_link —
// and then the dialog closes and the queue notes it completed.
func TestGUIElicitationModalURL(t *testing.T) {
	t.Setenv("BROWSER", "true")
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("link_account", `{"finish_ms": 0}`)
	h.waitFor("the page in the queue", func() bool { return h.button("Open in a dialog") != nil })
	h.tap("Open in a dialog")
	h.waitFor("the modal page", func() bool {
		return h.overlayText("Server Request: External Action Required") && h.overlayButton("Open in Browser") != nil
	})
	ui.Sync(func() {
		if !h.hasText("This request is open in a dialog.") {
			t.Error("the queue's pane does not say the request is in a dialog")
		}
	})
	ui.Sync(func() { test.Tap(h.overlayButton("Open in Browser")) })
	h.waitFor("waiting in the dialog", func() bool { return h.overlayText("Waiting for completion") })

	// still waiting: nothing completes the page by itself
	ui.Sync(func() {
		if h.win.Canvas().Overlays().Top() == nil {
			t.Fatal("the dialog closed before the page was completed")
		}
	})
	h.runTool("complete_link", "")
	h.waitFor("the page completed and the dialog closed", func() bool {
		notes := h.be.queue.Notes()
		return h.win.Canvas().Overlays().Top() == nil && len(notes) > 0 && strings.HasSuffix(notes[0], ": completed")
	})
}

// TestGUIEverythingHistory: against server-everything (stdio) with Quick
// Mock answering sampling: trigger-sampling-request's History row has the
// sampling request nested under it with the mock's answer; its replay is
// marked "same as the first run"; trigger-elicitation-request's
// elicitation/create row opens the form in a dialog with View Details, and
// the decline given there reaches the server.
func TestGUIEverythingHistory(t *testing.T) {
	h := newEverythingHarness(t, false)
	profiles := filepath.Join(h.dir, "profiles.json")
	ps := sampling.DefaultProfiles()
	ps.Active = "Quick Mock"
	if err := sampling.Save(profiles, ps); err != nil {
		t.Fatal(err)
	}
	ui.Sync(func() { h.be.useQueue(h.w, profiles) })
	h.connectWithTools()
	h.runTool("trigger-sampling-request", `{"prompt": "hello"}`)
	h.waitFor("the sampled result", func() bool { return h.hasText("LLM sampling result") })
	h.openTab("History")
	h.waitFor("the chain", func() bool {
		return h.hasText("tools/call trigger-sampling-request") && h.hasText("sampling/createMessage") &&
			h.hasText(`Response: "This is a mock LLM response for testing purposes."`)
	})
	ui.Sync(func() { test.Tap(h.historyButtons("Replay")[0]) })
	h.waitFor("the replay compared", func() bool {
		return h.hasText("Same result as the first run.") && h.hasBadge("same as the first run")
	})

	h.openTab("Tools")
	h.runTool("trigger-elicitation-request", "")
	h.waitFor("the queued elicitation", func() bool { return h.button("Submit") != nil })
	if err := h.w.OpenEvent("elicitation/create #", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	h.tap("View Details")
	h.waitFor("the modal form", func() bool {
		return h.overlayText("Server Request: User Input Required") && h.overlayButton("Decline") != nil
	})
	ui.Sync(func() { test.Tap(h.overlayButton("Decline")) })
	h.waitFor("the decline at the server", func() bool {
		return h.win.Canvas().Overlays().Top() == nil && h.hasText("declined")
	})
}
