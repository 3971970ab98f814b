package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUIToastPlainWords: a failure of the window's own (a trace that is
// not there) toasts what did not happen and the cause in plain words, not
// Go's "open PATH: …" chain, which stays behind Show full error.
func TestGUIToastPlainWords(t *testing.T) {
	h := newGUIHarness(t)
	missing := filepath.Join(h.dir, "gone.spyglass-trace.json")
	ui.Sync(func() { h.w.OpenTrace(missing) })
	var toast string
	h.waitFor("the toast", func() bool {
		l, _ := h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && strings.HasPrefix(l.Text, "Could not open gone.spyglass-trace.json")
		}).(*widget.Label)
		if l != nil {
			toast = l.Text
		}
		return l != nil
	})
	// the toast shows the first 100 characters, the rest behind Show more
	if want := "Could not open gone.spyglass-trace.json: No such file or directory (/"; !strings.HasPrefix(toast, want) {
		t.Errorf("the toast reads %q, want it to start %q", toast, want)
	}
	if strings.Contains(toast, "open /") {
		t.Errorf("the toast shows the chain: %q", toast)
	}
	ui.Sync(func() {
		if h.button("Show full error") == nil {
			t.Error("no Show full error on the toast")
		}
	})
}
