package fault

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/wire"
)

// An injected JSON-RPC error answers requests only, with valid JSON, in
// the order the requests were sent; notifications pass untouched.
func TestErrorFaultRequestsOnlyInOrder(t *testing.T) {
	inner := &innerConn{}
	c := Wrap(inner, Spec{Rules: []Rule{{Kind: Error, Code: -32001}}}, nil, "x")
	got := make(chan []byte, 1000)
	if err := c.Start(context.Background(), wire.Handler{OnMessage: func(b []byte) { got <- b }}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`), nil); err != nil {
		t.Fatal(err)
	}
	const n = 200
	for i := 1; i <= n; i++ {
		if err := c.Send(ctx, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)), nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= n; i++ {
		var b []byte
		select {
		case b = <-got:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d errors arrived", i-1)
		}
		var m struct {
			ID    int `json:"id"`
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("invalid JSON delivered: %s", b)
		}
		if m.ID != i || m.Error.Code != -32001 {
			t.Fatalf("message %d is %s, want the error for request %d", i, b, i)
		}
	}
	inner.mu.Lock()
	defer inner.mu.Unlock()
	if len(inner.sent) != 1 {
		t.Fatalf("the inner conn got %q, want only the notification", inner.sent)
	}
}
