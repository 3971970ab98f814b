package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// TestRequestPaneFollowsTheSelectedServer: the requests panel below the
// screens shows the selected server's requests only; a request of another
// server is a one-line chip that selects that server (it took the panel's
// room while the user worked elsewhere), and with the panel open at
// 1024×700 the screen above keeps 300 px and more (it kept ~180) (#12).
func TestRequestPaneFollowsTheSelectedServer(t *testing.T) {
	w, b, _ := connected(t, nil)
	b.mu.Lock()
	b.servers = append(b.servers, ServerConfig{Name: "other", Transport: "stdio", Command: "other-server"})
	b.mu.Unlock()
	var q *requests.Queue
	ask := func(server, id string) {
		q.AddElicitation(requests.ElicitationRequest{Server: server, ID: id, Mode: "form", Message: "Your name, " + server + "?",
			Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}, func(requests.ElicitationAnswer) {})
	}
	Sync(func() {
		w.reloadServers()
		w.selectServer(w.server("fake"))
		w.win.Resize(fyne.NewSize(1024, 700))
		q = requests.NewQueue(&requests.QueueOptions{Window: w.win, OnCountChanged: func(n int) { w.SetRequestCount(n) }})
		w.SetRequests(q.Object())
		w.SetRequestQueue(q)
		ask("other", "1")
	})
	Sync(func() {
		if w.reqSplit != nil && w.center.Objects[0] == w.reqSplit {
			t.Fatal("another server's request opened the panel below the fake server's screens")
		}
		if w.reqChip == nil || !strings.Contains(w.reqChip.Text, "1 request waits for you on other") {
			t.Fatalf("no chip names the other server's request (%v)", w.reqChip)
		}
		if h, c := w.middle.Size().Height, w.center.Size().Height; h < c-w.reqChip.MinSize().Height-10 {
			t.Errorf("the screens keep %v of %v px beside a one-line chip", h, c)
		}
		ask("fake", "2")
	})
	Sync(func() {
		if w.reqSplit == nil || w.center.Objects[0] != w.reqSplit {
			t.Fatal("the fake server's own request does not open the panel")
		}
		w.win.Resize(fyne.NewSize(1024, 700))
		t.Logf("centre %v, screens %v, queue %v (min %v)", w.center.Size().Height, w.middle.Size().Height, w.requests.Size().Height, w.requests.MinSize().Height)
		// the real window's centre is shorter than the test driver's (its
		// menu bar): the screens keep 300 px there only with 60% of it
		if h, c := w.middle.Size().Height, w.center.Size().Height; h < 300 || h < 0.6*c {
			t.Errorf("at 1024×700 the screen above the queue keeps %v of %v px, under 300 or 60%%", h, c)
		}
		if got := texts(w.requests); !strings.Contains(got, "1 pending request · 1 for other servers") {
			t.Errorf("the queue's heading does not count the other server's request:\n%s", got)
		}
		if got := texts(w.requests); strings.Contains(got, "Your name, other?") {
			t.Errorf("the fake server's queue shows the other server's request:\n%s", got)
		}
		w.selectServer(w.server("other"))
	})
	Sync(func() {
		if got := texts(w.requests); !strings.Contains(got, "Your name, other?") || !strings.Contains(got, "1 for other servers") {
			t.Errorf("selecting the other server does not show its request:\n%s", got)
		}
		q.Cancel("other", "1", "the server cancelled it")
	})
	Sync(func() {
		if w.center.Objects[0] == w.reqSplit {
			t.Fatal("the other server, with nothing waiting, keeps the panel")
		}
		b, ok := w.center.Objects[0].(*fyne.Container)
		if !ok || len(b.Objects) < 2 {
			t.Fatalf("no chip for the fake server's request below the other server's screens (%T)", w.center.Objects[0])
		}
		test.Tap(w.reqChip)
		if w.selected.cfg.Name != "fake" || w.center.Objects[0] != w.reqSplit {
			t.Errorf("the chip selects %s, want fake with its request open", w.selected.cfg.Name)
		}
	})
}
