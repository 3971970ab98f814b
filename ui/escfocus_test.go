package ui

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// TestEscCancelsDialogsWhateverHasFocus opens each dialog of the window,
// Tabs onto each of its controls in turn — the dialog's own Cancel/OK
// buttons included — and presses Esc: the dialog closes every time.
func TestEscCancelsDialogsWhateverHasFocus(t *testing.T) {
	b := newFakeBackend("one")
	w := newTestWindow(t, b, &Options{PreviousCrash: "panic: boom\n\ngoroutine 1 [running]:",
		ReportProblem: func(io.Writer, bool, string) error { return nil }})
	c := w.win.Canvas()
	open := []struct {
		name string
		fn   func()
	}{
		{"add server", func() { showServerForm(w, "", ServerConfig{Transport: "stdio"}) }},
		{"remove confirmation", func() { w.list.cards[w.server("one")].onRemove() }},
		{"keyboard shortcuts", func() { w.onShortcutHelp("Ctrl") }},
		{"about", w.onAbout},
		{"edit server, every section open", func() {
			showServerForm(w, "one", b.Servers()[0])
			walkAll(c.Overlays().Top(), func(o fyne.CanvasObject) {
				if a, ok := o.(*esc.Accordion); ok {
					for i := range a.Items {
						a.Open(i)
					}
				}
			})
		}},
		{"show full error", func() { showTextDialog("Details", "session: tools/call: a long error", w.win) }},
		{"sampling profiles", func() { requests.ShowProfilesEditor(w.win, memProfiles{}, nil) }},
		{"sampling profiles, editing one", func() {
			requests.ShowProfilesEditor(w.win, memProfiles{}, nil)
			walkAll(c.Overlays().Top(), func(o fyne.CanvasObject) {
				if b, ok := o.(*esc.Button); ok && b.Text == "New Profile" {
					test.Tap(b)
				}
			})
		}},
		{"connect-time inputs", func() {
			w.server("one").askInputs(&InputsNeededError{Server: "one", Inputs: []Input{{ID: "key", Where: "env.KEY"}},
				Provide: func(map[string]string) error { return nil }, Err: errors.New("needs a value")})
		}},
		{"crash offer", w.offerCrash},
		{"crash log", w.showCrashLog},
		{"report a problem", w.onReportProblem},
	}
	for _, o := range open {
		t.Run(o.name, func(t *testing.T) { escFromEveryControl(t, c, o.fn) })
	}
	if len(b.Servers()) != 1 {
		t.Error("Esc on the remove confirmation removed the server")
	}
}

// TestEscCancelsTapInWhateverHasFocus: the same for "Tap this server in…".
func TestEscCancelsTapInWhateverHasFocus(t *testing.T) {
	b := &tapBackend{fakeBackend: newFakeBackend("a")}
	w := newTestWindowBackend(t, b)
	escFromEveryControl(t, w.win.Canvas(), func() { w.showTapIn("a") })
}

// escFromEveryControl opens a dialog with open once to count the controls
// Tab reaches, then once per control: Tab onto it, Esc, and the dialog
// must be gone.
func escFromEveryControl(t *testing.T, c fyne.Canvas, open func()) {
	t.Helper()
	// how many controls Tab reaches before it comes round again
	n := 0
	Sync(func() {
		open()
		test.FocusNext(c)
		first := c.Focused()
		n = 1
		for test.FocusNext(c); c.Focused() != first && n < 300; test.FocusNext(c) {
			n++
		}
		pressEsc(c)
		for c.Overlays().Top() != nil {
			c.Overlays().Remove(c.Overlays().Top())
		}
	})
	for i := 1; i <= n; i++ {
		Sync(func() {
			before := len(c.Overlays().List())
			open()
			if len(c.Overlays().List()) == before {
				t.Fatalf("no dialog opened")
			}
			for range i {
				test.FocusNext(c)
			}
			focused := fmt.Sprintf("%T", c.Focused())
			if f, ok := c.Focused().(fyne.CanvasObject); ok {
				if b, ok := esc.AsButton(f); ok {
					focused += " " + b.Text
				}
			}
			pressEsc(c)
			if got := len(c.Overlays().List()); got != before {
				t.Errorf("Esc with %s focused (Tab ×%d of %d) left the dialog open", focused, i, n)
				for c.Overlays().Top() != nil {
					c.Overlays().Remove(c.Overlays().Top())
				}
			}
		})
	}
}

// TestDialogsAreMadeByEsc: no window code makes a dialog with Fyne's own
// constructors, whose Cancel/OK buttons drop Esc once Tab reaches them;
// esc.NewCustom, NewCustomConfirm, NewConfirm, NewInformation and NewForm
// take the same arguments.
func TestDialogsAreMadeByEsc(t *testing.T) {
	fyneMade := regexp.MustCompile(`\bdialog\.(New|Show)(Custom|CustomConfirm|Confirm|Information|Error|Form|EntryDialog)\(`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path == "esc" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if fyneMade.MatchString(line) {
				t.Errorf("%s:%d makes a dialog with Fyne's constructor (Esc is dropped on its buttons): use esc's: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
