package esc

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// TestRevealHeadKeepsWhatShows: a result that lands with its head and a
// line or two in view leaves the form where it is, so the button just
// pressed stays under the pointer (the walk saw Run and Get prompt jump
// by a third of the view); one that shows only its head line, or lands
// below the fold, is scrolled up to.
func TestRevealHeadKeepsWhatShows(t *testing.T) {
	test.NewTempApp(t)
	for _, c := range []struct {
		name   string
		above  float32 // the form's height above the result, in a 400 px view
		scroll bool
	}{
		{"head and lines in the lower third", 300, false},
		{"only the head line at the bottom edge", 375, true},
		{"below the fold", 500, true},
		{"in the upper part", 100, false},
	} {
		form := canvas.NewRectangle(color.Transparent)
		form.SetMinSize(fyne.NewSize(100, c.above))
		result := canvas.NewRectangle(color.Black)
		result.SetMinSize(fyne.NewSize(100, 300))
		s := container.NewVScroll(container.NewVBox(form, result))
		w := test.NewTempWindow(t, s)
		w.SetPadded(false)
		w.Resize(fyne.NewSize(200, 400))
		if got := RevealHead(s, result); got != c.scroll {
			t.Errorf("%s: scrolled %v, want %v (offset %v)", c.name, got, c.scroll, s.Offset.Y)
		}
		if !c.scroll && s.Offset.Y != 0 {
			t.Errorf("%s: the form moved to %v", c.name, s.Offset.Y)
		}
	}
}
