package session

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
)

// TestModernListen: in the modern era over HTTP there is no GET stream;
// Listen (subscriptions/listen) carries the notifications the client
// opted in to.
func TestModernListen(t *testing.T) {
	url := demotest.URL(t, nil)
	log := events.New(nil)
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "demo", URL: url, Client: &http.Client{}}, log), nil
	}
	s := New(dial, log, &Options{Conn: "demo", Era: EraModern})
	t.Cleanup(func() { _ = s.Close() })
	ctx := testCtx(t)
	var mu sync.Mutex
	var got []string
	s.OnNotification(func(n Notification) { mu.Lock(); got = append(got, n.Method); mu.Unlock() })
	lctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := s.Listen(lctx, mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
		done <- err
	}()
	has := func(m string) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range got {
			if g == m {
				return true
			}
		}
		return false
	}
	eventually(func() bool { return has("notifications/subscriptions/acknowledged") })
	if _, err := s.CallTool(ctx, ToolCall{Name: demo.ToolToggleExtra}, nil); err != nil {
		t.Fatal(err)
	}
	eventually(func() bool { return has(MethodToolsListChanged) })
	if !has(MethodToolsListChanged) {
		t.Errorf("notifications %v", got)
	}
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Listen: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("listen did not end when cancelled")
	}
}

// TestModernSubscribe: in the modern era SubscribeResource opens a
// subscriptions/listen for the resource (there is no resources/subscribe):
// the server's updates arrive through OnNotification, and with
// ListChanged the list_changed notifications the server offers do too,
// with no Listen call of the caller's. Unsubscribing replaces the listen.
func TestModernSubscribe(t *testing.T) {
	log := events.New(nil)
	s := demoStdio(t, log, &Options{Era: EraModern, ListChanged: true})
	ctx := testCtx(t)
	var mu sync.Mutex
	counts := map[string]int{}
	s.OnNotification(func(n Notification) { mu.Lock(); counts[n.Method]++; mu.Unlock() })
	count := func(m string) int { mu.Lock(); defer mu.Unlock(); return counts[m] }
	waitCount := func(m string, n int) {
		t.Helper()
		eventually(func() bool { return !(count(m) < n) })
		if count(m) < n {
			t.Fatalf("%d × %s, want %d", count(m), m, n)
		}
	}

	rep, err := s.SubscribeResource(ctx, demo.CounterURI, nil)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	if !s.Info().Modern || !strings.Contains(string(rep.Raw), demo.CounterURI) || !strings.Contains(string(rep.Raw), `"toolsListChanged":true`) {
		t.Fatalf("acknowledgement %s", rep.Raw)
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: demo.ToolBumpCounter}, nil); err != nil {
		t.Fatal(err)
	}
	waitCount(MethodResourceUpdated, 1)
	if _, err := s.CallTool(ctx, ToolCall{Name: demo.ToolToggleExtra}, nil); err != nil {
		t.Fatal(err)
	}
	waitCount(MethodToolsListChanged, 1)

	// unsubscribed: the listen that carried the resource is cancelled
	// and a new one (list_changed only) is acknowledged
	if _, err := s.UnsubscribeResource(ctx, demo.CounterURI, nil); err != nil {
		t.Fatalf("unsubscribe: %v", err)
	}
	// every listen but the last was replaced (cancelled); the last no
	// longer asks for the resource
	var listens []events.Event
	cancelled := 0
	eventually(func() bool {
		listens, cancelled = nil, 0
		for _, e := range log.Events() {
			if e.Kind == events.KindMessage && e.Dir == events.DirOut && e.Method == "subscriptions/listen" {
				listens = append(listens, e)
				// mcp-go's server answers a cancelled listen anyway
				if e.Outcome != nil && (e.Outcome.State == events.Cancelled || e.Outcome.State == events.CancelledLate) {
					cancelled++
				}
			}
		}
		return len(listens) >= 2 && cancelled == len(listens)-1
	})
	if len(listens) < 2 || cancelled != len(listens)-1 {
		t.Fatalf("%d listens, %d cancelled", len(listens), cancelled)
	}
	if last := string(listens[len(listens)-1].Raw); strings.Contains(last, demo.CounterURI) || !strings.Contains(last, `"toolsListChanged":true`) {
		t.Errorf("the listen after unsubscribing asks for %s", last)
	}
}

// TestModernListChangedOverHTTP: with ListChanged the session opens the
// listen itself once connected (modern Streamable HTTP has no GET stream).
func TestModernListChangedOverHTTP(t *testing.T) {
	url := demotest.URL(t, nil)
	log := events.New(nil)
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "demo", URL: url, Client: &http.Client{}}, log), nil
	}
	s := New(dial, log, &Options{Conn: "demo", Era: EraModern, ListChanged: true})
	t.Cleanup(func() { _ = s.Close() })
	ctx := testCtx(t)
	var mu sync.Mutex
	var got []string
	s.OnNotification(func(n Notification) { mu.Lock(); got = append(got, n.Method); mu.Unlock() })
	has := func(m string) bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Contains(got, m)
	}
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(func() bool { return has(MethodSubscriptionsAcknowledged) })
	if _, err := s.CallTool(ctx, ToolCall{Name: demo.ToolToggleExtra}, nil); err != nil {
		t.Fatal(err)
	}
	eventually(func() bool { return has(MethodToolsListChanged) })
	if !has(MethodToolsListChanged) {
		t.Errorf("notifications %v", got)
	}
}

// modernFake is a fake modern server whose subscriptions/listen answers
// are decided by listen (called with the request's number, from 1).
func modernFake(t *testing.T, listen func(c *fakeConn, m msg, n int)) *fakeServer {
	discover := `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true}}}`
	fs := newFakeServer(t)
	var n atomic.Int32
	fs.handle = func(c *fakeConn, m msg) bool {
		switch m.Method {
		case "server/discover":
			c.reply(m.ID, discover)
			return true
		case "subscriptions/listen":
			listen(c, m, int(n.Add(1)))
			return true
		}
		return false
	}
	return fs
}

// TestModernListenReopened: a listen the server ends while the connection
// lives on (a dropped stream) is opened again, so subscriptions keep
// working.
func TestModernListenReopened(t *testing.T) {
	fs := modernFake(t, func(c *fakeConn, m msg, n int) {
		c.emit(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["x://a"]}}}`)
		if n == 1 { // the first stream ends soon after it opened
			time.AfterFunc(100*time.Millisecond, func() { c.reply(m.ID, `{}`) })
		}
	})
	s, _ := newTestSession(t, fs, &Options{Era: EraModern})
	if _, err := s.SubscribeResource(testCtx(t), "x://a", nil); err != nil {
		t.Fatal(err)
	}
	eventually(func() bool { return !(len(fs.received("subscriptions/listen")) < 2) })
	if got := fs.received("subscriptions/listen"); len(got) != 2 || !strings.Contains(string(got[1].Params), "x://a") {
		t.Fatalf("listens after the first ended: %d", len(got))
	}
}

// TestModernSubscribeFailureRollsBack: a subscription the server never
// acknowledges fails, and the resource is not carried by later listens.
func TestModernSubscribeFailureRollsBack(t *testing.T) {
	fs := modernFake(t, func(c *fakeConn, m msg, n int) {
		if strings.Contains(string(m.Params), "x://refused") {
			c.replyError(m.ID, -32602, "no such resource")
			return
		}
		c.emit(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["x://ok"]}}}`)
	})
	s, _ := newTestSession(t, fs, &Options{Era: EraModern})
	ctx := testCtx(t)
	if _, err := s.SubscribeResource(ctx, "x://ok", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SubscribeResource(ctx, "x://refused", nil); err == nil {
		t.Fatal("a refused subscription succeeded")
	}
	// what was subscribed before is listened to again, without the refused one
	eventually(func() bool { return !(len(fs.received("subscriptions/listen")) < 3) })
	got := fs.received("subscriptions/listen")
	if len(got) != 3 || !strings.Contains(string(got[2].Params), "x://ok") || strings.Contains(string(got[2].Params), "x://refused") {
		t.Fatalf("%d listens; the last asks for %s", len(got), got[len(got)-1].Params)
	}
}
