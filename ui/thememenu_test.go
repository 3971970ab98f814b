package ui

import (
	"testing"
)

// TestThemeMenuMarksCurrent: View → Theme checks the theme that is on —
// System at first, then the one picked — and only that one (#12).
func TestThemeMenuMarksCurrent(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("fake"), nil)
	checked := func() map[string]bool {
		got := map[string]bool{}
		for _, m := range w.win.MainMenu().Items {
			if m.Label != "View" {
				continue
			}
			for _, it := range m.Items {
				if it.Label == "Theme" && it.ChildMenu != nil {
					for _, c := range it.ChildMenu.Items {
						got[c.Label] = c.Checked
					}
				}
			}
		}
		return got
	}
	want := func(name string) {
		t.Helper()
		got := checked()
		if len(got) != 3 {
			t.Fatalf("View → Theme has %v, want Light, Dark, System", got)
		}
		for l, c := range got {
			if c != (l == name) {
				t.Errorf("View → Theme: %s checked = %v, want only %s checked (%v)", l, c, name, got)
			}
		}
	}
	Sync(func() { want("System") })
	for _, c := range []struct{ pick, label string }{{"dark", "Dark"}, {"light", "Light"}, {"system", "System"}} {
		Sync(func() {
			for _, m := range w.win.MainMenu().Items {
				if m.Label == "View" {
					for _, it := range m.Items {
						if it.Label == "Theme" {
							for _, ci := range it.ChildMenu.Items {
								if ci.Label == c.label {
									ci.Action() // as a click on the item runs it
								}
							}
						}
					}
				}
			}
			want(c.label)
		})
	}
}
