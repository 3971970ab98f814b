// Package ident shows an identifier — a tool's name, a resource's URI, a
// URL a server asks the user to open — on as many lines as its width
// needs, each ending after a separator (fit.IdentLines). The window
// (package ui) and the requests' panels (ui/requests) share it.
package ident

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/fit"
)

// Text is an identifier as a caption line that, when it does not fit,
// wraps only after a separator (a space, '_', '-', '.', '/', ':', '?',
// '&', '=', '#'): Fyne's word wrap breaks a word with no space in it
// wherever the width runs out, which cut "trigger-elicitation-request"
// into "…-reques" and "t", "file:///docs/architecture.md" into
// "…/documen" and "t/architecture.md", and a URL elicitation's
// "spyglass-demo/" into "spyglass-d" and "emo/". Only a part between two
// separators that is wider than the whole line still breaks by
// character. It asks for the width of its widest part, sixteen
// characters at most, so a long token never widens the pane it is in.
type Text struct {
	widget.BaseWidget
	text string
	// Heading shows it as a screen's heading (bold, sub-heading size)
	// instead of a caption, for a name that is the heading itself.
	Heading bool
	// Plain shows it at a label's size and place, for an identifier
	// that stands among labels (the URI under a resource's name).
	Plain bool
	// Monospace draws it in the monospace face (a template's expansion,
	// a URL).
	Monospace bool
	strong    string  // the part drawn in the primary colour (SetStrong)
	width     float32 // the width it was last given; 0 before its first layout
}

// New returns a Text that shows s.
func New(s string) *Text {
	t := &Text{text: s}
	t.ExtendBaseWidget(t)
	return t
}

// Identifier returns the whole name it shows, however it is wrapped (the
// window's tests find the form of a tool by its name).
func (t *Text) Identifier() string { return t.text }

// SetText shows s.
func (t *Text) SetText(s string) {
	t.text = s
	t.Refresh()
}

// SetStrong draws the first occurrence of part in the primary colour, on
// whichever lines it falls (a URL's host, to verify before opening it).
func (t *Text) SetStrong(part string) {
	t.strong = part
	t.Refresh()
}

// Resize implements fyne.Widget: the lines follow the width, so a new
// width can change the height it needs.
func (t *Text) Resize(s fyne.Size) {
	changed := s.Width != t.width
	t.width = s.Width
	t.BaseWidget.Resize(s)
	if changed {
		t.Refresh()
	}
}

func (t *Text) size() float32 {
	switch {
	case t.Heading:
		return theme.Size(theme.SizeNameSubHeadingText)
	case t.Plain:
		return theme.TextSize()
	}
	return theme.CaptionTextSize()
}

func (t *Text) style() fyne.TextStyle {
	return fyne.TextStyle{Bold: t.Heading, Monospace: t.Monospace}
}

// Measure is the width s takes in the Text's size and face.
func (t *Text) Measure(s string) float32 {
	return fyne.MeasureText(s, t.size(), t.style()).Width
}

// LineHeight is the height of one of its lines.
func (t *Text) LineHeight() float32 {
	return fyne.MeasureText("Mg", t.size(), t.style()).Height
}

// Lines is the text as it is broken at the width it was last given.
func (t *Text) Lines() []string {
	if t.width <= 0 {
		return []string{t.text} // not laid out yet
	}
	return fit.IdentLines(t.text, t.width-2*theme.InnerPadding(), t.Measure)
}

// CreateRenderer implements fyne.Widget.
func (t *Text) CreateRenderer() fyne.WidgetRenderer {
	r := &renderer{t: t}
	r.Refresh()
	return r
}

type renderer struct {
	t     *Text
	texts []*canvas.Text
	at    []fyne.Position // where each text starts
}

func (r *renderer) Destroy() {}

func (r *renderer) Objects() []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, len(r.texts))
	for i, x := range r.texts {
		out[i] = x
	}
	return out
}

// MinSize is the widest part's width (sixteen characters at most) and
// the lines' height at the width it was last given.
func (r *renderer) MinSize() fyne.Size {
	var w float32
	for _, c := range fit.IdentChunks(r.t.text) {
		w = max(w, r.t.Measure(c))
	}
	w = min(w, r.t.Measure(strings.Repeat("m", 16)))
	pad := theme.InnerPadding()
	return fyne.NewSize(w+2*pad, float32(len(r.t.Lines()))*r.t.LineHeight()+r.top()+pad/2)
}

// top is the room above the first line: a heading's, like a label's; a
// caption sits close under the heading it belongs to.
func (r *renderer) top() float32 {
	if r.t.Heading || r.t.Plain {
		return theme.InnerPadding()
	}
	return 0
}

func (r *renderer) Layout(fyne.Size) {
	for i, x := range r.texts {
		x.Move(r.at[i])
		x.Resize(fyne.NewSize(x.MinSize().Width, r.t.LineHeight()))
	}
}

// Refresh implements fyne.WidgetRenderer: a text for each line, or for
// each of a line's parts where the strong part begins or ends, in the
// theme's current colours.
func (r *renderer) Refresh() {
	t := r.t
	var lines []string
	if t.text != "" {
		lines = t.Lines()
	}
	hs, he := -1, -1
	if i := strings.Index(t.text, t.strong); t.strong != "" && i >= 0 {
		hs, he = i, i+len(t.strong)
	}
	th := t.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	pad, lh := theme.InnerPadding(), r.t.LineHeight()
	n := 0
	start := 0 // the line's offset in the text: the lines joined are the text
	for i, line := range lines {
		end := start + len(line)
		cuts := []int{start}
		for _, c := range []int{hs, he} {
			if c > start && c < end {
				cuts = append(cuts, c)
			}
		}
		cuts = append(cuts, end)
		x := pad
		for j := 0; j+1 < len(cuts); j++ {
			part := t.text[cuts[j]:cuts[j+1]]
			col := theme.ColorNameForeground
			if cuts[j] >= hs && cuts[j] < he {
				col = theme.ColorNamePrimary
			}
			if n == len(r.texts) {
				r.texts = append(r.texts, canvas.NewText("", nil))
				r.at = append(r.at, fyne.Position{})
			}
			tx := r.texts[n]
			tx.Text, tx.TextSize, tx.TextStyle, tx.Color = part, t.size(), t.style(), th.Color(col, v)
			tx.Refresh()
			r.at[n] = fyne.NewPos(x, r.top()+float32(i)*lh)
			x += t.Measure(part)
			n++
		}
		start = end
	}
	r.texts, r.at = r.texts[:n], r.at[:n]
	r.Layout(t.Size())
	canvas.Refresh(t)
}
