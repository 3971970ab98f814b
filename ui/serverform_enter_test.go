package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// pressEnter sends Enter to whatever has the focus.
func pressEnter(w *Window) { typeKey(w, fyne.KeyReturn) }

// TestServerFormEnterSaves: Enter in a one-line field of the Add server
// dialog saves as Save does: with a problem the dialog stays and says
// it, with none the server is added and the dialog closes (Enter did
// nothing). Every one-line entry of the form does so, in each transport's
// fields and in the closed sections.
func TestServerFormEnterSaves(t *testing.T) {
	b := newFakeBackend("old")
	w := newTestWindow(t, b, nil)
	o := openForm(t, w, "")
	typeFocused(w, "added")
	pressEnter(w) // no command yet
	Sync(func() {
		if w.win.Canvas().Overlays().Top() != o {
			t.Fatal("Enter with the command empty closed the dialog")
		}
		if s := texts(o); !strings.Contains(s, "command") {
			t.Errorf("Enter with the command empty said nothing of it:\n%s", s)
		}
		for _, tr := range []string{"stdio", "http"} {
			walkAll(o, func(x fyne.CanvasObject) {
				if s, ok := x.(*esc.Select); ok && len(s.Options) > 0 && s.Options[0] == "stdio" {
					s.SetSelected(tr)
				}
			})
			walkAll(o, func(x fyne.CanvasObject) {
				if e, ok := x.(*esc.Entry); ok && !e.MultiLine && e.OnSubmitted == nil {
					t.Errorf("%s: Enter in the entry %q (%q) does not save", tr, e.PlaceHolder, e.Text)
				}
			})
		}
		walkAll(o, func(x fyne.CanvasObject) {
			if s, ok := x.(*esc.Select); ok && len(s.Options) > 0 && s.Options[0] == "stdio" {
				s.SetSelected("stdio")
			}
		})
		cmd := formEntry(t, o, 1)
		cmd.SetText("node server.js")
		w.win.Canvas().Focus(cmd)
	})
	pressEnter(w)
	waitFor(t, "added by Enter", func() bool {
		return w.server("added") != nil && w.win.Canvas().Overlays().Top() == nil
	})
}

// TestServerFormDuplicateNameSaidOnce: a name already taken is said once,
// at the Name field, not again above Cancel and Save.
func TestServerFormDuplicateNameSaidOnce(t *testing.T) {
	b := newFakeBackend("old")
	w := newTestWindow(t, b, nil)
	o := openForm(t, w, "")
	typeFocused(w, "old")
	Sync(func() {
		formEntry(t, o, 1).SetText("node server.js")
		tapButton(t, o, "Save")
	})
	Sync(func() {
		msg := `A server named "old" exists already.`
		n := 0
		walkVisible(o, func(x fyne.CanvasObject) {
			if l, ok := x.(*widget.Label); ok && l.Text == msg {
				n++
			}
		})
		if n != 1 {
			t.Errorf("%q is shown %d times:\n%s", msg, n, texts(o))
		}
		esc.Cancel(w.win.Canvas())
	})
}

// TestServerFormUnseenProblemSaidBelow: a problem at a field the user
// does not see (in a closed section) is still said under the form.
func TestServerFormUnseenProblemSaidBelow(t *testing.T) {
	b := newFakeBackend("old")
	w := newTestWindow(t, b, nil)
	o := openForm(t, w, "")
	typeFocused(w, "fresh")
	Sync(func() {
		formEntry(t, o, 1).SetText("node server.js")
		var acc *esc.Accordion
		walkAll(o, func(x fyne.CanvasObject) {
			if a, ok := x.(*esc.Accordion); ok && acc == nil {
				acc = a
			}
		})
		// a bad timeout in Protocol, then the section closed again
		acc.Open(0)
		walkAll(acc.Items[0].Detail, func(x fyne.CanvasObject) {
			if e, ok := x.(*esc.Entry); ok && strings.HasPrefix(e.PlaceHolder, "default") && e.Text == "" {
				e.SetText("soon")
			}
		})
		acc.Close(0)
		tapButton(t, o, "Save")

		var summary *widget.Label
		walkVisible(o, func(x fyne.CanvasObject) {
			if l, ok := x.(*widget.Label); ok && l.Importance == widget.DangerImportance && l.Truncation == fyne.TextTruncateEllipsis {
				summary = l
			}
		})
		if summary == nil || summary.Text == "" {
			t.Errorf("a problem in the closed Protocol section is not said under the form:\n%s", texts(o))
		}
		esc.Cancel(w.win.Canvas())
	})
}
