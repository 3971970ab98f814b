package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// seenRequest is one HTTP request that reached the recording proxy: its
// JSON-RPC method ("" for a GET or DELETE) and the probe header's value.
type seenRequest struct{ method, probe string }

// TestCLIRequestHeaderReachesServer puts a recording reverse proxy in front
// of server-everything over Streamable HTTP and checks, on the server's
// side of the proxy, that --request-header arrived with the --params-json
// request and with no other request of the session, while --header went
// with every one.
func TestCLIRequestHeaderReachesServer(t *testing.T) {
	isolateCLI(t)
	p := newProbeProxy(t)
	code, out, errs := cli(t, "--cli", "--server-url", p.url, "--header", "X-Tenant: acme",
		"--method", "tools/call", "--params-json", `{"name":"echo","arguments":{"message":"via proxy"}}`,
		"--request-header", "X-Probe: one", "--request-header", "X-Other: two", "--format", "json")
	if code != exitOK || toolText(t, result(t, out)) != "Echo: via proxy" {
		t.Fatalf("echo through the proxy: exit %d %s %s", code, out, errs)
	}
	p.check(t, "tools/call", "one")
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, v := range p.conn {
		if v != "acme" {
			t.Errorf("request %d (%q) had X-Tenant %q; --header goes with every request", i, p.seen[i].method, v)
		}
	}
}

// TestCLIRequestHeaderTypedMethods: --request-header goes with the typed
// methods too (no --params-json), and only with the one request the
// method sends: for tools/call with --tool-arg, not with the tools/list
// that reads the tool's schema first. Checked on the server's side of a
// recording proxy in front of server-everything over Streamable HTTP.
func TestCLIRequestHeaderTypedMethods(t *testing.T) {
	isolateCLI(t)
	for _, tc := range []struct {
		method string
		args   []string
		want   string // in the output
	}{
		{"tools/call", []string{"--tool-name", "echo", "--tool-arg", "message=typed"}, "Echo: typed"},
		{"tools/list", nil, `"echo"`},
		{"resources/read", []string{"--uri", "demo://resource/static/document/architecture.md"}, "architecture.md"},
		{"prompts/get", []string{"--prompt-name", "simple-prompt"}, "messages"},
		{"ping", nil, "{"},
	} {
		t.Run(strings.ReplaceAll(tc.method, "/", "_"), func(t *testing.T) {
			p := newProbeProxy(t)
			args := append([]string{"--cli", "--server-url", p.url, "--method", tc.method}, tc.args...)
			args = append(args, "--request-header", "X-Probe: typed-"+tc.method, "--format", "json")
			code, out, errs := cli(t, args...)
			if code != exitOK || !strings.Contains(out, tc.want) {
				t.Fatalf("%s through the proxy: exit %d\n%s\n%s", tc.method, code, out, errs)
			}
			p.check(t, tc.method, "typed-"+tc.method)
		})
	}
}

// probeProxy is a recording reverse proxy in front of server-everything
// (Streamable HTTP): every request's JSON-RPC method, X-Probe and
// X-Tenant headers as they reached the server.
type probeProxy struct {
	url  string
	mu   sync.Mutex
	seen []seenRequest
	conn []string // the --header value of every request
}

func newProbeProxy(t *testing.T) *probeProxy {
	t.Helper()
	target, err := url.Parse(peers.EverythingHTTP(t, "streamableHttp"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	p := &probeProxy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		json.Unmarshal(body, &msg)
		p.mu.Lock()
		p.seen = append(p.seen, seenRequest{msg.Method, strings.Join(req.Header.Values("X-Probe"), ",")})
		p.conn = append(p.conn, req.Header.Get("X-Tenant"))
		p.mu.Unlock()
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL + "/mcp"
	return p
}

// check: exactly one method request reached the server, with X-Probe
// probe, and no other request carried X-Probe.
func (p *probeProxy) check(t *testing.T, method, probe string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, r := range p.seen {
		switch {
		case r.method == method && r.probe != "":
			n++
			if r.probe != probe {
				t.Errorf("%s reached the server with X-Probe %q, want %q", method, r.probe, probe)
			}
		case r.probe != "":
			t.Errorf("%q reached the server with X-Probe %q; --request-header belongs to the %s only", r.method, r.probe, method)
		}
	}
	if n != 1 || len(p.seen) < 3 { // initialize, notifications/initialized, the request at least
		t.Fatalf("the proxy saw %d %s with the probe among %+v", n, method, p.seen)
	}
}

func TestCLIRequestHeaderUsage(t *testing.T) {
	isolateCLI(t)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"stdio server", []string{"--cli", "--method", "ping", "--params-json", "{}", "--request-header", "X-Probe: 1", "--", "/bin/false"},
			[]string{"--request-header", "stdio server"}},
		{"bad header", []string{"--cli", "--method", "ping", "--params-json", "{}", "--request-header", "X-Probe 1", "http://127.0.0.1:1/mcp"},
			[]string{`write --request-header "Name: Value"`}},
		{"given twice", []string{"--cli", "--method", "ping", "--params-json", "{}", "--request-header", "X: 1", "--request-header", "x: 2", "http://127.0.0.1:1/mcp"},
			[]string{"--request-header x is given twice"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d (usage): %s %s", code, exitUsage, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q does not say %q", errs, w)
				}
			}
		})
	}
}
