package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// TestShortcutHelpListsMenuShortcuts: every shortcut the main menu
// carries is in Help → Keyboard shortcuts, so a newcomer who reads the
// list finds them all (Ctrl+O was missing).
func TestShortcutHelpListsMenuShortcuts(t *testing.T) {
	w := newTestWindowBackend(t, newFakeBackend("demo"))
	listed := map[string]bool{}
	for _, s := range shortcutHelp {
		listed[s[0]] = true
	}
	var walk func(menu, label string, items []*fyne.MenuItem)
	walk = func(menu, label string, items []*fyne.MenuItem) {
		for _, it := range items {
			if it.ChildMenu != nil {
				walk(menu, it.Label, it.ChildMenu.Items)
			}
			cs, ok := it.Shortcut.(*desktop.CustomShortcut)
			if !ok {
				continue
			}
			name := string(cs.KeyName)
			if cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter {
				name = "Enter"
			}
			if !listed["mod+"+strings.ToUpper(name)] && !listed["mod+"+name] {
				t.Errorf("%s → %s has mod+%s, which Help → Keyboard shortcuts does not list", menu, it.Label, name)
			}
		}
	}
	var mm *fyne.MainMenu
	Sync(func() { mm = w.win.MainMenu() })
	if mm == nil {
		t.Fatal("the window has no main menu")
	}
	for _, m := range mm.Items {
		walk(m.Label, "", m.Items)
	}
}
