package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// identText is an identifier (a tool's name, a resource's URI) as a
// caption line that, when it does not fit, wraps only after a separator
// (a space, '_', '-', '.', '/', ':', '?', '&', '=', '#'): Fyne's word wrap breaks
// a word with no space in it wherever the width runs out, which cut
// "trigger-elicitation-request" into "…-reques" and "t", and
// "file:///docs/architecture.md" into "…/documen" and
// "t/architecture.md". Only a part between two separators that is wider
// than the whole line still breaks by character.
type identText struct {
	widget.BaseWidget
	text string
	// Heading shows it as a screen's heading (bold, sub-heading size)
	// instead of a caption, for a name that is the heading itself.
	Heading bool
	// Plain shows it at a label's size and place, for an identifier
	// that stands among labels (the URI under a resource's name).
	Plain bool
	// Monospace draws it in the monospace face (a template's expansion).
	Monospace bool
	width     float32 // the width it was last given; 0 before its first layout
}

// Identifier returns the whole name it shows, however it is wrapped (the
// window's tests find the form of a tool by its name).
func (t *identText) Identifier() string { return t.text }

func newIdentText(s string) *identText {
	t := &identText{text: s}
	t.ExtendBaseWidget(t)
	return t
}

// SetText shows s.
func (t *identText) SetText(s string) {
	t.text = s
	t.Refresh()
}

// Resize implements fyne.Widget: the lines follow the width, so a new
// width can change the height it needs.
func (t *identText) Resize(s fyne.Size) {
	changed := s.Width != t.width
	t.width = s.Width
	t.BaseWidget.Resize(s)
	if changed {
		t.Refresh()
	}
}

func (t *identText) size() float32 {
	switch {
	case t.Heading:
		return theme.Size(theme.SizeNameSubHeadingText)
	case t.Plain:
		return theme.TextSize()
	}
	return theme.CaptionTextSize()
}

func (t *identText) style() fyne.TextStyle {
	return fyne.TextStyle{Bold: t.Heading, Monospace: t.Monospace}
}

func (t *identText) measure(s string) float32 {
	return fyne.MeasureText(s, t.size(), t.style()).Width
}

// Lines is the text as it is broken at the width it was last given.
func (t *identText) Lines() []string {
	if t.width <= 0 {
		return []string{t.text} // not laid out yet
	}
	return identLines(t.text, t.width-2*theme.InnerPadding(), t.measure)
}

// identSeparators are the characters a line of an identText may end
// after.
const identSeparators = " _-./:?&=#"

// identChunks splits s after each of identSeparators; the chunks joined
// are s.
func identChunks(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if strings.ContainsRune(identSeparators, r) {
			out = append(out, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// identLines puts s's chunks on lines at most width wide (width 0 or
// less: one chunk a line); a chunk wider than width alone is broken by
// character.
func identLines(s string, width float32, measure func(string) float32) []string {
	var lines []string
	cur := ""
	for _, c := range identChunks(s) {
		switch {
		case cur != "" && (width <= 0 || measure(cur+c) > width):
			lines = append(lines, cur)
			cur = c
		default:
			cur += c
		}
		for width > 0 && measure(cur) > width && len([]rune(cur)) > 1 {
			rs := []rune(cur)
			n := len(rs) - 1
			for n > 1 && measure(string(rs[:n])) > width {
				n--
			}
			lines = append(lines, string(rs[:n]))
			cur = string(rs[n:])
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// CreateRenderer implements fyne.Widget.
func (t *identText) CreateRenderer() fyne.WidgetRenderer {
	r := &identRenderer{t: t}
	r.Refresh()
	return r
}

type identRenderer struct {
	t     *identText
	texts []*canvas.Text
}

func (r *identRenderer) Destroy() {}

func (r *identRenderer) Objects() []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, len(r.texts))
	for i, x := range r.texts {
		out[i] = x
	}
	return out
}

func (r *identRenderer) lineHeight() float32 {
	return fyne.MeasureText("Mg", r.t.size(), r.t.style()).Height
}

// MinSize is the widest chunk's width and the lines' height at the
// width it was last given.
func (r *identRenderer) MinSize() fyne.Size {
	var w float32
	for _, c := range identChunks(r.t.text) {
		w = fyne.Max(w, r.t.measure(c))
	}
	pad := theme.InnerPadding()
	return fyne.NewSize(w+2*pad, float32(len(r.t.Lines()))*r.lineHeight()+r.top()+pad/2)
}

// top is the room above the first line: a heading's, like a label's; a
// caption sits close under the heading it belongs to.
func (r *identRenderer) top() float32 {
	if r.t.Heading || r.t.Plain {
		return theme.InnerPadding()
	}
	return 0
}

func (r *identRenderer) Layout(fyne.Size) {
	pad, h := theme.InnerPadding(), r.lineHeight()
	for i, x := range r.texts {
		x.Move(fyne.NewPos(pad, r.top()+float32(i)*h))
		x.Resize(fyne.NewSize(x.MinSize().Width, h))
	}
}

// Refresh implements fyne.WidgetRenderer: one text a line, in the
// theme's current colour.
func (r *identRenderer) Refresh() {
	lines := r.t.Lines()
	if r.t.text == "" {
		lines = nil
	}
	for len(r.texts) < len(lines) {
		r.texts = append(r.texts, canvas.NewText("", nil))
	}
	r.texts = r.texts[:len(lines)]
	th := r.t.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	for i, x := range r.texts {
		x.Text = lines[i]
		x.TextSize = r.t.size()
		x.TextStyle = r.t.style()
		x.Color = th.Color(theme.ColorNameForeground, v)
		x.Refresh()
	}
	r.Layout(r.t.Size())
	canvas.Refresh(r.t)
}
