package ui

import (
	"testing"
)

// TestStartupStderrShown: what a stdio server wrote to stderr while it
// started ("Starting default (STDIO) server...", before the screens
// existed) is in Logs → stderr once it connected, and the view's empty
// state is gone: it stayed, drawn over the line, so neither read (#12).
func TestStartupStderrShown(t *testing.T) {
	b := newFakeBackend("fake")
	w := newTestWindow(t, b, nil)
	b.mu.Lock()
	fc := &fakeConn{name: "fake", ev: b.ev, block: make(chan struct{})}
	b.conns["fake"] = fc
	b.mu.Unlock()
	s := w.server("fake")
	Sync(s.onConnect)
	waitFor(t, "connecting", func() bool { return s.state.State == StateConnecting })
	b.ev.send(EventView{Server: "fake", Kind: "stderr", Title: "stderr", Text: "Starting default (STDIO) server..."})
	waitFor(t, "the line kept for the screens", func() bool { return len(s.bootStderr) == 1 })
	close(fc.block)
	waitFor(t, "connected", func() bool { return s.screens != nil && s.state.State == StateConnected })
	l := s.screens.logs
	waitFor(t, "the stderr view drawn", func() bool { return !l.later.pending })
	Sync(func() {
		if len(l.errs) != 1 || l.errs[0] != "Starting default (STDIO) server..." {
			t.Errorf("the stderr view holds %q", l.errs)
		}
		if l.errsEmpty.Visible() {
			t.Errorf("the stderr view still says %q over its line", l.errsEmpty.Text)
		}
	})
}
