package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// absRect is o's rectangle in canvas coordinates.
func absRect(o fyne.CanvasObject) (fyne.Position, fyne.Size) {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o), o.Size()
}

func overlaps(p1 fyne.Position, s1 fyne.Size, p2 fyne.Position, s2 fyne.Size) bool {
	return p1.X < p2.X+s2.Width && p2.X < p1.X+s1.Width && p1.Y < p2.Y+s2.Height && p2.Y < p1.Y+s1.Height
}

// TestToastsCoverNoInspectorRows: toasts sit at the bottom left of the
// work area, inside it, clear of the inspector (whose newest rows are at
// its bottom), at 1280×800 and 1024×700; a message of up to 100
// characters is shown whole, wrapped, not cut with an ellipsis.
func TestToastsCoverNoInspectorRows(t *testing.T) {
	for _, sz := range []fyne.Size{fyne.NewSize(1280, 800), fyne.NewSize(1024, 700)} {
		w := newTestWindow(t, newFakeBackend("a"), nil)
		msg := "Could not save the trace: /home/me/traces/a-rather-long-folder-name/server-everything.jsonl is read-only"[:100]
		Sync(func() {
			w.win.Resize(sz)
			w.toast("error", msg)
			w.toast("ok", "Connected to a")
		})
		Sync(func() {
			if len(w.toasts.items) != 2 {
				t.Fatalf("%v: %d toasts", sz, len(w.toasts.items))
			}
			ip, is := absRect(w.inspector.obj)
			cp, cs := absRect(w.center)
			for _, it := range w.toasts.items {
				p, s := absRect(it.obj)
				if s.Width == 0 || s.Height == 0 {
					t.Fatalf("%v: toast %q not laid out", sz, it.text)
				}
				if overlaps(p, s, ip, is) {
					t.Errorf("%v: toast %q at %v %v covers the inspector at %v %v", sz, it.text, p, s, ip, is)
				}
				if p.X < cp.X || p.Y < cp.Y || p.X+s.Width > cp.X+cs.Width || p.Y+s.Height > cp.Y+cs.Height {
					t.Errorf("%v: toast %q at %v %v leaves the work area %v %v", sz, it.text, p, s, cp, cs)
				}
				if p.Y+s.Height < cp.Y+cs.Height-120 {
					t.Errorf("%v: toast %q at %v %v is not at the bottom of the work area %v %v", sz, it.text, p, s, cp, cs)
				}
			}
			var shown *widget.Label
			walkAll(w.toasts.items[0].obj, func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Could not save") {
					shown = l
				}
			})
			if shown == nil || shown.Text != msg || shown.Truncation != fyne.TextTruncateOff || shown.Wrapping != fyne.TextWrapWord {
				t.Errorf("%v: the message is not shown whole and wrapped: %+v", sz, shown)
			}
			if shown != nil {
				one := fyne.MeasureText("X", theme.TextSize(), shown.TextStyle).Height
				if shown.Size().Height < 2*one {
					t.Errorf("%v: a 100-character message in one line of %v: cut?", sz, shown.Size())
				}
			}
		})
	}
}

// TestToastTimersEndWithTheWindow: closing the window ends its toasts'
// timers, so none lays out the closed window later, beside whatever runs
// then (it raced the next test's widgets on Fyne's renderer cache: CI
// failed on TestMonospaceUnderscoresDrawn), and a timer that was already
// firing leaves the toasts alone.
func TestToastTimersEndWithTheWindow(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("one"), nil)
	var items []*toast
	Sync(func() {
		w.toast("ok", "Connected to one")
		w.toast("error", "Could not save")
		items = append(items, w.toasts.items...)
		w.Close()
	})
	if len(items) != 2 {
		t.Fatalf("%d toasts shown, want 2", len(items))
	}
	for _, it := range items {
		if it.timer.Stop() {
			t.Errorf("the toast %q still had its timer running after the window closed", it.text)
		}
	}
	// a timer that fired as the window closed finds the toaster closed
	Sync(func() {
		if !w.toasts.closed {
			t.Error("the toaster is not marked closed")
		}
	})
}

// TestToastActionsUnderTheMessage: a failure's toast with Show more and
// Show full error gives its message the toast's width, the actions on a
// line below it: beside the message they left it a column of a word or
// two a line ("everything / disconnected / : The server / process was"),
// ten lines for one sentence.
func TestToastActionsUnderTheMessage(t *testing.T) {
	for _, sz := range []fyne.Size{fyne.NewSize(1280, 800), fyne.NewSize(1024, 700)} {
		w := newTestWindow(t, newFakeBackend("a"), nil)
		msg := "everything disconnected: The server process was killed by signal terminated before answering. Its last words on stderr were about a port in use"
		Sync(func() {
			w.win.Resize(sz)
			w.toasts.showAction("error", msg, "Show full error", toastLife, func() {})
		})
		Sync(func() {
			obj := w.toasts.items[0].obj
			var label *widget.Label
			buttons := map[string]*widget.Button{}
			walkAll(obj, func(o fyne.CanvasObject) {
				switch x := o.(type) {
				case *widget.Label:
					label = x
				case *widget.Button:
					buttons[x.Text] = x
				}
			})
			if label == nil || buttons["Show more"] == nil || buttons["Show full error"] == nil {
				t.Fatalf("%v: the toast lacks its message or actions: %v", sz, buttons)
			}
			_, ts := absRect(obj)
			lp, ls := absRect(label)
			if ls.Width < ts.Width*0.7 {
				t.Errorf("%v: the message is %v wide in a toast %v wide", sz, ls.Width, ts.Width)
			}
			one := fyne.MeasureText("X", theme.TextSize(), label.TextStyle).Height
			if lines := ls.Height / one; lines > 4 {
				t.Errorf("%v: the message takes %.0f lines", sz, lines)
			}
			for name, b := range buttons {
				if name == "" {
					continue // close, at the top right
				}
				bp, _ := absRect(b)
				if bp.Y < lp.Y+ls.Height {
					t.Errorf("%v: %s at %v is beside the message (%v %v), not below it", sz, name, bp, lp, ls)
				}
			}
		})
	}
}
