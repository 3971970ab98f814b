//go:build unix

package session

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// serveNoRead is a stdio server (the test binary with demoServeEnv set to
// "noread") that answers initialize, reads notifications/initialized and
// then never reads stdin again, as a hung server does.
func serveNoRead() int {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadString('\n')
	if err != nil {
		return 1
	}
	id := strings.SplitN(strings.SplitN(line, `"id":`, 2)[1], ",", 2)[0]
	fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"noread","version":"1"}}}`+"\n", id)
	if _, err := in.ReadString('\n'); err != nil { // notifications/initialized
		return 1
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR2) // a signal wait: never read again, and no deadlock for the runtime
	for {
		<-c
	}
}

// TestStdioServerStopsReading: a request too big for the pipe to a server
// that stopped reading used to deadlock the session (the blocked write
// held the write lock that notifications/cancelled waited for, so the
// timeout never returned). The request now times out, the request that
// never fully left is not followed by a cancel the record claims was
// sent, and closing the session leaves no process behind.
func TestStdioServerStopsReading(t *testing.T) {
	log := events.New(nil)
	cfg := wire.StdioConfig{Conn: "noread", Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{demoServeEnv + "=noread"}, StopWait: 100 * time.Millisecond}
	var conn *wire.Stdio
	dial := func(context.Context) (wire.Conn, error) { conn = wire.NewStdio(cfg, log); return conn, nil }
	s := New(dial, log, &Options{Conn: "noread", RequestTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = s.Close() })
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 120<<10)
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: map[string]any{"message": big}}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("tools/call to a server that never reads = %v, want a timeout", err)
		}
	case <-ctx.Done():
		t.Fatal("tools/call to a server that never reads never returned (deadlock)")
	}
	var req *events.Event
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Method == "notifications/cancelled" {
			t.Fatalf("a cancel was recorded as sent for a request the server never got: %s", e.Raw)
		}
		if e.Kind == events.KindMessage && e.Method == "tools/call" && e.Type == events.MsgRequest {
			req = &e
		}
	}
	if req == nil || req.Outcome == nil || req.Outcome.State != events.TimedOut {
		t.Fatalf("tools/call request event %+v, want outcome timed_out", req)
	}
	warned := false
	for _, e := range log.Events() {
		warned = warned || (e.Kind == events.KindWarning && strings.Contains(e.Text, "not written"))
	}
	if !warned {
		t.Fatalf("no warning says the request was not written; events: %v", log.Events())
	}
	pid := conn.Pid()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the server's process group %d is still there after Close: %v", pid, err)
	}
}

// TestCancelNotWrittenIsRecordedAsNotSent: a notifications/cancelled the
// conn could not write is not recorded as a message sent, but as a
// warning that says it was not sent.
func TestCancelNotWrittenIsRecordedAsNotSent(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool { return m.Method == "tools/call" } // never answered
	fs.sendHook = func(ctx context.Context, c *fakeConn, b []byte, _ *wire.SendOptions) error {
		if strings.Contains(string(b), "notifications/cancelled") {
			return fmt.Errorf("wire: send: %w: %w", wire.ErrNotSent, context.DeadlineExceeded)
		}
		return nil
	}
	s, log := newTestSession(t, fs, nil)
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, ToolCall{Name: "slow"}, nil)
		done <- err
	}()
	fs.waitFor("tools/call")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call = %v", err)
	}
	warned := false
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Method == "notifications/cancelled" {
			t.Fatalf("a cancel that was not written is recorded as sent: %s", e.Raw)
		}
		warned = warned || e.Kind == events.KindWarning && strings.Contains(e.Text, "notifications/cancelled for request") && strings.Contains(e.Text, "not sent")
	}
	if !warned {
		t.Fatalf("no warning says the cancel was not sent: %v", log.Events())
	}
}

// TestHTTPNotJSONRPCFailsAtOnce: an HTTP 200 whose body is an HTML page
// used to count as "no answer yet" and time out; the request now fails at
// once as a lost answer that names what came instead. A "jsonrpc":"1.0"
// initialize result is not accepted either.
func TestHTTPNotJSONRPCFailsAtOnce(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case strings.Contains(string(body), `"initialize"`) && r.Header.Get("X-Old") != "":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"1.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}}`)
		case strings.Contains(string(body), `"initialize"`):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"waf","version":"1"}}}`)
		case strings.Contains(string(body), `"tools/call"`):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body>Request blocked by the firewall</body></html>")
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(ts.Close)
	log := events.New(nil)
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "waf", URL: ts.URL}, log), nil
	}
	// No request timeout: a request that waits for its timeout hangs
	// until the test's context ends and fails it.
	s := New(dial, log, &Options{Conn: "waf", RequestTimeout: -1})
	t.Cleanup(func() { _ = s.Close() })
	ctx := testCtx(t)
	_, err := s.CallTool(ctx, ToolCall{Name: "echo"}, nil)
	if !errors.Is(err, ErrNoResponse) || !errors.Is(err, wire.ErrBadBody) ||
		!strings.Contains(err.Error(), "text/html") || !strings.Contains(err.Error(), "Request blocked") {
		t.Fatalf("tools/call answered by an HTML page = %v, want no response naming text/html and the page", err)
	}
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Method == "tools/call" && e.Type == events.MsgRequest &&
			(e.Outcome == nil || e.Outcome.State != events.NoResponse) {
			t.Fatalf("tools/call outcome %+v, want no_response", e.Outcome)
		}
	}

	old := New(func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "old", URL: ts.URL, Header: http.Header{"X-Old": {"1"}}}, log), nil
	}, log, &Options{Conn: "old", RequestTimeout: -1})
	t.Cleanup(func() { _ = old.Close() })
	if err := old.Connect(ctx); err == nil || !strings.Contains(err.Error(), `"jsonrpc"`) {
		t.Fatalf(`initialize answered with "jsonrpc":"1.0" = %v, want an error naming the jsonrpc member`, err)
	}
}
