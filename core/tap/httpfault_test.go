package tap

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// TestHTTPFaultRealClient: the HTTP tap's --fault between a client on the
// TypeScript SDK and server-everything over Streamable HTTP: the first
// tools/call is answered with the injected error and never reaches the
// server; the second one's answer (an event of its POST's stream) is
// dropped, and dropped again when the client resumes the stream and the
// server replays it (Last-Event-ID), so the client's call times out; the
// third one's answer is duplicated and the call succeeds. Each fault is a warning in the record,
// and what the server was sent is seen by a TCP relay in front of it.
func TestHTTPFaultRealClient(t *testing.T) {
	node := peers.Node(t)
	client, _ := filepath.Abs("testdata/sdk_fault_client.mjs")
	base := peers.EverythingHTTP(t, "streamableHttp")
	addr, received := tcpRelay(t, strings.TrimPrefix(base, "http://"))
	up, _ := url.Parse("http://" + addr)
	spec, err := fault.Parse("error=tools/call:*1,drop=in:tools/call:*2,dup=in:tools/call:*1")
	if err != nil {
		t.Fatal(err)
	}
	log := events.New(nil)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	proxy := httptest.NewServer(NewProxy(ProxyOptions{Upstream: up, Rec: log, Conn: "tapped", Transport: tr, Fault: &spec}))
	defer proxy.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, client, proxy.URL+"/mcp")
	// The dropped answer ends in the client's own timeout: the tap holds
	// its exchange open, as a lost message would.
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "MCP_SDK="+sdkURL(t), "CALL_TIMEOUT_MS=3000")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s\n%s", err, out, stderr.String())
	}
	want := "one: error -32000 MCP error -32000: injected fault\n" +
		"two: error -32001 MCP error -32001: Request timed out\n" +
		"three: Echo: three\n"
	if string(out) != want {
		t.Errorf("client printed\n%s\nwant\n%s", out, want)
		for _, e := range log.Events() {
			t.Logf("%s %s %s %s %.300s", e.Kind, e.Dir, e.Method, e.Text, e.Raw)
		}
	}
	proxy.CloseClientConnections()
	tr.CloseIdleConnections()

	var warnings []string
	for _, e := range log.Events() {
		if e.Kind == events.KindWarning {
			warnings = append(warnings, e.Text)
		}
	}
	wantWarn := []string{"JSON-RPC error instead of sending · tools/call #1", "dropped · tools/call #2", "dropped · tools/call #2", "duplicated · tools/call #3"}
	if len(warnings) != len(wantWarn) {
		t.Fatalf("warnings %q, want %q", warnings, wantWarn)
	}
	for i, w := range wantWarn {
		if !strings.Contains(warnings[i], w) {
			t.Errorf("warning %d is %q, want it to say %q", i, warnings[i], w)
		}
	}
	calls := map[string]int{}
	for _, b := range received() {
		for _, m := range []string{"one", "two", "three"} {
			if bytes.Contains(b, []byte(`"tools/call"`)) && bytes.Contains(b, []byte(`"message":"`+m+`"`)) {
				calls[m]++
			}
		}
	}
	if calls["one"] != 0 || calls["two"] != 1 || calls["three"] != 1 {
		t.Errorf("the server was sent the calls %v; want two and three once, one never", calls)
	}
}

// TestHTTPFaultStreamAndCut: against an upstream that answers with an
// event stream (CRLF line endings, a comment, an event without data), the
// events no rule touches pass byte for byte however the stream is cut;
// a corrupted event carries half its message; a dropped one is left out;
// and a cut (after two messages) aborts the exchange under way and every
// later one.
func TestHTTPFaultStreamAndCut(t *testing.T) {
	const msgB = `{"jsonrpc":"2.0","method":"notifications/b"}`
	stream := ": hello\r\n\r\n" +
		"id: 1\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/a\"}\r\n\r\n" +
		"event: ping\n\n" +
		"id: 2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/b\"}\n\n" +
		"id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for b := []byte(stream); len(b) > 0; { // in small, odd pieces
			n := min(7, len(b))
			w.Write(b[:n])
			w.(http.Flusher).Flush()
			b = b[n:]
		}
	}))
	defer upstream.Close()
	up, _ := url.Parse(upstream.URL)
	get := func(proxy string) (string, error) {
		resp, err := http.Get(proxy + "/mcp")
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}

	for _, tc := range []struct{ spec, want string }{
		{"drop=in:notifications/x", stream},
		{"corrupt=in:notifications/b", strings.Replace(stream, "id: 2\ndata: "+msgB+"\n\n", "id: 2\ndata: "+msgB[:len(msgB)/2]+"\n\n", 1)},
		{"drop=in:notifications/a", strings.Replace(stream, "id: 1\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/a\"}\r\n\r\n", "", 1)},
	} {
		spec, _ := fault.Parse(tc.spec)
		log := events.New(nil)
		proxy := httptest.NewServer(NewProxy(ProxyOptions{Upstream: up, Rec: log, Conn: "t", Fault: &spec}))
		got, err := get(proxy.URL)
		proxy.Close()
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q (%v)\nwant %q", tc.spec, got, err, tc.want)
		}
	}

	spec, _ := fault.Parse("cut=in:2")
	proxy := httptest.NewServer(NewProxy(ProxyOptions{Upstream: up, Conn: "t", Fault: &spec}))
	defer proxy.Close()
	got, err := get(proxy.URL)
	if err == nil || !strings.Contains(got, "notifications/b") || strings.Contains(got, `"id":1`) {
		t.Errorf("the cut stream ended cleanly (%v) or went on past the cut: %q", err, got)
	}
	if _, err := get(proxy.URL); err == nil {
		t.Errorf("an exchange after the cut was not aborted")
	} else if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("an exchange after the cut hung: %v", err)
	}
}

// TestSSECutterCapsAnEvent: an event that never ends (no blank line) is
// not held past the limit: its bytes pass on as they come, the warning
// hook is told once, and the next complete event is cut as usual.
func TestSSECutterCapsAnEvent(t *testing.T) {
	var passed, emitted bytes.Buffer
	overs := 0
	c := &sseCutter{max: 1000,
		pass: func(b []byte) error { passed.Write(b); return nil },
		emit: func(b []byte) error { emitted.Write(b); return nil },
		over: func(int) { overs++ }}
	long := []byte("data: " + strings.Repeat("x", 100))
	var sent bytes.Buffer
	for i := 0; i < 200; i++ {
		if err := c.write(long); err != nil {
			t.Fatal(err)
		}
		sent.Write(long)
		if len(c.buf) > 1000+len(long) {
			t.Fatalf("the cutter holds %d bytes after %d written", len(c.buf), sent.Len())
		}
	}
	end := []byte("\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"m\"}\n\n")
	if err := c.write(end); err != nil {
		t.Fatal(err)
	}
	sent.Write(end[:2])
	if !bytes.Equal(passed.Bytes(), sent.Bytes()) {
		t.Errorf("passed %d bytes, want the %d of the long event", passed.Len(), sent.Len())
	}
	if overs != 1 {
		t.Errorf("over told %d times, want 1", overs)
	}
	if got := emitted.String(); got != string(end[2:]) {
		t.Errorf("emitted %q, want the next event %q", got, end[2:])
	}
}
