package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

const (
	everythingPkg = "@modelcontextprotocol/server-everything/dist/index.js"
	filesystemPkg = "@modelcontextprotocol/server-filesystem/dist/index.js"
	memoryPkg     = "@modelcontextprotocol/server-memory/dist/index.js"
)

// peerHandlers answer server requests the way a scripted user would, and
// remember the runs they were asked in.
type peerHandlers struct {
	mu       sync.Mutex
	sampling []*SamplingRequest
	elicit   []*ElicitationRequest
}

func (h *peerHandlers) CreateMessage(ctx context.Context, req *SamplingRequest) (*mcp.CreateMessageResult, error) {
	h.mu.Lock()
	h.sampling = append(h.sampling, req)
	h.mu.Unlock()
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("mock reply from spyglass")},
		Model:           "spyglass-mock",
		StopReason:      "endTurn",
	}, nil
}

func (h *peerHandlers) Elicit(ctx context.Context, req *ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.mu.Lock()
	h.elicit = append(h.elicit, req)
	h.mu.Unlock()
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}
	if req.Mode == mcp.ElicitationModeForm {
		res.Content = map[string]any{"name": "Ada Lovelace", "check": true}
	}
	return res, nil
}

func (h *peerHandlers) samplingRuns() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var runs []string
	for _, r := range h.sampling {
		runs = append(runs, r.Run)
	}
	return runs
}

func stdioDial(log *events.Log, cfg wire.StdioConfig) func(context.Context) (wire.Conn, error) {
	return func(context.Context) (wire.Conn, error) { return wire.NewStdio(cfg, log), nil }
}

func textOf(t *testing.T, r *ToolResult) string {
	t.Helper()
	if r == nil || r.Result.Raw == nil {
		t.Fatalf("no tool result: %+v", r)
	}
	var b strings.Builder
	for _, c := range r.Result.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestEverythingStdio(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, everythingPkg)
	log := events.New(nil)
	h := &peerHandlers{}
	dial := stdioDial(log, wire.StdioConfig{Conn: "everything", Command: node, Args: []string{file}})
	runEverything(t, log, dial, h, "everything")
}

func TestEverythingStreamableHTTP(t *testing.T) {
	base := peers.EverythingHTTP(t, "streamableHttp")
	log := events.New(nil)
	h := &peerHandlers{}
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "everything-http", URL: base + "/mcp"}, log), nil
	}
	runEverything(t, log, dial, h, "everything-http")
}

func TestEverythingSSE(t *testing.T) {
	base := peers.EverythingHTTP(t, "sse")
	log := events.New(nil)
	h := &peerHandlers{}
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewSSE(wire.HTTPConfig{Conn: "everything-sse", URL: base + "/sse"}, log), nil
	}
	runEverything(t, log, dial, h, "everything-sse")
}

func runEverything(t *testing.T, log *events.Log, dial func(context.Context) (wire.Conn, error), h *peerHandlers, conn string) {
	root := t.TempDir()
	s := New(dial, log, &Options{
		Conn:         conn,
		Handlers:     Handlers{Sampling: h, Elicitation: h},
		Roots:        []mcp.Root{{URI: "file://" + root, Name: "scratch"}},
		Capabilities: &Capabilities{Roots: true, Sampling: true, SamplingTools: true, ElicitationForm: true, ElicitationURL: true, Tasks: true},
	})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	info := s.Info()
	if info.ProtocolVersion != VersionLegacy || info.Name == "" || info.Version == "" || info.Caps.Tools == nil {
		t.Errorf("server info %+v", info)
	}
	if info.Instructions == "" {
		t.Errorf("server-everything sends instructions; got none")
	}

	tools, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if !json.Valid(tool.Raw) || !strings.Contains(string(tool.Raw), `"inputSchema"`) {
			t.Errorf("tool %s raw %s", tool.Name, tool.Raw)
		}
	}
	sort.Strings(names)
	for _, want := range []string{"echo", "get-sum", "get-roots-list", "trigger-sampling-request", "trigger-elicitation-request",
		"trigger-url-elicitation", "trigger-long-running-operation", "toggle-simulated-logging", "get-structured-content",
		"trigger-sampling-request-async", "simulate-research-query"} {
		if i := sort.SearchStrings(names, want); i == len(names) || names[i] != want {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}
	if len(names) != 19 {
		t.Errorf("%d tools with every capability declared, want 19: %v", len(names), names)
	}

	sum, err := s.CallTool(ctx, ToolCall{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 40}}, nil)
	if err != nil || !strings.Contains(textOf(t, sum), "42") {
		t.Fatalf("get-sum: %v %+v", err, sum)
	}

	// The server asked for roots after initialized and answered it.
	waitUntil(t, "roots/list answered", func() bool {
		for _, e := range log.Events() {
			if e.Kind == events.KindMessage && e.Dir == events.DirIn && e.Method == "roots/list" && e.Outcome != nil && e.Outcome.State == events.OK {
				return true
			}
		}
		return false
	})
	rl, err := s.CallTool(ctx, ToolCall{Name: "get-roots-list", Arguments: json.RawMessage(`{}`)}, nil)
	if err != nil || !strings.Contains(textOf(t, rl), root) {
		t.Errorf("get-roots-list: %v %q", err, textOf(t, rl))
	}

	// Sampling, in the run of the tool call that caused it.
	sm, err := s.CallTool(ctx, ToolCall{Name: "trigger-sampling-request", Arguments: map[string]any{"prompt": "hello", "maxTokens": 20}}, nil)
	if err != nil || !strings.Contains(textOf(t, sm), "mock reply from spyglass") {
		t.Fatalf("sampling: %v %q", err, textOf(t, sm))
	}
	if runs := h.samplingRuns(); len(runs) == 0 || runs[len(runs)-1] != sm.Run {
		t.Errorf("sampling runs %v, tool call run %s", runs, sm.Run)
	}
	// Async sampling (task-augmented request, answered synchronously).
	as, err := s.CallTool(ctx, ToolCall{Name: "trigger-sampling-request-async", Arguments: map[string]any{"prompt": "hi", "maxTokens": 20}}, nil)
	if err != nil || !strings.Contains(textOf(t, as), "mock reply from spyglass") {
		t.Errorf("async sampling: %v %q", err, textOf(t, as))
	}

	// Elicitation, form and url.
	el, err := s.CallTool(ctx, ToolCall{Name: "trigger-elicitation-request", Arguments: json.RawMessage(`{}`)}, nil)
	if err != nil || !strings.Contains(textOf(t, el), "Ada Lovelace") {
		t.Fatalf("elicitation: %v %q", err, textOf(t, el))
	}
	ue, err := s.CallTool(ctx, ToolCall{Name: "trigger-url-elicitation", Arguments: map[string]any{"url": "https://example.com/consent", "message": "please"}}, nil)
	if err != nil || ue.Result.IsError {
		t.Errorf("url elicitation: %v %+v", err, ue)
	}
	h.mu.Lock()
	var urlReq *ElicitationRequest
	for _, r := range h.elicit {
		if r.Mode == mcp.ElicitationModeURL {
			urlReq = r
		}
	}
	h.mu.Unlock()
	if urlReq == nil || urlReq.URL != "https://example.com/consent" || urlReq.ElicitationID == "" || urlReq.Run != ue.Run {
		t.Errorf("url elicitation request %+v (call run %s)", urlReq, ue.Run)
	}
	_, err = s.CallTool(ctx, ToolCall{Name: "trigger-url-elicitation", Arguments: map[string]any{"url": "https://example.com/other", "errorPath": true}}, nil)
	var re *RPCError
	if !errors.As(err, &re) || re.Code != CodeURLElicitationRequired || len(re.Data) == 0 {
		t.Errorf("url elicitation error path: %v", err)
	}

	// Progress restarts a timeout shorter than the whole operation.
	var progress []Progress
	var pmu sync.Mutex
	lr, err := s.CallTool(ctx, ToolCall{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 4, "steps": 8}},
		&CallOptions{Timeout: 2500 * time.Millisecond, Progress: func(p Progress) { pmu.Lock(); progress = append(progress, p); pmu.Unlock() }})
	if err != nil || !strings.Contains(textOf(t, lr), "Long running operation completed") {
		t.Fatalf("long running: %v", err)
	}
	waitUntil(t, "progress", func() bool { pmu.Lock(); defer pmu.Unlock(); return len(progress) >= 1 })
	pmu.Lock()
	if progress[0].Total != 8 {
		t.Errorf("progress %+v", progress[0])
	}
	pmu.Unlock()

	// Cancellation: notifications/cancelled goes out on every transport.
	cctx, ccancel := context.WithCancel(ctx)
	first := make(chan struct{})
	var once sync.Once
	cr, err := s.CallTool(cctx, ToolCall{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 20, "steps": 40}},
		&CallOptions{Progress: func(Progress) { once.Do(func() { close(first); ccancel() }) }})
	ccancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	<-first
	if ev, _ := log.Get(cr.Seq); ev.Outcome == nil || (ev.Outcome.State != events.Cancelled && ev.Outcome.State != events.CancelledLate) {
		t.Errorf("cancelled call outcome %+v", ev.Outcome)
	}
	sentCancel := false
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Dir == events.DirOut && e.Method == MethodCancelled && strings.Contains(string(e.Raw), `"requestId":`+cr.ID) {
			sentCancel = e.Run == cr.Run
		}
	}
	if !sentCancel {
		t.Errorf("no notifications/cancelled for request %s in its run", cr.ID)
	}

	// Logging.
	logs := make(chan Notification, 16)
	stop := s.OnNotification(func(n Notification) {
		if n.Method == MethodMessage {
			select {
			case logs <- n:
			default:
			}
		}
	})
	if _, err := s.SetLogLevel(ctx, mcp.LoggingLevelDebug, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: "toggle-simulated-logging", Arguments: json.RawMessage(`{}`)}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-logs:
		if !strings.Contains(string(n.Params), `"level"`) {
			t.Errorf("log notification %s", n.Params)
		}
	case <-time.After(15 * time.Second):
		t.Error("no notifications/message after toggle-simulated-logging")
	}
	stop()
	if _, err := s.CallTool(ctx, ToolCall{Name: "toggle-simulated-logging", Arguments: json.RawMessage(`{}`)}, nil); err != nil {
		t.Fatal(err)
	}

	// Resources, templates, prompts, completion, ping.
	res, err := s.ListResources(ctx, nil)
	if err != nil || len(res.Resources) == 0 {
		t.Fatalf("resources: %v", err)
	}
	rr, err := s.ReadResource(ctx, res.Resources[0].URI, nil)
	if err != nil || len(rr.Result.Contents) == 0 || !strings.Contains(string(rr.Raw), res.Resources[0].URI) {
		t.Errorf("read %s: %v", res.Resources[0].URI, err)
	}
	if tpl, err := s.ListResourceTemplates(ctx, nil); err != nil || len(tpl.Templates) == 0 {
		t.Errorf("templates: %v", err)
	}
	pr, err := s.ListPrompts(ctx, nil)
	if err != nil || len(pr.Prompts) < 3 {
		t.Fatalf("prompts: %v", err)
	}
	if p, err := s.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Lyon"}, nil); err != nil || !strings.Contains(string(p.Raw), "Lyon") {
		t.Errorf("args-prompt: %v", err)
	}
	if p, err := s.GetPrompt(ctx, "simple-prompt", nil, nil); err != nil || len(p.Result.Messages) == 0 {
		t.Errorf("simple-prompt: %v", err)
	}
	cp, err := s.Complete(ctx, CompletionRef{Type: "ref/prompt", Name: "completable-prompt"}, mcp.CompleteArgument{Name: "department", Value: "Eng"}, nil, nil)
	if err != nil || len(cp.Result.Values) != 1 || cp.Result.Values[0] != "Engineering" {
		t.Errorf("complete: %v %+v", err, cp)
	}
	if _, err := s.Ping(ctx, nil); err != nil {
		t.Error(err)
	}

	// Over HTTP, requests after the handshake carry the negotiated version.
	httpEvents, versioned := 0, 0
	for _, e := range log.Events() {
		if e.Kind == events.KindHTTP && e.HTTP != nil && e.HTTP.Method == "POST" {
			httpEvents++
			if e.HTTP.ReqHeader.Get("Mcp-Protocol-Version") == VersionLegacy {
				versioned++
			}
		}
	}
	if httpEvents > 0 && versioned == 0 {
		t.Errorf("no POST of %d carried MCP-Protocol-Version", httpEvents)
	}

	// Every request of ours was answered; every event is on this conn.
	for _, e := range log.Events() {
		if e.Kind != events.KindMessage {
			continue
		}
		if e.Conn != conn {
			t.Errorf("event on conn %q", e.Conn)
		}
		if e.Type == events.MsgRequest && e.Dir == events.DirOut && e.Method != "tools/call" && e.Seq != cr.Seq {
			if e.Outcome == nil || e.Outcome.State != events.OK {
				t.Errorf("%s outcome %+v", e.Method, e.Outcome)
			}
		}
	}
}

func TestFilesystemRootsOnly(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, filesystemPkg)
	dir := t.TempDir()
	log := events.New(nil)
	s := New(stdioDial(log, wire.StdioConfig{Conn: "fs", Command: node, Args: []string{file}}), log, &Options{
		Conn:  "fs",
		Roots: []mcp.Root{{URI: "file://" + dir, Name: "work"}},
	})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if got := string(s.ClientCapabilities()); got != `{"roots":{"listChanged":true}}` {
		t.Errorf("capabilities %s", got)
	}
	// The server learns its directory from roots/list.
	var allowed string
	waitUntil(t, "the root to be allowed", func() bool {
		r, err := s.CallTool(ctx, ToolCall{Name: "list_allowed_directories", Arguments: json.RawMessage(`{}`)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		allowed = textOf(t, r)
		return strings.Contains(allowed, filepath.Base(dir))
	})
	path := filepath.Join(dir, "note.txt")
	w, err := s.CallTool(ctx, ToolCall{Name: "write_file", Arguments: map[string]any{"path": path, "content": "written through spyglass"}}, nil)
	if err != nil || w.Result.IsError {
		t.Fatalf("write_file: %v %q", err, textOf(t, w))
	}
	r, err := s.CallTool(ctx, ToolCall{Name: "read_text_file", Arguments: map[string]any{"path": path}}, nil)
	if err != nil || !strings.Contains(textOf(t, r), "written through spyglass") {
		t.Fatalf("read_text_file: %v", err)
	}
	if r.Result.StructuredContent == nil {
		t.Errorf("server-filesystem results carry structuredContent; raw %s", r.Raw)
	}
	if b, _ := os.ReadFile(path); string(b) != "written through spyglass" {
		t.Errorf("file holds %q", b)
	}

	// Changing the roots tells the server, which asks again.
	dir2 := t.TempDir()
	before := countIn(log, "roots/list")
	if err := s.SetRoots(ctx, []mcp.Root{{URI: "file://" + dir2}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "roots/list again", func() bool { return countIn(log, "roots/list") > before })
}

func countIn(log *events.Log, method string) int {
	n := 0
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Dir == events.DirIn && e.Type == events.MsgRequest && e.Method == method {
			n++
		}
	}
	return n
}

func TestMemoryGraph(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, memoryPkg)
	mem := filepath.Join(t.TempDir(), "memory.jsonl")
	log := events.New(nil)
	s := New(stdioDial(log, wire.StdioConfig{Conn: "memory", Command: node, Args: []string{file}, Env: []string{"MEMORY_FILE_PATH=" + mem}}), log, &Options{Conn: "memory"})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := s.CallTool(ctx, ToolCall{Name: "create_entities", Arguments: json.RawMessage(`{"entities":[
		{"name":"Spyglass","entityType":"project","observations":["inspects MCP servers"]},
		{"name":"Ada","entityType":"person","observations":["writes tests"]}]}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: "create_relations", Arguments: json.RawMessage(`{"relations":[{"from":"Ada","to":"Spyglass","relationType":"works on"}]}`)}, nil); err != nil {
		t.Fatal(err)
	}
	g, err := s.CallTool(ctx, ToolCall{Name: "read_graph", Arguments: json.RawMessage(`{}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := textOf(t, g)
	for _, want := range []string{"Spyglass", "inspects MCP servers", "works on"} {
		if !strings.Contains(text, want) {
			t.Errorf("graph lacks %q: %s", want, text)
		}
	}
	// A fresh server process reads the same file.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	found, err := s.CallTool(ctx, ToolCall{Name: "search_nodes", Arguments: map[string]any{"query": "Ada"}}, nil)
	if err != nil || !strings.Contains(textOf(t, found), "writes tests") {
		t.Errorf("search_nodes after restart: %v", err)
	}
}

// TestStdioCrashRestart kills the real server process mid-call: the call
// ends with no response and the exit status, the next call starts the
// server again.
func TestStdioCrashRestart(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, everythingPkg)
	log := events.New(nil)
	var mu sync.Mutex
	var conns []*wire.Stdio
	dial := func(context.Context) (wire.Conn, error) {
		c := wire.NewStdio(wire.StdioConfig{Conn: "crash", Command: node, Args: []string{file}}, log)
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
		return c, nil
	}
	s := New(dial, log, &Options{Conn: "crash"})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	// Kill the server while the long operation runs: at its first
	// progress notification.
	var kill sync.Once
	onProgress := func(Progress) {
		kill.Do(func() {
			mu.Lock()
			pid := conns[0].Pid()
			mu.Unlock()
			_ = syscall.Kill(pid, syscall.SIGKILL)
		})
	}
	res, err := s.CallTool(ctx, ToolCall{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 30, "steps": 60}}, &CallOptions{Progress: onProgress})
	if !errors.Is(err, ErrNoResponse) {
		t.Fatalf("err %v, want no response", err)
	}
	var exit *wire.ExitError
	if !errors.As(err, &exit) || exit.Signal != syscall.SIGKILL {
		t.Errorf("err %v does not carry the kill", err)
	}
	if st, _ := s.State(); st != StateDisconnected {
		t.Errorf("state %s", st)
	}
	ev, _ := log.Get(res.Seq)
	if ev.Outcome == nil || ev.Outcome.State != events.NoResponse {
		t.Errorf("outcome %+v", ev.Outcome)
	}
	// the crash is one error, the session's, with its cause; the
	// process's exit is a state row beside it (it was a second error)
	var errs []string
	for _, e := range log.Events() {
		if e.Kind == events.KindError {
			errs = append(errs, e.Text)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "killed") {
		t.Errorf("the crash recorded the errors %q, want one that says the server was killed", errs)
	}
	sum, err := s.CallTool(ctx, ToolCall{Name: "get-sum", Arguments: map[string]any{"a": 1, "b": 1}}, nil)
	if err != nil || !strings.Contains(textOf(t, sum), "2") {
		t.Fatalf("call after the crash: %v", err)
	}
	mu.Lock()
	if len(conns) != 2 {
		t.Errorf("%d dials, want 2", len(conns))
	}
	mu.Unlock()
}

// TestEverythingEraAuto: server-everything speaks only the legacy
// protocol, so auto tries server/discover and falls back to initialize.
func TestEverythingEraAuto(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, everythingPkg)
	log := events.New(nil)
	s := New(stdioDial(log, wire.StdioConfig{Conn: "auto", Command: node, Args: []string{file}}), log, &Options{Conn: "auto", Era: EraAuto})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if info := s.Info(); info.Modern || info.ProtocolVersion != VersionLegacy {
		t.Errorf("info %+v", info)
	}
	tools, err := s.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 13 {
		t.Errorf("%d tools without client capabilities (want 13): %v", len(tools.Tools), err)
	}
}

// TestEverythingEraAutoHTTP: server-everything (a legacy server) answers
// a modern server/discover over HTTP with a 4xx status; the auto era falls
// back to initialize.
func TestEverythingEraAutoHTTP(t *testing.T) {
	base := peers.EverythingHTTP(t, "streamableHttp")
	log := events.New(nil)
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "auto-http", URL: base + "/mcp"}, log), nil
	}
	s := New(dial, log, &Options{Conn: "auto-http", Era: EraAuto})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if info := s.Info(); info.Modern || info.ProtocolVersion != VersionLegacy {
		t.Errorf("info %+v", info)
	}
	res, err := s.CallTool(ctx, ToolCall{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 3}}, nil)
	if err != nil || !strings.Contains(textOf(t, res), "5") {
		t.Errorf("get-sum: %v", err)
	}
}

func TestStdioStartFailures(t *testing.T) {
	node := peers.Node(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	t.Run("command not found", func(t *testing.T) {
		log := events.New(nil)
		s := New(stdioDial(log, wire.StdioConfig{Conn: "nf", Command: "spyglass-no-such-server"}), log, &Options{Conn: "nf"})
		err := s.Connect(ctx)
		if !errors.Is(err, wire.ErrCommandNotFound) {
			t.Fatalf("err %v", err)
		}
		if st, _ := s.State(); st != StateFailed {
			t.Errorf("state %s", st)
		}
	})
	t.Run("exits at once", func(t *testing.T) {
		log := events.New(nil)
		s := New(stdioDial(log, wire.StdioConfig{Conn: "ex", Command: node, Args: []string{"-e", "process.exit(3)"}}), log, &Options{Conn: "ex"})
		err := s.Connect(ctx)
		var exit *wire.ExitError
		if !errors.Is(err, ErrNoResponse) || !errors.As(err, &exit) || exit.Code != 3 {
			t.Fatalf("err %v", err)
		}
		if st, why := s.State(); st != StateFailed || why == nil {
			t.Errorf("state %s %v", st, why)
		}
		for _, e := range messages(log) {
			if e.Method == "initialize" && (e.Outcome == nil || e.Outcome.State != events.NoResponse) {
				t.Errorf("initialize outcome %+v", e.Outcome)
			}
		}
	})
}

// TestEverythingPinnedVersions pins each legacy protocol version; the
// server agrees to each and lists its tools.
func TestEverythingPinnedVersions(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, everythingPkg)
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(v, func(t *testing.T) {
			log := events.New(nil)
			s := New(stdioDial(log, wire.StdioConfig{Conn: v, Command: node, Args: []string{file}}), log, &Options{Conn: v, ProtocolVersion: v})
			t.Cleanup(func() { _ = s.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tools, err := s.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if info := s.Info(); info.ProtocolVersion != v || len(tools.Tools) == 0 {
				t.Errorf("negotiated %s, %d tools", info.ProtocolVersion, len(tools.Tools))
			}
			for _, e := range log.Events() {
				if e.Kind == events.KindWarning {
					t.Errorf("warning: %s", e.Text)
				}
			}
		})
	}
}
