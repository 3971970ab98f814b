package session

import (
	"context"
	"net/http"
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
