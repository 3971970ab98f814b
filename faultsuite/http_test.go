//go:build unix

package faultsuite

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// mcpServer is a small Streamable HTTP MCP server (JSON responses, no
// standalone stream) whose answers a case can replace per method.
type mcpServer struct {
	// hostile answers a request instead of the server; it returns false
	// to let the server answer.
	hostile func(w http.ResponseWriter, r *http.Request, method string, id json.RawMessage) bool

	mu   sync.Mutex
	seen []*http.Request // every request, body already read
}

func (s *mcpServer) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.seen...)
}

func (s *mcpServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.seen = append(s.seen, r)
	s.mu.Unlock()
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	if s.hostile != nil && s.hostile(w, r, m.Method, m.ID) {
		return
	}
	if r.URL.Path != "/mcp" || r.Method != http.MethodPost {
		http.Error(w, "not here", http.StatusMethodNotAllowed)
		return
	}
	if len(m.ID) == 0 { // a notification or a response
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, answer(m.Method, m.ID))
}

// answer is a well-behaved server's answer to method.
func answer(method string, id json.RawMessage) string {
	switch method {
	case "initialize":
		return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"http-hostile","version":"1"}}}`
	case "tools/list":
		return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`
	}
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32601,"message":"Method not found"}}`
}

// apiKey is the user's secret header of the redirect case.
const apiKey = "faultsuite-secret-key-123"

// httpCase is one hostile HTTP server.
type httpCase struct {
	name string
	// setup returns the server to point the client at and a check of
	// what the servers saw, run after the client ended.
	setup func(t *testing.T) (url string, after func(t *testing.T))
	// header is sent as --header / in the Streamable HTTP config.
	header string
	want   expect
	check  func(t *testing.T, evs []events.Event)
	// stderrHas is what the CLI must tell the user.
	stderrHas string
}

// serve starts srv on a loopback httptest server.
func serve(t *testing.T, h http.Handler) *httptest.Server {
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// hostileOn returns a case setup whose server misbehaves on method.
func hostileOn(method string, f func(w http.ResponseWriter, id json.RawMessage)) func(t *testing.T) (string, func(*testing.T)) {
	return func(t *testing.T) (string, func(*testing.T)) {
		srv := &mcpServer{hostile: func(w http.ResponseWriter, r *http.Request, m string, id json.RawMessage) bool {
			if m != method {
				return false
			}
			f(w, id)
			return true
		}}
		return serve(t, srv).URL + "/mcp", nil
	}
}

func htmlPage(w http.ResponseWriter, _ json.RawMessage) {
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprint(w, "<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>")
}

func truncatedJSON(w http.ResponseWriter, id json.RawMessage) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"tools":[{"name":"ec`)
}

// sseCut answers with an event stream that ends in the middle of the
// event carrying the response.
func sseCut(w http.ResponseWriter, id json.RawMessage) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":"+string(id)+",\"result\":{\"tools\":[{\"na")
	w.(http.Flusher).Flush()
}

// noChallenge answers every request with status and no WWW-Authenticate,
// and fails the test when the client goes looking for an authorization
// server at the origin after a 403 (#11.10). After a 401 discovery (and
// the 2025-03-26 default endpoints) may be tried, once the user was told.
func noChallenge(status int) func(t *testing.T) (string, func(*testing.T)) {
	return func(t *testing.T) (string, func(*testing.T)) {
		srv := &mcpServer{hostile: func(w http.ResponseWriter, r *http.Request, _ string, _ json.RawMessage) bool {
			if r.URL.Path != "/mcp" {
				http.NotFound(w, r)
				return true
			}
			http.Error(w, "denied by the firewall", status)
			return true
		}}
		ts := serve(t, srv)
		return ts.URL + "/mcp", func(t *testing.T) {
			for _, r := range srv.requests() {
				if r.URL.Path != "/mcp" && status == http.StatusForbidden {
					t.Errorf("after a 403 without a challenge the client asked %s %s", r.Method, r.URL.Path)
				}
			}
		}
	}
}

// crossOriginRedirect sends every request to another origin (another
// port) with a 307; the user's header must not arrive there (#11.4).
func crossOriginRedirect(t *testing.T) (string, func(*testing.T)) {
	other := &mcpServer{}
	ots := serve(t, other)
	first := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, ots.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	return first.URL + "/mcp", func(t *testing.T) {
		for _, r := range other.requests() {
			for name, vs := range r.Header {
				for _, v := range vs {
					if strings.Contains(v, apiKey) {
						t.Errorf("the user's header %s reached the other origin %s on %s %s", name, ots.URL, r.Method, r.URL.Path)
					}
				}
			}
		}
	}
}

var httpCases = []httpCase{
	{name: "HTML 200 to initialize", setup: hostileOn("initialize", htmlPage), want: wantBadBody},
	{name: "HTML 200 to tools/list", setup: hostileOn("tools/list", htmlPage), want: wantBadBody, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "initialize", events.OK)
	}},
	{name: "truncated JSON body", setup: hostileOn("tools/list", truncatedJSON), want: wantBadBody},
	{name: "SSE stream cut mid-event", setup: hostileOn("tools/list", sseCut), want: wantClosed, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.NoResponse)
	}},
	{name: "redirect to another origin", setup: crossOriginRedirect, header: "X-Api-Key: " + apiKey, want: wantOK, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.OK)
		for _, e := range evs {
			if e.Kind == events.KindWarning && strings.Contains(e.Text, "another origin") {
				return
			}
		}
		t.Error("the cross-origin redirect is not recorded as a warning")
	}},
	{name: "401 without a challenge", setup: noChallenge(http.StatusUnauthorized), want: wantUnauthorized,
		stderrHas: "without an OAuth challenge"},
	{name: "403 without a challenge", setup: noChallenge(http.StatusForbidden), want: wantHTTPError},
}

// TestHTTP runs every hostile HTTP server through the CLI and through the
// engine.
func TestHTTP(t *testing.T) {
	for _, c := range httpCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			t.Run("cli", func(t *testing.T) {
				t.Parallel()
				url, after := c.setup(t)
				args := []string{"--server-url", url, "--transport", "http", "--method", "tools/list", "--timeout", "5s", "--browser", "/bin/false"}
				if c.header != "" {
					args = append(args, "--header", c.header)
				}
				res := runCLI(t, nil, args...)
				if c.stderrHas != "" && !strings.Contains(res.stderr, c.stderrHas) {
					t.Errorf("stderr does not mention %q:\n%s", c.stderrHas, tail(res.stderr))
				}
				if res.code != c.want.exitCode() {
					t.Errorf("exit code %d, want %d (%s)\nstderr:\n%s", res.code, c.want.exitCode(), c.want, tail(res.stderr))
				}
				evs := checkTraceFile(t, res.trace)
				if c.check != nil {
					c.check(t, evs)
				}
				if after != nil {
					after(t)
				}
			})
			t.Run("engine", func(t *testing.T) {
				t.Parallel()
				url, after := c.setup(t)
				log := events.New(nil)
				cfg := wire.HTTPConfig{Conn: "hostile", URL: url, Header: http.Header{}}
				if name, value, ok := strings.Cut(c.header, ":"); ok {
					cfg.Header.Set(name, strings.TrimSpace(value))
				}
				dial := func(context.Context) (wire.Conn, error) { return wire.NewStreamableHTTP(cfg, log), nil }
				info, err := runEngine(t, dial, log, false, engineTimeout)
				if e := c.want.check(err); e != nil {
					t.Error(e)
				}
				evs := checkTrace(t, engineTrace(t, log, info))
				if c.check != nil {
					c.check(t, evs)
				}
				if after != nil {
					after(t)
				}
			})
		})
	}
}
