package ui

import (
	"strings"
	"testing"
)

// TestDialogStatusErrorsArePlain: the status lines of the protocol matrix
// and the replay dialogs say what did not happen, then the cause in the
// window's words; the chain is behind Show full error, not in the line.
func TestDialogStatusErrorsArePlain(t *testing.T) {
	w := newTestWindowBackend(t, newFakeBackend("a"))
	err := &worded{head: "Connection refused: nothing listens at 127.0.0.1:9", chain: "session: initialize: wire: dial tcp 127.0.0.1:9: connect: connection refused"}
	Sync(func() {
		m := &matrixView{status: newStatusLine(w, "Running…")}
		m.show(nil, err)
		r := &replayView{w: w, status: newStatusLine(w, "Replaying…")}
		r.done(nil, err)
		for _, s := range []*statusLine{m.status, r.status} {
			if strings.Contains(s.Text, "session:") || !strings.HasSuffix(s.Text, ": Connection refused: nothing listens at 127.0.0.1:9") {
				t.Errorf("status line %q: want what did not happen, then the plain cause", s.Text)
			}
			if !s.full.Visible() {
				t.Errorf("status line %q has no Show full error", s.Text)
			}
		}
		m.status.SetText("Done.")
		if m.status.full.Visible() {
			t.Error("Show full error stays after the status changed")
		}
	})
}
