package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
)

// TestFitsSmallWindow: the window with a connected server is usable at
// 1024×700, the smallest size the product supports.
func TestFitsSmallWindow(t *testing.T) {
	w, b, _ := connected(t, nil)
	addFailedServer(t, w, b)
	Sync(func() { w.selectServer(w.server("fake")) })
	b.ev.send(EventView{Seq: 1, Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "7", Title: "tools/call #7", Badge: "17ms", Pair: 2,
		Raw: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`)},
		EventView{Seq: 2, Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "7", Title: "result #7 · tools/call", Pair: 1,
			Raw: []byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)})
	Sync(func() {
		w.inspector.onSelect(1)
		t.Logf("list %v middle %v inspector %v", w.list.box.MinSize(), w.middle.MinSize(), w.inspector.obj.MinSize())
		for i := range w.selected.screens.tabs.Items {
			w.selected.screens.tabs.SelectIndex(i)
			if m := unscrolled(w); m.Width > 1024 || m.Height > 700 {
				t.Errorf("tab %s needs %v, more than 1024×700", w.selected.screens.tabs.Items[i].Text, m)
			}
		}
		// and so a 1024×700 window shows the list beside the screens
		// and scrolls nothing
		w.win.Resize(fyne.NewSize(1024, 700))
		if laid := w.main.Size(); !w.listShown || laid.Width > 1024 || laid.Height > 700 {
			t.Errorf("at 1024×700 the list is shown %v and the content is laid out at %v", w.listShown, laid)
		}
	})
}

// addFailedServer adds the HTTP server "bad" to the window, whose
// connection fails with "cannot reach …", and waits until it has failed
// for good.
func addFailedServer(t *testing.T, w *Window, b *fakeBackend) {
	t.Helper()
	b.mu.Lock()
	b.servers = append(b.servers, ServerConfig{Name: "bad", Transport: "http", URL: "http://127.0.0.1:9/mcp"})
	b.mu.Unlock()
	Sync(w.reloadServers)
	c, _ := b.Open("bad", nil)
	c.(*fakeConn).fail = errors.New("cannot reach http://127.0.0.1:9/mcp — is the server running, and is the URL right?")
	Sync(func() { w.server("bad").onConnect() })
	waitFor(t, "bad failed", func() bool { return w.server("bad").state.State == StateFailed && !w.server("bad").retrying })
}
