package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TestTroubleshootingShowsAddress: Help → Troubleshooting asks the browser
// to open the guide and also shows its address with Copy and Open — in the
// new-user walk the opener reported success, no browser came, and nothing
// visible happened.
func TestTroubleshootingShowsAddress(t *testing.T) {
	var opened []string
	w := newTestWindow(t, newFakeBackend("fake"), &Options{OpenURL: func(u string) error { opened = append(opened, u); return nil }})
	var shown string
	Sync(func() {
		w.onTroubleshooting()
		o := w.win.Canvas().Overlays().Top()
		if o == nil {
			t.Fatal("Troubleshooting shows nothing in the window")
		}
		shown = texts(o)
		tapButton(t, o, "Copy")
		tapButton(t, o, "Open")
	})
	if !strings.Contains(shown, TroubleshootingURL) {
		t.Errorf("the guide's address is not shown:\n%s", shown)
	}
	if got := fyne.CurrentApp().Clipboard().Content(); got != TroubleshootingURL {
		t.Errorf("Copy put %q on the clipboard, want the guide's address", got)
	}
	if len(opened) != 2 || opened[0] != TroubleshootingURL || opened[1] != TroubleshootingURL {
		t.Errorf("opened %q, want the guide at once and again on Open", opened)
	}
}
