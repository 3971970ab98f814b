package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// TestRunRevealsResult: in a window too short for the form and its
// result, Run scrolls the form to the result card's head; in one tall
// enough the form's scroll stays where it was.
func TestRunRevealsResult(t *testing.T) {
	w, _, ss := connected(t, nil)
	resultTop := func() (top, offset, height float32) {
		s := ss.tools.formObj.(*container.Scroll)
		d := fyne.CurrentApp().Driver()
		return d.AbsolutePositionForObject(ss.tools.result).Y - d.AbsolutePositionForObject(s.Content).Y, s.Offset.Y, s.Size().Height
	}
	runTool(t, ss, "echo", `{"message":"hi"}`)
	Sync(func() {
		if _, off, _ := resultTop(); off != 0 {
			t.Errorf("with room for the result the form scrolled to %v", off)
		}
	})
	Sync(func() { w.win.Resize(fyne.NewSize(1280, 390)) })
	Sync(func() { ss.tools.formObj.(*container.Scroll).ScrollToTop() })
	Sync(func() {
		if top, _, h := resultTop(); top < h {
			t.Fatalf("the result's head (at %v) is in view at %v px; the test needs it below the fold", top, h)
		}
	})
	runTool(t, ss, "echo", `{"message":"again"}`)
	Sync(func() {
		top, off, h := resultTop()
		if top < off || top > off+h/2 {
			t.Errorf("the result's head is at %v, the form shows %v–%v: it is not brought into view", top, off, off+h)
		}
	})
}
