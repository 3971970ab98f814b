package ui

import (
	"testing"

	"fyne.io/fyne/v2"
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
