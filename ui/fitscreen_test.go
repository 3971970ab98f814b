package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

// unscrolled is what the window's own layout needs to show everything
// with the server list beside the screens and nothing scrolled. The
// window's content asks for minWindow only (a smaller window scrolls,
// giveWay), so a test of what fits a screen reads this instead.
func unscrolled(w *Window) fyne.Size {
	return w.mainSp.MinSize().Max(w.toasts.layer.MinSize())
}

// TestFitScreen: on a screen smaller than the default 1280×800 the window
// is shrunk to fit it (with a margin for the desktop's panels), and it
// still shows its content whole there: the server list beside the screens
// and nothing to scroll. A larger screen leaves the size alone.
func TestFitScreen(t *testing.T) {
	w, _, _ := connected(t, nil)
	var got, need, laid fyne.Size
	var listShown bool
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		w.FitScreen(1920, 1080)
		got = w.win.Canvas().Size()
	})
	if got != fyne.NewSize(1280, 800) {
		t.Fatalf("on 1920×1080 the window became %v", got)
	}
	Sync(func() {
		w.FitScreen(1024, 700)
		got = w.win.Canvas().Size()
		need, laid, listShown = unscrolled(w), w.main.Size(), w.listShown
	})
	if got.Width > 1024*0.95 || got.Height > 700*0.92 {
		t.Fatalf("on 1024×700 the window is %v", got)
	}
	if need.Width > got.Width || need.Height > got.Height {
		t.Errorf("the content needs %v, more than the fitted %v", need, got)
	}
	if !listShown {
		t.Errorf("in the fitted %v the server list collapsed", got)
	}
	if laid.Width > got.Width || laid.Height > got.Height {
		t.Errorf("in the fitted %v the content is laid out at %v and scrolls", got, laid)
	}
}
