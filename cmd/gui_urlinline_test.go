package cmd

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/spyglass-mcp/spyglass/ui"
)

// windowLayout is what must hold still while a request shows inline: the
// window's content minimum and where every split's divider is (the
// width or height of its leading side: a split's Offset is only what it
// asks for).
type windowLayout struct {
	min     fyne.Size
	offsets []float32
}

func (h *guiHarness) layoutNow() windowLayout {
	var l windowLayout
	ui.Sync(func() {
		l.min = h.win.Content().MinSize()
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if sp, ok := o.(*container.Split); ok && sp.Visible() {
				at := sp.Leading.Size().Height
				if sp.Horizontal {
					at = sp.Leading.Size().Width
				}
				l.offsets = append(l.offsets, at)
			}
		})
	})
	return l
}

// TestGUIURLElicitationInlineHoldsStill: at 1024×700 the demo's
// elicit_url shows its URL panel in the running tool's panel; the window
// asks for no more room and no split moves, before, while and after it
// shows (its row of buttons made the window 42 px wider and the tool list
// narrower, and they stayed so after Cancel, #12). Cancelled, the call
// leaves its request in the queue, and once it is declined there the
// window is as it was.
func TestGUIURLElicitationInlineHoldsStill(t *testing.T) {
	h := newGUIHarness(t)
	ui.Sync(func() {
		h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json"))
		h.win.Resize(fyne.NewSize(1024, 700))
	})
	h.connectWithTools()
	h.selectTool("elicit_url", "")
	before := h.layoutNow()
	if before.min.Width > 1024 || before.min.Height > 700 {
		t.Fatalf("before the request the window needs %v, more than 1024×700", before.min)
	}
	h.tap("Run")
	h.waitFor("the URL panel in the tool's panel", func() bool {
		return h.w.InlineRequests("demo") > 0 && h.button("Open in Browser") != nil
	})
	during := h.layoutNow()
	h.tap("Cancel")
	// the server has not cancelled its request: it waits in the queue
	// below the screens, and Decline there closes it
	h.waitFor("the panel gone", func() bool { return h.w.InlineRequests("demo") == 0 })
	h.waitFor("the request in the queue", func() bool { return h.be.queue.Len() == 1 })
	h.tap("Decline")
	h.waitFor("the request closed", func() bool { return h.be.queue.Len() == 0 })
	after := h.layoutNow()
	for _, c := range []struct {
		when string
		l    windowLayout
	}{{"while the URL panel shows", during}, {"after Cancel and Decline", after}} {
		if c.l.min.Width > before.min.Width || c.l.min.Height > before.min.Height {
			t.Errorf("%s the window needs %v, it needed %v", c.when, c.l.min, before.min)
		}
		if len(c.l.offsets) != len(before.offsets) {
			t.Errorf("%s the window has %d splits, it had %d", c.when, len(c.l.offsets), len(before.offsets))
			continue
		}
		for i := range before.offsets {
			if c.l.offsets[i] != before.offsets[i] {
				t.Errorf("%s split %d is at %v, it was at %v", c.when, i, c.l.offsets[i], before.offsets[i])
			}
		}
	}
}
