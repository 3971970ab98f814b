package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// errorCut is where long errors are cut, with a "Show more" link.
const errorCut = 100

// truncate cuts s at n runes, adding an ellipsis when it did.
func truncate(s string, n int) (string, bool) {
	r := []rune(s)
	if len(r) <= n {
		return s, false
	}
	return string(r[:n]) + "…", true
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
}

func newBadge(text, level string) *badge {
	b := &badge{text: text, level: level}
	b.ExtendBaseWidget(b)
	return b
}

// Set changes the text and colour.
func (b *badge) Set(text, level string) {
	if b.text == text && b.level == level {
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
	fullBtn *widget.Button // "Show full error", once SetErr was used
	box     *fyne.Container
	open    bool
}

func newErrorBox() *errorBox {
	e := &errorBox{label: widget.NewLabel("")}
	e.label.Wrapping = fyne.TextWrapWord
	e.label.Importance = widget.DangerImportance
	e.more = widget.NewButton("Show more", e.onToggle)
	e.more.Importance = widget.LowImportance
	e.box = container.NewVBox(e.label, container.NewHBox(e.more))
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

// jsonNode is one node of a parsed JSON document.
type jsonNode struct {
	key      string
	value    any
	children []string
}

// jsonTree is a collapsible tree of a JSON document, with copy.
type jsonTree struct {
	tree  *widget.Tree
	nodes map[string]*jsonNode
	raw   []byte
	empty *widget.Label
	obj   fyne.CanvasObject
}

func newJSONTree() *jsonTree {
	j := &jsonTree{nodes: map[string]*jsonNode{}}
	j.tree = widget.NewTree(
		func(id widget.TreeNodeID) []widget.TreeNodeID {
			if n := j.nodes[id]; n != nil {
				return n.children
			}
			return nil
		},
		func(id widget.TreeNodeID) bool {
			n := j.nodes[id]
			return n != nil && len(n.children) > 0
		},
		func(bool) fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TreeNodeID, branch bool, o fyne.CanvasObject) {
			n := j.nodes[id]
			if n == nil {
				return
			}
			o.(*widget.Label).SetText(nodeText(n, branch))
		})
	j.empty = widget.NewLabel("")
	j.empty.Hide()
	j.obj = container.NewStack(j.tree, j.empty)
	return j
}

func nodeText(n *jsonNode, branch bool) string {
	prefix := ""
	if n.key != "" {
		prefix = n.key + ": "
	}
	switch v := n.value.(type) {
	case map[string]any:
		return fmt.Sprintf("%s{%d}", prefix, len(v))
	case []any:
		return fmt.Sprintf("%s[%d]", prefix, len(v))
	case string:
		s, _ := truncate(strings.ReplaceAll(v, "\n", "⏎"), 300)
		return prefix + strconv.Quote(s)
	case json.Number:
		return prefix + v.String()
	case nil:
		return prefix + "null"
	default:
		return fmt.Sprintf("%s%v", prefix, v)
	}
}

// SetJSON shows raw; invalid JSON is shown as text.
func (j *jsonTree) SetJSON(raw []byte) {
	j.raw = append([]byte(nil), raw...)
	j.nodes = map[string]*jsonNode{}
	if len(bytes.TrimSpace(raw)) == 0 {
		j.empty.SetText("(no payload)")
		j.empty.Show()
		j.tree.Hide()
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		s, _ := truncate(string(raw), 4000)
		j.empty.SetText(s)
		j.empty.Show()
		j.tree.Hide()
		return
	}
	j.empty.Hide()
	j.tree.Show()
	j.add("", "", v)
	j.tree.Refresh()
	j.tree.OpenBranch("")
	// open the first two levels so the payload reads at a glance
	for _, c := range j.nodes[""].children {
		j.tree.OpenBranch(c)
	}
}

func (j *jsonTree) add(id, key string, v any) {
	n := &jsonNode{key: key, value: v}
	j.nodes[id] = n
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			cid := id + "/" + k
			n.children = append(n.children, cid)
			j.add(cid, k, t[k])
		}
	case []any:
		for i, e := range t {
			cid := id + "/" + strconv.Itoa(i)
			n.children = append(n.children, cid)
			j.add(cid, strconv.Itoa(i), e)
		}
	}
}

// prettyJSON indents raw for display; invalid JSON is returned as is.
func prettyJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// copyButton copies text() to the clipboard and says so.
func copyButton(label string, text func() string) *widget.Button {
	var b *widget.Button
	b = widget.NewButtonWithIcon(label, theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(text())
		b.SetText("Copied")
	})
	b.Importance = widget.LowImportance
	return b
}

// showTextDialog shows a long text (a full error, a raw payload) in a
// scrollable, selectable dialog.
func showTextDialog(title, text string, w fyne.Window) {
	e := widget.NewMultiLineEntry()
	e.SetText(text)
	e.Wrapping = fyne.TextWrapWord
	copyBtn := copyButton("Copy", func() string { return text })
	d := dialog.NewCustom(title, "Close", container.NewBorder(nil, container.NewHBox(copyBtn), nil, nil, e), w)
	d.Resize(fyne.NewSize(640, 420))
	d.Show()
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

// wrapRow lays objects out left to right, wrapping onto more lines when
// the row is narrow (a row of buttons and badges must not make its whole
// pane wider).
func wrapRow(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(layout.NewRowWrapLayout(), objs...)
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
	l.TextStyle = fyne.TextStyle{Monospace: true}
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
// most width.
func tailFit(s string, width float32, measure func(string) float32) string {
	if width <= 0 || measure(s) <= width {
		return s
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
	return "…" + string(r[lo:])
}
