package session

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// tsSDKServer returns how to run testdata/tssdk_server.mjs, a server on
// the official TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0):
// node, the script and its environment.
func tsSDKServer(t *testing.T) (node, script string, env []string) {
	t.Helper()
	node = peers.Node(t)
	dist := filepath.Dir(peers.File(t, "@modelcontextprotocol/server/dist/index.mjs"))
	script, err := filepath.Abs(filepath.Join("testdata", "tssdk_server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	env = []string{
		"MCP_SERVER_SDK=file://" + filepath.ToSlash(filepath.Join(dist, "index.mjs")),
		"MCP_SERVER_SDK_STDIO=file://" + filepath.ToSlash(filepath.Join(dist, "stdio.mjs")),
	}
	return node, script, env
}

// tsSDKHTTP starts the server in Streamable HTTP mode on a free port and
// returns its MCP endpoint once it listens.
func tsSDKHTTP(t *testing.T) string {
	t.Helper()
	node, script, env := tsSDKServer(t)
	return listenHTTP(t, "the TypeScript SDK server", wire.StdioConfig{Command: node, Args: []string{script}, Env: env})
}

// listenHTTP runs one of the testdata/tssdk_*.mjs servers (cfg) with the
// arguments "http 0", a Streamable HTTP server on a free port, waits until
// it says "listening on PORT" on stderr and returns its MCP endpoint. The
// server is killed when the test ends; name says which one failed.
func listenHTTP(t *testing.T, name string, cfg wire.StdioConfig) string {
	t.Helper()
	cmd := exec.Command(cfg.Command, append(cfg.Args, "http", "0")...)
	cmd.Env = append(cmd.Environ(), cfg.Env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var lines []string
		for sc.Scan() {
			if m := regexp.MustCompile(`^listening on (\d+)$`).FindStringSubmatch(sc.Text()); m != nil {
				port <- m[1]
				return
			}
			lines = append(lines, sc.Text())
		}
		port <- "exited: " + strings.Join(lines, "\n")
	}()
	select {
	case p := <-port:
		if strings.HasPrefix(p, "exited") {
			t.Fatalf("%s did not start: %s", name, p)
		}
		return "http://127.0.0.1:" + p + "/mcp"
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not listen within 30 s", name)
	}
	return ""
}

// TestTypeScriptSDKv2 connects to a server on the official TypeScript SDK
// v2 over stdio and Streamable HTTP in every era, and uses tools (one whose
// parameter travels in an Mcp-Param header, which the SDK checks against
// the body), a resource and a prompt; in the modern era a tool that asks
// for input with an input_required round (MRTR), and every request carries
// the modern _meta (and over HTTP the MCP-Protocol-Version, Mcp-Method and
// Mcp-Name headers).
func TestTypeScriptSDKv2(t *testing.T) {
	node, script, env := tsSDKServer(t)
	httpURL := tsSDKHTTP(t)
	for _, transport := range []string{"stdio", "http"} {
		for _, era := range []Era{EraLegacy, EraModern, EraAuto} {
			t.Run(transport+"/"+string(era), func(t *testing.T) {
				log := events.New(nil)
				dial := stdioDial(log, wire.StdioConfig{Command: node, Args: []string{script, "stdio"}, Env: env})
				if transport == "http" {
					dial = httpDial(log, httpURL)
				}
				h := &peerHandlers{}
				s := New(dial, log, &Options{Era: era, Handlers: Handlers{Elicitation: h}})
				defer s.Close()
				ctx := t.Context()
				if err := s.Connect(ctx); err != nil {
					t.Fatalf("connect: %v", err)
				}
				info := s.Info()
				modern := era != EraLegacy
				if info.Modern != modern || info.Name != "tssdk-test-server" || info.Version != "2.4.0-test" {
					t.Fatalf("server info: modern %v, %q %q (protocol %s)", info.Modern, info.Name, info.Version, info.ProtocolVersion)
				}
				wantVersion := VersionLegacy
				if modern {
					wantVersion = VersionModern
				}
				if info.Fallback != "" {
					t.Errorf("fallback %q from a server that speaks both eras", info.Fallback)
				}
				if info.ProtocolVersion != wantVersion {
					t.Errorf("protocol %s, want %s", info.ProtocolVersion, wantVersion)
				}

				tools, err := s.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(tools.Tools) != 2 || tools.Tools[0].HeaderError != nil {
					t.Fatalf("tools: %+v", tools.Tools)
				}
				// Leading space and a non-ASCII letter: the header value must
				// be base64-encoded, or the SDK refuses the request (-32020).
				msg := " héllo"
				res, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: map[string]any{"message": msg}}, nil)
				if err != nil {
					t.Fatalf("echo: %v", err)
				}
				if got := strings.TrimRight(textOf(t, res), "\n"); got != "echo: "+msg {
					t.Errorf("echo answered %q", got)
				}
				rc, err := s.ReadResource(ctx, "test://note", nil)
				if err != nil || !strings.Contains(string(rc.Raw), `"a note"`) {
					t.Errorf("resources/read: %v %s", err, rcRaw(rc))
				}
				if _, err := s.GetPrompt(ctx, "greet", nil, nil); err != nil {
					t.Errorf("prompts/get: %v", err)
				}

				if modern {
					res, err := s.CallTool(ctx, ToolCall{Name: "confirm", Arguments: map[string]any{"what": "x"}}, nil)
					if err != nil {
						t.Fatalf("confirm: %v", err)
					}
					if got := strings.TrimSpace(textOf(t, res)); got != `confirmed x: {"check":true,"name":"Ada Lovelace"}` {
						t.Errorf("confirm answered %q", got)
					}
					if len(h.elicit) != 1 || h.elicit[0].InputKey != "confirm" {
						t.Errorf("elicitations: %+v", h.elicit)
					}
					checkModernRequests(t, log, transport == "http")
				}
			})
		}
	}
}

func rcRaw(r *ResourceContents) string {
	if r == nil {
		return "(none)"
	}
	return string(r.Raw)
}

// checkModernRequests checks every request the session sent: _meta with
// protocol version, client info and capabilities; over HTTP, each POST with
// MCP-Protocol-Version, Mcp-Method (and Mcp-Name for named methods); the
// two tools/call rounds of the MRTR call with fresh ids, the second one
// carrying the input responses.
func checkModernRequests(t *testing.T, log *events.Log, overHTTP bool) {
	t.Helper()
	evs, _ := log.After(0, 10000)
	ids := map[string]bool{}
	confirmRounds := 0
	for _, e := range evs {
		if e.Kind != events.KindMessage || e.Dir != events.DirOut || e.Type != events.MsgRequest {
			continue
		}
		if ids[e.ID] {
			t.Errorf("id %s used twice", e.ID)
		}
		ids[e.ID] = true
		var m struct {
			Params struct {
				Name           string                     `json:"name"`
				Meta           map[string]json.RawMessage `json:"_meta"`
				InputResponses json.RawMessage            `json:"inputResponses"`
			} `json:"params"`
		}
		if err := json.Unmarshal(e.Raw, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/clientCapabilities"} {
			if len(m.Params.Meta[k]) == 0 {
				t.Errorf("%s without _meta %s: %s", e.Method, k, e.Raw)
			}
		}
		if e.Method == "tools/call" && m.Params.Name == "confirm" {
			confirmRounds++
			if (confirmRounds == 2) != (len(m.Params.InputResponses) > 0) {
				t.Errorf("confirm round %d: inputResponses %s", confirmRounds, m.Params.InputResponses)
			}
		}
	}
	if confirmRounds != 2 {
		t.Errorf("confirm took %d rounds, want 2", confirmRounds)
	}
	if !overHTTP {
		return
	}
	posts := 0
	for _, e := range evs {
		if e.Kind != events.KindHTTP || e.HTTP == nil || e.HTTP.Method != "POST" {
			continue
		}
		posts++
		hd := e.HTTP.ReqHeader
		if hd.Get("MCP-Protocol-Version") != VersionModern || hd.Get("Mcp-Method") == "" {
			t.Errorf("POST without the modern headers: %v", hd)
		}
		switch hd.Get("Mcp-Method") {
		case "tools/call", "resources/read", "prompts/get":
			if hd.Get("Mcp-Name") == "" {
				t.Errorf("%s POST without Mcp-Name: %v", hd.Get("Mcp-Method"), hd)
			}
		}
	}
	if posts < len(ids) {
		t.Errorf("%d POSTs recorded for %d requests", posts, len(ids))
	}
}

// httpDial dials Streamable HTTP to url, recording into log.
func httpDial(log *events.Log, url string) func(context.Context) (wire.Conn, error) {
	return func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{URL: url}, log), nil
	}
}

// TestEverythingModernRefused: server-everything speaks only the legacy
// handshake; asked for the modern protocol (no fallback), the connection
// fails with a LegacyServerError over stdio (a JSON-RPC error) and over
// Streamable HTTP (an HTTP 400).
func TestEverythingModernRefused(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, everythingPkg)
	base := peers.EverythingHTTP(t, "streamableHttp")
	for name, dial := range map[string]func(*events.Log) func(context.Context) (wire.Conn, error){
		"stdio": func(log *events.Log) func(context.Context) (wire.Conn, error) {
			return stdioDial(log, wire.StdioConfig{Command: node, Args: []string{file}})
		},
		"http": func(log *events.Log) func(context.Context) (wire.Conn, error) { return httpDial(log, base+"/mcp") },
	} {
		t.Run(name, func(t *testing.T) {
			log := events.New(nil)
			s := New(dial(log), log, &Options{Era: EraModern})
			defer s.Close()
			err := s.Connect(t.Context())
			var legacy *LegacyServerError
			if !errors.As(err, &legacy) || !errors.Is(err, ErrLegacyServer) || legacy.Version != VersionModern || legacy.Refusal == nil {
				t.Fatalf("connect: %v", err)
			}
			// auto falls back, and says why
			auto := New(dial(log), log, &Options{Era: EraAuto})
			defer auto.Close()
			if err := auto.Connect(t.Context()); err != nil {
				t.Fatal(err)
			}
			if info := auto.Info(); info.Modern || !strings.Contains(info.Fallback, "fell back to initialize") {
				t.Errorf("auto: modern %v, fallback %q", info.Modern, info.Fallback)
			}
		})
	}
}

// TestVersionRetry: which version a -32022 refusal is asked again with.
func TestVersionRetry(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&RPCError{Code: CodeUnsupportedVersion, Data: json.RawMessage(`{"supported":["2026-07-28"],"requested":""}`)}, VersionModern},
		{fmt.Errorf("wrapped: %w", &RPCError{Code: CodeUnsupportedVersion, Data: json.RawMessage(`{"supported":["2025-06-18","2099-01-01","2025-11-25"]}`)}), VersionLegacy},
		{&RPCError{Code: CodeUnsupportedVersion, Data: json.RawMessage(`{"supported":["2099-01-01"]}`)}, ""},
		{&RPCError{Code: CodeUnsupportedVersion}, ""},
		{&RPCError{Code: CodeMethodNotFound, Data: json.RawMessage(`{"supported":["2026-07-28"]}`)}, ""},
		{errors.New("other"), ""},
	} {
		got, ok := versionRetry(tc.err)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("versionRetry(%v) = %q %v, want %q", tc.err, got, ok, tc.want)
		}
	}
}
