package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TestPaletteToolFocusesFirstArgument: Ctrl+K → echo → Enter leaves the
// focus in echo's first argument, so what is typed next is its message
// (the text went nowhere, and Ctrl+Enter then sent an empty call).
func TestPaletteToolFocusesFirstArgument(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() { _ = w.ShowScreenNow("Server info") })
	openPalette(t, w, "echo")
	typeKey(w, fyne.KeyReturn)
	Sync(func() {
		if ss.tools.selected == nil || ss.tools.selected.Name != "echo" {
			t.Fatalf("the palette selected %+v, want echo", ss.tools.selected)
		}
		if f := w.win.Canvas().Focused(); f == nil || f != ss.tools.args.FirstField() {
			t.Fatalf("the focus is on %T, not echo's message field", f)
		}
	})
	typeFocused(w, "abc")
	Sync(func() {
		if got, _ := ss.tools.args.JSON(); string(got) != `{"message":"abc"}` {
			t.Errorf("typed abc after choosing echo: the arguments are %s", got)
		}
	})
}

// TestClickedToolFocusesFirstArgument: a click on a tool's row puts the
// focus in its first argument (Fyne focuses the list on the click).
func TestClickedToolFocusesFirstArgument(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		l := ss.tools.list
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(l).AddXY(20, 10)
		test.TapCanvas(w.win.Canvas(), pos) // the first row: echo
		if ss.tools.selected == nil || ss.tools.selected.Name != "echo" {
			t.Fatalf("the click selected %+v, want echo", ss.tools.selected)
		}
		if f := w.win.Canvas().Focused(); f == nil || f != ss.tools.args.FirstField() {
			t.Fatalf("after the click the focus is on %T, not echo's message field", f)
		}
	})
}

// TestListArrowsKeepFocusSpaceChooses: in the Tools list Down and Up move
// through the rows with the focus kept in the list; Space chooses the
// row, and then the focus goes to its first argument (a tool without
// arguments leaves it in the list).
func TestListArrowsKeepFocusSpaceChooses(t *testing.T) {
	w, _, ss := connected(t, nil)
	l := ss.tools.list
	Sync(func() { w.win.Canvas().Focus(l) })
	typeKey(w, fyne.KeyDown) // boom
	typeKey(w, fyne.KeySpace)
	Sync(func() {
		if ss.tools.selected == nil || ss.tools.selected.Name != "boom" {
			t.Fatalf("Down, Space selected %+v, want boom", ss.tools.selected)
		}
		if w.win.Canvas().Focused() != fyne.Focusable(l) {
			t.Fatalf("boom has no arguments, yet the focus left the list for %T", w.win.Canvas().Focused())
		}
	})
	typeKey(w, fyne.KeyUp) // echo
	Sync(func() {
		if w.win.Canvas().Focused() != fyne.Focusable(l) || ss.tools.selected.Name != "boom" {
			t.Fatalf("Up moved the focus to %T or chose %s", w.win.Canvas().Focused(), ss.tools.selected.Name)
		}
	})
	typeKey(w, fyne.KeySpace)
	Sync(func() {
		if ss.tools.selected.Name != "echo" || w.win.Canvas().Focused() != ss.tools.args.FirstField() {
			t.Fatalf("Up, Space chose %s with the focus on %T, want echo's message field", ss.tools.selected.Name, w.win.Canvas().Focused())
		}
	})
}

// TestChosenPromptAndTemplateFocusFirstField: choosing a prompt puts the
// focus in its first argument, a resource template in its first variable.
func TestChosenPromptAndTemplateFocusFirstField(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		_ = w.ShowScreenNow("Prompts")
		ss.prompts.list.Select(0)
	})
	typeFocused(w, "Ana")
	Sync(func() {
		if vals, _ := ss.prompts.args.Values(); vals["who"] != "Ana" {
			t.Errorf("typed Ana after choosing the prompt: its arguments are %v", vals)
		}
	})
	Sync(func() {
		_ = w.ShowScreenNow("Resources")
		r := ss.resources
		for i, v := range r.view {
			if v.item >= 0 && r.rows[v.item].tmpl != nil {
				r.list.Select(i)
			}
		}
	})
	typeFocused(w, "en")
	Sync(func() {
		if vals, _ := ss.resources.params.Values(); vals["lang"] != "en" {
			t.Errorf("typed en after choosing the template: its variables are %v", vals)
		}
	})
}

// askInvalidArguments connects a window and runs a tool with its
// required argument empty, which asks "Send invalid arguments?".
func askInvalidArguments(t *testing.T) *Window {
	t.Helper()
	w, _, ss := connected(t, nil)
	tool := Tool{Name: "needs", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)}
	Sync(func() {
		ss.tools.onSelect(tool)
		ss.tools.onRun()
	})
	return w
}

// TestInvalidArgumentsConfirmDefaultsToCancel: in "Send invalid
// arguments?" Cancel is the button that stands out, not Send anyway.
func TestInvalidArgumentsConfirmDefaultsToCancel(t *testing.T) {
	w := askInvalidArguments(t)
	Sync(func() {
		top := w.win.Canvas().Overlays().Top()
		if top == nil || !strings.Contains(texts(top), "Send invalid arguments?") {
			t.Fatal("Run with a required argument empty asked nothing")
		}
		imp := map[string]widget.Importance{}
		walkVisible(top, func(o fyne.CanvasObject) {
			if b, ok := esc.AsButton(o); ok {
				imp[b.Text] = b.Importance
			}
		})
		if imp["Cancel"] != widget.HighImportance || imp["Send anyway"] == widget.HighImportance {
			t.Errorf("Cancel's importance is %v, Send anyway's %v: want Cancel high, Send anyway not", imp["Cancel"], imp["Send anyway"])
		}
		esc.Cancel(w.win.Canvas())
	})
}

// TestCtrlEnterWaitsForTheOpenDialog: Ctrl+Enter while a confirmation is
// open does not reach the screen behind it: it asked "Send invalid
// arguments?" a second time over the first (#12). The dialog answers
// first; after it, Ctrl+Enter runs again.
func TestCtrlEnterWaitsForTheOpenDialog(t *testing.T) {
	w := askInvalidArguments(t)
	overlays := func() (n int) {
		Sync(func() { n = len(w.win.Canvas().Overlays().List()) })
		return n
	}
	if n := overlays(); n != 1 {
		t.Fatalf("Run with a required argument empty opened %d overlays, want its confirmation", n)
	}
	pressShortcut(w, fyne.KeyReturn)
	if n := overlays(); n != 1 {
		t.Errorf("Ctrl+Enter with the confirmation open left %d overlays: it ran the tool behind it again", n)
	}
	Sync(func() { esc.Cancel(w.win.Canvas()) })
	if n := overlays(); n != 0 {
		t.Fatalf("%d overlays after Cancel", n)
	}
	pressShortcut(w, fyne.KeyReturn)
	if n := overlays(); n != 1 {
		t.Errorf("Ctrl+Enter after the dialog closed opened %d overlays, want the confirmation again", n)
	}
}
