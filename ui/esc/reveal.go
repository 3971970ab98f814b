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
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
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
// view when it lies below the fold, or so low in the view that little of
// o shows: a result that landed under a long form. The scroll puts o's
// head at the top (or goes to the end). An o in view, or one whose head
// stands in the upper two thirds of the view, or an empty o, leaves the
// scroll where the user left it. It reports whether it scrolled.
func RevealHead(s *container.Scroll, o fyne.CanvasObject) bool {
	if s == nil || s.Content == nil || o == nil || !o.Visible() || fyne.CurrentApp() == nil {
		return false
	}
	if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 0 {
		return false
	}
	// the content takes o's height first: laid out again until it stays,
	// as text that wraps knows its height only once laid out at its width
	for range 3 {
		before := s.Content.MinSize()
		s.Refresh()
		if s.Content.MinSize() == before {
			break
		}
	}
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
	bottom := top + o.Size().Height
	off, view := s.Offset.Y, s.Size().Height
	if top < off || bottom <= off+view || top < off+view*2/3 {
		return false // above (scrolled past), in view, or its head and more show
	}
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, top-theme.Padding()))
	return true
}
