package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pairSideBySide is the narrowest a request/response pair is laid out in
// two columns; below it each tree got ~160 px at 1280 wide and cut
// `method: "sampli…`, so the pair stacks, request above response.
const pairSideBySide = 560

// pairLayout puts the two sides of a request/response pair side by side
// when the width allows pairSideBySide, else one above the other as an
// accordion: the open side takes the room, the other keeps its head line
// (its name, Raw, Expand all, Copy), and the chevron at the start of
// either head line, or its name, swaps them (the name did nothing: the
// new-user walk clicked "Response · id 3" and read the side as broken). Halved, each stacked tree kept two and a
// half rows at 1280×800 — a result of any size read through a slot.
type pairLayout struct {
	open    int // the side open when stacked: 0 the request, 1 the response
	heads   [2]fyne.CanvasObject
	toggles [2]*fyne.Container // each side's chevron, shown when stacked
	chevs   [2]*chevron
	// taps swap the sides as the chevrons do, shown when stacked: over
	// each side's chevron (and its name where it is a heading alone),
	// and over the name of a line with Raw, Expand all and Copy
	taps []*tapArea
	pair *fyne.Container
}

// newPair lays out a request side and a response side (each a pane:
// a Border whose objects are its body, then its head line) with
// pairLayout, open the side given when they stack.
func newPair(req, resp *fyne.Container, open int) *fyne.Container {
	l := &pairLayout{open: open}
	sides := make([]fyne.CanvasObject, 2)
	for i, p := range []*fyne.Container{req, resp} {
		body, head := p.Objects[0], p.Objects[1]
		l.heads[i] = head
		b := newChevron([]string{"Show the request", "Show the response"}[i], l.swap)
		l.chevs[i] = b
		l.toggles[i] = container.NewCenter(b)
		l.toggles[i].Hide()
		tap := l.newTap()
		if c, ok := head.(*fyne.Container); ok {
			if _, ok := c.Layout.(*nameRow); ok {
				c.Add(l.newTap()) // over its name
			}
		}
		line := container.New(pairHead{}, head, l.toggles[i], tap)
		sides[i] = container.NewBorder(line, nil, nil, nil, body)
	}
	l.pair = container.New(l, sides...)
	return l.pair
}

// newTap is a tap area that swaps the sides, hidden until they stack.
func (l *pairLayout) newTap() *tapArea {
	t := newTapArea(l.swap)
	t.Hide()
	l.taps = append(l.taps, t)
	return t
}

// swap opens the side that was closed. UI thread.
func (l *pairLayout) swap() {
	l.open = 1 - l.open
	l.pair.Refresh() // lays it out again
}

// MinSize implements fyne.Layout: the larger of the two, not their sum,
// so that the pair does not take the inspector list's rows (each side's
// tree scrolls in whatever room it gets).
func (l *pairLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// Layout implements fyne.Layout.
func (l *pairLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	stacked := size.Width < pairSideBySide
	for i, t := range l.toggles {
		setVisible(t, stacked)
		icon := theme.MenuExpandIcon() // closed: ▸
		if i == l.open {
			icon = theme.MenuDropDownIcon() // open: ▾
		}
		if l.chevs[i].icon.Resource != icon {
			l.chevs[i].icon.SetResource(icon)
		}
	}
	for _, t := range l.taps {
		setVisible(t, stacked)
	}
	if !stacked {
		w := (size.Width - pad) / 2
		objs[0].Move(fyne.NewPos(0, 0))
		objs[0].Resize(fyne.NewSize(w, size.Height))
		objs[1].Move(fyne.NewPos(w+pad, 0))
		objs[1].Resize(fyne.NewSize(w, size.Height))
		return
	}
	closed := 1 - l.open
	// its line and the Border's padding under it: a tree of no height
	shut := max(l.heads[closed].MinSize().Height, l.toggles[closed].MinSize().Height) + pad
	rest := max(0, size.Height-pad-shut)
	h := [2]float32{}
	h[l.open], h[closed] = rest, shut
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(size.Width, h[0]))
	objs[1].Move(fyne.NewPos(0, h[0]+pad))
	objs[1].Resize(fyne.NewSize(size.Width, h[1]))
}

// pairHead lays out a side's head line: its chevron at the start when
// shown, as a Border's left, the line (name, Raw, Expand all, Copy)
// beside it, and a tap area that swaps the sides as the chevron does over
// the chevron and the padding after it, and over the side's name where
// the line has no tap area of its own (headingWidth; a line with Raw,
// Expand all and Copy has its own over its name: nameRow).
type pairHead struct{}

// MinSize implements fyne.Layout: the chevron and the line side by side.
func (pairHead) MinSize(objs []fyne.CanvasObject) fyne.Size {
	line, toggle := objs[0].MinSize(), objs[1]
	if !toggle.Visible() {
		return line
	}
	t := toggle.MinSize()
	return fyne.NewSize(t.Width+theme.Padding()+line.Width, max(t.Height, line.Height))
}

// Layout implements fyne.Layout.
func (pairHead) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	line, toggle, tap := objs[0], objs[1], objs[2]
	x := float32(0)
	if toggle.Visible() {
		w := toggle.MinSize().Width
		toggle.Move(fyne.NewPos(0, 0))
		toggle.Resize(fyne.NewSize(w, size.Height))
		x = w + theme.Padding()
	}
	line.Move(fyne.NewPos(x, 0))
	line.Resize(fyne.NewSize(max(size.Width-x, 0), size.Height))
	tap.Move(fyne.NewPos(0, 0))
	tap.Resize(fyne.NewSize(x+headingWidth(line), size.Height))
}

// headingWidth is how wide the side's name is on a head line that has no
// tap area of its own: the line where it is the heading alone (no
// payload), the heading of a Border with Copy at its end (a payload that
// is not JSON); 0 for a nameRow, whose name has its own.
func headingWidth(line fyne.CanvasObject) float32 {
	switch x := line.(type) {
	case *widget.Label:
		return x.Size().Width
	case *fyne.Container:
		if _, ok := x.Layout.(*nameRow); ok {
			return 0
		}
		if len(x.Objects) == 0 {
			return 0
		}
		if l, ok := x.Objects[0].(*widget.Label); ok {
			return l.Position().X + l.Size().Width
		}
	}
	return 0
}

// tapArea is a transparent widget that calls onTap when tapped, with the
// hand of a link over it: it makes what it covers (a side's name) a
// control without changing how that is drawn.
type tapArea struct {
	widget.BaseWidget
	onTap func()
}

func newTapArea(onTap func()) *tapArea {
	t := &tapArea{onTap: onTap}
	t.ExtendBaseWidget(t)
	return t
}

// CreateRenderer implements fyne.Widget: nothing is drawn.
func (t *tapArea) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// MinSize implements fyne.Widget: its layout gives it its room.
func (t *tapArea) MinSize() fyne.Size { return fyne.Size{} }

// Tapped implements fyne.Tappable.
func (t *tapArea) Tapped(*fyne.PointEvent) {
	if t.onTap != nil {
		t.onTap()
	}
}

// Cursor implements desktop.Cursorable: the hand of a link.
func (t *tapArea) Cursor() desktop.Cursor { return desktop.PointerCursor }

// freeWidth lays one object out over the whole room and asks for no
// width of its own: the pane it holds is as wide as its split makes it,
// whatever its content would like. The inspector's details use it, so
// that opening an event never moves the divider the user placed (a
// detail whose words asked for ~300 px widened the inspector from ~262
// at 1024×700); what does not fit is cut at the pane's edge, not laid
// out by pushing the split.
type freeWidth struct{}

// newFreeWidth holds o with freeWidth.
func newFreeWidth(o fyne.CanvasObject) *fyne.Container {
	return container.New(freeWidth{}, o)
}

// MinSize implements fyne.Layout: the object's height, no width.
func (freeWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		if o.Visible() {
			h = max(h, o.MinSize().Height)
		}
	}
	return fyne.NewSize(0, h)
}

// Layout implements fyne.Layout.
func (freeWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// chevron is an accordion's ▸/▾: an icon the size of the text that
// opens its side when tapped. A button's padding around it cut the side's
// name to "Requ…" at 1024×700.
type chevron struct {
	widget.BaseWidget
	icon  *widget.Icon
	name  string // what tapping it does, for tests and screen readers
	onTap func()
}

func newChevron(name string, onTap func()) *chevron {
	c := &chevron{icon: widget.NewIcon(theme.MenuExpandIcon()), name: name, onTap: onTap}
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer implements fyne.Widget.
func (c *chevron) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(c.icon)
}

// MinSize implements fyne.Widget: the inline icon's size.
func (c *chevron) MinSize() fyne.Size {
	sz := theme.IconInlineSize()
	return fyne.NewSize(sz, sz)
}

// Tapped implements fyne.Tappable.
func (c *chevron) Tapped(*fyne.PointEvent) {
	if c.onTap != nil {
		c.onTap()
	}
}

// Cursor implements desktop.Cursorable: the hand of a link.
func (c *chevron) Cursor() desktop.Cursor { return desktop.PointerCursor }
