// Package esc makes Esc cancel the dialogs of a window: every dialog the
// window opens goes through Show (or Attach), and Esc hides the topmost
// one as its Cancel or Close button would. Fyne hands a key to the
// focused widget only, and entries, selects, checks and buttons keep the
// keys they are given, so the controls of a dialog are made with NewEntry,
// NewSelect, NewCheck and NewButton, which pass Esc on.
//
// The package's Entry also passes the mouse wheel on: Fyne gives a scroll
// to the innermost scrollable under the pointer, which is an entry's own
// scroller, so a form stopped scrolling whenever the pointer crossed an
// entry. An Entry scrolls itself when it can (a multi-line entry not yet
// at its end, a sideways scroll of a long line) and otherwise scrolls the
// nearest enclosing container made with NewVScroll.
package esc

import (
	"slices"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Dialog is what Esc needs of a dialog: dialog.Dialog and Fyne's file
// dialogs have both.
type Dialog interface {
	Hide()
	SetOnClosed(func())
}

type open struct{ d Dialog }

var (
	mu     sync.Mutex
	stacks = map[fyne.Canvas][]*open{}
	hooked = map[fyne.Canvas]bool{}
)

// Show shows d and makes Esc cancel it. A file dialog's own file name
// entry is given one that passes Esc on (see showFile).
func Show(d dialog.Dialog, win fyne.Window) {
	Attach(d, win)
	if f, ok := d.(*dialog.FileDialog); ok {
		showFile(f, win)
		return
	}
	d.Show()
}

// Attach makes Esc cancel d while it is open on win (call it before or
// right after Show). Focus leaves the window behind the dialog, whose
// entries would otherwise take the key.
func Attach(d Dialog, win fyne.Window) {
	c := win.Canvas()
	o := &open{d: d}
	mu.Lock()
	stacks[c] = append(stacks[c], o)
	first := !hooked[c]
	hooked[c] = true
	mu.Unlock()
	d.SetOnClosed(func() {
		mu.Lock()
		defer mu.Unlock()
		if i := slices.Index(stacks[c], o); i >= 0 {
			stacks[c] = slices.Delete(stacks[c], i, i+1)
		}
	})
	if first {
		prev := c.OnTypedKey()
		c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
			if ev.Name == fyne.KeyEscape && Cancel(c) {
				return
			}
			if prev != nil {
				prev(ev)
			}
		})
	}
	c.Unfocus()
}

// Cancel hides the topmost dialog open on c and reports whether there was
// one. It runs on the UI thread.
func Cancel(c fyne.Canvas) bool {
	mu.Lock()
	st := stacks[c]
	if len(st) == 0 {
		mu.Unlock()
		return false
	}
	top := st[len(st)-1]
	mu.Unlock()
	c.Unfocus()
	top.d.Hide()
	return true
}

// hideUnfocused returns a func that takes the focus from the dialog's
// control and then runs hide: Fyne removes a dialog's overlay with its
// focus manager without telling the focused control, and a control shown
// again elsewhere (a request's panel goes back inline) kept its focus
// tint.
func hideUnfocused(parent fyne.Window, hide func()) func() {
	return func() {
		if parent != nil {
			parent.Canvas().Unfocus()
		}
		hide()
	}
}

// Open reports how many dialogs Esc can cancel on c (tests).
func Open(c fyne.Canvas) int {
	mu.Lock()
	defer mu.Unlock()
	return len(stacks[c])
}

// Entry is a widget.Entry that passes Esc on to the dialog it is in.
type Entry struct {
	widget.Entry

	// TabMovesFocus makes Tab in a multi-line Entry move the focus on, as
	// in a single-line one, instead of typing a tab: for fields where a
	// tab means nothing (one value a line), so Tab walks a form.
	TabMovesFocus bool

	// OnKey, when set, sees each key first; returning true keeps the key
	// from the entry (a suggestion list under the entry takes Down, Up,
	// Enter and Esc while it is open).
	OnKey func(ev *fyne.KeyEvent) bool
	// OnFocusLost, when set, is called after the entry lost the focus.
	OnFocusLost func()
}

// AcceptsTab implements fyne.Tabbable.
func (e *Entry) AcceptsTab() bool {
	return e.MultiLine && !e.TabMovesFocus
}

// NewEntry returns a single-line Entry.
func NewEntry() *Entry {
	e := &Entry{}
	e.ExtendBaseWidget(e)
	return e
}

// NewMultiLineEntry returns a multi-line Entry.
func NewMultiLineEntry() *Entry {
	e := &Entry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

// NewPasswordEntry returns an Entry that hides what is typed.
func NewPasswordEntry() *Entry {
	e := &Entry{}
	e.Password = true
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable: Esc cancels the dialog.
func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	if e.OnKey != nil && e.OnKey(ev) {
		return
	}
	if !passEsc(e, ev) {
		e.Entry.TypedKey(ev)
	}
}

// FocusLost implements fyne.Focusable, and tells OnFocusLost.
func (e *Entry) FocusLost() {
	e.Entry.FocusLost()
	if e.OnFocusLost != nil {
		e.OnFocusLost()
	}
}
