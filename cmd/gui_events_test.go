package cmd

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/har"
	"github.com/spyglass-mcp/spyglass/ui"
)

// logFlood appends n log notifications of conn and one request, and
// returns the request's Seq.
func logFlood(l *events.Log, conn string, n int) uint64 {
	for i := 0; i < n; i++ {
		l.Append(events.Event{Conn: conn, Kind: events.KindMessage, Dir: events.DirIn, Type: events.MsgNotification,
			Method: "notifications/message", Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"line %d"}}`, i))})
	}
	return l.Append(events.Event{Conn: conn, Kind: events.KindMessage, Dir: events.DirOut, Type: events.MsgRequest, ID: "7",
		Method: "tools/call", Raw: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}`)})
}

// TestGUIEventsSubscribeWhere: a listener that keeps one server's
// requests gets only those, in views, and no batch for the flood (#17).
func TestGUIEventsSubscribeWhere(t *testing.T) {
	l := events.New(&events.Options{NoSpill: true})
	g := &guiEvents{log: l}
	got := make(chan ui.EventBatch, 100)
	cancel := g.SubscribeWhere(func(e *events.Event) bool {
		return e.Conn == "a" && e.Type == events.MsgRequest
	}, func(b ui.EventBatch) { got <- b })
	defer cancel()
	logFlood(l, "b", 10)
	seq := logFlood(l, "a", 5000)
	select {
	case b := <-got:
		if len(b.Events) != 1 || b.Events[0].Seq != seq || b.Events[0].Heading() == "" || b.Dropped != 0 {
			t.Fatalf("the first batch = %+v, want the one request of a (Seq %d) as a view", b, seq)
		}
	case <-time.After(time.Minute): // a hang bound, not a timing assertion
		t.Fatal("no batch came")
	}
	// the next batch carries the request's outcome: the flood before it
	// came in no batch
	l.Append(events.Event{Conn: "a", Kind: events.KindMessage, Dir: events.DirIn, Type: events.MsgResult, ID: "7", Raw: []byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)})
	select {
	case b := <-got:
		if len(b.Events) != 0 || len(b.Updated) != 1 || b.Updated[0].Seq != seq {
			t.Fatalf("the second batch = %+v, want the request's outcome only", b)
		}
	case <-time.After(time.Minute):
		t.Fatal("no batch came with the outcome")
	}
}

// TestGUIEventsClearEvents: the window's Clear drops the log's events
// when they are all of the server cleared and none came after, and
// nothing otherwise (#17).
func TestGUIEventsClearEvents(t *testing.T) {
	l := events.New(&events.Options{NoSpill: true})
	g := &guiEvents{log: l}
	last := logFlood(l, "a", 3000)
	// an event that came after the Clear's newest stays
	if !g.ClearEvents("a", last-1) || l.Len() != 1 {
		t.Fatalf("after clearing all but the newest the log holds %d events", l.Len())
	}
	if e, ok := l.Get(last); !ok || e.Conn != "a" {
		t.Errorf("the event after the Clear is gone: %v", ok)
	}
	if !g.ClearEvents("a", last) || l.Len() != 0 {
		t.Fatalf("not cleared: the log holds %d events", l.Len())
	}
	logFlood(l, "b", 10)
	last = logFlood(l, "a", 10)
	if !g.ClearEvents("a", last) || l.Len() != 11 {
		t.Errorf("after clearing a the log holds %d events, want b's 11", l.Len())
	}
	for _, e := range l.Events() {
		if e.Conn != "b" {
			t.Errorf("event %d of %s left", e.Seq, e.Conn)
		}
	}
}

// TestGUIEventsClearedHook: the benchmark mode's hook runs once the log
// has dropped the events, so memory read after it no longer holds them.
func TestGUIEventsClearedHook(t *testing.T) {
	l := events.New(&events.Options{NoSpill: true})
	g := &guiEvents{log: l}
	last := logFlood(l, "a", 3000)
	left := -1
	hook := func() { left = l.Len() }
	g.cleared.Store(&hook)
	g.ClearEvents("a", last)
	if left != 0 {
		t.Errorf("the hook ran with %d events in the log, want 0", left)
	}
}

// TestGUIEventsClearForgetsHAR: the window's Clear of a server drops its
// recorded HTTP exchanges too, which kept a flood's stream past it.
func TestGUIEventsClearForgetsHAR(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	defer srv.Close()
	rec := &har.Recorder{}
	resp, err := (&http.Client{Transport: rec}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	l := events.New(&events.Options{NoSpill: true})
	g := &guiEvents{log: l, b: &guiBackend{hars: map[string]*har.Recorder{"a": rec}}}
	g.ClearEvents("a", logFlood(l, "a", 10))
	if rec.Len() != 0 {
		t.Errorf("%d exchanges recorded after the Clear, want 0", rec.Len())
	}
}

// TestToolErrorRequestBadge: the inspector's row of a tools/call whose
// tool answered isError has a red badge that says so ("tool error ·
// 3ms"), as its result's row does — it was a green latency, read as a
// success; a call that succeeded stays green.
func TestToolErrorRequestBadge(t *testing.T) {
	l := events.New(nil)
	defer l.Close()
	call := func(id, result string) ui.EventView {
		req := l.Append(events.Event{Conn: "demo", Kind: events.KindMessage, Dir: events.DirOut,
			Raw: []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"fail"}}`)})
		l.Append(events.Event{Conn: "demo", Kind: events.KindMessage, Dir: events.DirIn,
			Raw: []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":` + result + `}`)})
		e, ok := l.Get(req)
		if !ok {
			t.Fatalf("request %s not kept", id)
		}
		return toEventView(e)
	}
	if v := call("1", `{"content":[{"type":"text","text":"disk full"}],"isError":true}`); v.BadgeLevel != "error" || !strings.HasPrefix(v.Badge, "tool error · ") || !v.IsError() {
		t.Errorf("a tool error's request row: badge %q at level %q", v.Badge, v.BadgeLevel)
	}
	if v := call("2", `{"content":[{"type":"text","text":"ok"}]}`); v.BadgeLevel != "ok" || strings.Contains(v.Badge, "error") {
		t.Errorf("a success's request row: badge %q at level %q", v.Badge, v.BadgeLevel)
	}
}
