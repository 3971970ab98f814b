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
	target, err := url.Parse(peers.EverythingHTTP(t, "streamableHttp"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var seen []seenRequest
	var conn []string // the --header value of every request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		json.Unmarshal(body, &msg)
		mu.Lock()
		seen = append(seen, seenRequest{msg.Method, strings.Join(req.Header.Values("X-Probe"), ",")})
		conn = append(conn, req.Header.Get("X-Tenant"))
		mu.Unlock()
		proxy.ServeHTTP(w, req)
	}))
	defer srv.Close()

	code, out, errs := cli(t, "--cli", "--server-url", srv.URL+"/mcp", "--header", "X-Tenant: acme",
		"--method", "tools/call", "--params-json", `{"name":"echo","arguments":{"message":"via proxy"}}`,
		"--request-header", "X-Probe: one", "--request-header", "X-Other: two", "--format", "json")
	if code != exitOK || toolText(t, result(t, out)) != "Echo: via proxy" {
		t.Fatalf("echo through the proxy: exit %d %s %s", code, out, errs)
	}
	mu.Lock()
	defer mu.Unlock()
	calls := 0
	for _, r := range seen {
		switch {
		case r.method == "tools/call":
			calls++
			if r.probe != "one" {
				t.Errorf("tools/call reached the server with X-Probe %q, want %q", r.probe, "one")
			}
		case r.probe != "":
			t.Errorf("%q reached the server with X-Probe %q; --request-header belongs to the tools/call only", r.method, r.probe)
		}
	}
	if calls != 1 || len(seen) < 3 { // initialize, notifications/initialized, tools/call at least
		t.Fatalf("the proxy saw %d tools/call among %+v", calls, seen)
	}
	for i, v := range conn {
		if v != "acme" {
			t.Errorf("request %d (%q) had X-Tenant %q; --header goes with every request", i, seen[i].method, v)
		}
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
		{"without --params-json", []string{"--cli", "--method", "ping", "--request-header", "X-Probe: 1", "http://127.0.0.1:1/mcp"},
			[]string{"--request-header", "--params-json", "--header"}},
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
