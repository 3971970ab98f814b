package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// inDock reports whether the inspector is the main window's right panel.
func inDock(w *Window) bool {
	return w.split.Trailing == w.inspector.obj && len(w.body.Objects) == 1 && w.body.Objects[0] == w.split
}

func TestDetachInspector(t *testing.T) {
	b := newFakeBackend("a")
	w := newTestWindow(t, b, nil)
	item := menuItem(t, w, "View", "Detach inspector")
	var n0 int
	Sync(func() { n0 = len(w.app.Driver().AllWindows()) })
	Sync(item.Action)
	Sync(func() {
		if w.inspWin == nil || w.inspWin.Content() != w.inspector.obj {
			t.Fatal("View › Detach inspector did not put the inspector in its own window")
		}
		if inDock(w) || w.body.Objects[0] != w.center {
			t.Error("the detached inspector still takes the main window's right panel")
		}
		if !item.Checked {
			t.Error("View › Detach inspector is not ticked while detached")
		}
		if n := len(w.app.Driver().AllWindows()); n != n0+1 {
			t.Errorf("%d windows, want %d: the inspector's one more", n, n0+1)
		}
		// Ctrl+F still reaches the inspector's search, in its window
		w.onFocusSearch()
		if w.inspWin.Canvas().Focused() != w.inspector.search {
			t.Error("Ctrl+F does not focus the detached inspector's search")
		}
		w.inspWin.Resize(fyne.NewSize(700, 500))
		// the same menu, whose shortcuts work in the inspector's window too
		if w.inspWin.MainMenu() != w.win.MainMenu() {
			t.Error("the inspector's window has not the main menu")
		}
	})
	// the window's close button docks it back (SetCloseIntercept runs
	// dockInspector; the test driver has no close button to press)
	Sync(w.dockInspector)
	Sync(func() {
		if w.inspWin != nil || !inDock(w) || !w.inspOpen {
			t.Error("closing the inspector's window did not dock it back")
		}
		if item.Checked {
			t.Error("View › Detach inspector is still ticked after docking")
		}
		if n := len(w.app.Driver().AllWindows()); n != n0 {
			t.Errorf("%d windows after docking, want %d", n, n0)
		}
		if got := w.app.Preferences().Float(prefInspWinW); got != 700 {
			t.Errorf("the inspector window's width is remembered as %v, want 700", got)
		}
	})
	// detached, Ctrl+I docks and hides it
	Sync(item.Action)
	Sync(w.ToggleInspector)
	Sync(func() {
		if w.inspWin != nil || w.inspOpen || w.body.Objects[0] != w.center {
			t.Error("Ctrl+I on a detached inspector did not dock and hide it")
		}
	})
}

// A window closed with the inspector detached opens with it detached, in
// the size it had.
func TestDetachedInspectorRemembered(t *testing.T) {
	b := newFakeBackend("a")
	w := newTestWindow(t, b, nil)
	Sync(func() {
		n0 := len(w.app.Driver().AllWindows())
		w.detachInspector()
		w.inspWin.Resize(fyne.NewSize(640, 480))
		w.Close()
		if w.inspWin != nil || len(w.app.Driver().AllWindows()) != n0 {
			t.Error("closing the main window left the inspector's window open")
		}
	})
	var w2 *Window
	Sync(func() {
		w2 = New(w.app, b, &Options{})
		w2.win.Show()
	})
	t.Cleanup(func() { Sync(w2.Close) })
	Sync(func() {
		if w2.inspWin == nil {
			t.Fatal("the inspector is not detached again")
		}
		if sz := w2.inspWin.Canvas().Size(); sz.Width != 640 || sz.Height != 480 {
			t.Errorf("the inspector's window is %v, want 640×480", sz)
		}
	})
	Sync(w2.dockInspector)
	Sync(w2.Close)
	if w.app.Preferences().Bool(prefInspDetached) {
		t.Error("a docked inspector is remembered as detached")
	}
}

// While the server's requests wait, the window's title says how many, so a
// window behind others or minimised still tells the user.
func TestTitleCountsWaitingRequests(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("a"), nil)
	Sync(func() {
		w.SetRequests(&fyne.Container{})
		w.SetRequestCount(2)
		if got := w.win.Title(); got != "Spyglass (2 waiting for you)" {
			t.Errorf("title %q with two requests waiting", got)
		}
		w.SetRequestCount(0)
		if got := w.win.Title(); got != "Spyglass" {
			t.Errorf("title %q with none waiting", got)
		}
	})
}

// On a small screen the detached inspector's window starts within it, as
// the main window does (FitScreen).
func TestDetachedInspectorFitsScreen(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("a"), nil)
	Sync(func() {
		w.FitScreen(1024, 700)
		w.detachInspector()
		if sz := w.inspWin.Canvas().Size(); sz.Width > 1024*0.95 || sz.Height > 700*0.92 {
			t.Errorf("the inspector's window is %v on a 1024×700 screen", sz)
		}
		w.dockInspector()
	})
}

// Detaching the inspector gives its window objects of its own, and shows
// in them what the docked inspector showed: the search as typed, the tab,
// Resume while paused, the event open with its tab. Moving the docked
// objects to the other window drew a main-window text ("Experimental")
// as a black bar: Fyne keys its GL textures by object alone (#12).
func TestDetachBuildsItsOwnObjects(t *testing.T) {
	w, b, _ := connected(t, nil)
	now := time.Now()
	b.ev.send(
		EventView{Seq: 1001, Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "5", Method: "tools/call",
			Title: "tools/call #5", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1002, Time: now,
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"needle"}}}`)},
		EventView{Seq: 1002, Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "5", Method: "tools/call",
			Title: "result #5 · tools/call", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1001, Time: now.Add(3 * time.Millisecond),
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a"}],"isError":false}}`)},
	)
	in := w.inspector
	Sync(func() {
		in.onTab("tools")
		in.search.SetText("needle")
	})
	shownWhen(t, in, "the search for needle", func(titles []string) bool {
		return len(titles) == 1 && titles[0] == "tools/call #5"
	})
	if err := w.OpenEvent("tools/call #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	var docked map[fyne.CanvasObject]bool
	Sync(func() {
		in.detail.tabs.SelectIndex(1) // This run
		in.onPause()
		docked = objectsUnder(in.obj)
		w.detachInspector()
	})
	check := func(where string) {
		t.Helper()
		Sync(func() {
			for o := range objectsUnder(in.obj) {
				if docked[o] {
					t.Fatalf("%s, the inspector shows an object (%T) of the docked one: its texture is freed in the other window's GL context", where, o)
				}
			}
			if in.search.Text != "needle" || in.query != "needle" {
				t.Errorf("%s, the search reads %q (query %q), want needle", where, in.search.Text, in.query)
			}
			if in.tabBtns[2].Importance != widget.HighImportance {
				t.Errorf("%s, the Tools tab is not the one shown", where)
			}
			if in.pauseBtn.Text != "Resume" || !strings.Contains(in.counters.Text, "paused") {
				t.Errorf("%s, paused reads %q, %q", where, in.pauseBtn.Text, in.counters.Text)
			}
			if got := in.shownTitles(); len(got) != 1 || got[0] != "tools/call #5" {
				t.Errorf("%s, the list shows %q", where, got)
			}
			if in.selSeq != 1001 || !in.detail.obj.Visible() || in.detail.title.Text != "tools/call #5" {
				t.Errorf("%s, the event open is %d (details shown %v, %q)", where, in.selSeq, in.detail.obj.Visible(), in.detail.title.Text)
			}
			if in.detail.tabs.SelectedIndex() != 1 {
				t.Errorf("%s, the details show tab %d, want This run", where, in.detail.tabs.SelectedIndex())
			}
		})
	}
	check("detached")
	Sync(func() {
		if w.inspWin.Content() != in.obj {
			t.Error("the inspector's window does not show the inspector")
		}
		docked = objectsUnder(in.obj)
		w.dockInspector()
	})
	check("docked again")
	Sync(func() {
		if !inDock(w) {
			t.Error("the inspector is not the main window's right panel again")
		}
	})
}

// objectsUnder is every object in o's tree, widgets' renderers' included.
func objectsUnder(o fyne.CanvasObject) map[fyne.CanvasObject]bool {
	all := map[fyne.CanvasObject]bool{}
	walkAll(o, func(o fyne.CanvasObject) { all[o] = true })
	return all
}

// The detached inspector's list shows the newest rows, as the docked one
// did: scrolled before its window laid it out, it stayed at its top.
func TestDetachedListFollowsNewest(t *testing.T) {
	w, b, _ := connected(t, nil)
	Sync(func() { w.FitScreen(1024, 700) })
	var evs []EventView
	for i := range 60 {
		evs = append(evs, EventView{Server: "fake", Kind: "state", Title: "state · " + itoa(i), Categories: []string{"logs"}})
	}
	b.ev.send(evs...)
	in := w.inspector
	newest := func() bool {
		titles, _ := rowTexts(in)
		return !in.later.pending && len(titles) > 0 && titles[len(titles)-1] == "state · 59"
	}
	waitFor(t, "the newest row in view", newest)
	for _, move := range []struct {
		where string
		do    func()
	}{{"detached", w.detachInspector}, {"docked again", w.dockInspector}} {
		Sync(func() {
			move.do()
			if !newest() {
				titles, _ := rowTexts(in)
				t.Errorf("%s, the rows in view are %q: the newest, state · 59, is out of view", move.where, titles)
			}
		})
	}
}

// Collapsing the server list or hiding and showing the inspector keeps
// the inspector's newest rows in view: collapsing the list scrolled it
// back to its first row.
func TestInspectorKeepsItsPlaceWhenTheWorkAreaChanges(t *testing.T) {
	w, b, _ := connected(t, nil)
	Sync(func() { w.FitScreen(1024, 700) })
	var evs []EventView
	for i := range 60 {
		evs = append(evs, EventView{Server: "fake", Kind: "state", Title: "state · " + itoa(i), Categories: []string{"logs"}})
	}
	b.ev.send(evs...)
	in := w.inspector
	newest := func() bool {
		titles, _ := rowTexts(in)
		return !in.later.pending && len(titles) > 0 && titles[len(titles)-1] == "state · 59"
	}
	waitFor(t, "the newest row in view", newest)
	for _, move := range []struct {
		what string
		do   func()
	}{
		{"the server list collapsed", w.ToggleServerList},
		{"the server list shown again", w.ToggleServerList},
		{"the inspector hidden and shown", func() { w.ToggleInspector(); w.ToggleInspector() }},
	} {
		Sync(func() {
			move.do()
			if !newest() {
				titles, _ := rowTexts(in)
				t.Errorf("with %s, the rows in view are %q: the newest, state · 59, is out of view", move.what, titles)
			}
		})
	}
}
