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

// TestListGivesWayWhenAScreenGrows: a window that held the server list
// beside the screens collapses it when a screen comes to need more width
// (a tool shown), without waiting for a resize, so the inspector is not
// cut off at the right edge.
func TestListGivesWayWhenAScreenGrows(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		pad := w.win.Canvas().Size().Width - w.fitted.Size().Width
		before := w.mainSp.MinSize().Width
		// a window just wide enough for the list beside the screens
		w.win.Resize(fyne.NewSize(before+1+pad, 700))
		if !w.listShown {
			t.Fatalf("at %v px the list (needing %v) is collapsed", w.fitted.Size().Width, before)
		}
		ss.tools.list.Select(0)
		if after := w.mainSp.MinSize().Width; after <= before+1 {
			t.Fatalf("a tool shown needs %v px, as much as the screens' %v: nothing to give way to", after, before)
		}
		w.fitted.Refresh() // the scroll lays its content out again, as the next frame does
		if w.listShown {
			t.Error("the list stayed beside the screens that needed its room")
		}
		if got, has := w.main.Size().Width, w.fitted.Size().Width; got > has {
			t.Errorf("the content is laid out %v px wide in a window of %v: it scrolls sideways", got, has)
		}
	})
}
