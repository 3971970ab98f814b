package fault

import (
	"context"
	"sync"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/wire"
)

// innerConn is a wire.Conn that records what it is sent and abandoned.
type innerConn struct {
	mu        sync.Mutex
	sent      [][]byte
	abandoned []string
}

func (c *innerConn) Start(ctx context.Context, h wire.Handler) error { return nil }
func (c *innerConn) Close() error                                    { return nil }
func (c *innerConn) Send(ctx context.Context, msg []byte, opts *wire.SendOptions) error {
	c.mu.Lock()
	c.sent = append(c.sent, msg)
	c.mu.Unlock()
	return nil
}
func (c *innerConn) Abandon(id string) {
	c.mu.Lock()
	c.abandoned = append(c.abandoned, id)
	c.mu.Unlock()
}

// The decorator passes Abandon on to the conn it wraps.
func TestAbandonPassesThrough(t *testing.T) {
	inner := &innerConn{}
	var c wire.Conn = Wrap(inner, Spec{}, nil, "x")
	a, ok := c.(wire.Abandoner)
	if !ok {
		t.Fatal("fault.Conn does not pass Abandon on")
	}
	a.Abandon("5")
	inner.mu.Lock()
	defer inner.mu.Unlock()
	if len(inner.abandoned) != 1 || inner.abandoned[0] != "5" {
		t.Fatalf("inner abandoned %q", inner.abandoned)
	}
}
