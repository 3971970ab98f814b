package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestSavePrefsIsOneChange: the window's state is written as one change of
// the preferences, which Fyne saves to disk at once — Set after Set saved
// the first key only, and a quitting app lost the rest (its size, splits,
// server and tab).
func TestSavePrefsIsOneChange(t *testing.T) {
	w := newTestWindowBackend(t, newFakeBackend("a", "b"))
	p := w.app.Preferences()
	changes := 0
	Sync(func() {
		w.selectServer(w.server("b"))
		w.win.Resize(fyne.NewSize(1100, 720))
		p.AddChangeListener(func() { changes++ })
		w.savePrefs()
	})
	if changes != 1 {
		t.Errorf("saving the window's state made %d preference changes, want 1 (Fyne saves the first at once and drops the rest at quit)", changes)
	}
	if p.String(prefServer) != "b" || p.Float(prefWidth) != 1100 || p.Float(prefHeight) != 720 || !p.Bool(prefInspOpen) {
		t.Errorf("saved server %q, size %v×%v, inspector open %v; want b, 1100×720, true",
			p.String(prefServer), p.Float(prefWidth), p.Float(prefHeight), p.Bool(prefInspOpen))
	}
}

// TestWritePrefsOtherPreferences: a Preferences without Fyne's bulk write
// still gets every value.
func TestWritePrefsOtherPreferences(t *testing.T) {
	p := plainPrefs{test.NewTempApp(t).Preferences()}
	writePrefs(p, map[string]any{"f": 1.5, "b": true, "s": "x"})
	if p.Float("f") != 1.5 || !p.Bool("b") || p.String("s") != "x" {
		t.Errorf("got %v %v %q", p.Float("f"), p.Bool("b"), p.String("s"))
	}
}

// plainPrefs hides WriteValues.
type plainPrefs struct{ fyne.Preferences }
