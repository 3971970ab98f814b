package wire

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestModernHeaders: with a modern protocol version set before the first
// request, every POST carries MCP-Protocol-Version, Mcp-Method and (for
// named requests) Mcp-Name; no session id is kept, no GET stream opened,
// no DELETE sent; a JSON-RPC error sent with a 4xx status is delivered as
// the answer.
func TestModernHeaders(t *testing.T) {
	var mu sync.Mutex
	var got []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Clone(r.Context()))
		mu.Unlock()
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(HeaderSessionID, "should-be-ignored")
		switch r.Header.Get(HeaderMethod) {
		case "tools/call":
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}`))
		default:
			w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
		}
	}))
	defer srv.Close()
	c := NewStreamableHTTP(HTTPConfig{URL: srv.URL}, nil)
	c.SetProtocolVersion(ModernVersion)
	s := newSink()
	ctx := ctxT(t)
	if err := c.Start(ctx, s.handler()); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`), nil); err != nil {
		t.Fatal(err)
	}
	s.next(t)
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tööl","arguments":{}}}`), nil); err != nil {
		t.Fatalf("a JSON-RPC error with status 404: %v", err)
	}
	if m := s.next(t); !strings.Contains(string(m), "-32601") {
		t.Errorf("delivered %s", m)
	}
	c.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("%d requests (no GET, no DELETE wanted)", len(got))
	}
	for i, want := range []struct{ method, name string }{{"server/discover", ""}, {"tools/call", "=?base64?dMO2w7Zs?="}} {
		h := got[i].Header
		if h.Get(HeaderProtocolVersion) != ModernVersion || h.Get(HeaderMethod) != want.method || h.Get(HeaderName) != want.name || h.Get(HeaderSessionID) != "" {
			t.Errorf("request %d headers %v", i, h)
		}
	}
}

// TestResponseLost: a response stream that ends before the response, with
// no event id to resume from, is reported to OnLost (in order, after the
// messages it carried) while the connection lives on.
func TestResponseLost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n"))
	}))
	defer srv.Close()
	lost := make(chan string, 1)
	var order []string
	var mu sync.Mutex
	c := NewStreamableHTTP(HTTPConfig{URL: srv.URL}, nil)
	ctx := ctxT(t)
	err := c.Start(ctx, Handler{
		OnMessage: func(b []byte) { mu.Lock(); order = append(order, "message"); mu.Unlock() },
		OnLost: func(id string, err error) {
			if !errors.Is(err, ErrResponseLost) {
				t.Errorf("OnLost error %v", err)
			}
			mu.Lock()
			order = append(order, "lost")
			mu.Unlock()
			lost <- id
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-lost:
		if id != "7" {
			t.Errorf("lost id %q", id)
		}
	case <-ctx.Done():
		t.Fatal("OnLost never called")
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(order, ",") != "message,lost" {
		t.Errorf("order %v", order)
	}
}
