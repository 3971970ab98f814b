package esc

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Fyne's file and folder dialogs build their controls inside, as plain
// Fyne widgets, and a save dialog opens with the focus in its file name
// entry, which drops Esc: Esc did nothing in File → Save and the like
// until the user clicked outside the entry. showFile puts an Entry of this
// package in that entry's place, kept in step with it both ways (the
// dialog reads and writes its own entry: a file tapped in the list names
// it, Save reads it), and gives it the focus, so Esc cancels the dialog
// as soon as it opens and while the name is typed.

// showFile shows the file dialog d, its file name entry (a save dialog's)
// replaced by an Entry that passes Esc on.
func showFile(d *dialog.FileDialog, win fyne.Window) {
	d.Show()
	c := win.Canvas()
	top := c.Overlays().Top()
	if top == nil {
		return // a system dialog (a portal) was shown instead
	}
	var scroll *container.Scroll
	walkFile(top, func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && scroll == nil {
			if _, ok := s.Content.(*widget.Entry); ok {
				scroll = s
			}
		}
	})
	if scroll == nil {
		return // an open dialog: its file name is a label
	}
	name := scroll.Content.(*widget.Entry)
	mirror := NewEntry()
	mirror.PlaceHolder = name.PlaceHolder
	mirror.SetText(name.Text)
	changed := name.OnChanged
	name.OnChanged = func(s string) {
		if changed != nil {
			changed(s)
		}
		if mirror.Text != s {
			mirror.SetText(s)
		}
	}
	mirror.OnChanged = func(s string) {
		if name.Text != s {
			name.SetText(s) // its OnChanged enables Save
		}
	}
	mirror.OnSubmitted = func(s string) {
		if name.OnSubmitted != nil {
			name.OnSubmitted(s)
		}
	}
	scroll.Content = mirror
	scroll.Refresh()
	c.Focus(mirror)
}

// walkFile calls fn for o and every object inside it: containers'
// objects, a pop-up's and a scroll's content.
func walkFile(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	switch t := o.(type) {
	case *fyne.Container:
		for _, c := range t.Objects {
			walkFile(c, fn)
		}
	case *widget.PopUp:
		walkFile(t.Content, fn)
	case *container.Scroll:
		walkFile(t.Content, fn)
	case *container.Split:
		walkFile(t.Leading, fn)
		walkFile(t.Trailing, fn)
	}
}
