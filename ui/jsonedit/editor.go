package jsonedit

import (
	"image/color"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// Editor is a JSON text editor: an Entry for typing (caret, selection,
// Ctrl+C/V/X/A, Ctrl+Z, mouse) whose text is drawn in colour by a layer
// above it, with the position of a syntax error marked (SetProblem). Tab
// inserts two spaces and Enter keeps the line's indent (two more after
// an opening { or [). It scrolls both ways and never wraps.
type Editor struct {
	widget.BaseWidget

	// Entry holds the text: read Entry.Text, call Entry.SetText, set
	// Entry.OnChanged as with any Entry.
	Entry *Entry

	layer   *layer
	content *fyne.Container
	scroll  *container.Scroll
	rows    int

	probLine, probCol int // 1-based; 0 when there is no problem

	wheel *wheel
	// PassWheel, when set, gets the mouse wheel the editor cannot use
	// (scrolled to its end, or nothing to scroll). Left nil, that wheel
	// goes to the esc.NewVScroll the editor sits in.
	PassWheel func(*fyne.ScrollEvent)

	// MarkSyntax makes the editor mark where its text stops being JSON
	// (Locate) by itself as it changes; leave it off to call SetProblem
	// with the position of a message of your own.
	MarkSyntax bool
	checked    string // the text MarkSyntax last looked at
}

// Entry is the editor's input: a multi-line widget.Entry whose Tab and
// Enter keys indent.
type Entry struct {
	widget.Entry
	ed *Editor
}

// New returns an empty editor that shows six rows.
func New() *Editor {
	ed := &Editor{rows: 6}
	en := &Entry{ed: ed}
	en.MultiLine = true
	en.Wrapping = fyne.TextWrapOff
	en.Scroll = container.ScrollNone
	en.TextStyle = fyne.TextStyle{Monospace: true}
	en.ExtendBaseWidget(en)
	en.OnCursorChanged = ed.followCaret
	ed.Entry = en
	ed.layer = &layer{ed: ed}
	ed.layer.ExtendBaseWidget(ed.layer)
	var input fyne.CanvasObject = en
	if hideEntryText {
		input = container.NewThemeOverride(en, hiddenText{})
	}
	ed.content = container.NewStack(input, ed.layer)
	ed.scroll = container.NewScroll(ed.content)
	ed.scroll.OnScrolled = func(fyne.Position) { ed.layer.Refresh() }
	ed.wheel = &wheel{ed: ed}
	ed.wheel.ExtendBaseWidget(ed.wheel)
	ed.ExtendBaseWidget(ed)
	return ed
}

// SetText replaces the text (and clears the undo history).
func (ed *Editor) SetText(s string) { ed.Entry.SetText(s) }

// Text is the editor's text.
func (ed *Editor) Text() string { return ed.Entry.Text }

// SetPlaceHolder sets the text shown while the editor is empty.
func (ed *Editor) SetPlaceHolder(s string) { ed.Entry.SetPlaceHolder(s) }

// SetMinRowsVisible makes the editor at least n rows high.
func (ed *Editor) SetMinRowsVisible(n int) {
	ed.rows = n
	ed.Refresh()
}

// SetProblem marks line:column (1-based; column in characters) as where
// the text stops being JSON; 0, 0 removes the mark.
func (ed *Editor) SetProblem(line, col int) {
	if ed.probLine == line && ed.probCol == col {
		return
	}
	ed.probLine, ed.probCol = line, col
	ed.layer.Refresh()
}

// Problem is the marked position (0, 0 when none).
func (ed *Editor) Problem() (line, col int) { return ed.probLine, ed.probCol }

// Offset is how far the editor is scrolled.
func (ed *Editor) Offset() fyne.Position { return ed.scroll.Offset }

// CreateRenderer implements fyne.Widget.
func (ed *Editor) CreateRenderer() fyne.WidgetRenderer {
	return &editorRenderer{ed: ed}
}

type editorRenderer struct{ ed *Editor }

func (r *editorRenderer) Layout(s fyne.Size) {
	r.ed.scroll.Resize(s)
	r.ed.wheel.Resize(s)
	r.ed.layer.Refresh() // the rows and columns in view changed
}
func (r *editorRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.ed.scroll, r.ed.wheel}
}
func (r *editorRenderer) Destroy() {}
func (r *editorRenderer) Refresh() { r.ed.scroll.Refresh() }

func (r *editorRenderer) MinSize() fyne.Size {
	m := metricsOf(r.ed.Theme())
	return fyne.NewSize(m.cell.Width*24+2*m.pad, m.cell.Height*float32(r.ed.rows)+2*m.pad)
}

// metrics are the sizes the Entry lays its text out with.
type metrics struct {
	cell fyne.Size // one monospace character
	pad  float32   // from the Entry's edge to its first character
	size float32   // text size
}

func metricsOf(th fyne.Theme) metrics {
	size := th.Size(theme.SizeNameText)
	return metrics{
		cell: fyne.MeasureText("M", size, fyne.TextStyle{Monospace: true}),
		pad:  th.Size(theme.SizeNameInnerPadding),
		size: size,
	}
}

// x is where the character at byte offset i of line starts.
func (m metrics) x(line string, i int) float32 {
	prefix := line[:i]
	for j := 0; j < len(prefix); j++ {
		if prefix[j] >= utf8.RuneSelf || prefix[j] == '\t' {
			return m.pad + fyne.MeasureText(prefix, m.size, fyne.TextStyle{Monospace: true}).Width
		}
	}
	return m.pad + float32(i)*m.cell.Width
}

// followCaret scrolls the caret into view.
func (ed *Editor) followCaret() {
	if ed.scroll == nil {
		return // still being built
	}
	m := metricsOf(ed.Theme())
	lines := strings.Split(ed.Entry.Text, "\n")
	row := min(ed.Entry.CursorRow, len(lines)-1)
	line := lines[row]
	x := m.x(line, byteOffset(line, ed.Entry.CursorColumn))
	y := m.pad + float32(row)*m.cell.Height
	view := ed.scroll.Size()
	if view.IsZero() {
		return
	}
	ed.content.Resize(ed.content.MinSize().Max(view))
	off := ed.scroll.Offset
	switch {
	case y-m.pad < off.Y:
		off.Y = max(0, y-m.pad)
	case y+m.cell.Height+m.pad > off.Y+view.Height:
		off.Y = y + m.cell.Height + m.pad - view.Height
	}
	switch {
	case x-m.pad < off.X:
		off.X = max(0, x-m.pad)
	case x+m.cell.Width+m.pad > off.X+view.Width:
		off.X = x + m.cell.Width + m.pad - view.Width
	}
	if off != ed.scroll.Offset {
		ed.scroll.ScrollToOffset(off)
		ed.layer.Refresh()
	}
}

// byteOffset is the byte offset of rune column col in line (clamped).
func byteOffset(line string, col int) int {
	i := 0
	for n := 0; n < col && i < len(line); n++ {
		_, w := utf8.DecodeRuneInString(line[i:])
		i += w
	}
	return i
}

// TypedKey implements fyne.Focusable: Tab inserts two spaces, Enter
// keeps the indent, Esc cancels the dialog the editor is in.
func (e *Entry) TypedKey(k *fyne.KeyEvent) {
	if esc.PassEsc(e, k) { // Esc cancels the dialog the editor is in
		return
	}
	switch k.Name {
	case fyne.KeyTab:
		e.TypedRune(' ')
		e.TypedRune(' ')
		return
	case fyne.KeyReturn, fyne.KeyEnter:
		indent := e.indent()
		e.Entry.TypedKey(k)
		for _, r := range indent {
			e.TypedRune(r)
		}
		return
	}
	e.Entry.TypedKey(k)
}

// indent is the indent a new line typed at the caret gets: the current
// line's, two spaces more after an opening brace or bracket.
func (e *Entry) indent() string {
	lines := strings.Split(e.Text, "\n")
	if e.CursorRow >= len(lines) {
		return ""
	}
	line := lines[e.CursorRow]
	before := line[:byteOffset(line, e.CursorColumn)]
	lead := before[:len(before)-len(strings.TrimLeft(before, " \t"))]
	if t := strings.TrimRight(before, " \t"); strings.HasSuffix(t, "{") || strings.HasSuffix(t, "[") {
		lead += "  "
	}
	return lead
}

// CreateRenderer implements fyne.Widget: the Entry's own renderer, which
// also redraws the colour layer whenever the Entry redraws.
func (e *Entry) CreateRenderer() fyne.WidgetRenderer {
	return &hookRenderer{WidgetRenderer: e.Entry.CreateRenderer(), after: func() {
		if e.ed == nil {
			return
		}
		if e.ed.MarkSyntax && e.Text != e.ed.checked {
			e.ed.checked = e.Text
			line, col, _ := Locate(e.Text)
			e.ed.probLine, e.ed.probCol = line, col
		}
		e.ed.layer.Refresh()
	}}
}

type hookRenderer struct {
	fyne.WidgetRenderer
	after func()
}

func (r *hookRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.after()
}

// hideEntryText and monochrome are switched by the alignment test only.
var hideEntryText, monochrome = true, false

// hiddenText is the app's theme with the foreground transparent: the
// Entry's own text is not drawn (the layer draws it in colour); caret,
// selection, placeholder and border keep their colours.
type hiddenText struct{}

func (hiddenText) current() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}

func (h hiddenText) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameForeground {
		return color.Transparent
	}
	return h.current().Color(n, v)
}
func (h hiddenText) Font(s fyne.TextStyle) fyne.Resource     { return h.current().Font(s) }
func (h hiddenText) Icon(n fyne.ThemeIconName) fyne.Resource { return h.current().Icon(n) }
func (h hiddenText) Size(n fyne.ThemeSizeName) float32       { return h.current().Size(n) }

// layer draws the text of the rows in view in colour, and the problem mark.
type layer struct {
	widget.BaseWidget
	ed *Editor
}

func (l *layer) CreateRenderer() fyne.WidgetRenderer {
	r := &layerRenderer{l: l, mark: canvas.NewRectangle(color.Transparent), under: canvas.NewRectangle(color.Transparent)}
	r.Refresh()
	return r
}

type layerRenderer struct {
	l           *layer
	texts       []*canvas.Text
	used        int
	mark, under *canvas.Rectangle
	objs        []fyne.CanvasObject
}

func (r *layerRenderer) Layout(fyne.Size)             {}
func (r *layerRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *layerRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *layerRenderer) Destroy()                     {}

func (r *layerRenderer) Refresh() {
	ed := r.l.ed
	if ed.scroll == nil {
		return // still being built
	}
	th := r.l.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	m := metricsOf(th)
	r.used = 0
	r.objs = r.objs[:0]
	if ed.Entry.Disabled() {
		return // the Entry draws disabled text itself
	}
	lines := strings.Split(ed.Entry.Text, "\n")
	off, view := ed.scroll.Offset, ed.scroll.Size()
	if view.IsZero() {
		view = ed.MinSize()
	}
	first := max(0, int((off.Y-m.pad)/m.cell.Height)-1)
	last := min(len(lines)-1, int((off.Y+view.Height-m.pad)/m.cell.Height)+1)
	for row := first; row <= last; row++ {
		line := lines[row]
		y := m.pad + float32(row)*m.cell.Height
		for _, tok := range Line(line) {
			if tok.Kind == Space {
				continue
			}
			x := m.x(line, tok.Start)
			if x > off.X+view.Width {
				break
			}
			t := r.text()
			t.Text = line[tok.Start:tok.End]
			t.Color = TokenColor(th, tok.Kind, v)
			if monochrome {
				t.Color = th.Color(theme.ColorNameForeground, v)
			}
			t.TextSize = m.size
			t.Move(fyne.NewPos(x, y))
			t.Resize(t.MinSize())
			t.Refresh()
		}
	}
	for _, t := range r.texts[:r.used] {
		r.objs = append(r.objs, t)
	}
	r.mark.Hide()
	r.under.Hide()
	if ed.probLine > 0 && ed.probLine <= len(lines) {
		line := lines[ed.probLine-1]
		i := byteOffset(line, ed.probCol-1)
		x := m.x(line, i)
		w := m.cell.Width
		if i < len(line) {
			_, n := utf8.DecodeRuneInString(line[i:])
			w = max(w, m.x(line, i+n)-x)
		}
		y := m.pad + float32(ed.probLine-1)*m.cell.Height
		errc := th.Color(theme.ColorNameError, v)
		cr, cg, cb, _ := errc.RGBA()
		r.mark.FillColor = color.NRGBA{R: uint8(cr >> 8), G: uint8(cg >> 8), B: uint8(cb >> 8), A: 0x40}
		r.mark.Move(fyne.NewPos(x, y))
		r.mark.Resize(fyne.NewSize(w, m.cell.Height))
		r.under.FillColor = errc
		r.under.Move(fyne.NewPos(x, y+m.cell.Height-2))
		r.under.Resize(fyne.NewSize(w, 2))
		r.mark.Show()
		r.under.Show()
		// the mark goes under the text so the character stays readable
		r.objs = append([]fyne.CanvasObject{r.mark, r.under}, r.objs...)
	}
	canvas.Refresh(r.l)
}

// text hands out the next text object of the pool.
func (r *layerRenderer) text() *canvas.Text {
	if r.used == len(r.texts) {
		t := canvas.NewText("", color.Black)
		t.TextStyle = fyne.TextStyle{Monospace: true}
		r.texts = append(r.texts, t)
	}
	t := r.texts[r.used]
	r.used++
	return t
}

// wheel lies over the editor and takes the mouse wheel: the editor's own
// scroll first, then PassWheel. It is neither tappable nor hoverable, so
// clicks, drags and the text cursor reach the Entry.
type wheel struct {
	widget.BaseWidget
	ed *Editor
}

func (w *wheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// Scrolled implements fyne.Scrollable: the editor scrolls while it can,
// and the rest goes to PassWheel, else to the esc.NewVScroll the editor
// sits in (a form's JSON mode), so the page scrolls on under the pointer.
// An up-down wheel scrolls the editor up and down only: Fyne's Scroll
// turns it sideways when the text fits in height, which would keep the
// wheel in an editor of a few long lines.
func (w *wheel) Scrolled(ev *fyne.ScrollEvent) {
	s := w.ed.scroll
	before := s.Offset
	upDown := ev.Scrolled.DX == 0
	if !upDown || s.Content.MinSize().Height > s.Size().Height {
		s.Scrolled(ev)
	}
	if s.Offset != before {
		return
	}
	if w.ed.PassWheel != nil {
		w.ed.PassWheel(ev)
		return
	}
	esc.ScrollEnclosing(w.ed, ev)
}
