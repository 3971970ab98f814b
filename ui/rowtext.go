package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// rowText is one line of text in a row of the inspector's list, with a
// label's look (its padding, the colour of its importance, "…" where it
// is cut at the end) drawn in one canvas.Text that each new text is set
// into. A widget.Label makes a new canvas.Text for every text it is
// given, and Fyne's caches keep each one drawn for a minute: a flood's
// rows, showing new events four times a second, left 13 MB of heap and
// more of the renderer's memory behind after a 60 s flood and its Clear
// (#17).
type rowText struct {
	widget.BaseWidget
	text       string
	importance widget.Importance
	// caption draws it at the caption size (the time); monospace in the
	// monospace face (the direction arrow); cut, where it does not fit,
	// ends it with "…" and asks for no more width than that.
	caption, monospace, cut bool
	txt                     *canvas.Text
	// drawn is the colour it was last drawn in: a row kept aside while
	// the theme changed is drawn again when it is next set, like badge
	drawn color.Color
}

func newRowText(s string) *rowText {
	t := &rowText{text: s, txt: canvas.NewText(s, nil)}
	t.ExtendBaseWidget(t)
	return t
}

// SetText shows s, unless it shows that already: a list row that shows
// the same event again is not laid out and drawn again.
func (t *rowText) SetText(s string) {
	if t.text == s {
		return
	}
	t.text = s
	t.Refresh()
}

// SetImportance colours it as a label of importance imp.
func (t *rowText) SetImportance(imp widget.Importance) {
	if t.importance == imp && t.drawn == t.color() {
		return
	}
	t.importance = imp
	t.Refresh()
}

func (t *rowText) color() color.Color {
	return t.Theme().Color(importanceColor(t.importance), fyne.CurrentApp().Settings().ThemeVariant())
}

func (t *rowText) size() float32 {
	if t.caption {
		return theme.CaptionTextSize()
	}
	return theme.TextSize()
}

// TextStyle is the style it is drawn in (the window's tests in cmd read the
// stderr lines by it).
func (t *rowText) TextStyle() fyne.TextStyle { return fyne.TextStyle{Monospace: t.monospace} }

func (t *rowText) measure(s string) float32 {
	return fyne.MeasureText(s, t.size(), t.TextStyle()).Width
}

// shown is the text as drawn at width w: whole, or cut at its end.
func (t *rowText) shown(w float32) string {
	room := w - 2*theme.InnerPadding()
	if !t.cut {
		return t.text
	}
	return headFit(t.text, room, t.measure)
}

// Text is the whole text it was given, however it is cut (the window's
// tests in cmd read rows by it).
func (t *rowText) Text() string { return t.text }

// Shown is the text as it is drawn now (tests read it).
func (t *rowText) Shown() string { return t.txt.Text }

// Resize implements fyne.Widget: the cut follows the width.
func (t *rowText) Resize(s fyne.Size) {
	changed := s != t.Size()
	t.BaseWidget.Resize(s)
	if changed {
		t.Refresh()
	}
}

// CreateRenderer implements fyne.Widget.
func (t *rowText) CreateRenderer() fyne.WidgetRenderer {
	r := &rowTextRenderer{t: t}
	r.Refresh()
	return r
}

type rowTextRenderer struct{ t *rowText }

func (r *rowTextRenderer) Destroy() {}

func (r *rowTextRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.txt} }

// MinSize is a label's: the text and the inner padding around it; "…"
// and the padding for a text that may be cut.
func (r *rowTextRenderer) MinSize() fyne.Size {
	t := r.t
	s := t.text
	if t.cut {
		s = "…"
	}
	pad := theme.InnerPadding()
	m := fyne.MeasureText(s, t.size(), t.TextStyle())
	h := fyne.MeasureText("M", t.size(), t.TextStyle()).Height
	return fyne.NewSize(m.Width+2*pad, h+2*pad)
}

func (r *rowTextRenderer) Layout(size fyne.Size) {
	pad := theme.InnerPadding()
	h := r.t.txt.MinSize().Height
	r.t.txt.Move(fyne.NewPos(pad, (size.Height-h)/2))
	r.t.txt.Resize(fyne.NewSize(max(size.Width-2*pad, 0), h))
}

// Refresh implements fyne.WidgetRenderer: the text as it fits, in the
// theme's colour of its importance, drawn in the same canvas.Text.
func (r *rowTextRenderer) Refresh() {
	t := r.t
	t.txt.Text = t.shown(t.Size().Width)
	t.txt.TextSize = t.size()
	t.txt.TextStyle = t.TextStyle()
	t.txt.Color = t.color()
	t.drawn = t.txt.Color
	r.Layout(t.Size())
	t.txt.Refresh()
}

// importanceColor is the colour a widget.Label of importance imp is
// drawn in.
func importanceColor(imp widget.Importance) fyne.ThemeColorName {
	switch imp {
	case widget.LowImportance:
		return theme.ColorNameDisabled
	case widget.HighImportance:
		return theme.ColorNamePrimary
	case widget.DangerImportance:
		return theme.ColorNameError
	case widget.WarningImportance:
		return theme.ColorNameWarning
	case widget.SuccessImportance:
		return theme.ColorNameSuccess
	}
	return theme.ColorNameForeground
}
