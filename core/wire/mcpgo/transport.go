package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Transport puts a wire.Conn behind mcp-go's transport interface, so that mcp-go's
// own client (client.NewClient) runs over Spyglass's transports — stdio,
// Streamable HTTP, legacy SSE, fault injection — with every message they
// carry recorded byte for byte as usual. Spyglass's engine (core/session)
// speaks to Conns directly; Transport is for code written against mcp-go.
//
// It pairs responses with requests by id, hands notifications to the
// notification handler and server→client requests to the request handler
// (answered on the same Conn; without a handler they get "method not
// found"). A request whose context ends is abandoned and the server is
// sent notifications/cancelled, which mcp-go's own HTTP transport does
// not do.
type Transport struct {
	conn wire.Conn

	mu       sync.Mutex
	pending  map[string]chan *transport.JSONRPCResponse
	onNote   func(mcp.JSONRPCNotification)
	onReq    transport.RequestHandler
	closed   bool
	closeErr error
	done     chan struct{}
	handlers sync.WaitGroup
	// ctx is given to the handlers of server requests; Close ends it, so
	// that a handler waiting for a person does not hold Close up.
	ctx    context.Context
	cancel context.CancelFunc
}

var (
	_ transport.BidirectionalInterface = (*Transport)(nil)
	_ transport.HTTPConnection         = (*Transport)(nil)
)

// New wraps c. c must not have been started: Start starts it.
func New(c wire.Conn) *Transport {
	ctx, cancel := context.WithCancel(context.Background())
	return &Transport{conn: c, pending: map[string]chan *transport.JSONRPCResponse{}, done: make(chan struct{}), ctx: ctx, cancel: cancel}
}

// Start starts the Conn and begins delivering what arrives.
func (t *Transport) Start(ctx context.Context) error {
	return t.conn.Start(ctx, wire.Handler{
		OnMessage: t.onMessage,
		OnClose:   t.onClose,
		OnLost:    t.onLost,
	})
}

// SendRequest sends request and waits for its response, the end of ctx
// or the end of the connection.
func (t *Transport) SendRequest(ctx context.Context, request transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if request.JSONRPC == "" {
		request.JSONRPC = mcp.JSONRPC_VERSION
	}
	msg, err := json.Marshal(request)
	if err != nil {
		return nil, fmt.Errorf("wire: mcp-go request %s: %w", request.Method, err)
	}
	idb, err := json.Marshal(request.ID)
	if err != nil {
		return nil, fmt.Errorf("wire: mcp-go request %s: id: %w", request.Method, err)
	}
	id := string(idb)
	ch := make(chan *transport.JSONRPCResponse, 1)
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, wire.ErrClosed
	}
	t.pending[id] = ch
	t.mu.Unlock()
	forget := func() {
		t.mu.Lock()
		delete(t.pending, id)
		t.mu.Unlock()
	}

	var opts *wire.SendOptions
	if len(request.Header) > 0 {
		opts = &wire.SendOptions{Header: request.Header}
	}
	if err := t.conn.Send(ctx, msg, opts); err != nil {
		forget()
		return nil, err
	}
	select {
	case resp := <-ch:
		if resp == nil {
			return nil, wire.ErrResponseLost
		}
		return resp, nil
	case <-ctx.Done():
		forget()
		t.cancelled(id, ctx.Err())
		return nil, ctx.Err()
	case <-t.done:
		forget()
		t.mu.Lock()
		err := t.closeErr
		t.mu.Unlock()
		if err == nil {
			err = wire.ErrClosed
		}
		return nil, err
	}
}

// cancelled tells the server and the Conn that nobody waits for id any
// more.
func (t *Transport) cancelled(id string, why error) {
	if a, ok := t.conn.(wire.Abandoner); ok {
		a.Abandon(id)
	}
	note, err := json.Marshal(map[string]any{
		"jsonrpc": mcp.JSONRPC_VERSION,
		"method":  "notifications/cancelled",
		"params":  map[string]any{"requestId": json.RawMessage(id), "reason": why.Error()},
	})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), cancelSendTimeout)
	defer cancel()
	_ = t.conn.Send(ctx, note, nil)
}

// SendNotification sends a notification.
func (t *Transport) SendNotification(ctx context.Context, notification mcp.JSONRPCNotification) error {
	if notification.JSONRPC == "" {
		notification.JSONRPC = mcp.JSONRPC_VERSION
	}
	msg, err := json.Marshal(notification)
	if err != nil {
		return fmt.Errorf("wire: mcp-go notification %s: %w", notification.Method, err)
	}
	return t.conn.Send(ctx, msg, nil)
}

// SetNotificationHandler sets the handler of incoming notifications;
// notifications that arrive before it is set are dropped.
func (t *Transport) SetNotificationHandler(handler func(notification mcp.JSONRPCNotification)) {
	t.mu.Lock()
	t.onNote = handler
	t.mu.Unlock()
}

// SetRequestHandler sets the handler of server→client requests.
func (t *Transport) SetRequestHandler(handler transport.RequestHandler) {
	t.mu.Lock()
	t.onReq = handler
	t.mu.Unlock()
}

// SetProtocolVersion passes the negotiated version to a Conn that sends
// it (Streamable HTTP).
func (t *Transport) SetProtocolVersion(version string) {
	if v, ok := t.conn.(interface{ SetProtocolVersion(string) }); ok {
		v.SetProtocolVersion(version)
	}
}

// GetSessionId returns the Streamable HTTP session id, or "".
func (t *Transport) GetSessionId() string {
	if s, ok := t.conn.(interface{ SessionID() string }); ok {
		return s.SessionID()
	}
	return ""
}

// Close closes the Conn; waiting requests end with wire.ErrClosed.
func (t *Transport) Close() error {
	err := t.conn.Close()
	t.finish(nil)
	t.handlers.Wait()
	return err
}

func (t *Transport) finish(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.closed, t.closeErr = true, err
	close(t.done)
	t.cancel()
}

func (t *Transport) onClose(err error) { t.finish(err) }

func (t *Transport) onLost(id string, _ error) {
	t.mu.Lock()
	ch := t.pending[id]
	delete(t.pending, id)
	t.mu.Unlock()
	if ch != nil {
		ch <- nil
	}
}

// onMessage sorts one incoming message (or batch) out.
func (t *Transport) onMessage(raw []byte) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(trimmed, &batch) == nil {
			for _, m := range batch {
				t.onOne(m)
			}
		}
		return
	}
	t.onOne(trimmed)
}

func (t *Transport) onOne(raw []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method == "" && hasID:
		var resp transport.JSONRPCResponse
		if json.Unmarshal(raw, &resp) != nil {
			return
		}
		t.mu.Lock()
		ch := t.pending[string(m.ID)]
		delete(t.pending, string(m.ID))
		t.mu.Unlock()
		if ch != nil {
			ch <- &resp
		}
	case m.Method != "" && hasID:
		t.serve(raw, m.Method)
	case m.Method != "":
		var n mcp.JSONRPCNotification
		if json.Unmarshal(raw, &n) != nil {
			return
		}
		t.mu.Lock()
		h := t.onNote
		t.mu.Unlock()
		if h != nil {
			h(n)
		}
	}
}

// serve answers a server→client request on its own goroutine (a person
// may take minutes over a sampling request; the read loop goes on).
func (t *Transport) serve(raw []byte, method string) {
	var req transport.JSONRPCRequest
	if json.Unmarshal(raw, &req) != nil {
		return
	}
	t.mu.Lock()
	h := t.onReq
	closed := t.closed
	if !closed {
		t.handlers.Add(1)
	}
	t.mu.Unlock()
	if closed {
		return
	}
	go func() {
		defer t.handlers.Done()
		var resp *transport.JSONRPCResponse
		if h == nil {
			resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "method not found: "+method, nil)
		} else {
			var err error
			resp, err = h(t.ctx, req)
			if err != nil || resp == nil {
				msg := "no answer"
				if err != nil {
					msg = err.Error()
				}
				resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, msg, nil)
			}
		}
		if resp.JSONRPC == "" {
			resp.JSONRPC = mcp.JSONRPC_VERSION
		}
		out, err := json.Marshal(resp)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(t.ctx, answerSendTimeout)
		defer cancel()
		_ = t.conn.Send(ctx, out, nil) // after Close there is nobody to tell
	}()
}

// cancelSendTimeout and answerSendTimeout bound the sends Transport makes on
// its own (a cancellation, an answer to a server request).
const (
	cancelSendTimeout = 5 * time.Second
	answerSendTimeout = 30 * time.Second
)
