package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// pairSideBySide is the narrowest a request/response pair is laid out in
// two columns; below it each tree got ~160 px at 1280 wide and cut
// `method: "sampli…`, so the pair stacks, request above response.
const pairSideBySide = 560

// pairLayout puts two objects side by side when the width allows
// pairSideBySide, else one above the other, each with half the room.
type pairLayout struct{}

// newPair lays a and b out with pairLayout.
func newPair(a, b fyne.CanvasObject) *fyne.Container {
	return container.New(pairLayout{}, a, b)
}

// MinSize implements fyne.Layout: the larger of the two, not their sum,
// so that the pair does not take the inspector list's rows (each side's
// tree scrolls in whatever room it gets).
func (pairLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// Layout implements fyne.Layout.
func (pairLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 2 {
		for _, o := range objs {
			o.Move(fyne.NewPos(0, 0))
			o.Resize(size)
		}
		return
	}
	pad := theme.Padding()
	if size.Width >= pairSideBySide {
		w := (size.Width - pad) / 2
		objs[0].Move(fyne.NewPos(0, 0))
		objs[0].Resize(fyne.NewSize(w, size.Height))
		objs[1].Move(fyne.NewPos(w+pad, 0))
		objs[1].Resize(fyne.NewSize(w, size.Height))
		return
	}
	h := (size.Height - pad) / 2
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(size.Width, h))
	objs[1].Move(fyne.NewPos(0, h+pad))
	objs[1].Resize(fyne.NewSize(size.Width, h))
}

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
