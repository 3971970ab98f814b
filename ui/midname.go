package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// middleName shows a name whole where it fits, else its head and its tail
// around "…" (server names differ at either end: filesystem-…-demo). With
// the pointer over a cut name, the name is drawn in the caption size in
// the same place (the row keeps its height), whole where that fits: a
// popup would swallow the click that selects the card.
type middleName struct {
	widget.BaseWidget
	label   *widget.Label
	full    string
	size    fyne.ThemeSizeName // the label's own size
	hovered bool
	height  float32 // the row's height at the label's own size
}

var _ desktop.Hoverable = (*middleName)(nil)

// newMiddleName fits label's text (its style and size kept) to the width
// it gets.
func newMiddleName(label *widget.Label) *middleName {
	label.Truncation = fyne.TextTruncateClip
	m := &middleName{label: label, full: label.Text, size: label.SizeName}
	m.ExtendBaseWidget(m)
	return m
}

// SetFull sets the whole name.
func (m *middleName) SetFull(s string) {
	if s == m.full {
		return
	}
	m.full = s
	m.fit(m.Size().Width)
}

// CreateRenderer implements fyne.Widget.
func (m *middleName) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.New(&middleLayout{m: m}, m.label))
}

// cut reports whether the name is shown shortened.
func (m *middleName) cut() bool { return m.label.Text != m.full }

func (m *middleName) measure(s string) float32 {
	size := theme.TextSize()
	if m.label.SizeName != "" {
		size = theme.Size(m.label.SizeName)
	}
	return fyne.MeasureText(s, size, m.label.TextStyle).Width
}

func (m *middleName) fit(width float32) {
	text := middleFit(m.full, width-2*theme.InnerPadding(), m.measure)
	if text != m.label.Text {
		m.label.SetText(text)
	}
}

// MouseIn implements desktop.Hoverable.
func (m *middleName) MouseIn(*desktop.MouseEvent) {
	if !m.cut() {
		return
	}
	m.hovered = true
	m.label.SizeName = theme.SizeNameCaptionText
	m.fit(m.Size().Width)
	m.label.Refresh()
}

// MouseMoved implements desktop.Hoverable.
func (m *middleName) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable.
func (m *middleName) MouseOut() {
	if !m.hovered {
		return
	}
	m.hovered = false
	m.label.SizeName = m.size
	m.fit(m.Size().Width)
	m.label.Refresh()
}

// middleLayout gives the label the whole width and fits the name to it.
type middleLayout struct{ m *middleName }

// MinSize implements fyne.Layout: room for a few characters and "…".
func (l *middleLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	if !l.m.hovered {
		l.m.height = l.m.label.MinSize().Height
	}
	return fyne.NewSize(l.m.measure("Mm…m")+2*theme.InnerPadding(), l.m.height)
}

// Layout implements fyne.Layout.
func (l *middleLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.m.fit(size.Width)
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// middleFit returns s, or the longest head and tail of s around "…" that
// measure at most width together (the head gets the extra rune).
func middleFit(s string, width float32, measure func(string) float32) string {
	if width <= 0 || measure(s) <= width {
		return s
	}
	r := []rune(s)
	cut := func(keep int) string {
		head := (keep + 1) / 2
		return string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
	}
	lo, hi := 0, len(r)-1 // the most runes to keep
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if measure(cut(mid)) <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return cut(lo)
}
