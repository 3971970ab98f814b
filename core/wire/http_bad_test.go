package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// fakeMCP is a scriptable Streamable HTTP endpoint.
func fakeMCP(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL + "/mcp"
}

func startHTTP(t *testing.T, url string, rec Recorder) (*StreamableHTTP, *sink) {
	t.Helper()
	c := NewStreamableHTTP(HTTPConfig{Conn: "fake", URL: url, DefaultRetry: 50 * time.Millisecond}, rec)
	s := newSink()
	if err := c.Start(ctxT(t), s.handler()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, s
}

func TestHTTPErrors(t *testing.T) {
	url := fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case bytes.Contains(body, []byte(`"initialize"`)):
			w.Header().Set("Mcp-Session-Id", "s-1")
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		case bytes.Contains(body, []byte(`"boom"`)):
			w.WriteHeader(500)
			io.WriteString(w, "internal trouble")
		case bytes.Contains(body, []byte(`"locked"`)):
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`)
			w.WriteHeader(401)
		case bytes.Contains(body, []byte(`"forbidden"`)):
			w.WriteHeader(403)
		case bytes.Contains(body, []byte(`"stepup"`)):
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="more"`)
			w.WriteHeader(403)
		default:
			http.NotFound(w, r) // the session is gone
		}
	})
	c, s := startHTTP(t, url, newMemRec())
	ctx := ctxT(t)
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`), nil); err != nil {
		t.Fatal(err)
	}
	s.next(t)
	if c.SessionID() != "s-1" {
		t.Fatalf("session id %q", c.SessionID())
	}

	err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"boom"}`), nil)
	var herr *HTTPError
	if !errors.As(err, &herr) || herr.Status != 500 || string(herr.Body) != "internal trouble" {
		t.Fatalf("500: %v", err)
	}
	if errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrSessionExpired) {
		t.Fatalf("500 matched the wrong sentinel: %v", err)
	}

	err = c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"locked"}`), nil)
	if !errors.Is(err, ErrUnauthorized) || !errors.As(err, &herr) || len(herr.WWWAuthenticate()) != 1 {
		t.Fatalf("401: %v", err)
	}
	// A 403 without a challenge (a proxy, a firewall) is a plain HTTP
	// error; with one it asks for authorization (step-up).
	err = c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":4,"method":"forbidden"}`), nil)
	if !errors.As(err, &herr) || herr.Status != 403 || errors.Is(err, ErrUnauthorized) {
		t.Fatalf("403 without a challenge: %v, want an HTTP error that is not ErrUnauthorized", err)
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":6,"method":"stepup"}`), nil); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("403 with a challenge: %v", err)
	}

	err = c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`), nil)
	if !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("404 with a session: %v", err)
	}
	if c.SessionID() != "" {
		t.Fatal("an expired session id is still sent")
	}
	// Without a session a 404 is only a 404.
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/list"}`), nil); errors.Is(err, ErrSessionExpired) || !errors.As(err, &herr) || herr.Status != 404 {
		t.Fatalf("404 without a session: %v", err)
	}
}

func TestHTTPNonJSONBodies(t *testing.T) {
	url := fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case bytes.Contains(body, []byte(`"html"`)):
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>hello</html>")
		case bytes.Contains(body, []byte(`"broken"`)):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":2,`)
		case bytes.Contains(body, []byte(`"stream"`)):
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message\ndata: not json\n\n: comment\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\n")
		default:
			w.WriteHeader(202)
		}
	})
	rec := newMemRec()
	c, s := startHTTP(t, url, rec)
	ctx := ctxT(t)
	// A 200 whose body is no JSON-RPC message fails the request at once,
	// naming what came instead.
	for _, bad := range []struct{ method, ctype, head string }{
		{"html", "text/html", "<html>hello</html>"},
		{"broken", "application/json", `{\"jsonrpc\":\"2.0\",\"id\":2,`},
	} {
		err := c.Send(ctx, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q}`, bad.method)), nil)
		if !errors.Is(err, ErrBadBody) || !strings.Contains(err.Error(), bad.ctype) || !strings.Contains(err.Error(), bad.head) {
			t.Fatalf("%s: Send = %v, want ErrBadBody naming %s and %s", bad.method, err, bad.ctype, bad.head)
		}
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"stream"}`), nil); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if got := string(s.next(t)); got != `{"jsonrpc":"2.0","id":3,"result":{}}` {
		t.Fatalf("delivered %q", got)
	}
	rec.waitFor(t, "third invalid", func(events.Event) bool { return len(rec.ofKind(events.KindInvalid)) >= 3 })
	inv := rec.ofKind(events.KindInvalid)
	for i, want := range []string{"<html>hello</html>", `{"jsonrpc":"2.0","id":2,`, "not json"} {
		if !strings.Contains(inv[i].Text, want) {
			t.Fatalf("invalid event %d: %q lacks %q", i, inv[i].Text, want)
		}
	}
	// A notification answered 202 delivers nothing.
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/x"}`), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-s.msgs:
		t.Fatalf("unexpected message %s", m)
	default:
	}
}

func TestHTTPNeverAnswers(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	url := fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"stream"`)) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
		}
		select { // hold the request open, never answer
		case <-r.Context().Done():
		case <-release:
		}
	})
	c, s := startHTTP(t, url, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"silent"}`), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Send to a silent server = %v, want DeadlineExceeded", err)
	}
	// A stream that never delivers: Send returns, Close ends the stream.
	if err := c.Send(ctxT(t), []byte(`{"jsonrpc":"2.0","id":2,"method":"stream"}`), nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close hung on an open stream")
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatal(err)
	}
}

// TestHTTPResume drops a response stream after a priming event and checks
// that the client resumes it with Last-Event-ID after the server's retry
// delay, receiving the response on the resumed stream; the GET stream
// answered 405 is simply absent.
func TestHTTPResume(t *testing.T) {
	var mu sync.Mutex
	var lastIDs []string
	var waits []time.Duration
	old := resumeTimer
	resumeTimer = func(d time.Duration) (<-chan time.Time, func() bool) {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return old(0)
	}
	t.Cleanup(func() { resumeTimer = old })
	url := fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			id := r.Header.Get("Last-Event-ID")
			if id == "" {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			mu.Lock()
			lastIDs = append(lastIDs, id)
			mu.Unlock()
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "id: e-2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"ok\":true}}\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		body, _ := io.ReadAll(r.Body)
		if !bytes.Contains(body, []byte(`"slow"`)) {
			w.WriteHeader(202)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "id: e-1\nretry: 300\ndata: \n\n")
		io.WriteString(w, "id: e-1b\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
	})
	rec := newMemRec()
	c, s := startHTTP(t, url, rec)
	ctx := ctxT(t)
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":7,"method":"slow"}`), nil); err != nil {
		t.Fatal(err)
	}
	s.nextWhere(t, "notifications/progress")
	if got := s.nextWhere(t, `"id":7`); !bytes.Contains(got, []byte(`"ok":true`)) {
		t.Fatalf("resumed response %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(lastIDs) != 1 || lastIDs[0] != "e-1b" {
		t.Fatalf("resumed with Last-Event-ID %v, want [e-1b]", lastIDs)
	}
	if len(waits) != 1 || waits[0] != 300*time.Millisecond {
		t.Fatalf("waited %v before resuming, want [300ms] (the server's retry field)", waits)
	}
	for _, e := range rec.ofKind(events.KindWarning) {
		t.Fatalf("unexpected warning %q", e.Text)
	}
}

// TestHTTPStreamEndsUnresumable: a response stream without event ids that
// ends before the response leaves a warning, not a hang.
func TestHTTPStreamEndsUnresumable(t *testing.T) {
	url := fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n")
	})
	rec := newMemRec()
	c, s := startHTTP(t, url, rec)
	if err := c.Send(ctxT(t), []byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`), nil); err != nil {
		t.Fatal(err)
	}
	s.next(t)
	rec.waitFor(t, "warning", func(e events.Event) bool { return e.Kind == events.KindWarning })
}

func TestSSEBadStarts(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/locked":
			w.Header().Set("WWW-Authenticate", "Bearer")
			w.WriteHeader(401)
		case "/silent": // a stream without an endpoint event
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "/foreign": // an endpoint on another host: never POSTed to
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: endpoint\ndata: http://203.0.113.9:4444/steal\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "/short": // endpoint, one message, then the stream ends
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: endpoint\ndata: /message?sessionId=1\n\n")
			io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"hi\"}\n\n")
			w.(http.Flusher).Flush()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })

	if err := NewSSE(HTTPConfig{URL: srv.URL + "/locked"}, nil).Start(ctxT(t), Handler{}); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("401: %v", err)
	}
	var herr *HTTPError
	if err := NewSSE(HTTPConfig{URL: srv.URL + "/nope"}, nil).Start(ctxT(t), Handler{}); !errors.As(err, &herr) || herr.Status != 404 {
		t.Fatalf("404: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := NewSSE(HTTPConfig{URL: srv.URL + "/silent"}, nil).Start(ctx, Handler{}); !errors.Is(err, ErrNoEndpoint) {
		t.Fatalf("no endpoint: %v", err)
	}

	// A foreign endpoint fails Start at once (not after waiting for another
	// endpoint event until the deadline), naming where it pointed.
	err := NewSSE(HTTPConfig{URL: srv.URL + "/foreign"}, nil).Start(ctxT(t), Handler{})
	if !errors.Is(err, ErrForeignEndpoint) || !strings.Contains(err.Error(), "203.0.113.9:4444") {
		t.Fatalf("an endpoint on another origin: %v", err)
	}

	rec := newMemRec()
	c := NewSSE(HTTPConfig{URL: srv.URL + "/short"}, rec)
	s := newSink()
	if err := c.Start(ctxT(t), s.handler()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Endpoint() != srv.URL+"/message?sessionId=1" {
		t.Fatalf("endpoint %q", c.Endpoint())
	}
	if got := string(s.next(t)); got != `{"jsonrpc":"2.0","method":"hi"}` {
		t.Fatalf("message %q", got)
	}
	if err := s.waitClosed(t); !errors.Is(err, ErrStreamEnded) {
		t.Fatalf("OnClose after the stream ended: %v", err)
	}
	if err := c.Send(ctxT(t), []byte(`{}`), nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send after the stream ended: %v", err)
	}
}

// BenchmarkStreamableHTTPRoundTrip measures one POST with a JSON answer
// through the tap against an in-process echo endpoint.
func BenchmarkStreamableHTTPRoundTrip(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer srv.Close()
	c := NewStreamableHTTP(HTTPConfig{URL: srv.URL}, &discardRec{})
	got := make(chan []byte, 1)
	if err := c.Start(context.Background(), Handler{OnMessage: func(m []byte) { got <- m }}); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}`)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Send(ctx, msg, nil); err != nil {
			b.Fatal(err)
		}
		<-got
	}
}

type discardRec struct{}

func (*discardRec) Append(events.Event) uint64 { return 0 }

func TestHTTPHugeMessages(t *testing.T) {
	pad := strings.Repeat("z", 10<<20)
	url := fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"json"`)) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":{"pad":"%s"}}`, pad)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"pad\":\"%s\"}}\n\n", pad)
	})
	c, s := startHTTP(t, url, nil)
	for i, m := range []string{"json", "sse"} {
		if err := c.Send(ctxT(t), []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, i+1, m)), nil); err != nil {
			t.Fatal(err)
		}
		if got := s.next(t); len(got) < 10<<20 || !IsMessage(got) {
			t.Fatalf("%s: a 10 MB message arrived as %d bytes", m, len(got))
		}
	}
}

func TestHTTPPrepare(t *testing.T) {
	var mu sync.Mutex
	var auths []string
	url := fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Method+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Method == http.MethodPost {
			w.Header().Set("Mcp-Session-Id", "s")
		}
		w.WriteHeader(202)
	})
	token := "t1"
	refuse := errors.New("no token")
	c := NewStreamableHTTP(HTTPConfig{URL: url, Prepare: func(r *http.Request) error {
		if token == "" {
			return refuse
		}
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}}, nil)
	if err := c.Start(ctxT(t), Handler{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctxT(t), []byte(`{"jsonrpc":"2.0","method":"notifications/x"}`), nil); err != nil {
		t.Fatal(err)
	}
	token = "t2"
	if err := c.Send(ctxT(t), []byte(`{"jsonrpc":"2.0","method":"notifications/y"}`), nil); err != nil {
		t.Fatal(err)
	}
	token = ""
	if err := c.Send(ctxT(t), []byte(`{"jsonrpc":"2.0","method":"notifications/z"}`), nil); !errors.Is(err, refuse) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("a failing Prepare: %v", err)
	}
	token = "t3"
	c.Close()
	mu.Lock()
	defer mu.Unlock()
	want := []string{"POST Bearer t1", "POST Bearer t2", "DELETE Bearer t3"}
	if strings.Join(auths, ",") != strings.Join(want, ",") {
		t.Fatalf("requests %v, want %v", auths, want)
	}
}
