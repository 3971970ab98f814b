package ui

import (
	"bytes"
	"encoding/json"
	"image/color"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tidwall/gjson"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/fit"
)

// errorCut is where long errors are cut, with a "Show more" link.
const errorCut = 100

// truncate cuts s at n runes, adding an ellipsis when it did. It reads
// only as far as it cuts (a 50 MB string made into runes took 200 MB).
func truncate(s string, n int) (string, bool) {
	i := 0
	for at := range s {
		if i == n {
			return s[:at] + "…", true
		}
		i++
	}
	return s, false
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// colorFor returns the theme colour of a status level.
func colorFor(level string) color.Color {
	v := fyne.CurrentApp().Settings().ThemeVariant()
	th := fyne.CurrentApp().Settings().Theme()
	switch level {
	case "ok", "green":
		return th.Color(theme.ColorNameSuccess, v)
	case "error", "red":
		return th.Color(theme.ColorNameError, v)
	case "warning", "yellow":
		return th.Color(theme.ColorNameWarning, v)
	case "primary":
		return th.Color(theme.ColorNamePrimary, v)
	}
	return th.Color(theme.ColorNameDisabled, v)
}

// badge is a small rounded label with a coloured outline, used for outcome
// badges, annotations and capability flags.
type badge struct {
	widget.BaseWidget
	text  string
	level string
	// the colours it was last drawn in: a list row kept aside while the
	// theme changed is drawn again by Set, not only when its text changes
	drawnFg, drawnTone color.Color
}

func newBadge(text, level string) *badge {
	b := &badge{text: text, level: level}
	b.ExtendBaseWidget(b)
	return b
}

// Set changes the text and colour.
func (b *badge) Set(text, level string) {
	if b.text == text && b.level == level && b.drawnFg == theme.Color(theme.ColorNameForeground) && b.drawnTone == colorFor(level) {
		return
	}
	b.text, b.level = text, level
	b.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (b *badge) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(color.Transparent)
	bg.CornerRadius = 4
	bg.StrokeWidth = 1
	txt := canvas.NewText("", color.Black)
	txt.TextSize = theme.CaptionTextSize()
	r := &badgeRenderer{b: b, bg: bg, txt: txt}
	r.Refresh()
	return r
}

type badgeRenderer struct {
	b   *badge
	bg  *canvas.Rectangle
	txt *canvas.Text
}

// Destroy implements fyne.WidgetRenderer.
func (r *badgeRenderer) Destroy() {}

// Objects implements fyne.WidgetRenderer.
func (r *badgeRenderer) Objects() []fyne.CanvasObject {
	if r.b.text == "" {
		return nil
	}
	return []fyne.CanvasObject{r.bg, r.txt}
}

// MinSize implements fyne.WidgetRenderer.
func (r *badgeRenderer) MinSize() fyne.Size {
	if r.b.text == "" {
		return fyne.NewSize(0, 0)
	}
	s := r.txt.MinSize()
	return fyne.NewSize(s.Width+10, s.Height+4)
}

// Layout implements fyne.WidgetRenderer.
func (r *badgeRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	ts := r.txt.MinSize()
	r.txt.Move(fyne.NewPos((size.Width-ts.Width)/2, (size.Height-ts.Height)/2))
	r.txt.Resize(ts)
}

// Refresh implements fyne.WidgetRenderer.
func (r *badgeRenderer) Refresh() {
	c := colorFor(r.b.level)
	r.b.drawnFg, r.b.drawnTone = theme.Color(theme.ColorNameForeground), c
	r.bg.StrokeColor = c
	cr, cg, cb, _ := c.RGBA()
	r.bg.FillColor = color.NRGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 0x30}
	r.txt.Text = r.b.text
	r.txt.Color = theme.Color(theme.ColorNameForeground)
	r.txt.TextSize = theme.CaptionTextSize()
	r.bg.Refresh()
	r.txt.Refresh()
}

// statusDot is the coloured circle of a connection state; it pulses while
// connecting.
type statusDot struct {
	widget.BaseWidget
	circle *canvas.Circle
	anim   *fyne.Animation
	level  string
}

func newStatusDot() *statusDot {
	d := &statusDot{circle: canvas.NewCircle(colorFor("gray"))}
	d.ExtendBaseWidget(d)
	return d
}

// Set colours the dot; pulse animates it.
func (d *statusDot) Set(level string, pulse bool) {
	d.level = level
	if d.anim != nil {
		d.anim.Stop()
		d.anim = nil
	}
	base := colorFor(level)
	d.circle.FillColor = base
	if pulse {
		cr, cg, cb, _ := base.RGBA()
		d.anim = canvas.NewColorRGBAAnimation(
			color.NRGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 0xff},
			color.NRGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 0x40},
			700*1e6, func(c color.Color) {
				d.circle.FillColor = c
				d.circle.Refresh()
			})
		d.anim.AutoReverse = true
		d.anim.RepeatCount = fyne.AnimationRepeatForever
		d.anim.Start()
	}
	d.circle.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (d *statusDot) CreateRenderer() fyne.WidgetRenderer {
	return &dotRenderer{d: d}
}

type dotRenderer struct{ d *statusDot }

// Destroy implements fyne.WidgetRenderer.
func (r *dotRenderer) Destroy() {}

// Objects implements fyne.WidgetRenderer.
func (r *dotRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.d.circle} }

// MinSize implements fyne.WidgetRenderer.
func (r *dotRenderer) MinSize() fyne.Size { return fyne.NewSize(12, 12) }

// Refresh implements fyne.WidgetRenderer.
func (r *dotRenderer) Refresh() { r.d.circle.Refresh() }

// Layout implements fyne.WidgetRenderer.
func (r *dotRenderer) Layout(size fyne.Size) {
	s := fyne.Min(size.Width, size.Height)
	if s > 12 {
		s = 12
	}
	r.d.circle.Move(fyne.NewPos((size.Width-s)/2, (size.Height-s)/2))
	r.d.circle.Resize(fyne.NewSize(s, s))
}

// errorBox shows an error cut at about 100 characters with "Show more",
// which expands it in place.
type errorBox struct {
	full    string
	label   *widget.Label
	more    *widget.Button
	fullBtn *widget.Button    // "Show full error", once SetErr was used
	guide   *widget.Hyperlink // "Troubleshooting guide →", for an error with an anchor
	box     *fyne.Container
	open    bool
}

func newErrorBox() *errorBox {
	e := &errorBox{label: widget.NewLabel("")}
	e.label.Wrapping = fyne.TextWrapWord
	e.label.Importance = widget.DangerImportance
	e.more = widget.NewButton("Show more", e.onToggle)
	e.more.Importance = widget.LowImportance
	e.box = container.NewVBox(e.label, wrapRow(e.more)) // Show full error and the guide's link wrap below
	e.box.Hide()
	return e
}

// Set shows msg ("" hides the box).
func (e *errorBox) Set(msg string) {
	e.full = msg
	e.open = false
	if e.fullBtn != nil {
		e.fullBtn.Hide()
	}
	if e.guide != nil {
		e.guide.Hide()
	}
	if msg == "" {
		e.box.Hide()
		return
	}
	e.render()
	e.box.Show()
}

func (e *errorBox) render() {
	short, cut := truncate(strings.Join(strings.Fields(e.full), " "), errorCut)
	if e.open {
		e.label.SetText(e.full)
		e.more.SetText("Show less")
	} else {
		e.label.SetText(short)
		e.more.SetText("Show more")
	}
	if cut || e.open {
		e.more.Show()
	} else {
		e.more.Hide()
	}
}

func (e *errorBox) onToggle() {
	e.open = !e.open
	e.render()
}

// jsonNode is one node of a JSON document, as the wire had it. A
// container's children are built when it is first expanded (lazily: a
// 50 MB document costs the nodes a person opens, not a node per value).
type jsonNode struct {
	key      string // as shown: quoted when it is not a plain name
	text     string // a scalar's text, or "{n}" / "[n]" ("{…}" for a big one)
	raw      string // a container's bytes, a window on the document
	branch   bool   // a container with children
	built    bool   // children are built
	children []string
}

// jsonTree shows a JSON document as a tree in wire order (duplicate keys
// kept), built as it is expanded, or as its raw bytes (a page at a time
// beyond bigText), with Expand all (for documents up to bigText).
type jsonTree struct {
	tree  *widget.Tree
	nodes map[string]*jsonNode
	raw   []byte
	rawT  string // what the raw view shows, made into rows only while it is shown
	// paged is the raw view: the exact bytes in rows cut at the pane's
	// width at spaces and JSON's punctuation, a row that goes on with
	// the line above marked in its gutter (a label wrapped by character
	// and cut "tools" and "Bump counter" between letters); beyond bigText
	// a page at a time
	paged *pagedText
	rawBx *fyne.Container
	// rawChk switches to the raw bytes: one "Raw" toggle (as in
	// Firefox's network panel), ~64 px where a Tree/Raw radio pair took
	// ~137 and cut a narrow pane's side name to "Re…"; an esc.Check, as
	// the History's dialog shows the pair too
	rawChk *esc.Check
	// expand is Expand all; it is greyed while Raw is shown (it opens
	// the tree's branches), not hidden: a hidden one gave its room to
	// Raw and the side's name, so Raw moved under the cursor that ticked
	// it. expandIcon is its icon-only twin where a caller shows one (the
	// inspector's pane), greyed with it; nil otherwise.
	expand, expandIcon *widget.Button
	bar                *fyne.Container
	empty              *widget.Label
	// body is the tree, the raw view or the text, without the bar: for a
	// caller that puts rawChk and expand on a line of its own (the
	// inspector's pane). Laying out obj without its bar is not the same:
	// its Border still keeps the bar's row (a blank row over the tree).
	body *fyne.Container
	obj  fyne.CanvasObject
	// nsWords: the document is a record of Spyglass's own (a tool call
	// attempt's), whose members named …Ns are durations in nanoseconds:
	// the tree says them in words too (`durationNs: 1234567 (1.23 ms)`);
	// the raw view keeps the record's bytes.
	nsWords bool
}

// rawCut is how much of a payload that is not JSON is drawn as text.
const rawCut = 64 << 10

func newJSONTree() *jsonTree {
	j := &jsonTree{nodes: map[string]*jsonNode{}}
	j.tree = widget.NewTree(
		func(id widget.TreeNodeID) []widget.TreeNodeID { return j.childIDs(id) },
		func(id widget.TreeNodeID) bool {
			n := j.nodes[id]
			return n != nil && n.branch
		},
		func(bool) fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
			if n := j.nodes[id]; n != nil {
				o.(*widget.Label).SetText(n.label())
			}
		})
	j.rawBx = container.NewStack()
	j.rawBx.Hide()
	j.rawChk = esc.NewCheck("Raw", j.onRaw)
	j.expand = widget.NewButton("Expand all", j.tree.OpenAllBranches)
	j.expand.Importance = widget.LowImportance
	j.bar = wrapRow(j.rawChk, j.expand) // wraps in a narrow pane
	j.empty = widget.NewLabel("")
	j.empty.Wrapping = fyne.TextWrapWord
	j.empty.Hide()
	j.body = container.NewStack(j.tree, j.rawBx, j.empty)
	j.obj = container.NewBorder(j.bar, nil, nil, nil, j.body)
	return j
}

func (n *jsonNode) label() string {
	if n.key == "" {
		return n.text
	}
	return n.key + ": " + n.text
}

// showKey quotes a key unless it is a plain name, so that "a/b", "a.b",
// "" and " a" read as the keys they are.
func showKey(k string) string {
	if k == "" || strings.IndexFunc(k, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) >= 0 {
		return strconv.Quote(k)
	}
	return k
}

// onRaw switches between the tree (false) and the raw bytes (true).
func (j *jsonTree) onRaw(raw bool) {
	if len(j.nodes) == 0 {
		return // not JSON: the text is shown already
	}
	for _, b := range []*widget.Button{j.expand, j.expandIcon} {
		switch {
		case b == nil:
		case raw:
			b.Disable()
		default:
			b.Enable()
		}
	}
	// The rows are cut only while Raw is shown (a hidden view is laid
	// out all the same: the stack sizes every child).
	if raw {
		j.tree.Hide()
		if j.paged == nil {
			j.paged = newPagedText(j.rawT)
			j.paged.compact(2)
			j.rawBx.Objects = []fyne.CanvasObject{j.paged.obj}
		}
		j.rawBx.Show()
	} else {
		j.rawBx.Hide()
		if len(j.raw) <= bigText {
			j.paged = nil // made again when Raw is shown
			j.rawBx.Objects = nil
		}
		j.tree.Show()
	}
}

// SetJSON shows raw; invalid JSON is shown as text. A document beyond
// bigText is not copied (it must not change afterwards: a received
// message, which the log keeps) and is shown lazily.
func (j *jsonTree) SetJSON(raw []byte) {
	if len(raw) <= bigText {
		raw = append([]byte(nil), raw...)
	}
	j.raw = raw
	j.nodes = map[string]*jsonNode{}
	j.rawT = ""
	j.paged = nil
	j.rawBx.Objects = nil
	if len(bytes.TrimSpace(raw)) == 0 {
		j.setText("(no payload)")
		return
	}
	// A big document is not checked first: a pass of json.Valid over
	// 50 MB took 150 ms of the UI thread, and what is that big here was
	// parsed by core already (a message, a decoded result); gjson reads
	// bad JSON without failing, and the raw view shows it as it is.
	doc := bytesText(raw)
	root := gjson.Parse(doc)
	if len(raw) <= bigText && !json.Valid(raw) || !root.Exists() {
		s, _ := truncate(bytesText(raw[:min(len(raw), rawCut)]), 4000)
		j.setText(strings.ToValidUTF8(s, "\uFFFD"))
		return
	}
	if len(raw) <= bigText {
		j.rawT = strings.ToValidUTF8(doc, "\uFFFD")
	} else {
		j.paged = newPagedText(doc)
		j.paged.compact(2)
		j.rawBx.Objects = []fyne.CanvasObject{j.paged.obj}
	}
	j.nodes[""] = jsonValue("", root)
	j.empty.Hide()
	j.bar.Show()
	j.onRaw(j.rawChk.Checked)
	setVisible(j.expand, len(raw) <= bigText) // beyond, Expand all would build every node
	j.tree.Refresh()
	j.tree.OpenBranch("")
	// open the first two levels so the payload reads at a glance
	for _, c := range j.childIDs("") {
		j.tree.OpenBranch(c)
	}
}

// setText shows s instead of a tree (no payload, not JSON).
func (j *jsonTree) setText(s string) {
	j.empty.SetText(s)
	j.empty.Show()
	j.bar.Hide()
	j.tree.Hide()
	j.rawBx.Hide()
}

// childIDs returns the children of node id, building them the first time
// (ids by position: keys may hold "/" or repeat).
func (j *jsonTree) childIDs(id string) []string {
	n := j.nodes[id]
	if n == nil || !n.branch {
		return nil
	}
	if !n.built {
		n.built = true
		obj := strings.HasPrefix(strings.TrimLeft(n.raw, " \t\r\n"), "{")
		i := 0
		gjson.Result{Type: gjson.JSON, Raw: n.raw}.ForEach(func(k, v gjson.Result) bool {
			key := strconv.Itoa(i)
			if obj {
				key = showKey(k.Str)
			}
			cid := id + "/" + strconv.Itoa(i)
			c := jsonValue(key, v)
			if j.nsWords && obj && strings.HasSuffix(k.Str, "Ns") && v.Type == gjson.Number {
				if ns, err := strconv.ParseInt(v.Raw, 10, 64); err == nil {
					c.text += " (" + events.DurationWords(time.Duration(ns)) + ")"
				}
			}
			j.nodes[cid] = c
			n.children = append(n.children, cid)
			i++
			return true
		})
	}
	return n.children
}

// jsonValue is the node of one value (its children not yet built).
func jsonValue(key string, v gjson.Result) *jsonNode {
	n := &jsonNode{key: key}
	switch v.Type {
	case gjson.JSON:
		open, close := "[", "]"
		if strings.HasPrefix(v.Raw, "{") {
			open, close = "{", "}"
		}
		n.raw = v.Raw
		if len(v.Raw) > bigText {
			n.text, n.branch = open+"…"+close+" "+sizeText(len(v.Raw)), true
			break
		}
		count := 0
		v.ForEach(func(_, _ gjson.Result) bool { count++; return true })
		n.text, n.branch = open+strconv.Itoa(count)+close, count > 0
	case gjson.String:
		s, _ := truncate(v.Str, 300)
		n.text = strconv.Quote(strings.ReplaceAll(s, "\n", "⏎"))
	case gjson.Null:
		n.text = "null"
	default: // numbers keep their text, true, false
		n.text = v.Raw
	}
	return n
}

// prettyJSON indents raw for display; invalid JSON is returned as is.
func prettyJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// copyButton copies text() to the clipboard and says so with a check
// mark in place of its icon, as wide as before: its word turning into
// "Copied" widened it, which moved it and its row's other controls
// under the cursor (the inspector's Raw beside it) and took room from
// the row's name.
func copyButton(label string, text func() string) *widget.Button {
	var b *widget.Button
	b = widget.NewButtonWithIcon(label, theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(text())
		b.SetIcon(theme.ConfirmIcon())
	})
	b.Importance = widget.LowImportance
	return b
}

// showTextDialog shows a long text (a full error, a raw payload) in a
// scrollable, selectable dialog. Its entry and buttons are esc's, so Esc
// closes it whichever has the focus.
func showTextDialog(title, text string, w fyne.Window) {
	showStyledTextDialog(title, text, fyne.TextStyle{}, w)
}

// showStyledTextDialog is showTextDialog with the text in style (raw
// bytes are Monospace).
func showStyledTextDialog(title, text string, style fyne.TextStyle, w fyne.Window) {
	e := esc.NewMultiLineEntry()
	e.TextStyle = style
	e.SetText(text)
	e.Wrapping = fyne.TextWrapWord
	var copyBtn *esc.Button
	copyBtn = esc.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(text)
		copyBtn.SetText("Copied")
	})
	copyBtn.Importance = widget.LowImportance
	d := esc.NewCustom(title, "Close", container.NewBorder(nil, container.NewHBox(copyBtn), nil, nil, e), w)
	d.Resize(fyne.NewSize(640, 420))
	esc.Show(d, w)
}

// heading is a bold label.
func heading(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.TextStyle = fyne.TextStyle{Bold: true}
	return l
}

// wrapLabel is a word-wrapped label.
func wrapLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// emptyState is a centred, muted message for screens with nothing to show.
func emptyState(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Alignment = fyne.TextAlignCenter
	l.Importance = widget.LowImportance
	l.Wrapping = fyne.TextWrapWord
	return l
}

func newBarRect(c color.Color, alpha uint8) *canvas.Rectangle {
	cr, cg, cb, _ := c.RGBA()
	r := canvas.NewRectangle(color.NRGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), alpha})
	r.CornerRadius = 2
	return r
}

type barRenderer struct {
	b      *waterfallBar
	bg, fg *canvas.Rectangle
}

// Destroy implements fyne.WidgetRenderer.
func (r *barRenderer) Destroy() {}

// Objects implements fyne.WidgetRenderer.
func (r *barRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.fg} }

// MinSize implements fyne.WidgetRenderer.
func (r *barRenderer) MinSize() fyne.Size { return fyne.NewSize(60, 14) }

// Refresh implements fyne.WidgetRenderer.
func (r *barRenderer) Refresh() { r.bg.Refresh(); r.fg.Refresh() }

// Layout implements fyne.WidgetRenderer.
func (r *barRenderer) Layout(size fyne.Size) {
	h := float32(10)
	y := (size.Height - h) / 2
	r.bg.Move(fyne.NewPos(0, y))
	r.bg.Resize(fyne.NewSize(size.Width, h))
	x := r.b.from * size.Width
	w := (r.b.to - r.b.from) * size.Width
	if w < 3 {
		w = 3
	}
	if x+w > size.Width {
		x = size.Width - w
	}
	r.fg.Move(fyne.NewPos(x, y))
	r.fg.Resize(fyne.NewSize(w, h))
}

// listWidth is the narrowest a screen's list column gets, so that its
// titles stay readable however much room the detail wants (the details
// wrap their text and rows, so the column mostly keeps its share).
const listWidth = 160

// listSplit puts a screen's list to the left of its detail; the list
// starts at about two fifths of the width and never narrower than
// listWidth.
func listSplit(list, detail fyne.CanvasObject) *container.Split {
	spacer := canvas.NewRectangle(color.Transparent)
	spacer.SetMinSize(fyne.NewSize(listWidth, 0))
	split := container.NewHSplit(container.NewStack(spacer, list), detail)
	split.Offset = 0.4
	return split
}

// barRoom leaves a scroll bar's width beside o (below it for a
// horizontal scroll): Fyne draws the bar over the content, and without
// the room it covered suggestion chips and the edges of entries.
func barRoom(o fyne.CanvasObject, horizontal bool) *fyne.Container {
	room := canvas.NewRectangle(color.Transparent)
	if horizontal {
		room.SetMinSize(fyne.NewSize(0, theme.ScrollBarSize()))
		return container.NewBorder(nil, room, nil, nil, o)
	}
	room.SetMinSize(fyne.NewSize(theme.ScrollBarSize(), 0))
	return container.NewBorder(nil, nil, nil, room, o)
}

// wrapRow lays objects out left to right, wrapping onto more lines when
// the row is narrow (a row of buttons and badges must not make its whole
// pane wider).
func wrapRow(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(fit.NewRowWrap(), objs...)
}

// tailLabel is a one-line caption that, when it does not fit, keeps the
// end of its text ("…/build/index.js"): the end of a command line or URL
// is the part that tells servers apart.
type tailLabel struct {
	widget.Label
	full string
}

func newTailLabel() *tailLabel {
	l := &tailLabel{}
	l.SizeName = theme.SizeNameCaptionText
	// Not monospace: the theme's monospace font draws "_" below the line
	// it measures at caption size, so node_modules read "node modules".
	l.Truncation = fyne.TextTruncateClip
	l.ExtendBaseWidget(l)
	return l
}

// SetFull sets the whole text; the label shows as much of its end as fits.
func (l *tailLabel) SetFull(s string) {
	l.full = s
	l.fit(l.Size().Width)
}

// Resize implements fyne.Widget: the shown tail follows the width.
func (l *tailLabel) Resize(s fyne.Size) {
	l.Label.Resize(s)
	l.fit(s.Width)
}

func (l *tailLabel) fit(width float32) {
	text := tailFit(l.full, width-2*theme.InnerPadding(), func(s string) float32 {
		return fyne.MeasureText(s, theme.Size(l.SizeName), l.TextStyle).Width
	})
	if text != l.Text {
		l.SetText(text)
	}
}

// tailFit returns s, or "…" and the longest end of s that measures at
// most width. With no room at all it returns "": a label given no width
// (its row squeezed by a long state beside it) must not draw its whole
// text over its neighbours.
func tailFit(s string, width float32, measure func(string) float32) string {
	if measure(s) <= width {
		return s
	}
	if width <= 0 || measure("…") > width {
		return ""
	}
	r := []rune(s)
	lo, hi := 0, len(r) // find the fewest runes to drop
	for lo < hi {
		mid := (lo + hi) / 2
		if measure("…"+string(r[mid:])) <= width {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	// a cut that lands on a gap or an ellipsis of the text's own
	// ("node …/dist/index.js stdio" at a connected card's width) shows
	// that ellipsis, not two ("……/dist/index.js stdio")
	kept := strings.TrimLeft(string(r[lo:]), " ")
	if strings.HasPrefix(kept, "…") {
		return kept
	}
	return "…" + kept
}

// headFit returns s, or the longest start of s that measures at most
// width with "…" after it ("…" alone when nothing more fits): tailFit's
// twin, for a text whose start tells it apart (an inspector row's title).
func headFit(s string, width float32, measure func(string) float32) string {
	if measure(s) <= width {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r) // the most runes kept before "…"
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if measure(string(r[:mid])+"…") <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(r[:lo]) + "…"
}

// panelBg is the background of something that lies over the screens (a
// drop-down list, a toast, a banner): a rectangle in theme colours,
// taken again each time it is refreshed, so that a theme switch, which
// refreshes every widget, recolours it (a bare canvas.Rectangle keeps the
// colours it was made with).
type panelBg struct {
	widget.BaseWidget
	fill, stroke  fyne.ThemeColorName
	level         string // when set, the outline is this status's colour
	width, radius float32
}

// newPanelBg is a background filled with fill and outlined width wide
// with stroke ("" for none), its corners rounded by radius.
func newPanelBg(fill, stroke fyne.ThemeColorName, width, radius float32) *panelBg {
	b := &panelBg{fill: fill, stroke: stroke, width: width, radius: radius}
	b.ExtendBaseWidget(b)
	return b
}

// CreateRenderer implements fyne.Widget.
func (b *panelBg) CreateRenderer() fyne.WidgetRenderer {
	r := &panelBgRenderer{b: b, rect: canvas.NewRectangle(color.Transparent)}
	r.Refresh()
	return r
}

type panelBgRenderer struct {
	b    *panelBg
	rect *canvas.Rectangle
}

func (r *panelBgRenderer) Layout(size fyne.Size)        { r.rect.Resize(size) }
func (r *panelBgRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *panelBgRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.rect} }
func (r *panelBgRenderer) Destroy()                     {}

// Refresh takes the theme's colours afresh.
func (r *panelBgRenderer) Refresh() {
	b := r.b
	r.rect.FillColor = theme.Color(b.fill)
	r.rect.StrokeColor = color.Transparent
	switch {
	case b.level != "":
		r.rect.StrokeColor = colorFor(b.level)
	case b.stroke != "":
		r.rect.StrokeColor = theme.Color(b.stroke)
	}
	r.rect.StrokeWidth, r.rect.CornerRadius = b.width, b.radius
	r.rect.Refresh()
}

// followAppended shows the rows added at the end of a list that follows
// its newest row, and scrolls to them. A list scrolled down already only
// scrolls: the rows it keeps for reuse draw the new ones, and the rows
// before still show what they showed. A Refresh would draw each row in
// view again in rows made anew (Fyne 2.7.1's List drops the rows it keeps
// on a Refresh, and makes one more to measure), whose renderers Fyne's
// cache keeps for a minute: a flood's redraws, four a second, left tens
// of MB behind (#17).
func followAppended(l *widget.List) {
	if l.GetScrollOffset() <= 0 { // not scrolled yet: the list may need its new height
		l.Refresh()
	}
	l.ScrollToBottom()
}
