package ui

import (
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// menuItem finds the main menu's item menu › label (› child for submenus).
func menuItem(t *testing.T, w *Window, path ...string) *fyne.MenuItem {
	t.Helper()
	mm := w.win.MainMenu()
	if mm == nil {
		t.Fatal("the window has no main menu")
	}
	var items []*fyne.MenuItem
	for _, m := range mm.Items {
		if m.Label == path[0] {
			items = m.Items
		}
	}
	for _, label := range path[1:] {
		var found *fyne.MenuItem
		for _, it := range items {
			if it.Label == label {
				found = it
			}
		}
		if found == nil {
			t.Fatalf("no menu item %q in %v", label, path)
		}
		if found.ChildMenu != nil {
			items = found.ChildMenu.Items
		}
		if label == path[len(path)-1] {
			return found
		}
	}
	t.Fatalf("no menu %v", path)
	return nil
}

func TestMenus(t *testing.T) {
	b := newFakeBackend("a", "b")
	w := newTestWindow(t, b, &Options{Version: "1.2.3"})
	act := func(path ...string) { it := menuItem(t, w, path...); Sync(it.Action) }

	act("View", "Inspector")
	Sync(func() {
		if w.inspOpen {
			t.Error("View › Inspector did not hide the inspector")
		}
	})
	act("View", "Server list")
	Sync(func() {
		if w.listOpen {
			t.Error("View › Server list did not collapse the list")
		}
	})
	act("View", "Search")
	Sync(func() {
		if !w.inspOpen || w.win.Canvas().Focused() != w.inspector.search {
			t.Error("View › Search (Ctrl+F) did not focus the inspector's search")
		}
	})
	if sc := menuItem(t, w, "View", "Search").Shortcut; sc == nil || !strings.HasSuffix(sc.ShortcutName(), "+F") {
		t.Errorf("Search has shortcut %v, want Ctrl+F", sc)
	}

	act("View", "Theme", "Dark")
	dark := w.baseTheme.Color(theme.ColorNameBackground, theme.VariantDark)
	if got := w.app.Settings().Theme().Color(theme.ColorNameBackground, theme.VariantLight); !sameColor(got, dark) {
		t.Errorf("Theme › Dark: background %v, want %v", got, dark)
	}
	if w.app.Preferences().String(prefTheme) != "dark" {
		t.Error("the theme choice is not remembered")
	}
	act("View", "Theme", "System")
	if got := w.app.Settings().Theme().Color(theme.ColorNameBackground, theme.VariantLight); !sameColor(got, w.baseTheme.Color(theme.ColorNameBackground, theme.VariantLight)) {
		t.Error("Theme › System did not go back to the start theme")
	}

	Sync(func() { w.selectServer(w.server("b")) })
	act("Servers", "Connect")
	waitFor(t, "connected", func() bool { return w.server("b").state.State == StateConnected })
	act("Servers", "Disconnect")
	waitFor(t, "disconnected", func() bool { return w.server("b").state.State == StateDisconnected })
	act("Servers", "Edit…")
	waitFor(t, "the edit form", func() bool {
		o := w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "b")
	})
	Sync(func() { w.win.Canvas().Overlays().Remove(w.win.Canvas().Overlays().Top()) })

	act("Help", "About Spyglass")
	waitFor(t, "About", func() bool {
		o := w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "Spyglass 1.2.3")
	})
	Sync(func() { w.win.Canvas().Overlays().Remove(w.win.Canvas().Overlays().Top()) })
	act("Help", "Keyboard shortcuts")
	waitFor(t, "the shortcuts", func() bool {
		o := w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "F") && strings.Contains(texts(o), "Run the selected tool")
	})
	for _, path := range [][]string{{"Servers", "Add server…"}, {"Servers", "Remove…"}, {"Tools", "Run tool"}, {"Tools", "Cancel call"}, {"Settings", "Sampling profiles…"}, {"Help", "Troubleshooting"}} {
		if menuItem(t, w, path...).Action == nil {
			t.Errorf("%v does nothing", path)
		}
	}
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

func TestWindowRemembersItself(t *testing.T) {
	a := test.NewTempApp(t)
	b := newFakeBackend("a", "b")
	var w *Window
	Sync(func() {
		w = New(a, b, &Options{})
		w.win.Resize(fyne.NewSize(1000, 700))
		w.mainSp.SetOffset(0.3)
		w.split.SetOffset(0.5)
		w.ToggleInspector()
		w.selectServer(w.server("b"))
		w.Close()
	})
	var w2 *Window
	Sync(func() { w2 = New(a, b, &Options{}) })
	t.Cleanup(func() { Sync(w2.Close) })
	Sync(func() {
		if sz := w2.win.Canvas().Size(); sz.Width != 1000 || sz.Height != 700 {
			t.Errorf("size %v, want 1000×700", sz)
		}
		if w2.mainSp.Offset != 0.3 || w2.split.Offset != 0.5 {
			t.Errorf("splits %v, %v; want 0.3, 0.5", w2.mainSp.Offset, w2.split.Offset)
		}
		if w2.inspOpen {
			t.Error("the hidden inspector came back")
		}
		if w2.selected == nil || w2.selected.cfg.Name != "b" {
			t.Errorf("selected %v, want b", w2.selected)
		}
	})
}
