package ui

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// PlainError is an error already worded for a person (cmd words the
// engine's errors): Headline says the cause first, Detail is the whole
// technical chain for "Show full error".
type PlainError interface {
	error
	Headline() string
	Detail() string
}

// plainError returns err's headline and the full text behind "Show full
// error". Every screen's error display goes through it (errorBox.SetErr);
// ui only displays, the wording is the PlainError's (or, for the window's
// own errors, the message itself).
func plainError(err error) (headline, full string) {
	if err == nil {
		return "", ""
	}
	var pe PlainError
	if errors.As(err, &pe) {
		if d := pe.Detail(); d != "" {
			return pe.Headline(), d
		}
		return pe.Headline(), err.Error()
	}
	msg := err.Error()
	if msg == "" {
		return msg, msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:], msg
}

// SetErr shows err's plain headline, with "Show full error" opening the
// whole chain in win (nil hides the box).
func (e *errorBox) SetErr(err error, title string, win fyne.Window) {
	if err == nil {
		e.Set("")
		return
	}
	head, full := plainError(err)
	e.Set(head)
	if e.fullBtn == nil {
		e.fullBtn = widget.NewButton("Show full error", nil)
		e.fullBtn.Importance = widget.LowImportance
		e.box.Objects[1].(*fyne.Container).Add(e.fullBtn)
	}
	e.fullBtn.OnTapped = func() { showTextDialog(title, full, win) }
	e.fullBtn.Show()
}

// errorView is a one-off error display: the plain headline and "Show full
// error" (the screens' failed operations).
func errorView(err error, title string, win fyne.Window) fyne.CanvasObject {
	eb := newErrorBox()
	eb.SetErr(err, title, win)
	return container.NewVBox(eb.box)
}
