package session

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// A request the session stops waiting for (timed out or cancelled) is
// reported to the conn, so that it can release what it holds for it (an
// HTTP response stream).
func TestGaveUpRequestsAreAbandonedOnTheConn(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool { return m.Method == "tools/call" } // never answered
	s, _ := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	rep, err := s.CallTool(ctx, ToolCall{Name: "hang"}, &CallOptions{Timeout: 20 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		eventually(func() bool { return len(fs.received("tools/call")) >= 2 || cctx.Err() != nil })
		cancel()
	}()
	rep2, err := s.CallTool(cctx, ToolCall{Name: "hang"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	c := fs.conn()
	waitUntil(t, "both requests abandoned", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return slices.Contains(c.abandoned, rep.ID) && slices.Contains(c.abandoned, rep2.ID)
	})
}
