package esc

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Accordion is widget.Accordion with its section headers made as esc
// Buttons: Fyne's makes them as its own buttons inside, and Esc typed
// while Tab has put the focus on one of them was dropped. It keeps
// widget.Accordion's fields (Items, MultiOpen) and looks the same.
type Accordion struct {
	widget.BaseWidget

	// Items are the sections; call Refresh after changing them.
	Items []*widget.AccordionItem
	// MultiOpen lets more than one section be open at a time.
	MultiOpen bool
	// OnChanged, if set, is called after a section opened or closed
	// (the index of the one that did, and whether it is now open).
	OnChanged func(index int, open bool)
}

// NewAccordion returns an Accordion of items, all closed.
func NewAccordion(items ...*widget.AccordionItem) *Accordion {
	a := &Accordion{Items: items}
	a.ExtendBaseWidget(a)
	return a
}

// Open opens the section at index (and closes the others unless
// MultiOpen).
func (a *Accordion) Open(index int) {
	if index < 0 || index >= len(a.Items) {
		return
	}
	for i, it := range a.Items {
		if i == index {
			it.Open = true
		} else if !a.MultiOpen {
			it.Open = false
		}
	}
	a.Refresh()
	if a.OnChanged != nil {
		a.OnChanged(index, true)
	}
}

// Close closes the section at index.
func (a *Accordion) Close(index int) {
	if index < 0 || index >= len(a.Items) {
		return
	}
	a.Items[index].Open = false
	a.Refresh()
	if a.OnChanged != nil {
		a.OnChanged(index, false)
	}
}

// CreateRenderer implements fyne.Widget.
func (a *Accordion) CreateRenderer() fyne.WidgetRenderer {
	r := &accordionRenderer{a: a}
	r.update()
	return r
}

type accordionRenderer struct {
	a        *Accordion
	headers  []*Button
	dividers []*widget.Separator
	objects  []fyne.CanvasObject
}

func (r *accordionRenderer) header(i int) *Button {
	for len(r.headers) <= i {
		b := NewButton("", nil)
		b.Alignment = widget.ButtonAlignLeading
		b.IconPlacement = widget.ButtonIconLeadingText
		b.Importance = widget.LowImportance
		r.headers = append(r.headers, b)
	}
	return r.headers[i]
}

func (r *accordionRenderer) update() {
	th := r.a.Theme()
	r.objects = r.objects[:0]
	for i, it := range r.a.Items {
		h := r.header(i)
		h.Text = it.Title
		index := i
		h.OnTapped = func() {
			if r.a.Items[index].Open {
				r.a.Close(index)
			} else {
				r.a.Open(index)
			}
		}
		if it.Open {
			h.Icon = th.Icon(theme.IconNameArrowDropUp)
			it.Detail.Show()
		} else {
			h.Icon = th.Icon(theme.IconNameArrowDropDown)
			it.Detail.Hide()
		}
		h.Refresh()
		r.objects = append(r.objects, h, it.Detail)
		if i > 0 {
			for len(r.dividers) < i {
				r.dividers = append(r.dividers, widget.NewSeparator())
			}
			r.objects = append(r.objects, r.dividers[i-1])
		}
	}
}

func (r *accordionRenderer) Layout(size fyne.Size) {
	th := r.a.Theme()
	pad := th.Size(theme.SizeNamePadding)
	sep := th.Size(theme.SizeNameSeparatorThickness)
	y := float32(0)
	for i, it := range r.a.Items {
		if i > 0 {
			// the divider sits in the gap between two sections
			d := r.dividers[i-1]
			d.Move(fyne.NewPos(0, y-(pad+sep)/2))
			d.Resize(fyne.NewSize(size.Width, sep))
		}
		h := r.headers[i]
		hh := h.MinSize().Height
		h.Move(fyne.NewPos(0, y))
		h.Resize(fyne.NewSize(size.Width, hh))
		y += hh
		if it.Open {
			y += pad
			dh := it.Detail.MinSize().Height
			it.Detail.Move(fyne.NewPos(0, y))
			it.Detail.Resize(fyne.NewSize(size.Width, dh))
			y += dh
		}
		y += pad
	}
}

func (r *accordionRenderer) MinSize() fyne.Size {
	pad := r.a.Theme().Size(theme.SizeNamePadding)
	var s fyne.Size
	for i, it := range r.a.Items {
		if i > 0 {
			s.Height += pad
		}
		hm := r.header(i).MinSize()
		s.Width = fyne.Max(s.Width, hm.Width)
		s.Height += hm.Height
		dm := it.Detail.MinSize()
		s.Width = fyne.Max(s.Width, dm.Width)
		if it.Open {
			s.Height += pad + dm.Height
		}
	}
	return s
}

func (r *accordionRenderer) Refresh() {
	r.update()
	r.Layout(r.a.Size())
	canvas.Refresh(r.a)
}

func (r *accordionRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *accordionRenderer) Destroy()                     {}
