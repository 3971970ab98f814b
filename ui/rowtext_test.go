package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestRowTextDrawsInPlace: a row's text takes a new event's words in the
// canvas.Text it has (a widget.Label makes a new one each time, which
// Fyne's caches keep for a minute, #17), looks like a label (the same
// height, the colour of its importance) and is cut at its end with "…".
func TestRowTextDrawsInPlace(t *testing.T) {
	Sync(func() {
		r := newRowText("tools/call #7")
		r.cut = true
		l := widget.NewLabel("tools/call #7")
		w := test.NewTempWindow(t, container.NewVBox(r, l))
		w.Resize(fyne.NewSize(400, 200))
		if got, want := r.MinSize().Height, l.MinSize().Height; got != want {
			t.Errorf("a row's text is %v px high, a label %v", got, want)
		}
		objs := test.WidgetRenderer(r).Objects()
		r.SetText("notifications/message · line 99")
		if again := test.WidgetRenderer(r).Objects(); len(again) != 1 || again[0] != objs[0] {
			t.Error("a new text was drawn in a new canvas.Text")
		}
		r.SetImportance(widget.DangerImportance)
		if got, want := r.txt.Color, r.Theme().Color(importanceColor(widget.DangerImportance), fyne.CurrentApp().Settings().ThemeVariant()); got != want {
			t.Errorf("a failed event's title is drawn in %v, want the error colour %v", got, want)
		}
		r.Resize(fyne.NewSize(120, r.MinSize().Height))
		shown := r.Shown()
		if !strings.HasSuffix(shown, "…") || !strings.HasPrefix(r.text, strings.TrimSuffix(shown, "…")) {
			t.Errorf("cut to 120 px it reads %q", shown)
		}
		if w := r.measure(shown) + 2*theme.InnerPadding(); w > 120 {
			t.Errorf("cut to 120 px it needs %v px", w)
		}
	})
}
