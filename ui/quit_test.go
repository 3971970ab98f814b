package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// TestQuitShortcut: File ends with one Quit, on Ctrl+Q as on every
// desktop app, and it disconnects the servers before the app ends (Fyne's
// own Quit had no shortcut).
func TestQuitShortcut(t *testing.T) {
	w := newTestWindowBackend(t, newFakeBackend("b"))
	quits := 0
	Sync(func() {
		file := w.win.MainMenu().Items[0]
		for _, it := range file.Items {
			if it.IsQuit {
				quits++
				cs, ok := it.Shortcut.(*desktop.CustomShortcut)
				if it.Label != "Quit" || !ok || cs.KeyName != fyne.KeyQ {
					t.Errorf("File's quit item is %q with shortcut %v, want Quit on mod+Q", it.Label, it.Shortcut)
				}
			}
		}
		if last := file.Items[len(file.Items)-1]; !last.IsQuit {
			t.Errorf("File ends with %q, not Quit", last.Label)
		}
		w.selectServer(w.server("b"))
	})
	if quits != 1 {
		t.Fatalf("File has %d quit items, want 1", quits)
	}
	Sync(w.onConnectServer)
	waitFor(t, "connected", func() bool { return w.server("b").state.State == StateConnected })
	pressShortcut(w, fyne.KeyQ)
	waitFor(t, "disconnected by Ctrl+Q", func() bool { return w.server("b").state.State == StateDisconnected })
}
