package ui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// tapBackend is the fake backend with "Tap this server in…".
type tapBackend struct {
	*fakeBackend
	mu      sync.Mutex
	written []string // "tap FILE" / "untap FILE", in order
	http    bool     // the server is an HTTP one: its plan says what must run
}

func (b *tapBackend) PlanTap(path, server string, undo bool) (TapPlan, error) {
	if strings.HasSuffix(path, "other.json") {
		return TapPlan{}, errors.New(path + ` has no server named "` + server + `"`)
	}
	op := "tap "
	if undo {
		op = "untap "
	}
	p := TapPlan{
		Diff: "--- " + path + "\n+++ " + path + " (through the tap)\n-      \"command\": \"server-a\",\n+      \"command\": \"/usr/bin/spyglass\",\n",
		Apply: func() error {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.written = append(b.written, op+path)
			return nil
		},
		Done: server + " launches directly again",
	}
	if b.http && !undo {
		p.Run = "/usr/bin/spyglass --tap --listen 127.0.0.1:8931 --upstream https://mcp.example.com/mcp --name " + server
	}
	return p, nil
}

// TestTapIn: the dialog shows the backend's diff for the file given,
// writes nothing until asked, says what is wrong with a file without the
// server, and the toast's Undo takes the change back.
func TestTapIn(t *testing.T) {
	b := &tapBackend{fakeBackend: newFakeBackend("a")}
	w := newTestWindowBackend(t, b)
	var top fyne.CanvasObject
	var path *widget.Entry
	Sync(func() {
		w.showTapIn("a")
		top = w.win.Canvas().Overlays().Top()
		walkVisible(top, func(o fyne.CanvasObject) {
			if e, ok := esc.AsEntry(o); ok && path == nil {
				path = e
			}
		})
	})
	if path == nil {
		t.Fatal("no path entry in the dialog")
	}
	Sync(func() {
		path.SetText("/home/u/other.json")
		tapButton(t, top, "Show the change")
	})
	Sync(func() {
		if got := texts(top); !strings.Contains(got, `has no server named "a"`) || findButton(top, "Write the change") != nil {
			t.Errorf("a file without the server:\n%s", got)
		}
		path.SetText("/home/u/claude.json")
		tapButton(t, top, "Show the change")
	})
	Sync(func() {
		if got := texts(top); !strings.Contains(got, `+      "command": "/usr/bin/spyglass",`) || !strings.Contains(got, "Nothing is written until") {
			t.Errorf("no diff shown:\n%s", got)
		}
	})
	b.mu.Lock()
	if len(b.written) != 0 {
		t.Errorf("written before asked: %v", b.written)
	}
	b.mu.Unlock()
	Sync(func() { tapButton(t, top, "Write the change") })
	var undo *widget.Button
	Sync(func() {
		for _, it := range w.toasts.items {
			if strings.Contains(it.text, "a now goes through the tap in claude.json") {
				walkAll(it.obj, func(o fyne.CanvasObject) {
					if bt, ok := esc.AsButton(o); ok && bt.Text == "Undo" {
						undo = bt
					}
				})
			}
		}
	})
	if undo == nil {
		t.Fatalf("no toast with Undo: %q", w.toasts.texts())
	}
	Sync(func() { test.Tap(undo) })
	b.mu.Lock()
	defer b.mu.Unlock()
	if strings.Join(b.written, ", ") != "tap /home/u/claude.json, untap /home/u/claude.json" {
		t.Errorf("writes %v", b.written)
	}
}

// TestTapInHTTP: for an HTTP server the window says, once the change is
// written, what must run for the client to reach it (a client cannot
// start an HTTP tap), with the command to copy; the Undo toast comes
// when that is closed, not behind it.
func TestTapInHTTP(t *testing.T) {
	b := &tapBackend{fakeBackend: newFakeBackend("a"), http: true}
	w := newTestWindowBackend(t, b)
	var top fyne.CanvasObject
	Sync(func() {
		w.showTapIn("a")
		top = w.win.Canvas().Overlays().Top()
		walkVisible(top, func(o fyne.CanvasObject) {
			if e, ok := esc.AsEntry(o); ok && e.Text == "" {
				e.SetText("/home/u/mcp.json")
			}
		})
		tapButton(t, top, "Show the change")
	})
	Sync(func() { tapButton(t, top, "Write the change") })
	const run = "/usr/bin/spyglass --tap --listen 127.0.0.1:8931 --upstream https://mcp.example.com/mcp --name a"
	Sync(func() {
		top = w.win.Canvas().Overlays().Top()
		if got := texts(top); !strings.Contains(got, run) || !strings.Contains(got, "A client cannot start an HTTP tap itself") {
			t.Errorf("no word about what must run:\n%s", got)
		}
		tapButton(t, top, "Copy the command")
		if got := fyne.CurrentApp().Clipboard().Content(); got != run {
			t.Errorf("clipboard %q", got)
		}
		if got := strings.Join(w.toasts.texts(), " "); strings.Contains(got, "now goes through the tap") {
			t.Errorf("the Undo toast came while the command is shown: %q", got)
		}
		tapButton(t, top, "Close")
	})
	Sync(func() {
		if got := strings.Join(w.toasts.texts(), " "); !strings.Contains(got, "a now goes through the tap in mcp.json") {
			t.Errorf("no toast with Undo once the command was read: %q", got)
		}
	})
}

// TestTapInHoldsStill: the dialog keeps its size, and Write the change
// its place, when a message or the diff fills in (#12: it grew and moved
// when "There is no file at …" appeared).
func TestTapInHoldsStill(t *testing.T) {
	b := &tapBackend{fakeBackend: newFakeBackend("a")}
	w := newTestWindowBackend(t, b)
	var top fyne.CanvasObject
	var path *widget.Entry
	var write *widget.Button
	where := func() (fyne.Position, fyne.Size) {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(write), top.MinSize()
	}
	var pos0 fyne.Position
	var size0 fyne.Size
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		w.showTapIn("a")
		top = w.win.Canvas().Overlays().Top()
		walkAll(top, func(o fyne.CanvasObject) {
			if e, ok := esc.AsEntry(o); ok && path == nil {
				path = e
			}
			if bt, ok := esc.AsButton(o); ok && bt.Text == "Write the change" {
				write = bt
			}
		})
		if path == nil || write == nil {
			t.Fatal("no path entry or Write the change in the dialog")
		}
		pos0, size0 = where()
		path.SetText("/home/u/other.json")
		tapButton(t, top, "Show the change")
	})
	for _, step := range []string{"the error", "the diff"} {
		Sync(func() {
			if pos, size := where(); pos != pos0 || size != size0 {
				t.Errorf("with %s shown, Write the change is at %v (was %v) and the dialog %v (was %v)", step, pos, pos0, size, size0)
			}
			path.SetText("/home/u/claude.json")
			tapButton(t, top, "Show the change")
		})
	}
}
