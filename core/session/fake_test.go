package session

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/spyglass-mcp/spyglass/internal/testwait"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// msg is a decoded JSON-RPC message as the fake server sees it.
type msg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	raw    []byte
}

func (m msg) isRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// fakeServer is an in-memory MCP server behind a wire.Conn. Every dial
// makes a fresh fakeConn (a restarted process) sharing the handlers.
type fakeServer struct {
	t testing.TB
	// handle answers a client message; nil uses the defaults. It runs on
	// the connection's server goroutine, one message at a time.
	handle func(c *fakeConn, m msg) bool // true when handled

	// sendHook runs inside Send (on the caller's goroutine); it may block
	// or fail the write.
	sendHook func(ctx context.Context, c *fakeConn, b []byte, opts *wire.SendOptions) error

	mu    sync.Mutex
	conns []*fakeConn
	got   []msg // every message the client sent, over all connections
	dials atomic.Int32
}

func newFakeServer(t testing.TB) *fakeServer { return &fakeServer{t: t} }

func (fs *fakeServer) dial(ctx context.Context) (wire.Conn, error) {
	fs.dials.Add(1)
	c := &fakeConn{srv: fs, in: make(chan []byte, 1024), done: make(chan struct{})}
	fs.mu.Lock()
	fs.conns = append(fs.conns, c)
	fs.mu.Unlock()
	return c, nil
}

func (fs *fakeServer) conn() *fakeConn {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.conns[len(fs.conns)-1]
}

// received returns the client messages with this method.
func (fs *fakeServer) received(method string) []msg {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	var out []msg
	for _, m := range fs.got {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// waitFor waits (bounded) until the client sent a message with method.
func (fs *fakeServer) waitFor(method string) msg {
	fs.t.Helper()
	waitUntil(fs.t, "the client to send "+method, func() bool { return len(fs.received(method)) > 0 })
	ms := fs.received(method)
	return ms[len(ms)-1]
}

// fakeConn is one connection to the fake server.
type fakeConn struct {
	srv  *fakeServer
	in   chan []byte
	done chan struct{}

	emitMu sync.Mutex // OnMessage calls are sequential
	mu     sync.Mutex
	h      wire.Handler
	closed bool
	writes int
	// protocolVersion is what SetProtocolVersion was told.
	protocolVersion string
	// abandoned holds the ids Abandon was told, in order.
	abandoned []string
}

func (c *fakeConn) Abandon(id string) {
	c.mu.Lock()
	c.abandoned = append(c.abandoned, id)
	c.mu.Unlock()
}

func (c *fakeConn) Start(ctx context.Context, h wire.Handler) error {
	c.mu.Lock()
	c.h = h
	c.mu.Unlock()
	go c.loop()
	return nil
}

func (c *fakeConn) SetProtocolVersion(v string) {
	c.mu.Lock()
	c.protocolVersion = v
	c.mu.Unlock()
}

func (c *fakeConn) Send(ctx context.Context, b []byte, opts *wire.SendOptions) error {
	if h := c.srv.sendHook; h != nil {
		if err := h(ctx, c, b, opts); err != nil {
			return err
		}
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return wire.ErrClosed
	}
	c.writes++
	c.mu.Unlock()
	cp := append([]byte(nil), b...)
	select {
	case c.in <- cp:
		return nil
	case <-c.done:
		return wire.ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *fakeConn) Close() error { c.end(nil); return nil }

// crash ends the connection as if the server process died.
func (c *fakeConn) crash() { c.end(&wire.ExitError{Code: 3}) }

func (c *fakeConn) end(err error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	close(c.done)
	h := c.h
	c.mu.Unlock()
	if h.OnClose != nil {
		h.OnClose(err)
	}
}

func (c *fakeConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func (c *fakeConn) loop() {
	for {
		select {
		case <-c.done:
			return
		case b := <-c.in:
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				c.srv.t.Errorf("client sent invalid JSON %q: %v", b, err)
				continue
			}
			m.raw = b
			c.srv.mu.Lock()
			c.srv.got = append(c.srv.got, m)
			c.srv.mu.Unlock()
			if c.srv.handle != nil && c.srv.handle(c, m) {
				continue
			}
			c.defaults(m)
		}
	}
}

// emit delivers raw to the client as the server's message.
func (c *fakeConn) emit(raw string) {
	if c.isClosed() {
		return
	}
	c.emitMu.Lock()
	defer c.emitMu.Unlock()
	c.h.OnMessage([]byte(raw))
}

func (c *fakeConn) reply(id json.RawMessage, result string) {
	c.emit(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result))
}

func (c *fakeConn) replyError(id json.RawMessage, code int, message string) {
	c.emit(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, id, code, message))
}

const fakeInitResult = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{},"x-new":{"deep":true}},` +
	`"serverInfo":{"name":"fake","title":"Fake Server","version":"1.2.3","icons":[{"src":"data:image/png;base64,AA==","mimeType":"image/png","sizes":["16x16"]}]},` +
	`"instructions":"be nice"}`

func (c *fakeConn) defaults(m msg) {
	switch {
	case m.Method == "initialize":
		c.reply(m.ID, fakeInitResult)
	case m.Method == "ping":
		c.reply(m.ID, `{}`)
	case m.Method == "tools/call":
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(m.Params, &p)
		text, _ := json.Marshal(string(p.Arguments))
		c.reply(m.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
	case m.isRequest():
		c.replyError(m.ID, -32601, "Method not found")
	}
}

// newTestSession returns a session against fs with a fresh log.
func newTestSession(t testing.TB, fs *fakeServer, opts *Options) (*Session, *events.Log) {
	t.Helper()
	log := events.New(nil)
	s := New(fs.dial, log, opts)
	t.Cleanup(func() { _ = s.Close() })
	return s, log
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// messages returns the message events of the log.
func messages(log *events.Log) []events.Event {
	var out []events.Event
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage {
			out = append(out, e)
		}
	}
	return out
}

// waitUntil fails the test when cond does not come to hold in time.
var waitUntil = testwait.For

// eventually reports whether cond came to hold in time.
var eventually = testwait.Eventually
