package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/tracetest"
)

// cli runs spyglass in-process with the given arguments, in an isolated
// XDG environment, and returns the exit code and both outputs.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// isolateCLI points the XDG folders at a fresh temporary directory.
func isolateCLI(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("SPYGLASS_CATALOG", "")
	t.Setenv(demoNotesEnvForTest, filepath.Join(dir, "notes"))
	return dir
}

const demoNotesEnvForTest = "SPYGLASS_DEMO_NOTES_DIR"

// result decodes a --format json success line.
func result(t *testing.T, stdout string) map[string]any {
	t.Helper()
	var m struct {
		Result map[string]any `json:"result"`
	}
	if strings.Count(strings.TrimSpace(stdout), "\n") != 0 {
		t.Fatalf("--format json must print exactly one line, got:\n%s", stdout)
	}
	if err := json.Unmarshal([]byte(stdout), &m); err != nil || m.Result == nil {
		t.Fatalf("not a {\"result\":...} object: %v\n%s", err, stdout)
	}
	return m.Result
}

func toolText(t *testing.T, res map[string]any) string {
	t.Helper()
	var parts []string
	content, _ := res["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			parts = append(parts, fmt.Sprint(m["text"]))
		}
	}
	return strings.Join(parts, "\n")
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestCLIEverythingStdio(t *testing.T) {
	isolateCLI(t)
	node, file := peers.Node(t), peers.File(t, peers.Everything)
	target := []string{"--", node, file}

	code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/list", "--format", "json"}, target...)...)
	if code != exitOK {
		t.Fatalf("tools/list exit %d: %s", code, errs)
	}
	names := map[string]bool{}
	for _, tl := range result(t, out)["tools"].([]any) {
		names[tl.(map[string]any)["name"].(string)] = true
	}
	for _, want := range []string{"echo", "get-sum", "get-env", "trigger-long-running-operation"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}

	// --tool-arg values are read against the schema: a and b are numbers.
	code, out, errs = cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "get-sum",
		"--tool-arg", "a=2", "--tool-arg", "b=40", "--format", "json"}, target...)...)
	if code != exitOK || toolText(t, result(t, out)) != "The sum of 2 and 40 is 42." {
		t.Fatalf("get-sum: exit %d, %s %s", code, out, errs)
	}
	code, _, errs = cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "get-sum",
		"--tool-arg", "a=two", "--tool-arg", "b=1"}, target...)...)
	if code != exitUsage || !strings.Contains(errs, "expects a JSON number") {
		t.Errorf("a non-number for a number argument: exit %d, %s", code, errs)
	}

	// The default output is the result pretty-printed.
	code, out, _ = cli(t, append([]string{"--cli", "--method", "resources/read", "--uri", "demo://resource/static/document/architecture.md"}, target...)...)
	if code != exitOK || !strings.Contains(out, "\n  \"contents\": [") {
		t.Errorf("resources/read: exit %d\n%s", code, out)
	}
	code, out, _ = cli(t, append([]string{"--cli", "--method", "prompts/get", "--prompt-name", "args-prompt",
		"--prompt-arg", "city=Paris", "--format", "json"}, target...)...)
	if want := `{"result":{"messages":[{"role":"user","content":{"type":"text","text":"What's weather in Paris?"}}]}}`; code != exitOK || strings.TrimSpace(out) != want {
		t.Errorf("prompts/get: exit %d\n%s", code, out)
	}
}

func TestCLIEverythingHTTPAndSSE(t *testing.T) {
	isolateCLI(t)
	for _, tc := range []struct{ mode, transport, path string }{
		{"streamableHttp", "http", "/mcp"},
		{"sse", "sse", "/sse"},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			url := peers.EverythingHTTP(t, tc.mode) + tc.path
			code, out, errs := cli(t, "--cli", "--server-url", url, "--transport", tc.transport,
				"--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=over "+tc.transport, "--format", "json")
			if code != exitOK || toolText(t, result(t, out)) != "Echo: over "+tc.transport {
				t.Fatalf("echo over %s: exit %d %s %s", tc.transport, code, out, errs)
			}
		})
	}
}

func TestCLIServerRequests(t *testing.T) {
	isolateCLI(t)
	node, file := peers.Node(t), peers.File(t, peers.Everything)
	target := []string{"--", node, file}

	// Sampling is declined by default: the server gets the refusal and
	// reports it as the tool's error.
	code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "trigger-sampling-request",
		"--tool-arg", "prompt=hello", "--format", "json"}, target...)...)
	if want := "MCP error -1: sampling declined by the --sampling policy (try --sampling mock)"; code != exitToolError || toolText(t, result(t, out)) != want {
		t.Errorf("sampling by default: exit %d, %s %s; want exit %d and %q", code, out, errs, exitToolError, want)
	}
	// --sampling mock answers from the Quick Mock profile.
	code, out, errs = cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "trigger-sampling-request",
		"--tool-arg", "prompt=hello", "--sampling", "mock", "--format", "json"}, target...)...)
	wantMock := "LLM sampling result: \n" + `{
  "model": "mock-model-1.0",
  "stopReason": "endTurn",
  "role": "assistant",
  "content": {
    "type": "text",
    "text": "This is a mock LLM response for testing purposes."
  }
}`
	if code != exitOK || toolText(t, result(t, out)) != wantMock {
		t.Errorf("sampling with --sampling mock: exit %d %s %s\nwant %q", code, out, errs, wantMock)
	}

	// Elicitation accepted with the schema's defaults.
	code, out, errs = cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "trigger-elicitation-request",
		"--elicitation", "accept", "--format", "json"}, target...)...)
	wantElicit := "✅ User provided the requested information!\n" +
		"User inputs:\n- Favorite Integer: 42\n- Favorite Number: 3.14\n" + `
Raw result: {
  "action": "accept",
  "content": {
    "firstLine": "It was a dark and stormy night.",
    "integer": 42,
    "legacyTitledEnum": "pet-1",
    "number": 3.14,
    "titledMultipleSelectEnum": [
      "fish-1"
    ],
    "titledSingleSelectEnum": "hero-1",
    "untitledMultipleSelectEnum": [
      "Guitar"
    ],
    "untitledSingleSelectEnum": "Monica"
  }
}`
	if code != exitOK || toolText(t, result(t, out)) != wantElicit {
		t.Errorf("elicitation accept: exit %d %s %s\nwant %q", code, out, errs, wantElicit)
	}

	// Roots from --root reach the server.
	root := t.TempDir()
	code, out, errs = cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "get-roots-list",
		"--root", root, "--format", "json"}, target...)...)
	wantRoots := "Current MCP Roots (1 total):\n\n1. " + filepath.Base(root) + "\n   URI: file://" + root + "\n\n" +
		"Note: This server demonstrates the roots protocol capability but doesn't actually access files. " +
		"The roots are provided by the MCP client and can be used by servers that need file system access."
	if code != exitOK || toolText(t, result(t, out)) != wantRoots {
		t.Errorf("roots: exit %d %s %s", code, out, errs)
	}
}

// TestCLIFilesystemRoots: server-filesystem asks for the client's roots
// after initialized, and the CLI answers with --root as a file:// URI.
// The folder is also given as the server's argument: the server applies
// the roots it is sent asynchronously, after the call may already have been
// handled, so a roots-only server would make the read race the answer (a
// race inside the peer, seen once in five -race runs). The answer itself is
// checked in the trace.
func TestCLIFilesystemRoots(t *testing.T) {
	dir := isolateCLI(t)
	node, file := peers.Node(t), peers.File(t, peers.Filesystem)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hi from a root"), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "roots.json")
	code, out, errs := cli(t, "--cli", "--method", "tools/call", "--tool-name", "read_text_file",
		"--tool-arg", "path="+filepath.Join(root, "hello.txt"), "--root", root, "--trace", trace, "--format", "json",
		"--", node, file, root)
	if code != exitOK || toolText(t, result(t, out)) != "hi from a root" {
		t.Fatalf("server-filesystem with roots: exit %d %s %s", code, out, errs)
	}
	_, evs := tracetest.Read(t, trace)
	want := `{"roots":[{"uri":"file://` + filepath.ToSlash(root) + `","name":"` + filepath.Base(root) + `"}]}`
	for _, e := range evs {
		if e.Method == "roots/list" && e.Type == events.MsgResult && e.Dir == events.DirOut {
			var msg struct{ Result json.RawMessage }
			if err := json.Unmarshal(e.Raw, &msg); err != nil {
				t.Fatal(err)
			}
			var got, exp any
			_ = json.Unmarshal(msg.Result, &got)
			_ = json.Unmarshal([]byte(want), &exp)
			if fmt.Sprint(got) != fmt.Sprint(exp) {
				t.Fatalf("roots/list answered %s, want %s", msg.Result, want)
			}
			return
		}
	}
	t.Fatal("the trace has no answer to the server's roots/list")
}

func TestCLIMemoryGraph(t *testing.T) {
	dir := isolateCLI(t)
	node, file := peers.Node(t), peers.File(t, peers.Memory)
	mem := filepath.Join(dir, "memory.jsonl")
	target := []string{"-e", "MEMORY_FILE_PATH=" + mem, "--", node, file}
	code, _, errs := cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "create_entities",
		"--tool-args-json", `{"entities":[{"name":"Spyglass","entityType":"tool","observations":["inspects MCP servers"]}]}`}, target...)...)
	if code != exitOK {
		t.Fatalf("create_entities: exit %d %s", code, errs)
	}
	code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "read_graph", "--format", "json"}, target...)...)
	if code != exitOK || !strings.Contains(out, "inspects MCP servers") {
		t.Fatalf("read_graph: exit %d %s %s", code, out, errs)
	}
}

func TestCLIDemoFromSeededCatalog(t *testing.T) {
	isolateCLI(t)
	code, out, errs := cli(t, "--cli", "--server", "spyglass-demo", "--method", "tools/call", "--tool-name", "echo",
		"--tool-arg", "message=hi", "--format", "json")
	if code != exitOK || toolText(t, result(t, out)) != "Echo: hi" {
		t.Fatalf("demo echo through the seeded catalog: exit %d %s %s", code, out, errs)
	}
}

// TestCLIExitCodes checks each documented exit code against a real cause.
func TestCLIExitCodes(t *testing.T) {
	isolateCLI(t)
	unauthorized := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer unauthorized.Close()
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()

	tests := []struct {
		name string
		args []string
		code int
		// wantOut is a substring of stdout (with --format json) or stderr.
		wantOut string
	}{
		{"usage: no method", []string{"--cli", "--server", "spyglass-demo"}, exitUsage, "--method"},
		{"usage: catalog with ad-hoc", []string{"--cli", "--method", "ping", "--catalog", "x.json", "--", "node", "x.js"}, exitUsage, "--catalog"},
		{"command not found", []string{"--cli", "--method", "ping", "--", "/nonexistent/spyglass-no-such-server"}, exitConnect, "not found"},
		{"server exits at once", []string{"--cli", "--method", "ping", "--", "sh", "-c", "echo boom >&2; exit 7"}, exitConnect, "boom"},
		{"http 404", []string{"--cli", "--method", "ping", "--server-url", notFound.URL + "/mcp", "--transport", "http"}, exitConnect, "404"},
		{"authorization required", []string{"--cli", "--method", "ping", "--server-url", unauthorized.URL + "/mcp", "--transport", "http"}, exitAuth, "authorization"},
		{"json-rpc error", []string{"--cli", "--server", "spyglass-demo", "--method", "no/such-method", "--format", "json"}, exitRPC, `"code":-32601`},
		{"tool isError", []string{"--cli", "--server", "spyglass-demo", "--method", "tools/call", "--tool-name", "fail", "--format", "json"}, exitToolError, `"isError":true`},
		{"flaky write: outcome unknown", []string{"--cli", "--server", "spyglass-demo", "--method", "tools/call", "--tool-name", "flaky_write",
			"--tool-arg", "text=hello"}, exitConnect, "check whether it did before retrying"},
		{"fault: injected error", []string{"--cli", "--server", "spyglass-demo", "--method", "tools/call", "--tool-name", "echo",
			"--tool-arg", "message=x", "--fault", "error=tools/call:-32001", "--format", "json"}, exitRPC, `"code":-32001`},
		{"fault: dropped request times out", []string{"--cli", "--server", "spyglass-demo", "--method", "ping",
			"--fault", "drop=out:ping", "--timeout", "300ms"}, exitTimeout, "timed out"},
		{"fault: bad spec", []string{"--cli", "--server", "spyglass-demo", "--method", "ping", "--fault", "explode=now"}, exitUsage, "--fault"},
		{"timeout", []string{"--cli", "--server", "spyglass-demo", "--method", "tools/call", "--tool-name", "slow_task",
			"--tool-args-json", `{"steps":50,"step_ms":1000}`, "--timeout", "300ms"}, exitTimeout, "timed out"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			if !strings.Contains(out+errs, tc.wantOut) {
				t.Errorf("output lacks %q\nstdout: %s\nstderr: %s", tc.wantOut, out, errs)
			}
		})
	}
}

func TestCLITraceAndVerbose(t *testing.T) {
	dir := isolateCLI(t)
	trace := filepath.Join(dir, "run.trace.json")
	secret := "sk-test-secret-value-123"
	node, file := peers.Node(t), peers.File(t, peers.Everything)
	var out, errb bytes.Buffer
	// get-env answers with the server's whole environment, secret included.
	code := run([]string{"--cli", "--method", "tools/call", "--tool-name", "get-env",
		"--trace", trace, "--verbose", "-e", "API_TOKEN=" + secret, "--", node, file}, strings.NewReader(""), &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// --verbose: every line of stderr is one JSON event.
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if len(lines) < 6 {
		t.Fatalf("--verbose printed %d lines, want the whole exchange", len(lines))
	}
	for _, l := range lines {
		var e map[string]any
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("--verbose line is not JSON: %q", l)
		}
	}
	meta, evs := tracetest.Read(t, trace)
	if len(meta.Conns) != 1 || meta.Conns[0].ProtocolVersion == "" || len(meta.Conns[0].ServerCapabilities) == 0 {
		t.Errorf("trace meta lacks the negotiated connection: %+v", meta.Conns)
	}
	var call *events.Event
	for i := range evs {
		if evs[i].Method == "tools/call" && evs[i].Type == events.MsgRequest {
			call = &evs[i]
		}
	}
	if call == nil || call.Outcome == nil || call.Outcome.State != events.OK || call.Pair == 0 {
		t.Fatalf("the tools/call request is not paired with an ok outcome: %+v", call)
	}
	raw, _ := os.ReadFile(trace)
	if bytes.Contains(raw, []byte(secret)) || strings.Contains(errb.String(), secret) {
		t.Errorf("a secret env value leaked into the trace or the verbose stream")
	}
}

func TestCLIProtocolMethods(t *testing.T) {
	isolateCLI(t)
	node, file := peers.Node(t), peers.File(t, peers.Everything)
	target := []string{"--format", "json", "--", node, file}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"initialize shows the negotiated version", []string{"--method", "initialize"}, `"protocolVersion":"2025-11-25"`},
		{"ping", []string{"--method", "ping"}, `{"result":{}}`},
		{"completion", []string{"--method", "completion/complete", "--ref", "prompt:completable-prompt", "--argument", "department=En"}, `"Engineering"`},
		{"logging level", []string{"--method", "logging/setLevel", "--log-level", "warning"}, `{"result":{}}`},
		{"templates", []string{"--method", "resources/templates/list"}, `"uriTemplate"`},
		{"any method with params", []string{"--method", "tools/call", "--params-json", `{"name":"echo","arguments":{"message":"raw"}}`}, `Echo: raw`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, append(append([]string{"--cli"}, tc.args...), target...)...)
			if code != exitOK || !strings.Contains(out, tc.want) {
				t.Fatalf("exit %d, stdout lacks %s:\n%s\n%s", code, tc.want, out, errs)
			}
		})
	}
}

// TestCLIPinnedProtocolVersion pins a version through a read-only config
// file's protocolVersion field and checks the server negotiated it.
func TestCLIPinnedProtocolVersion(t *testing.T) {
	dir := isolateCLI(t)
	node, file := peers.Node(t), peers.File(t, peers.Everything)
	for _, v := range []string{"2025-06-18", "2025-03-26", "2024-11-05"} {
		cfg := filepath.Join(dir, "pinned-"+v+".json")
		entry, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{
			"type": "stdio", "command": node, "args": []string{file}, "protocolVersion": v}}})
		if err := os.WriteFile(cfg, entry, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := cli(t, "--cli", "--config", cfg, "--method", "initialize", "--format", "json")
		if code != exitOK || !strings.Contains(out, `"protocolVersion":"`+v+`"`) {
			t.Errorf("pinned %s: exit %d\n%s\n%s", v, code, out, errs)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for a writer and a poller.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // closed (and replaced) on every write
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote != nil {
		close(l.wrote)
		l.wrote = nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// await waits, at most 10 s, until what was written satisfies cond, and
// reports whether it did.
func (l *lockedBuffer) await(cond func(string) bool) bool {
	deadline := time.After(10 * time.Second)
	for {
		l.mu.Lock()
		ok := cond(l.b.String())
		if l.wrote == nil {
			l.wrote = make(chan struct{})
		}
		wrote := l.wrote
		l.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-wrote:
		case <-deadline:
			return false
		}
	}
}

// TestCLISubscribePrintsUpdates: resources/subscribe prints the server's
// updates until --timeout, in both protocol eras (the modern one has no
// resources/subscribe: the session subscribes through subscriptions/listen).
func TestCLISubscribePrintsUpdates(t *testing.T) {
	dir := isolateCLI(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	go demo.ServeHTTP(ctx, demo.New(&demo.Options{NotesDir: dir}), freePort(t), func(u string) { urls <- u })
	var url string
	select {
	case url = <-urls:
	case <-time.After(10 * time.Second):
		t.Fatal("the demo server did not start")
	}
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			cat := filepath.Join(t.TempDir(), "mcp.json")
			doc := `{"mcpServers": {"demo-http": {"type": "http", "url": "` + url + `", "protocolEra": "` + era + `"}}}`
			if err := os.WriteFile(cat, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			target := []string{"--catalog", cat, "--server", "demo-http"}
			var out, errs lockedBuffer
			done := make(chan int, 1)
			go func() {
				done <- run(append([]string{"--cli", "--method", "resources/subscribe", "--uri", "demo://counter", "--timeout", "5s"}, target...),
					strings.NewReader(""), &out, &errs)
			}()
			if !errs.await(func(s string) bool { return strings.Contains(s, "subscribed to") }) {
				t.Fatalf("no subscription: %s", errs.String())
			}
			code, _, bumpErrs := cli(t, append([]string{"--cli", "--method", "tools/call", "--tool-name", "bump_counter"}, target...)...)
			if code != exitOK {
				t.Fatalf("bump_counter: exit %d %s", code, bumpErrs)
			}
			if code := <-done; code != exitOK {
				t.Fatalf("subscribe exit %d: %s", code, errs.String())
			}
			if !strings.Contains(out.String(), `"method":"notifications/resources/updated"`) || !strings.Contains(out.String(), "demo://counter") {
				t.Errorf("no update printed:\n%s", out.String())
			}
		})
	}
}

// TestCLIReviewFindings covers behaviour a review found missing: secrets in
// URLs masked in every message, the tool-error exit code through
// --params-json, a failed trace write, JSON on a flag error, and a
// subscription whose server dies.
func TestCLIReviewFindings(t *testing.T) {
	dir := isolateCLI(t)
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()

	code, out, errs := cli(t, "--cli", "--method", "ping", "--format", "json", "--transport", "http",
		"--server-url", notFound.URL+"/mcp?api_key=querysecret777&access_token=tok888")
	if code != exitConnect || strings.Contains(out+errs, "querysecret777") || strings.Contains(out+errs, "tok888") {
		t.Errorf("secret URL parameters shown (exit %d):\n%s\n%s", code, out, errs)
	}

	code, out, _ = cli(t, "--cli", "--server", "spyglass-demo", "--method", "tools/call", "--format", "json",
		"--params-json", `{"name":"fail","arguments":{}}`)
	if code != exitToolError || !strings.Contains(out, `"isError":true`) {
		t.Errorf("isError through --params-json: exit %d\n%s", code, out)
	}

	code, _, errs = cli(t, "--cli", "--server", "spyglass-demo", "--method", "ping", "--trace", filepath.Join(dir, "no", "such", "dir", "t.json"))
	if code != exitInternal || !strings.Contains(errs, "writing the trace") {
		t.Errorf("failed trace write: exit %d, %s", code, errs)
	}

	code, out, _ = cli(t, "--cli", "--format", "json", "--method", "tools/list", "--bogus-flag")
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	if code != exitUsage || json.Unmarshal([]byte(out), &e) != nil || e.Error.Message == "" {
		t.Errorf("flag error with --format json: exit %d, stdout %q", code, out)
	}

	// A server that answers the subscription and then exits.
	script := filepath.Join(dir, "dies.js")
	js := `const rl = require("readline").createInterface({input: process.stdin});
rl.on("line", l => { const m = JSON.parse(l);
  if (m.method === "initialize") console.log(JSON.stringify({jsonrpc: "2.0", id: m.id, result: {protocolVersion: "2025-06-18",
    capabilities: {resources: {subscribe: true}}, serverInfo: {name: "dies", version: "1"}}}));
  if (m.method === "resources/subscribe") { console.log(JSON.stringify({jsonrpc: "2.0", id: m.id, result: {}})); setTimeout(() => process.exit(1), 50); } });`
	if err := os.WriteFile(script, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	node := peers.Node(t)
	done := make(chan int, 1)
	go func() {
		c, _, _ := cli(t, "--cli", "--method", "resources/subscribe", "--uri", "x://y", "--", node, script)
		done <- c
	}()
	select {
	case c := <-done:
		if c != exitConnect {
			t.Errorf("subscription whose server died: exit %d, want %d", c, exitConnect)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the CLI kept waiting after the server died")
	}
}

// TestCLIInputVariables: a server imported from VS Code that still holds
// ${input:…} placeholders is not started with them; the error names each
// one and says how to give the value, and -e gives it for the run.
func TestCLIInputVariables(t *testing.T) {
	dir := isolateCLI(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(dir, "mcp.json")
	doc := `{"mcpServers": {"vs": {"command": "` + exe + `", "args": ["--demo-server"], "env": {"DEMO_TOKEN": "${input:demo-token}"}}}}`
	if err := os.WriteFile(cat, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := cli(t, "--cli", "--catalog", cat, "--server", "vs", "--method", "ping")
	if code != exitUsage || !strings.Contains(errs, "${input:demo-token} in env.DEMO_TOKEN") || !strings.Contains(errs, "-e NAME=VALUE") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, _, errs = cli(t, "--cli", "--catalog", cat, "--server", "vs", "-e", "DEMO_TOKEN=abc", "--method", "ping")
	if code != exitOK {
		t.Fatalf("with -e: exit %d: %s", code, errs)
	}
}
