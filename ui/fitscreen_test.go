package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

// TestFitScreen: on a screen smaller than the default 1280×800 the window
// is shrunk to fit it (with a margin for the desktop's panels), and it
// still fits its content; a larger screen leaves the size alone.
func TestFitScreen(t *testing.T) {
	w, _, _ := connected(t, nil)
	var got, min fyne.Size
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
		min = w.win.Content().MinSize()
	})
	if got.Width > 1024*0.95 || got.Height > 700*0.92 {
		t.Fatalf("on 1024×700 the window is %v", got)
	}
	if min.Width > got.Width || min.Height > got.Height {
		t.Fatalf("the content needs %v, more than the fitted %v", min, got)
	}
}
