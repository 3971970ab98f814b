package fit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// NewColumn returns a layout that puts objects top to bottom in a column
// at most max wide, centred across the space it has, its top a fifth of
// the way down (see column).
func NewColumn(max float32) fyne.Layout { return &column{max: max} }

// NewSnug returns a layout for a line of caption text between rows that
// pad themselves (see snug).
func NewSnug() fyne.Layout { return snug{} }

// NewRowWrap returns a layout that puts objects left to right and wraps
// them onto more rows when the width runs out (see rowWrap).
func NewRowWrap() fyne.Layout { return &rowWrap{} }

// column lays its objects out top to bottom in a column at most max wide,
// centred across the space it has. Its top is a fifth of the way down
// whatever the column holds (higher only where it would not fit), so a
// column whose text grows or shrinks, a longer error or a Show more,
// moves none of what is above it: centring it up and down moved its
// buttons under the pointer. A narrower space narrows the column, so
// wrapped text wraps instead of widening the pane (container.NewCenter
// gives each object only its minimum width, which made a pane's
// sentences one unwrapped line as wide as the sentence).
type column struct{ max float32 }

// MinSize implements fyne.Layout: the widest object's minimum width and
// the objects' heights at the width they were last laid out at.
func (c *column) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	n := 0
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = fyne.Max(s.Width, m.Width)
		s.Height += m.Height
		n++
	}
	if n > 1 {
		s.Height += theme.Padding() * float32(n-1)
	}
	return s
}

// Layout implements fyne.Layout.
func (c *column) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	width := fyne.Min(size.Width, c.max)
	var total float32
	n := 0
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		width = fyne.Max(width, o.MinSize().Width)
	}
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		// a wrapped label's height follows its width: size it first
		o.Resize(fyne.NewSize(width, o.MinSize().Height))
		total += o.MinSize().Height
		n++
	}
	if n > 1 {
		total += theme.Padding() * float32(n-1)
	}
	y := fyne.Max(0, fyne.Min(size.Height/5, size.Height-total))
	x := fyne.Max(0, (size.Width-width)/2)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(x, y))
		o.Resize(fyne.NewSize(width, h))
		y += h + theme.Padding()
	}
}

// rowWrap lays objects out left to right at their minimum sizes, wrapping
// onto more rows when the width runs out. Unlike Fyne's RowWrapLayout,
// whose MinSize after a layout is the widest row it made (so a row of
// buttons laid out once in a wide window kept the window that wide after
// it was made smaller), its minimum width is always the widest object's;
// its minimum height is the rows it needs at the width it last had.
type rowWrap struct{ width float32 }

// rows places the visible objects in rows at most width wide (one object
// per row at least) and returns each one's position and the total size.
func (r *rowWrap) rows(objs []fyne.CanvasObject, width float32, place bool) fyne.Size {
	pad := theme.Padding()
	var rowH float32
	for _, o := range objs {
		if o.Visible() {
			rowH = fyne.Max(rowH, o.MinSize().Height)
		}
	}
	var x, extent float32
	rows := 0
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if rows == 0 || (x > 0 && x+m.Width > width) {
			rows++
			x = 0
		}
		if place {
			o.Move(fyne.NewPos(x, float32(rows-1)*(rowH+pad)))
			o.Resize(m)
		}
		x += m.Width
		extent = fyne.Max(extent, x)
		x += pad
	}
	if rows == 0 {
		return fyne.Size{}
	}
	return fyne.NewSize(extent, float32(rows)*rowH+float32(rows-1)*pad)
}

// MinSize implements fyne.Layout.
func (r *rowWrap) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w float32
	for _, o := range objs {
		if o.Visible() {
			w = fyne.Max(w, o.MinSize().Width)
		}
	}
	width := r.width
	if width <= 0 {
		width = w // not laid out yet: as narrow as it can be
	}
	return fyne.NewSize(w, r.rows(objs, fyne.Max(width, w), false).Height)
}

// Layout implements fyne.Layout.
func (r *rowWrap) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	r.width = size.Width
	r.rows(objs, size.Width, true)
}

// snug lays its objects out over the whole space and past it by a
// label's inner padding above and below, and asks for that much less
// height: a line of caption text between rows of controls, which pad
// themselves, without the label's own padding doubling theirs (a server
// card's command line, a form field's description and error lines). The
// text is drawn where it was; only the empty padding overlaps.
type snug struct{}

// MinSize implements fyne.Layout: the tallest visible object's minimum
// less its padding.
func (snug) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if o.Visible() {
			s = s.Max(o.MinSize())
		}
	}
	s.Height = max(s.Height-2*theme.InnerPadding(), 0)
	return s
}

// Layout implements fyne.Layout.
func (snug) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.InnerPadding()
	for _, o := range objs {
		o.Move(fyne.NewPos(0, -pad))
		o.Resize(fyne.NewSize(size.Width, size.Height+2*pad))
	}
}
