package ui

import (
	"fmt"
	"image/color"
	"strings"
	"unicode/utf8"
	"unsafe"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// Huge payloads (issue #17): a text beyond bigText is not laid out whole
// (a wrapped label or markdown of megabytes takes the UI thread for
// seconds, and a 50 MB one never comes back); it is shown a page at a
// time in a virtualized list of rows.
const (
	// bigText is the size from which a text is shown paged.
	bigText = 64 << 10
	// textPage is how much of a paged text shows at first; each Load more
	// adds morePage.
	textPage = 64 << 10
	morePage = 256 << 10
	// pagedRows is how many rows a paged text's list is tall.
	pagedRows = 16
)

// pagedText shows a long text in a list of rows (a line, or a window-wide
// slice of a long line, cut to the width the list has), the first
// textPage bytes at first and morePage more with each Load more. It keeps
// only the text (not copied) and the rows' offsets; a text decoded on
// demand (newPagedContent) only the head shown so far.
type pagedText struct {
	text  string // the text, or its head decoded so far (head)
	total int    // the text's length
	head  func(n int) string
	all   func() string
	shown int   // bytes of text the rows cover
	rows  []int // where each row starts in text
	cols  int   // bytes per row (the list's width in monospace cells)
	list  *widget.List
	more  *widget.Button
	note  *widget.Label
	foot  *fyne.Container // the note, Load more and Copy all
	high  *canvas.Rectangle
	obj   fyne.CanvasObject
	// OnMore, if set, runs after Load more (for tests).
	onMore func()
	bare   bool // compact: no footer once everything is shown
}

// newPagedText shows text (not copied: a string shares its bytes).
func newPagedText(text string) *pagedText {
	return newPaged(&pagedText{text: text, total: len(text), all: func() string { return text }})
}

// newPagedContent shows a content block's text, decoding only the head it
// shows (a 50 MB text the session left undecoded stays so until Copy all).
func newPagedContent(c Content) *pagedText {
	return newPaged(&pagedText{total: c.TextLen(), head: c.TextHead, all: c.FullText})
}

func newPaged(p *pagedText) *pagedText {
	p.cols = 80
	p.list = widget.NewList(
		func() int { return len(p.rows) },
		func() fyne.CanvasObject {
			// canvas text, not a label: a label's padding spaced the rows
			// apart like paragraphs; the gutter marks a row that goes on
			// with the line above (a wrap, not a newline of the text)
			mark := canvas.NewText("", theme.Color(theme.ColorNameDisabled))
			mark.TextStyle = fyne.TextStyle{Monospace: true}
			t := canvas.NewText("", theme.Color(theme.ColorNameForeground))
			t.TextStyle = fyne.TextStyle{Monospace: true}
			return container.New(layout.NewCustomPaddedLayout(1, 1, theme.InnerPadding(), theme.InnerPadding()),
				container.New(gutterRow{}, mark, t))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			r := o.(*fyne.Container).Objects[0].(*fyne.Container)
			mark, t := r.Objects[0].(*canvas.Text), r.Objects[1].(*canvas.Text)
			mark.Text = ""
			if p.wraps(i) {
				mark.Text = wrapMark
			}
			mark.Color = theme.Color(theme.ColorNameDisabled)
			mark.TextSize = theme.TextSize()
			mark.Refresh()
			t.Text = p.row(i)
			t.Color = theme.Color(theme.ColorNameForeground)
			t.TextSize = theme.TextSize()
			t.Refresh()
		})
	p.list.HideSeparators = true
	p.note = widget.NewLabel("")
	p.note.SizeName = theme.SizeNameCaptionText
	p.note.Wrapping = fyne.TextWrapWord
	p.more = widget.NewButtonWithIcon("Load more", theme.MoreVerticalIcon(), p.onLoadMore)
	p.more.Importance = widget.LowImportance
	cp := copyButton("Copy all", func() string { return p.all() })
	p.high = canvas.NewRectangle(color.Transparent)
	p.high.SetMinSize(fyne.NewSize(120, pagedRows*rowHeight()))
	body := container.New(&pagedLayout{p: p}, p.high, p.list)
	// the note on a line of its own: in the row of buttons a wrapping
	// label was squeezed to a letter's width
	p.foot = container.NewVBox(p.note, wrapRow(p.more, cp))
	p.obj = container.NewBorder(nil, p.foot, nil, nil, body)
	p.extend(textPage)
	return p
}

// wrapMark is drawn in the gutter of a row that goes on with the line
// above: the text has no newline there.
const wrapMark = "↪"

// gutterRow lays out a row's gutter mark (one monospace cell and a
// space) and its text after it.
type gutterRow struct{}

// gutterWidth is the room of the gutter: two monospace cells.
func gutterWidth() float32 {
	return 2 * fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true}).Width
}

// Layout implements fyne.Layout.
func (gutterRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	g := gutterWidth()
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(g, size.Height))
	objs[1].Move(fyne.NewPos(g, 0))
	objs[1].Resize(fyne.NewSize(max(size.Width-g, 0), size.Height))
}

// MinSize implements fyne.Layout: the text's height, no width (the
// rows are cut to the list's width).
func (gutterRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(gutterWidth(), objs[1].MinSize().Height)
}

// compact makes the view as small as a pane's: it asks for rows rows of
// height, and when the whole text is shown its note and Copy all are
// left out (the pane has its own Copy).
func (p *pagedText) compact(rows int) {
	p.high.SetMinSize(fyne.NewSize(120, float32(rows)*rowHeight()))
	p.bare = true
	setVisible(p.foot, p.shown < p.total)
}

// rowHeight is the height of one row.
func rowHeight() float32 {
	return fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true}).Height + 2
}

// row is the text of row i, newlines and invalid UTF-8 made visible.
func (p *pagedText) row(i int) string {
	if i >= len(p.rows) {
		return ""
	}
	end := p.shown
	if i+1 < len(p.rows) {
		end = p.rows[i+1]
	}
	s := strings.TrimSuffix(p.text[p.rows[i]:end], "\n")
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\t", "    "), "\uFFFD")
}

// wraps reports whether row i goes on with the line of the row above (no
// newline ends that row).
func (p *pagedText) wraps(i int) bool {
	return i > 0 && i < len(p.rows) && p.text[p.rows[i]-1] != '\n'
}

// extend shows the text up to about n bytes (at a rune's start).
func (p *pagedText) extend(n int) {
	n = min(n, p.total)
	if p.head != nil && n > len(p.text) {
		p.text = p.head(n)
	}
	n = min(n, len(p.text))
	for n < len(p.text) && !utf8.RuneStart(p.text[n]) {
		n++
	}
	p.shown = n
	p.index()
	if p.shown < p.total {
		p.note.SetText(fmt.Sprintf("Showing the first %s of %s.", sizeText(p.shown), sizeText(p.total)))
		p.more.Show()
	} else {
		p.note.SetText(sizeText(p.total) + ", all shown.")
		p.more.Hide()
		if p.bare {
			p.foot.Hide()
		}
	}
	p.list.Refresh()
}

// index cuts text[:shown] into rows of at most cols bytes, at newlines.
func (p *pagedText) index() {
	p.rows = p.rows[:0]
	for at := 0; at < p.shown; {
		p.rows = append(p.rows, at)
		end := min(at+p.cols, p.shown)
		if nl := strings.IndexByte(p.text[at:min(end+1, p.shown)], '\n'); nl >= 0 {
			at += nl + 1
			continue
		}
		if end < p.shown {
			// at a space or JSON's punctuation in the row's second half,
			// so words, keys and numbers stay whole ("tools" read "too"
			// and "ls" in a compact message); a token longer than that
			// (base64) is cut at the width, its rows marked as going on
			end = at + wrapAt(p.text[at:end+1], p.cols)
		}
		for end < p.shown && end > at+1 && !utf8.RuneStart(p.text[end]) {
			end--
		}
		at = end
	}
}

// wrapAt is where a row of at most cols bytes ends in s (s holds the row
// and the byte after it): after the last space, ',', '{' or '[', after a
// ':' that a JSON value follows (not the one of "demo://"), or before a
// '}' or ']', in the row's second half; else at cols.
func wrapAt(s string, cols int) int {
	for i := min(cols, len(s)-1); i >= cols/2 && i > 0; i-- {
		switch s[i-1] {
		case ' ', ',', '{', '[':
			return i
		case ':':
			if strings.IndexByte(`"{[-0123456789tfn`, s[i]) >= 0 {
				return i
			}
		}
		if s[i] == '}' || s[i] == ']' {
			return i
		}
	}
	return min(cols, len(s))
}

func (p *pagedText) onLoadMore() {
	p.extend(p.shown + morePage)
	if p.onMore != nil {
		p.onMore()
	}
}

// pagedLayout sizes the list and re-cuts the rows when the width in
// monospace cells changes.
type pagedLayout struct{ p *pagedText }

// Layout implements fyne.Layout.
func (l *pagedLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	cell := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true}).Width
	cols := int((size.Width - 2*theme.InnerPadding() - gutterWidth() - theme.ScrollBarSize()) / cell)
	if cols < 20 {
		cols = 20
	}
	if cols != l.p.cols {
		l.p.cols = cols
		l.p.index()
		l.p.list.Refresh()
	}
}

// MinSize implements fyne.Layout.
func (l *pagedLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[0].MinSize()
}

// bytesText is b as a string without a copy. Only for bytes that are
// never modified afterwards: a received message (the log keeps it).
func bytesText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// resultContentView is a tool result's content block: contentView, or
// for a text beyond bigText its first page with Load more.
func (ss *serverScreens) resultContentView(c Content) fyne.CanvasObject {
	if c.Type == "resource" {
		return ss.resourceView(c, embeddedLabel(c))
	}
	if c.TextLen() <= bigText || c.Data != nil {
		return ss.contentView(c)
	}
	return newPagedContent(c).obj
}

// readContentView is one item of a resources/read result: the resource
// itself, named by its URI and MIME type (not "Embedded resource": it
// is embedded in nothing), its text a page at a time beyond bigText.
func (ss *serverScreens) readContentView(c Content) fyne.CanvasObject {
	return ss.resourceView(c, readLabel(c))
}

// showRawJSON shows a result's JSON in a dialog, in the monospace text
// style as raw bytes are everywhere: indented when small, a page at a
// time as sent when beyond bigText (indenting 50 MB would take the UI
// thread and another 50 MB).
func showRawJSON(title string, raw []byte, w fyne.Window) {
	if len(raw) <= bigText {
		showStyledTextDialog(title, prettyJSON(raw), fyne.TextStyle{Monospace: true}, w)
		return
	}
	p := newPagedText(bytesText(raw))
	d := esc.NewCustom(title, "Close", p.obj, w)
	d.Resize(fyne.NewSize(720, 480))
	esc.Show(d, w)
}
