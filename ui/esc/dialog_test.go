package esc

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// press delivers a key as the desktop driver does: to the focused widget,
// or to the canvas when nothing has the focus.
func press(c fyne.Canvas, name fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: name}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
	} else if h := c.OnTypedKey(); h != nil {
		h(ev)
	}
}

// dialogMakers are the constructors of this package, each with the answer
// its callback got (nil: no callback).
type dialogMaker struct {
	name string
	make func(content fyne.CanvasObject, w fyne.Window, answer func(bool)) dialog.Dialog
}

var dialogMakers = []dialogMaker{
	{"NewCustom", func(c fyne.CanvasObject, w fyne.Window, _ func(bool)) dialog.Dialog {
		return NewCustom("Custom", "Close", c, w)
	}},
	{"NewCustomConfirm", func(c fyne.CanvasObject, w fyne.Window, a func(bool)) dialog.Dialog {
		return NewCustomConfirm("Confirm", "Save", "Cancel", c, a, w)
	}},
	{"NewConfirm", func(_ fyne.CanvasObject, w fyne.Window, a func(bool)) dialog.Dialog {
		return NewConfirm("Remove?", "The server is removed.", "Remove", a, w)
	}},
	{"NewInformation", func(_ fyne.CanvasObject, w fyne.Window, _ func(bool)) dialog.Dialog {
		return NewInformation("About", "Spyglass", w)
	}},
	{"NewForm", func(_ fyne.CanvasObject, w fyne.Window, a func(bool)) dialog.Dialog {
		return NewForm("Values", "Use", "Don't", []*widget.FormItem{widget.NewFormItem("token", NewEntry())}, a, w)
	}},
}

// TestEscCancelsDialogWhateverHasFocus: for every dialog constructor,
// Tab onto each of the dialog's controls in turn (its own buttons
// included) and Esc closes the dialog, answering false.
func TestEscCancelsDialogWhateverHasFocus(t *testing.T) {
	for _, m := range dialogMakers {
		t.Run(m.name, func(t *testing.T) {
			test.NewTempApp(t)
			w := test.NewTempWindow(t, widget.NewLabel("behind"))
			w.Resize(fyne.NewSize(600, 400))
			c := w.Canvas()
			content := func() fyne.CanvasObject { return container.NewVBox(NewEntry(), NewCheck("on", nil)) }
			// How many controls Tab reaches before it wraps round.
			d := m.make(content(), w, nil)
			Show(d, w)
			test.FocusNext(c)
			first, n := c.Focused(), 1
			for test.FocusNext(c); c.Focused() != first && n < 20; test.FocusNext(c) {
				n++
			}
			d.Hide()
			buttons := 0
			for step := 1; step <= n; step++ {
				var answers []bool
				d := m.make(content(), w, func(ok bool) { answers = append(answers, ok) })
				Show(d, w)
				for range step {
					test.FocusNext(c)
				}
				seen := c.Focused()
				if _, ok := seen.(*Button); ok {
					buttons++
				}
				press(c, fyne.KeyEscape)
				if Open(c) != 0 || c.Overlays().Top() != nil {
					t.Fatalf("Esc with %T focused (Tab ×%d) left the dialog open", seen, step)
				}
				if len(answers) > 1 || len(answers) == 1 && answers[0] {
					t.Fatalf("Esc answered %v, want one false", answers)
				}
			}
			if buttons == 0 {
				t.Fatalf("Tab never reached the dialog's own buttons (%d controls)", n)
			}
		})
	}
}

// TestFyneDialogButtonDropsEsc: Fyne's own dialog drops Esc once Tab has
// put the focus on its Cancel button — the reason for this package's
// constructors. If this starts failing, Fyne passes Esc on by itself.
func TestFyneDialogButtonDropsEsc(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	d := dialog.NewCustomConfirm("Confirm", "Save", "Cancel", widget.NewLabel("text"), nil, w)
	Show(d, w)
	test.FocusNext(c)
	if _, ok := c.Focused().(*widget.Button); !ok {
		t.Fatalf("Tab focused %T, want Fyne's Cancel button", c.Focused())
	}
	press(c, fyne.KeyEscape)
	if c.Overlays().Top() == nil {
		t.Fatalf("Fyne's dialog closed on Esc from its own button")
	}
	d.Hide()
}

// TestConfirmAnswers: the confirm button answers true, the dismiss button
// false, and a form's confirm button follows its validation.
func TestConfirmAnswers(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(600, 400))
	var got []bool
	d := NewCustomConfirm("Confirm", "Save", "Cancel", widget.NewLabel("x"), func(ok bool) { got = append(got, ok) }, w)
	Show(d, w)
	test.Tap(d.confirm)
	Show(d, w)
	test.Tap(d.dismiss)
	if len(got) != 2 || !got[0] || got[1] {
		t.Fatalf("answers %v, want [true false]", got)
	}
	if Open(w.Canvas()) != 0 {
		t.Fatalf("%d dialogs still on Esc's stack", Open(w.Canvas()))
	}

	e := NewEntry()
	e.Validator = func(s string) error {
		if s == "" {
			return errEmpty
		}
		return nil
	}
	f := NewForm("Values", "Use", "Don't", []*widget.FormItem{widget.NewFormItem("token", e)}, nil, w)
	if !f.confirm.Disabled() {
		t.Fatalf("the confirm button is enabled while the form does not validate")
	}
	Show(f, w)
	test.Type(e, "abc")
	if f.confirm.Disabled() {
		t.Fatalf("the confirm button stayed disabled once the form validated")
	}
	f.Hide()
}

type errString string

func (e errString) Error() string { return string(e) }

const errEmpty = errString("empty")
