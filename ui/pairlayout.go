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
