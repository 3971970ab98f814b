package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

// TestToolShownFitsSmallWindow: in a 700×500 window (the server list
// collapsed to its rail) the Tools screen with a tool shown fits without
// scrolling sideways, so the inspector's right edge is not cut off; the
// rail's toggle takes no more than its button's width.
func TestToolShownFitsSmallWindow(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		ss.tools.list.Select(0)
		w.win.Resize(fyne.NewSize(700, 500))
		if w.listShown {
			t.Fatal("at 700×500 the server list is shown")
		}
		if need, has := w.main.MinSize(), w.fitted.Size(); need.Width > has.Width {
			t.Errorf("at 700×500 with a tool shown the content needs %v px, more than the window's %v", need.Width, has.Width)
		}
		if extra := w.rail.MinSize().Width - w.body.MinSize().Width; extra > w.rail.(*fyne.Container).Objects[1].MinSize().Width {
			t.Errorf("the rail adds %v px beside the body, more than its toggle", extra)
		}
	})
}
