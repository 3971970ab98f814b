package session

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// TestModernListen: in the modern era over HTTP there is no GET stream;
// Listen (subscriptions/listen) carries the notifications the client
// opted in to.
func TestModernListen(t *testing.T) {
	url := serveDemoHTTP(t, nil)
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
	deadline := time.Now().Add(10 * time.Second)
	for !has("notifications/subscriptions/acknowledged") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: demo.ToolToggleExtra}, nil); err != nil {
		t.Fatal(err)
	}
	for !has(MethodToolsListChanged) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
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
		deadline := time.Now().Add(10 * time.Second)
		for count(m) < n && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
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
	waitCount(MethodSubscriptionsAcknowledged, 2)
	var listens, cancelled int
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Dir == events.DirOut && e.Method == "subscriptions/listen" {
			listens++
			// mcp-go's server answers a cancelled listen anyway
			if e.Outcome != nil && (e.Outcome.State == events.Cancelled || e.Outcome.State == events.CancelledLate) {
				cancelled++
			}
		}
	}
	if listens != 2 || cancelled != 1 {
		t.Errorf("%d listens, %d cancelled; want 2 and 1", listens, cancelled)
	}
}

// TestModernListChangedOverHTTP: with ListChanged the session opens the
// listen itself once connected (modern Streamable HTTP has no GET stream).
func TestModernListChangedOverHTTP(t *testing.T) {
	url := serveDemoHTTP(t, nil)
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
	deadline := time.Now().Add(10 * time.Second)
	for !has(MethodSubscriptionsAcknowledged) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: demo.ToolToggleExtra}, nil); err != nil {
		t.Fatal(err)
	}
	for !has(MethodToolsListChanged) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !has(MethodToolsListChanged) {
		t.Errorf("notifications %v", got)
	}
}
