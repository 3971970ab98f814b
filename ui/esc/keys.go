package esc

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// PassEsc cancels the topmost dialog of o's canvas when ev is Esc, and
// reports whether it did: for a focusable widget of another package (the
// JSON editor) to call first in its TypedKey.
func PassEsc(o fyne.CanvasObject, ev *fyne.KeyEvent) bool { return passEsc(o, ev) }

// passEsc cancels the topmost dialog of o's canvas when ev is Esc, and
// reports whether it did.
func passEsc(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyEscape {
		return false
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(o)
	return c != nil && Cancel(c)
}

// Select is a widget.Select that passes Esc on to the dialog it is in.
type Select struct {
	widget.Select
}

// NewSelect returns a Select, as widget.NewSelect.
func NewSelect(options []string, changed func(string)) *Select {
	s := &Select{}
	s.Options = options
	s.OnChanged = changed
	s.PlaceHolder = "(Select one)"
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable: Esc cancels the dialog.
func (s *Select) TypedKey(ev *fyne.KeyEvent) {
	if !passEsc(s, ev) {
		s.Select.TypedKey(ev)
	}
}

// Check is a widget.Check that passes Esc on to the dialog it is in.
type Check struct {
	widget.Check
}

// NewCheck returns a Check, as widget.NewCheck.
func NewCheck(label string, changed func(bool)) *Check {
	c := &Check{}
	c.Text = label
	c.OnChanged = changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable: Esc cancels the dialog.
func (c *Check) TypedKey(ev *fyne.KeyEvent) {
	if !passEsc(c, ev) {
		c.Check.TypedKey(ev)
	}
}

// Button is a widget.Button that passes Esc on to the dialog it is in.
type Button struct {
	widget.Button
}

// NewButton returns a Button, as widget.NewButton.
func NewButton(label string, tapped func()) *Button {
	return NewButtonWithIcon(label, nil, tapped)
}

// NewButtonWithIcon returns a Button with an icon, as
// widget.NewButtonWithIcon.
func NewButtonWithIcon(label string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{}
	b.Text = label
	b.Icon = icon
	b.OnTapped = tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey implements fyne.Focusable: Esc cancels the dialog.
func (b *Button) TypedKey(ev *fyne.KeyEvent) {
	if !passEsc(b, ev) {
		b.Button.TypedKey(ev)
	}
}

// AsButton returns the widget.Button of o when o is a Fyne Button or a
// Button of this package, for code that finds buttons by their words (the
// tests and the GUI harness): tapping it taps the button.
func AsButton(o fyne.CanvasObject) (*widget.Button, bool) {
	switch b := o.(type) {
	case *widget.Button:
		return b, true
	case *Button:
		return &b.Button, true
	}
	return nil, false
}

// AsEntry returns the widget.Entry of o when o is a Fyne Entry or an Entry
// of this package, for code that finds entries (the tests and the GUI
// harness).
func AsEntry(o fyne.CanvasObject) (*widget.Entry, bool) {
	switch e := o.(type) {
	case *widget.Entry:
		return e, true
	case *Entry:
		return &e.Entry, true
	}
	return nil, false
}
