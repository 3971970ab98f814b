package cmd

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui"
)

// smallScreen is the size FitScreen gives the window on a 1024×700 screen
// (95% by 92%, room for the desktop's panels).
var smallScreen = fyne.NewSize(1024*0.95, 700*0.92)

// checkSmallScreen fails when the window needs more than the fitted small-screen
// size in state, or when the inspector's buttons reach past the window's
// right edge once it has that size. The window is laid out at 1280×800
// first, as the real one is before FitScreen shrinks it: a layout that
// remembered its widest row would keep the window wide. UI thread.
func (h *guiHarness) checkSmallScreen(state string) {
	h.t.Helper()
	h.win.Resize(fyne.NewSize(1280, 800))
	m := h.win.Content().MinSize()
	if m.Width > smallScreen.Width || m.Height > smallScreen.Height {
		h.t.Errorf("%s: the window needs %v, more than the %v it has on a 1024×700 screen", state, m, smallScreen)
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if sp, ok := o.(*container.Split); ok {
				h.t.Logf("a split (horizontal %v) needs %v | %v", sp.Horizontal, sp.Leading.MinSize(), sp.Trailing.MinSize())
			}
		})
		return
	}
	h.win.Resize(smallScreen)
	right := h.win.Canvas().Size().Width
	for _, text := range []string{"Pause", "Clear", "Trace"} {
		b := h.button(text)
		if b == nil {
			h.t.Errorf("%s: no inspector button %s", state, text)
			continue
		}
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
		if end := pos.X + b.Size().Width; end > right+0.5 {
			h.t.Errorf("%s: the inspector's %s ends at x=%.0f, past the window's right edge at %.0f", state, text, end, right)
		}
	}
}

// TestGUIFitsSmallScreen: against the demo server, the window fits the
// size FitScreen gives it on a 1024×700 screen — not connected, with a
// server that failed, with each of the demo's tools selected, and with a
// sampling request waiting for Manual Review (the default testing
// profile) in the request queue. The inspector stays inside the window.
func TestGUIFitsSmallScreen(t *testing.T) {
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	ui.Sync(func() { h.checkSmallScreen("not connected") })

	h.selectCard("broken")
	h.tap("Connect")
	h.waitFor("the broken server's failure", func() bool { return h.button("Retry") != nil })
	ui.Sync(func() { h.checkSmallScreen("a failed server") })

	h.selectCard("demo")
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	var names []string
	ui.Sync(func() {
		var list *widget.List
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.List); ok && list == nil && l.Length() > 20 {
				list = l
			}
		})
		if list == nil {
			t.Fatal("no tool list")
		}
		for i := 0; i < list.Length(); i++ {
			list.Select(i)
			var name string
			walk(h.win.Content(), func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok && name == "" && l.SizeName == "subHeadingText" && l.Text != "demo" {
					name = l.Text
				}
			})
			names = append(names, name)
			h.checkSmallScreen("tool " + name + " selected")
		}
	})
	if len(names) < 25 {
		t.Fatalf("only %d tools were selected: %q", len(names), names)
	}

	ui.Sync(func() { h.entry("Search tools").SetText("sample") })
	h.waitFor("sample", func() bool { return h.hasText("sample · ") })
	ui.Sync(func() {
		if !h.selectRow("(sample)") {
			t.Fatal("could not select sample")
		}
	})
	h.tap("Run")
	h.waitFor("the sampling request waiting for review", func() bool {
		return h.button("Edit & Send") != nil && h.button("Reject") != nil && h.button("Auto-respond") != nil
	})
	ui.Sync(func() { h.checkSmallScreen("a sampling request waiting for Manual Review") })
	h.tap("Reject")
	h.waitFor("the request answered", func() bool { return h.button("Edit & Send") == nil })
}
