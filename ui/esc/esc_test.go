package esc

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestMain gives Fyne a locale it can parse.
func TestMain(m *testing.M) {
	if l := os.Getenv("LANG"); l == "" || l == "C" || l == "POSIX" {
		os.Setenv("LANG", "en_US.UTF-8")
	}
	os.Exit(m.Run())
}

func labels(n int) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for i := range n {
		out = append(out, widget.NewLabel(fmt.Sprintf("row %d", i)))
	}
	return out
}

// centre is the middle of o on its canvas.
func centre(o fyne.CanvasObject) fyne.Position {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return p.Add(fyne.NewPos(o.Size().Width/2, o.Size().Height/2))
}

// TestWheelOverEntryScrollsForm: the wheel over a single-line entry (with
// a line too long for it) scrolls the form, and over a multi-line entry it
// scrolls the entry until its end and then the form.
func TestWheelOverEntryScrollsForm(t *testing.T) {
	test.NewTempApp(t)
	single := NewEntry()
	single.SetText(strings.Repeat("a long value ", 40))
	multi := NewMultiLineEntry()
	multi.Wrapping = fyne.TextWrapOff
	multi.SetMinRowsVisible(3)
	multi.SetText(strings.Repeat("line\n", 12))
	plain := widget.NewEntry()
	passed := widget.NewEntry()
	passed.SetText(strings.Repeat("a long value ", 40))
	rows := append(labels(3), single, PassWheel(passed))
	rows = append(rows, labels(3)...)
	rows = append(rows, multi, plain)
	rows = append(rows, labels(20)...)
	form := NewVScroll(container.NewVBox(rows...))
	w := test.NewTempWindow(t, form)
	w.Resize(fyne.NewSize(300, 400))
	c := w.Canvas()

	test.Scroll(c, centre(single), 0, -30)
	if form.Offset.Y == 0 {
		t.Fatalf("the wheel over a single-line entry did not scroll the form")
	}

	form.ScrollToTop()
	test.Scroll(c, centre(passed), 0, -30)
	if form.Offset.Y == 0 {
		t.Fatalf("the wheel over a PassWheel entry did not scroll the form")
	}

	form.ScrollToTop()
	test.Scroll(c, centre(multi), 0, -10)
	if form.Offset.Y != 0 {
		t.Fatalf("the form scrolled (%v) while the multi-line entry could still scroll", form.Offset.Y)
	}
	for range 40 {
		test.Scroll(c, centre(multi), 0, -30)
	}
	if form.Offset.Y == 0 {
		t.Fatalf("the wheel over a multi-line entry at its end did not scroll the form")
	}

	// Fyne's own entry keeps the wheel: the reason for Entry.
	form.ScrollToTop()
	test.Scroll(c, centre(plain), 0, -30)
	if form.Offset.Y != 0 {
		t.Errorf("Fyne's Entry passed the wheel on (%v): then Entry's catcher is not needed", form.Offset.Y)
	}
}

// TestEscFromFocusedControls: Esc typed while a Select, Check or Button of
// a dialog has the focus closes the dialog.
func TestEscFromFocusedControls(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func() fyne.Focusable
	}{
		{"select", func() fyne.Focusable { return NewSelect([]string{"a", "b"}, nil) }},
		{"check", func() fyne.Focusable { return NewCheck("on", nil) }},
		{"button", func() fyne.Focusable { return NewButton("go", func() {}) }},
		{"entry", func() fyne.Focusable { return NewEntry() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test.NewTempApp(t)
			w := test.NewTempWindow(t, widget.NewLabel("behind"))
			w.Resize(fyne.NewSize(400, 300))
			ctl := tc.make()
			d := dialog.NewCustom("Settings", "Cancel", container.NewVBox(ctl.(fyne.CanvasObject)), w)
			Show(d, w)
			c := w.Canvas()
			c.Focus(ctl)
			if c.Focused() != ctl {
				t.Fatalf("the %s did not take the focus", tc.name)
			}
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
			if Open(c) != 0 || c.Overlays().Top() != nil {
				t.Fatalf("Esc on a focused %s left the dialog open", tc.name)
			}
		})
	}
}
