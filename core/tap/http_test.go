package tap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// TestProxyHeadersAndStreams: the HTTP tap passes the session id,
// Last-Event-ID and Authorization unchanged, flushes an event stream
// event by event (the second event is not even written upstream before
// the first has reached the client), and records every message with the
// secret masked in the record only.
func TestProxyHeadersAndStreams(t *testing.T) {
	const secret = "secret-token-abc123456"
	seen := make(chan http.Header, 4)
	second := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
		w.Header().Set("Mcp-Session-Id", "session-1")
		switch r.Method {
		case http.MethodPost:
			body, _ := io.ReadAll(r.Body)
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(body, &req)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"access_token":"`+secret+`"}}`)
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "id: 8\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/one\"}\n\n")
			w.(http.Flusher).Flush()
			<-second
			io.WriteString(w, "id: 9\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"notifications/two\"}\r\n\r\n")
		}
	}))
	defer upstream.Close()
	up, _ := url.Parse(upstream.URL)
	red := wire.NewRedactor()
	log := events.New(&events.Options{Redact: red.Redact})
	proxy := httptest.NewServer(NewProxy(ProxyOptions{Upstream: up, Rec: log, Conn: "t", Redactor: red}))
	defer proxy.Close()

	post, _ := http.NewRequest(http.MethodPost, proxy.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	post.Header.Set("Authorization", "Bearer "+secret)
	post.Header.Set("Mcp-Session-Id", "session-1")
	post.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"jsonrpc":"2.0","id":1,"result":{"access_token":"` + secret + `"}}`; string(body) != want || resp.Header.Get("Mcp-Session-Id") != "session-1" {
		t.Errorf("client got %q, session %q", body, resp.Header.Get("Mcp-Session-Id"))
	}
	h := <-seen
	if h.Get("Authorization") != "Bearer "+secret || h.Get("Mcp-Session-Id") != "session-1" {
		t.Errorf("upstream got headers %v", h)
	}

	get, _ := http.NewRequest(http.MethodGet, proxy.URL+"/mcp", nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Last-Event-ID", "7")
	resp, err = http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if h := <-seen; h.Get("Last-Event-Id") != "7" {
		t.Errorf("upstream got Last-Event-ID %q", h.Get("Last-Event-Id"))
	}
	br := bufio.NewReader(resp.Body)
	var first bytes.Buffer
	for !bytes.HasSuffix(first.Bytes(), []byte("\n\n")) {
		b, err := br.ReadByte()
		if err != nil {
			t.Fatalf("stream ended before its first event: %v (%q)", err, first.String())
		}
		first.WriteByte(b)
	}
	if first.String() != "id: 8\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/one\"}\n\n" {
		t.Errorf("first event %q", first.String())
	}
	close(second)
	rest, _ := io.ReadAll(br)
	if string(rest) != "id: 9\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"notifications/two\"}\r\n\r\n" {
		t.Errorf("second event %q", rest)
	}

	var methods []string
	httpN := 0
	for _, e := range log.Events() {
		b, _ := json.Marshal(e)
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the secret is in the record: %s", b)
		}
		switch e.Kind {
		case events.KindMessage:
			methods = append(methods, string(e.Dir)+" "+e.Method)
		case events.KindHTTP:
			httpN++
			if e.HTTP.Method == http.MethodPost && e.HTTP.ReqHeader.Get("Authorization") == "" {
				t.Errorf("the Authorization header is not in the record (masked): %v", e.HTTP.ReqHeader)
			}
		}
	}
	if got := strings.Join(methods, ", "); got != "out tools/list, in tools/list, in notifications/one, in notifications/two" || httpN != 2 {
		t.Errorf("recorded messages %q, %d exchanges", got, httpN)
	}
}

// TestProxyBatch: a JSON-RPC batch POSTed through the HTTP tap reaches
// the server byte for byte, its answer (a batch too) reaches the host
// byte for byte, and the record holds each batch whole and then each
// element, the requests paired with their answers.
func TestProxyBatch(t *testing.T) {
	const reqs = `[{"jsonrpc":"2.0","id":1,"method":"ping"}, {"jsonrpc":"2.0","id":2,"method":"tools/list"}]`
	const resps = `[{"jsonrpc":"2.0","id":2,"result":{"tools":[]}},{"jsonrpc":"2.0","id":1,"result":{}}]`
	got := make(chan string, 1)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, resps)
	}))
	defer upstream.Close()
	up, _ := url.Parse(upstream.URL)
	log := events.New(nil)
	proxy := httptest.NewServer(NewProxy(ProxyOptions{Upstream: up, Rec: log, Conn: "t"}))
	defer proxy.Close()
	resp, err := http.Post(proxy.URL+"/mcp", "application/json", strings.NewReader(reqs))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != resps || <-got != reqs {
		t.Errorf("the batch or its answer changed on the way: host got %q", body)
	}
	var lines []string
	for _, e := range log.Events() {
		if e.Kind != events.KindMessage {
			continue
		}
		line := string(e.Dir) + " " + string(e.Type) + " " + e.Method + " " + e.Text
		if e.Type == events.MsgRequest {
			cur, _ := log.Get(e.Seq)
			if cur.Pair == 0 {
				line += " (unpaired)"
			}
		}
		lines = append(lines, strings.TrimSpace(line))
	}
	want := []string{
		"out",
		"out request ping batch element 1 of 2",
		"out request tools/list batch element 2 of 2",
		"in",
		"in result tools/list batch element 1 of 2",
		"in result ping batch element 2 of 2",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("recorded:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestProxyUpstreamUnreachable: with nothing listening at the upstream,
// every request is answered 502 and recorded, and the hook is told once
// for the kind of failure however often the host retries.
func TestProxyUpstreamUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	up, _ := url.Parse("http://" + addr + "/mcp")
	type told struct {
		kind UpstreamFailure
		err  error
	}
	var got []told
	var mu sync.Mutex
	log := events.New(nil)
	proxy := httptest.NewServer(NewProxy(ProxyOptions{Upstream: up, Rec: log, Conn: "c",
		OnUpstreamError: func(k UpstreamFailure, err error) {
			mu.Lock()
			got = append(got, told{k, err})
			mu.Unlock()
		}}))
	defer proxy.Close()
	for i := 0; i < 3; i++ {
		resp, err := http.Post(proxy.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadGateway {
			t.Fatalf("status %d, want 502", resp.StatusCode)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0].kind != UpstreamRefused {
		t.Fatalf("hook told %v, want once with %q", got, UpstreamRefused)
	}
	n := 0
	for _, e := range log.Events() {
		if e.Kind == events.KindHTTP {
			n++
		}
	}
	if n < 3 {
		t.Errorf("%d HTTP events recorded, want the 3 failed requests", n)
	}
}
