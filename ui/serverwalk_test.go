package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// The new-user walk of the server list, the server form and the menus
// (#12): what a newcomer does first, and what they expect to see.

// tapToastAction taps the action button labelled label of the toast
// whose text starts with text.
func tapToastAction(t *testing.T, w *Window, text, label string) {
	t.Helper()
	var btn *widget.Button
	Sync(func() {
		for _, it := range w.toasts.items {
			if !strings.HasPrefix(it.text, text) {
				continue
			}
			walkAll(it.obj, func(o fyne.CanvasObject) {
				if b, ok := esc.AsButton(o); ok && btn == nil && b.Text == label {
					btn = b
				}
			})
		}
	})
	if btn == nil {
		t.Fatalf("no toast %q with %q: %q", text, label, w.toasts.texts())
	}
	Sync(func() { test.Tap(btn) })
}

// typeFocused types s as the keyboard does: into whatever has the focus
// (nothing when nothing has it).
func typeFocused(w *Window, s string) {
	Sync(func() {
		if f := w.win.Canvas().Focused(); f != nil {
			for _, r := range s {
				f.TypedRune(r)
			}
		}
	})
}

func stateOf(w *Window, name string) (st ConnState) {
	Sync(func() {
		if s := w.server(name); s != nil {
			st = s.state.State
		}
	})
	return st
}

// TestRemoveUndoPutsItBackAsItWas: Undo of a connected server's removal
// connects it again (it came back disconnected, silently); a server that
// was not connected comes back not connected.
func TestRemoveUndoPutsItBackAsItWas(t *testing.T) {
	b := &undoBackend{fakeBackend: newFakeBackend("on", "off")}
	w := newTestWindowBackend(t, b)
	Sync(func() { w.server("on").onConnect() })
	waitFor(t, "on connected", func() bool { return w.server("on").state.State == StateConnected })

	Sync(func() { w.removeServer("on") })
	if w.server("on") != nil {
		t.Fatal("on is still listed")
	}
	tapToastAction(t, w, "Removed on", "Undo")
	waitFor(t, "on connected again", func() bool {
		s := w.server("on")
		return s != nil && s.state.State == StateConnected && w.selected == s && s.screens != nil
	})
	if ts := strings.Join(w.toasts.texts(), "\n"); !strings.Contains(ts, "Restored on; connecting to it again") {
		t.Errorf("the restore does not say it reconnects: %q", ts)
	}

	Sync(func() { w.removeServer("off") })
	tapToastAction(t, w, "Removed off", "Undo")
	Sync(func() {
		s := w.server("off")
		if s == nil || w.selected != s {
			t.Fatal("off is not back and selected")
		}
		if s.state.State != StateDisconnected {
			t.Errorf("off was not connected and came back %v", s.state.State)
		}
	})
}

// TestNoServerEmptyState: once the last server is removed the middle
// names no server (nor does the inspector) and offers Add server and the
// imports right there; Add server opens the form. A read-only file says
// why nothing can be added.
func TestNoServerEmptyState(t *testing.T) {
	b := &undoBackend{fakeBackend: newFakeBackend("only-server")}
	w := newTestWindowBackend(t, b)
	Sync(func() { w.removeServer("only-server") })
	var middle, insp string
	Sync(func() {
		middle = texts(w.middle)
		insp = texts(w.inspector.empty)
	})
	for _, want := range []string{"No servers yet", "[Add server…]", "[Import a config file…]", "[Paste a config]"} {
		if !strings.Contains(middle, want) {
			t.Errorf("the empty state lacks %q:\n%s", want, middle)
		}
	}
	if strings.Contains(middle, "only-server") || strings.Contains(insp, "only-server") {
		t.Errorf("the removed server is still named:\n%s\ninspector: %s", middle, insp)
	}
	Sync(func() { tapButton(t, w.middle, "Add server…") })
	waitFor(t, "the Add server form", func() bool {
		o := w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "Add server") && strings.Contains(texts(o), "[Save]")
	})
	Sync(func() { esc.Cancel(w.win.Canvas()) })

	// Paste a config imports what the clipboard holds
	Sync(func() {
		fyne.CurrentApp().Clipboard().SetContent(`{"mcpServers":{"pasted":{"command":"p"}}}`)
		tapButton(t, w.middle, "Paste a config")
	})
	Sync(func() {
		if s := w.server("pasted"); s == nil || w.selected != s {
			t.Error("Paste a config did not import and select the pasted server")
		}
	})

	ro := newFakeBackend()
	ro.ro = "opened with --config"
	w2 := newTestWindow(t, ro, nil)
	Sync(func() {
		got := texts(w2.middle)
		if !strings.Contains(got, "read-only (opened with --config)") || strings.Contains(got, "[Add server…]") {
			t.Errorf("a read-only empty catalog shows:\n%s", got)
		}
	})
}

// openForm opens the Add server form (oldName "") or the Edit form and
// returns the dialog's overlay once it is shown.
func openForm(t *testing.T, w *Window, oldName string) fyne.CanvasObject {
	t.Helper()
	Sync(func() {
		if oldName == "" {
			w.list.onAdd()
		} else {
			w.list.cards[w.server(oldName)].onEdit()
		}
	})
	var o fyne.CanvasObject
	waitFor(t, "the server form", func() bool {
		o = w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "[Save]")
	})
	return o
}

// TestServerFormTypesIntoName: the form opens with its first field, the
// name, focused, so what the user types goes into it at once (Add and
// Edit alike).
func TestServerFormTypesIntoName(t *testing.T) {
	b := newFakeBackend("old")
	w := newTestWindow(t, b, nil)
	openForm(t, w, "")
	typeFocused(w, "typed")
	Sync(func() {
		e, ok := w.win.Canvas().Focused().(*esc.Entry)
		if !ok || e.Text != "typed" || e.PlaceHolder != "e.g. my-server" {
			t.Errorf("typing at once went to %T %+v, not the name field", w.win.Canvas().Focused(), e)
		}
		esc.Cancel(w.win.Canvas())
	})
	openForm(t, w, "old")
	Sync(func() {
		e, ok := w.win.Canvas().Focused().(*esc.Entry)
		if !ok || e.Text != "old" {
			t.Errorf("the edit form's focus is %T, not the name field", w.win.Canvas().Focused())
		}
		esc.Cancel(w.win.Canvas())
	})
}
