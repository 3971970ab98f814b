package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// TestToolFormWheelAndTop: the wheel over the tool form's entry scrolls
// the form (Fyne gave it to the entry, and the form stopped), and
// switching tools starts the new form at its top.
func TestToolFormWheelAndTop(t *testing.T) {
	w, _, ss := connected(t, nil)
	selectTool := func(name string) {
		for i, x := range ss.tools.shown {
			if x.Name == name {
				ss.tools.list.Select(i)
			}
		}
	}
	Sync(func() {
		selectTool("echo")
		w.win.Resize(fyne.NewSize(1280, 300))
	})
	Sync(func() {
		form := ss.tools.formObj.(*container.Scroll)
		var entry fyne.CanvasObject
		walkVisible(form, func(o fyne.CanvasObject) {
			if e, ok := esc.AsEntry(o); ok && entry == nil && e.PlaceHolder != "Search tools" {
				entry = o
			}
		})
		if entry == nil {
			t.Fatal("no entry in echo's form")
		}
		if form.Content.MinSize().Height <= form.Size().Height {
			t.Fatalf("the form (%v) fits its %v: nothing to scroll", form.Content.MinSize().Height, form.Size().Height)
		}
		d := fyne.CurrentApp().Driver()
		at := d.AbsolutePositionForObject(entry).Add(fyne.NewPos(entry.Size().Width/2, entry.Size().Height/2))
		test.Scroll(w.win.Canvas(), at, 0, -40)
		if form.Offset.Y == 0 {
			t.Fatal("the wheel over the message entry did not scroll the form")
		}
		selectTool("task")
		if form.Content.MinSize().Height <= form.Size().Height {
			t.Fatalf("task's form (%v) fits its %v: the test cannot tell", form.Content.MinSize().Height, form.Size().Height)
		}
		if form.Offset.Y != 0 {
			t.Errorf("task's form starts %v down, not at its top", form.Offset.Y)
		}
	})
}

// TestEscFromSettingsSelectAndCheck: Esc typed while a Select
// of the server settings has the focus (a tap focuses them) closes the
// dialog; Fyne gives the key to the focused widget, which kept it.
func TestEscFromSettingsSelectAndCheck(t *testing.T) {
	b := newFakeBackend("one")
	w := newTestWindow(t, b, nil)
	c := w.win.Canvas()
	for _, kind := range []string{"select"} { // its checks are in folded sections; esc tests Check itself
		Sync(func() {
			showServerForm(w, "one", b.Servers()[0])
			var f fyne.Focusable
			walkVisible(c.Overlays().Top(), func(o fyne.CanvasObject) {
				if f != nil {
					return
				}
				switch x := o.(type) {
				case *esc.Select:
					if kind == "select" && !x.Disabled() && x.Visible() {
						f = x
					}
				case *esc.Check:
					if kind == "check" && !x.Disabled() && x.Visible() {
						f = x
					}
				}
			})
			if f == nil {
				t.Fatalf("no %s in the server form", kind)
			}
			c.Focus(f)
			if c.Focused() != f {
				t.Fatalf("the %s did not take the focus", kind)
			}
			pressEsc(c)
			if c.Overlays().Top() != nil {
				t.Errorf("Esc with a %s focused left the server form open", kind)
			}
		})
	}
}

// TestEscFromProfilesSelect: Esc typed while the sampling profiles
// dialog's Active Profile choice has the focus closes the dialog.
func TestEscFromProfilesSelect(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("one"), nil)
	c := w.win.Canvas()
	Sync(func() {
		requests.ShowProfilesEditor(w.win, memProfiles{}, nil)
		var sel *esc.Select
		walkVisible(c.Overlays().Top(), func(o fyne.CanvasObject) {
			if s, ok := o.(*esc.Select); ok && sel == nil && !s.Disabled() {
				sel = s
			}
		})
		if sel == nil {
			t.Fatal("no select in the profiles dialog")
		}
		c.Focus(sel)
		pressEsc(c)
		if c.Overlays().Top() != nil {
			t.Error("Esc with the profile choice focused left the profiles dialog open")
		}
	})
}
