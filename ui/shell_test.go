package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TestWindowGivesWayWhenSmall: a window smaller than its content never
// cuts the content off. At 700×500 the server list collapses to its rail
// (as View → Server list would) and the rest fits; at 500×400 what does
// not fit scrolls; at 1280×800 the list is back. The window's minimum
// size stays within an 800×600 screen.
func TestWindowGivesWayWhenSmall(t *testing.T) {
	w, _, _ := connected(t, nil)
	// fits lays the window out at size: the content gets what it needs
	// (the split or the rail inside is laid out at its minimum size or
	// more, so nothing in it is clipped), and it scrolls only when the
	// window is smaller than that
	fits := func(size fyne.Size, scrolls bool) {
		t.Helper()
		w.win.Resize(size)
		view, got := w.fitted.Size(), w.main.Size()
		for _, o := range w.main.Objects {
			if o.Size().Width < o.MinSize().Width || o.Size().Height < o.MinSize().Height {
				t.Errorf("at %v the content is laid out at %v, less than the %v it needs (cut off)", size, o.Size(), o.MinSize())
			}
		}
		if over := got.Width > view.Width+0.5 || got.Height > view.Height+0.5; over != scrolls {
			t.Errorf("at %v the content is %v in a view of %v: scrolls %v, want %v", size, got, view, over, scrolls)
		}
	}
	Sync(func() {
		fits(fyne.NewSize(700, 500), false)
		if w.listShown {
			t.Error("at 700×500 the server list is still shown beside the screens")
		}
		if m := w.main.MinSize(); m.Width > 700 || m.Height > 500 {
			t.Errorf("at 700×500 with the list collapsed the content needs %v", m)
		}
		if m := w.win.Content().MinSize(); m.Width > 800*0.95 || m.Height > 600*0.92 {
			t.Errorf("the window's minimum size %v is larger than an 800×600 screen allows", m)
		}
		fits(fyne.NewSize(500, 400), true)
		// the list opened by hand in a narrow window stays open
		w.ToggleServerList()
		fits(fyne.NewSize(700, 500), w.mainSp.MinSize().Width > 700)
		if !w.listShown {
			t.Error("the list opened by hand at 700×500 collapsed again")
		}
		w.ToggleServerList()
		if w.listShown {
			t.Error("the list did not collapse by hand")
		}
		w.ToggleServerList()
		fits(fyne.NewSize(1280, 800), false)
		if !w.listShown || !strings.Contains(texts(w.win.Content()), "Servers") {
			t.Error("at 1280×800 the server list did not come back")
		}
		w.ToggleServerList()
		fits(fyne.NewSize(700, 500), false)
		fits(fyne.NewSize(1280, 800), false)
		if w.listShown {
			t.Error("the list the user collapsed came back when the window grew")
		}
	})
}

// TestCardToggleSelectsTheCard: the connect toggle of a card that is not
// selected connects its server and selects it, so its screens show.
func TestCardToggleSelectsTheCard(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("one", "two"), nil)
	Sync(func() {
		if w.selected != w.server("one") {
			t.Fatal("the first server is not selected at start")
		}
		test.Tap(w.list.cards[w.server("two")].toggle)
	})
	waitFor(t, "two connected", func() bool { return w.server("two").state.State == StateConnected })
	Sync(func() {
		if w.selected != w.server("two") {
			t.Errorf("the toggle of two connected it but %s stays selected", w.selected.cfg.Name)
		}
		if w.middle.Objects[0] != w.server("two").pane() {
			t.Error("the centre does not show two's screens")
		}
	})
}

// TestJSONErrorsInPlainWords: a JSON parse error of the user's text or a
// server's payload reaches the window in plain words, never in Go's (the
// wording itself is ui/plain's, tested there).
func TestJSONErrorsInPlainWords(t *testing.T) {
	var v any
	bad := fmt.Errorf("read profiles: %w", json.Unmarshal([]byte(`{"a": x}`), &v))
	if head, full := plainError(bad); head != "This is not valid JSON: unexpected character 'x' (at character 7)." || full != bad.Error() {
		t.Errorf("plainError(%q) = %q, %q", bad, head, full)
	}
	// the tester's live line and Send's message
	for _, text := range []string{`{"method": x}`, `{"method": "a"`, `{"method" "a"}`} {
		_, _, err := parseRequest(text)
		if err == nil || strings.Contains(err.Error(), "invalid character") || strings.Contains(err.Error(), "JSON input") {
			t.Errorf("parseRequest(%s) = %v, want plain words", text, err)
		}
	}
	if got := plainHeadline(errors.New("plain")); got != "Plain" {
		t.Errorf("a plain error reads %q", got)
	}
}

// TestEscCancelsFileDialogs: Esc cancels Fyne's file dialogs the window
// shows through esc.Show — a save dialog, which opens with the focus in
// its file name, and an open dialog — and a save dialog still saves the
// name typed.
func TestEscCancelsFileDialogs(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("one"), nil)
	c := w.win.Canvas()
	dir := storage.NewFileURI(t.TempDir())
	lister, err := storage.ListerForURI(dir)
	if err != nil {
		t.Fatal(err)
	}
	var saved fyne.URI
	save := func() *dialog.FileDialog {
		d := dialog.NewFileSave(func(wr fyne.URIWriteCloser, err error) {
			if wr != nil {
				saved = wr.URI()
				wr.Close()
			}
		}, w.win)
		d.SetFileName("trace.json")
		d.SetLocation(lister)
		return d
	}
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		esc.Show(save(), w.win)
		f, ok := c.Focused().(fyne.CanvasObject)
		if e, isEntry := esc.AsEntry(f); !ok || !isEntry || e.Text != "trace.json" {
			t.Fatalf("the save dialog opened with %T focused, want its file name", c.Focused())
		}
		pressEsc(c)
		if c.Overlays().Top() != nil || esc.Open(c) != 0 {
			t.Error("Esc in the save dialog's file name left it open")
		}

		open := dialog.NewFileOpen(func(fyne.URIReadCloser, error) {}, w.win)
		open.SetLocation(lister)
		esc.Show(open, w.win)
		pressEsc(c)
		if c.Overlays().Top() != nil || esc.Open(c) != 0 {
			t.Error("Esc left the open dialog open")
		}

		esc.Show(save(), w.win)
		focused, ok := c.Focused().(fyne.CanvasObject)
		name, isEntry := esc.AsEntry(focused)
		if !ok || !isEntry {
			t.Fatalf("the save dialog opened with %T focused, not its name field", c.Focused())
		}
		name.SetText("other.json")
		if b := findButton(c.Overlays().Top(), "Save"); b == nil {
			t.Fatal("no Save button")
		} else {
			test.Tap(b)
		}
	})
	if saved == nil || saved.Name() != "other.json" {
		t.Errorf("the save dialog saved %v, want the name typed, other.json", saved)
	}
}
