package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// freePort returns a TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// initSampling declares roots and sampling so that server-everything asks
// for roots and offers trigger-sampling-request.
const initSampling = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"spyglass-test","version":"0"}}}`

// idOf returns the raw id of a message.
func idOf(t *testing.T, msg []byte) string {
	t.Helper()
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("message %s: %v", msg, err)
	}
	return string(m.ID)
}

func httpEvents(rec *memRec, method string) []events.Event {
	var out []events.Event
	for _, e := range rec.ofKind(events.KindHTTP) {
		if e.HTTP != nil && e.HTTP.Method == method {
			out = append(out, e)
		}
	}
	return out
}

func TestStreamableHTTPEverything(t *testing.T) {
	base := peers.EverythingHTTP(t, "streamableHttp")
	rec := newMemRec()
	c := NewStreamableHTTP(HTTPConfig{
		Conn:   "everything",
		URL:    base + "/mcp",
		Header: http.Header{"Authorization": {"Bearer sekrit-token-123"}, "X-Custom": {"yes"}},
	}, rec)
	s := newSink()
	ctx := ctxT(t)
	if err := c.Start(ctx, s.handler()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })

	if err := c.Send(ctx, []byte(initSampling), nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	res := s.nextWhere(t, `"id":1`)
	if !bytes.Contains(res, []byte(`"protocolVersion":"2025-11-25"`)) || !IsMessage(res) {
		t.Fatalf("initialize result: %s", res)
	}
	sid := c.SessionID()
	if sid == "" {
		t.Fatal("no Mcp-Session-Id captured from the initialize response")
	}
	c.SetProtocolVersion("2025-11-25")
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), nil); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	// The server asks for roots on the GET stream opened after initialized.
	roots := s.nextWhere(t, `"roots/list"`)
	reply := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[]}}`, idOf(t, roots))
	if err := c.Send(ctx, []byte(reply), nil); err != nil {
		t.Fatalf("roots reply: %v", err)
	}
	gets := httpEvents(rec, "GET")
	if len(gets) == 0 || gets[0].HTTP.Status != 200 {
		t.Fatalf("GET stream not recorded as opened: %+v", gets)
	}

	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), &SendOptions{Header: http.Header{"X-Per-Request": {"1"}}}); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	tools := s.nextWhere(t, `"id":2`)
	if !bytes.Contains(tools, []byte(`"trigger-sampling-request"`)) || !bytes.Contains(tools, []byte(`"get-sum"`)) {
		t.Fatalf("tools/list result: %.300s", tools)
	}

	// A server→client request on the POST stream while our call is in
	// flight; our answer is another POST; then the call's result.
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"trigger-sampling-request","arguments":{"prompt":"hi","maxTokens":5}}}`
	if err := c.Send(ctx, []byte(call), nil); err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	sampling := s.nextWhere(t, `"sampling/createMessage"`)
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"hello"},"model":"test","stopReason":"endTurn"}}`, idOf(t, sampling))
	if err := c.Send(ctx, []byte(answer), nil); err != nil {
		t.Fatalf("sampling answer: %v", err)
	}
	result := s.nextWhere(t, `"id":3`)
	if !bytes.Contains(result, []byte("hello")) {
		t.Fatalf("tools/call result: %s", result)
	}

	// Every later request carried the session, the version and the headers;
	// the Authorization value is masked in the record.
	posts := httpEvents(rec, "POST")
	if len(posts) < 5 {
		t.Fatalf("want every POST recorded, got %d", len(posts))
	}
	last := posts[len(posts)-1].HTTP
	if last.ReqHeader.Get(HeaderSessionID) != sid || last.ReqHeader.Get(HeaderProtocolVersion) != "2025-11-25" || last.ReqHeader.Get("X-Custom") != "yes" {
		t.Fatalf("request headers: %v", last.ReqHeader)
	}
	for _, e := range rec.all() {
		b, _ := json.Marshal(e)
		if bytes.Contains(b, []byte("sekrit")) {
			t.Fatalf("secret recorded: %s", b)
		}
	}
	if got := posts[0].HTTP.ReqHeader.Get("Authorization"); got != "Bearer ****" {
		t.Fatalf("Authorization recorded as %q", got)
	}
	var perReq bool
	for _, p := range posts {
		perReq = perReq || p.HTTP.ReqHeader.Get("X-Per-Request") == "1"
	}
	if !perReq {
		t.Fatal("per-request header not sent")
	}

	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatalf("OnClose: %v", err)
	}
	dels := httpEvents(rec, "DELETE")
	if len(dels) != 1 || dels[0].HTTP.Status != 200 {
		t.Fatalf("DELETE of the session: %+v", dels)
	}
	if err := c.Send(ctx, []byte(`{}`), nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send after Close: %v", err)
	}
}

func TestSSEEverything(t *testing.T) {
	base := peers.EverythingHTTP(t, "sse")
	rec := newMemRec()
	c := NewSSE(HTTPConfig{Conn: "everything-sse", URL: base + "/sse"}, rec)
	s := newSink()
	ctx := ctxT(t)
	if err := c.Start(ctx, s.handler()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if !strings.HasPrefix(c.Endpoint(), base+"/message") {
		t.Fatalf("endpoint %q", c.Endpoint())
	}
	if err := c.Send(ctx, []byte(initSampling), nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	res := s.nextWhere(t, `"id":1`)
	if !bytes.Contains(res, []byte(`"protocolVersion"`)) {
		t.Fatalf("initialize result %s", res)
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), nil); err != nil {
		t.Fatal(err)
	}
	roots := s.nextWhere(t, `"roots/list"`)
	if err := c.Send(ctx, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[]}}`, idOf(t, roots))), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), nil); err != nil {
		t.Fatal(err)
	}
	if tools := s.nextWhere(t, `"id":2`); !bytes.Contains(tools, []byte(`"get-sum"`)) {
		t.Fatalf("tools/list: %.300s", tools)
	}
	// A server→client request while our call is in flight.
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"trigger-sampling-request","arguments":{"prompt":"hi","maxTokens":5}}}`
	if err := c.Send(ctx, []byte(call), nil); err != nil {
		t.Fatal(err)
	}
	sampling := s.nextWhere(t, `"sampling/createMessage"`)
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"hello"},"model":"test","stopReason":"endTurn"}}`, idOf(t, sampling))
	if err := c.Send(ctx, []byte(answer), nil); err != nil {
		t.Fatal(err)
	}
	if result := s.nextWhere(t, `"id":3`); !bytes.Contains(result, []byte("hello")) {
		t.Fatalf("tools/call result: %s", result)
	}
	if len(httpEvents(rec, "GET")) != 1 || len(httpEvents(rec, "POST")) < 5 {
		t.Fatalf("HTTP exchanges not recorded: %v", rec.ofKind(events.KindHTTP))
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatalf("OnClose after Close: %v", err)
	}
}

func TestUnreachable(t *testing.T) {
	url := "http://127.0.0.1:" + strconv.Itoa(freePort(t)) + "/mcp"
	h := NewStreamableHTTP(HTTPConfig{URL: url}, newMemRec())
	if err := h.Start(ctxT(t), Handler{}); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Send(ctxT(t), []byte(initSampling), nil); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Streamable HTTP Send = %v, want ErrUnreachable", err)
	}
	s := NewSSE(HTTPConfig{URL: url}, nil)
	if err := s.Start(ctxT(t), Handler{}); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("SSE Start = %v, want ErrUnreachable", err)
	}
	if err := NewStreamableHTTP(HTTPConfig{URL: "ftp://x"}, nil).Start(context.Background(), Handler{}); err == nil {
		t.Fatal("a non-HTTP URL was accepted")
	}
}
