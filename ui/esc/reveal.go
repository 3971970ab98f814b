package esc

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// Reveal scrolls the innermost NewVScroll that holds o on screen so that
// all of o is in view (its top when o is taller than the view) and reports
// whether there was such a scroll. An o already in view leaves the scroll
// where the user left it.
func Reveal(o fyne.CanvasObject) bool {
	if o == nil || fyne.CurrentApp() == nil {
		return false
	}
	s := enclosing(o)
	if s == nil {
		return false
	}
	// what was just shown has its place and height only once laid out
	Settle(s)
	top := offsetIn(s.Content, o)
	bottom := top + o.Size().Height
	off, view := s.Offset.Y, s.Size().Height
	switch {
	case top >= off && bottom <= off+view:
		return true
	case bottom-top > view || top < off:
		off = top - theme.Padding()
	default:
		off = bottom - view + theme.Padding()
	}
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, max(0, off)))
	return true
}

// RevealHead scrolls s so that the head of o, which s holds, comes into
// view when it lies below the fold, or so low in the view that less than
// two lines of o show: a result that landed under a long form. The
// scroll puts o's head at the top (or goes to the end). An o in view, or
// one of which two lines show (its head and the start of what it says),
// or an empty o, leaves the scroll where the user left it: the button
// just pressed stays under the pointer (it had moved by a third of the
// view whenever a result landed in the view's lower third). It reports
// whether it scrolled.
func RevealHead(s *container.Scroll, o fyne.CanvasObject) bool {
	if s == nil || s.Content == nil || o == nil || !o.Visible() || fyne.CurrentApp() == nil {
		return false
	}
	if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 0 {
		return false
	}
	Settle(s)
	top := offsetIn(s.Content, o)
	bottom := top + o.Size().Height
	off, view := s.Offset.Y, s.Size().Height
	lines := 2 * (theme.TextSize() + 2*theme.InnerPadding())
	if top < off || bottom <= off+view || off+view-top >= min(lines, bottom-top) {
		return false // above (scrolled past), in view, or its head and more show
	}
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, top-theme.Padding()))
	return true
}

// offsetIn returns o's top relative to root's, o being held by root. It
// adds up the positions of the containers between them, so it holds for
// an object added since the last frame (the driver's
// AbsolutePositionForObject knows it only once drawn, and a panel that
// had just arrived was taken for being at the top of the view); through
// a widget, which shows no children, it asks the driver.
func offsetIn(root, o fyne.CanvasObject) float32 {
	if y, ok := containerOffset(root, o); ok {
		return y
	}
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(root).Y
}

// containerOffset is offsetIn through containers alone.
func containerOffset(root, o fyne.CanvasObject) (float32, bool) {
	if root == o {
		return 0, true
	}
	c, ok := root.(*fyne.Container)
	if !ok {
		return 0, false
	}
	for _, child := range c.Objects {
		if y, ok := containerOffset(child, o); ok {
			return child.Position().Y + y, true
		}
	}
	return 0, false
}

// OffsetIn returns o's top relative to the top of s's content, o being
// held by s (see offsetIn).
func OffsetIn(s *container.Scroll, o fyne.CanvasObject) float32 { return offsetIn(s.Content, o) }

// Settle lays s's content out again until its height stays: text that
// wraps knows its height only once laid out at its width, so what was
// just added takes its height only then.
func Settle(s *container.Scroll) {
	for range 3 {
		before := s.Content.MinSize()
		s.Refresh()
		if s.Content.MinSize() == before {
			break
		}
	}
}

// Steady runs change, which may make what lies above o in the scroll
// that holds o taller or shorter, and scrolls by the difference, so that
// o stays where it was on screen: a line that appears above the button
// just pressed moves no button from under the pointer. Without such a
// scroll it only runs change.
func Steady(o fyne.CanvasObject, change func()) {
	var s *container.Scroll
	if o != nil && fyne.CurrentApp() != nil {
		s = enclosing(o)
	}
	if s == nil || s.Content == nil {
		change()
		return
	}
	before := offsetIn(s.Content, o)
	change()
	Settle(s)
	if d := offsetIn(s.Content, o) - before; d != 0 {
		s.ScrollToOffset(fyne.NewPos(s.Offset.X, max(0, s.Offset.Y+d)))
	}
}
