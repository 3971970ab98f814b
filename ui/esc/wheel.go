package esc

import (
	"slices"
	"sync"
	"weak"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// scrolls are the containers made with NewVScroll, held weakly: an entry
// hands them the wheel when it cannot scroll itself.
var (
	scrollMu sync.Mutex
	scrolls  []weak.Pointer[container.Scroll]
)

// NewVScroll is container.NewVScroll whose content's entries pass the
// mouse wheel on to it when they cannot scroll themselves. Use it for
// every scroll that holds a form.
func NewVScroll(content fyne.CanvasObject) *container.Scroll {
	s := container.NewVScroll(content)
	scrollMu.Lock()
	scrolls = slices.DeleteFunc(scrolls, func(p weak.Pointer[container.Scroll]) bool { return p.Value() == nil })
	scrolls = append(scrolls, weak.Make(s))
	scrollMu.Unlock()
	return s
}

// enclosing returns the innermost NewVScroll container on screen that
// holds o, or nil. Fyne keeps no parent links, so "holds" is read from
// where things are drawn: the scroll is shown on o's canvas and its
// content's area covers o's.
func enclosing(o fyne.CanvasObject) *container.Scroll {
	d := fyne.CurrentApp().Driver()
	c := d.CanvasForObject(o)
	if c == nil {
		return nil
	}
	op, os := d.AbsolutePositionForObject(o), o.Size()
	scrollMu.Lock()
	live := make([]*container.Scroll, 0, len(scrolls))
	for _, p := range scrolls {
		if s := p.Value(); s != nil {
			live = append(live, s)
		}
	}
	scrollMu.Unlock()
	var best *container.Scroll
	var bestArea float32
	for _, s := range live {
		if !s.Visible() || s.Content == nil || d.CanvasForObject(s) != c {
			continue
		}
		// Something not drawn now is reported at the origin.
		sp := d.AbsolutePositionForObject(s)
		if sp.IsZero() && !op.IsZero() {
			continue
		}
		cp, cs := sp.Subtract(s.Offset), s.Content.Size()
		const slack = 0.5
		if op.X+slack < cp.X || op.Y+slack < cp.Y || op.X+os.Width > cp.X+cs.Width+slack || op.Y+os.Height > cp.Y+cs.Height+slack {
			continue
		}
		// The smallest wins; of equal ones the newest, which replaced an
		// older one in the same place (a screen built again).
		if a := cs.Width * cs.Height; best == nil || a <= bestArea {
			best, bestArea = s, a
		}
	}
	return best
}

// ScrollEnclosing hands ev to the innermost NewVScroll container that
// holds o on screen and reports whether there was one: for a widget that
// takes the wheel itself (an editor with its own scroller) and passes on
// what it cannot use.
func ScrollEnclosing(o fyne.CanvasObject, ev *fyne.ScrollEvent) bool {
	s := enclosing(o)
	if s == nil {
		return false
	}
	s.Scrolled(ev)
	return true
}

// CreateRenderer implements fyne.Widget: Entry's own renderer with a
// transparent wheel catcher on top, which Fyne finds before the entry's
// scroller (the last scrollable under the pointer wins).
func (e *Entry) CreateRenderer() fyne.WidgetRenderer {
	r := e.Entry.CreateRenderer()
	w := newWheel(&e.Entry, func() *container.Scroll {
		for _, o := range r.Objects() {
			if s, ok := o.(*container.Scroll); ok && s.Visible() && s.Content != nil {
				return s
			}
		}
		return nil
	})
	return &entryRenderer{WidgetRenderer: r, wheel: w}
}

type entryRenderer struct {
	fyne.WidgetRenderer
	wheel *wheel
}

func (r *entryRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.wheel.Move(fyne.Position{})
	r.wheel.Resize(size)
}

func (r *entryRenderer) Objects() []fyne.CanvasObject {
	return append(slices.Clip(r.WidgetRenderer.Objects()), r.wheel)
}

// PassWheel returns a single-line widget.Entry with a catcher on top that
// hands the mouse wheel to the enclosing NewVScroll, for forms whose
// entries are Fyne's own. (A multi-line widget.Entry keeps the wheel: only
// an Entry of this package can tell whether it is at its end.)
func PassWheel(e *widget.Entry) fyne.CanvasObject {
	if e.MultiLine {
		return e
	}
	return container.NewStack(e, newWheel(e, nil))
}

// wheel takes the scroll events over an entry; it is neither tappable nor
// hoverable, so clicks, drags and the text cursor still reach the entry.
type wheel struct {
	widget.BaseWidget
	entry *widget.Entry
	own   func() *container.Scroll // the entry's own scroller, or nil
}

func newWheel(e *widget.Entry, own func() *container.Scroll) *wheel {
	w := &wheel{entry: e, own: own}
	w.ExtendBaseWidget(w)
	return w
}

func (w *wheel) CreateRenderer() fyne.WidgetRenderer { return &emptyRenderer{} }

// Scrolled implements fyne.Scrollable.
func (w *wheel) Scrolled(ev *fyne.ScrollEvent) {
	if w.own != nil {
		if own := w.own(); own != nil {
			mine := *ev
			if !w.entry.MultiLine {
				// A single line scrolls sideways only when asked to; Fyne
				// would turn the wheel into a sideways scroll.
				mine.Scrolled.DY = 0
			}
			before := own.Offset
			if mine.Scrolled.DX != 0 || mine.Scrolled.DY != 0 {
				own.Scrolled(&mine)
			}
			if own.Offset != before {
				return
			}
		}
	}
	if s := enclosing(w); s != nil {
		s.Scrolled(ev)
	}
}

type emptyRenderer struct{}

func (emptyRenderer) Destroy()                     {}
func (emptyRenderer) Layout(fyne.Size)             {}
func (emptyRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (emptyRenderer) Objects() []fyne.CanvasObject { return nil }
func (emptyRenderer) Refresh()                     {}
