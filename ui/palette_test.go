package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// pressShortcut sends Ctrl+key (⌘ on macOS builds is not what this test
// driver sees) to the window's canvas, as the keyboard would with no
// text field focused.
func pressShortcut(w *Window, k fyne.KeyName) {
	Sync(func() {
		w.win.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierControl})
	})
}

// openPalette opens the palette with Ctrl+K and types q into it.
func openPalette(t *testing.T, w *Window, q string) *palette {
	t.Helper()
	pressShortcut(w, fyne.KeyK)
	var p *palette
	Sync(func() {
		p = w.palette
		if p == nil || !p.pop.Visible() {
			t.Fatal("Ctrl+K did not open the command palette")
		}
		if w.win.Canvas().Focused() != p.entry {
			t.Fatal("the palette's filter does not have the focus")
		}
		test.Type(p.entry, q)
	})
	return p
}

// typeKey sends a key to whatever has the focus.
func typeKey(w *Window, k fyne.KeyName) {
	Sync(func() {
		if f := w.win.Canvas().Focused(); f != nil {
			f.TypedKey(&fyne.KeyEvent{Name: k})
		}
	})
}

// shownLabels are the palette's lines as "kind: label".
func shownLabels(p *palette) []string {
	var out []string
	for _, it := range p.shown {
		out = append(out, it.kind+": "+it.label)
	}
	return out
}

func TestPaletteOpensTool(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() { _ = w.ShowScreenNow("Server info") })
	p := openPalette(t, w, "boom")
	Sync(func() {
		if len(p.shown) == 0 || p.shown[0].kind != "Tool" || p.shown[0].label != "boom" {
			t.Fatalf("typing boom lists %v first, want the tool boom", shownLabels(p))
		}
	})
	typeKey(w, fyne.KeyReturn)
	Sync(func() {
		if p.pop.Visible() {
			t.Error("Enter left the palette open")
		}
		if tab := ss.tabs.Selected(); tab == nil || tab.Text != "Tools" {
			t.Errorf("the palette opened tab %v, want Tools", tab)
		}
		if ss.tools.selected == nil || ss.tools.selected.Name != "boom" {
			t.Errorf("the selected tool is %+v, want boom", ss.tools.selected)
		}
	})
}

// A tool hidden by the Tools screen's search is still reached: the search
// is cleared.
func TestPaletteOpensFilteredOutTool(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() { ss.tools.search.SetText("echo") })
	openPalette(t, w, "nothing")
	typeKey(w, fyne.KeyReturn)
	Sync(func() {
		if ss.tools.selected == nil || ss.tools.selected.Name != "nothing" {
			t.Errorf("the selected tool is %+v, want nothing", ss.tools.selected)
		}
	})
}

func TestPaletteWordStartsMatch(t *testing.T) {
	w, _, _ := connected(t, nil)
	// the beginnings of words, not a substring
	p := openPalette(t, w, "thepr")
	Sync(func() {
		if len(p.shown) == 0 || p.shown[0].kind != "Prompt" {
			t.Errorf("thepr lists %v, want the prompt first", shownLabels(p))
		}
	})
	// letters scattered in order are no match
	Sync(func() { p.entry.SetText("thprmt") })
	Sync(func() {
		if len(p.shown) != 0 {
			t.Errorf("thprmt lists %v, want nothing", shownLabels(p))
		}
	})
	Sync(func() { p.entry.SetText("zzzzqqq") })
	Sync(func() {
		if len(p.shown) != 0 || !p.empty.Visible() || !strings.Contains(p.empty.Text, "zzzzqqq") {
			t.Errorf("no match shows %v, empty note %q", shownLabels(p), p.empty.Text)
		}
	})
	// Enter with nothing listed does nothing (and does not panic)
	typeKey(w, fyne.KeyReturn)
}

func TestPaletteOpensPromptAndResource(t *testing.T) {
	w, _, ss := connected(t, nil)
	openPalette(t, w, "The prompt")
	typeKey(w, fyne.KeyReturn)
	Sync(func() {
		if tab := ss.tabs.Selected(); tab == nil || tab.Text != "Prompts" {
			t.Errorf("the palette opened tab %v, want Prompts", tab)
		}
		if ss.prompts.cur == nil || ss.prompts.cur.Name != "p" {
			t.Errorf("the selected prompt is %+v, want p", ss.prompts.cur)
		}
	})
	openPalette(t, w, "greet")
	typeKey(w, fyne.KeyReturn)
	Sync(func() {
		if tab := ss.tabs.Selected(); tab == nil || tab.Text != "Resources" {
			t.Errorf("the palette opened tab %v, want Resources", tab)
		}
		if ss.resources.cur == nil || ss.resources.cur.tmpl == nil || ss.resources.cur.tmpl.Name != "greet" {
			t.Errorf("the selected resource is %+v, want the template greet", ss.resources.cur)
		}
	})
}

// Menu actions come from the main menu itself, submenus included.
func TestPaletteRunsMenuAction(t *testing.T) {
	w, _, ss := connected(t, nil)
	p := openPalette(t, w, "theme dark")
	Sync(func() {
		if len(p.shown) == 0 || p.shown[0].label != "View › Theme › Dark" {
			t.Fatalf("theme dark lists %v, want View › Theme › Dark first", shownLabels(p))
		}
	})
	typeKey(w, fyne.KeyReturn)
	if got := w.app.Preferences().String(prefTheme); got != "dark" {
		t.Errorf("the theme is %q after View › Theme › Dark from the palette", got)
	}
	// every enabled menu item is listed, and the palette not itself; one
	// that is off is not (Run tool with no tool selected, Connect while
	// connected)
	p = openPalette(t, w, "")
	Sync(func() {
		got := strings.Join(shownLabels(p), "\n")
		for _, want := range []string{"Action: Servers › Add server", "Action: View › Inspector", "Action: Help › About Spyglass"} {
			if !strings.Contains(got, want) {
				t.Errorf("the palette lacks %q:\n%s", want, got)
			}
		}
		for _, off := range []string{"Command palette", "Action: Tools › Run tool", "Action: Servers › Connect"} {
			if strings.Contains(got, off) {
				t.Errorf("the palette lists %q:\n%s", off, got)
			}
		}
	})
	typeKey(w, fyne.KeyEscape)
	selectShown(t, ss, "echo")
	p = openPalette(t, w, "run tool")
	Sync(func() {
		if got := strings.Join(shownLabels(p), "\n"); !strings.Contains(got, "Action: Tools › Run tool") {
			t.Errorf("with a tool selected the palette lacks Run tool:\n%s", got)
		}
	})
}

func TestPaletteArrowsAndEscape(t *testing.T) {
	w, _, ss := connected(t, nil)
	p := openPalette(t, w, "")
	typeKey(w, fyne.KeyDown)
	typeKey(w, fyne.KeyDown)
	typeKey(w, fyne.KeyUp)
	var want paletteItem
	Sync(func() {
		if p.cur != 1 {
			t.Fatalf("down, down, up: line %d is selected, want 1", p.cur)
		}
		want = p.shown[1]
	})
	typeKey(w, fyne.KeyReturn)
	Sync(func() {
		if want.kind != "Tool" || ss.tools.selected == nil || labelWithTitle(ss.tools.selected.Title, ss.tools.selected.Name) != want.label {
			t.Errorf("Enter on %v selected tool %+v", want, ss.tools.selected)
		}
	})
	before := ss.tools.selected
	p = openPalette(t, w, "boom")
	typeKey(w, fyne.KeyEscape)
	Sync(func() {
		if p.pop.Visible() {
			t.Error("Esc did not close the palette")
		}
		if ss.tools.selected != before {
			t.Error("Esc ran the selected line")
		}
	})
	// Ctrl+K again closes an open palette
	p = openPalette(t, w, "")
	pressShortcut(w, fyne.KeyK)
	Sync(func() {
		if p.pop.Visible() {
			t.Error("a second Ctrl+K did not close the palette")
		}
	})
}

func TestPaletteConnectsServer(t *testing.T) {
	b := newFakeBackend("alpha", "beta")
	w := newTestWindow(t, b, nil)
	p := openPalette(t, w, "connect beta")
	Sync(func() {
		if len(p.shown) == 0 || p.shown[0].label != "Connect beta" {
			t.Fatalf("connect beta lists %v", shownLabels(p))
		}
	})
	typeKey(w, fyne.KeyReturn)
	waitFor(t, "beta connected", func() bool {
		return w.selected == w.server("beta") && w.selected.state.State == StateConnected
	})
	// a connected server is reached, not connected again
	p = openPalette(t, w, "beta")
	Sync(func() {
		got := strings.Join(shownLabels(p), "\n")
		if strings.Contains(got, "Connect beta") || !strings.Contains(got, "Go to beta") {
			t.Errorf("for a connected beta the palette lists:\n%s", got)
		}
	})
	typeKey(w, fyne.KeyEscape)
	openPalette(t, w, "go to alpha")
	typeKey(w, fyne.KeyReturn)
	Sync(func() {
		if w.selected != w.server("alpha") {
			t.Errorf("Go to alpha selected %v", w.selected.cfg.Name)
		}
	})
}

// Ctrl+F focuses the search of the screen in front: Tools, Resources,
// Prompts, Logs, else the inspector's.
func TestFocusSearchPerScreen(t *testing.T) {
	w, _, ss := connected(t, nil)
	for _, c := range []struct {
		tab  string
		want func() fyne.Focusable
	}{
		{"Tools", func() fyne.Focusable { return ss.tools.search }},
		{"Logs", func() fyne.Focusable { return ss.logs.search }},
		{"Resources", func() fyne.Focusable { return ss.resources.search }},
		{"Prompts", func() fyne.Focusable { return ss.prompts.search }},
		{"Server info", func() fyne.Focusable { return w.inspector.search }},
	} {
		Sync(func() {
			if err := w.ShowScreenNow(c.tab); err != nil {
				t.Fatal(err)
			}
			w.win.Canvas().Unfocus()
		})
		pressShortcut(w, fyne.KeyF)
		Sync(func() {
			if got := w.win.Canvas().Focused(); got != c.want() {
				t.Errorf("Ctrl+F on %s focused %T %p, want %p", c.tab, got, got, c.want())
			}
		})
	}
}
