package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/spyglass-mcp/spyglass/internal/testwait"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// serveEnv makes the test binary a demo server process (see TestMain): the
// stdio and HTTP tests talk to a real separate process, so that
// flaky_write's crash is a real crash.
const serveEnv = "SPYGLASS_DEMO_TEST_SERVE"

func TestMain(m *testing.M) {
	switch os.Getenv(serveEnv) {
	case "stdio":
		if err := ServeStdio(context.Background(), New(nil), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "http":
		err := ServeHTTP(context.Background(), New(nil), 0, func(url string) { fmt.Println(url) })
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// user answers the server's requests through core/session's handler
// interfaces, like the app's dialogs would.
type user struct {
	mu        sync.Mutex
	samplings []*session.SamplingRequest
	elicits   []string
}

func (u *user) CreateMessage(_ context.Context, req *session.SamplingRequest) (*mcp.CreateMessageResult, error) {
	u.mu.Lock()
	u.samplings = append(u.samplings, req)
	u.mu.Unlock()
	last := compactJSON(req.Messages[len(req.Messages)-1].Content)
	if len(req.Tools) > 0 && !strings.Contains(last, "tool_result") {
		return &mcp.CreateMessageResult{
			SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: []mcp.Content{
				mcp.NewToolUseContent("u1", "add", map[string]any{"a": 2, "b": 3}),
			}},
			Model: "test-model", StopReason: "toolUse",
		}, nil
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("the answer is 5")},
		Model:           "test-model", StopReason: "endTurn",
	}, nil
}

func (u *user) Elicit(_ context.Context, req *session.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.mu.Lock()
	u.elicits = append(u.elicits, req.Mode)
	u.mu.Unlock()
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}
	if req.Mode != mcp.ElicitationModeURL {
		if !strings.Contains(string(req.Schema), `"oneOf"`) {
			return nil, errors.New("the form schema lost its oneOf")
		}
		res.Content = map[string]any{"name": "Grace", "age": 85}
	}
	return res, nil
}

// engine is Spyglass's engine (core/session over core/wire) connected to a
// demo server process.
type engine struct {
	s    *session.Session
	log  *events.Log
	dir  string
	user *user

	mu    sync.Mutex
	notes []session.Notification
}

func (e *engine) onNote(n session.Notification) {
	e.mu.Lock()
	e.notes = append(e.notes, n)
	e.mu.Unlock()
}

func (e *engine) count(method string, match string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := 0
	for _, n := range e.notes {
		if n.Method == method && strings.Contains(string(n.Params), match) {
			c++
		}
	}
	return c
}

func (e *engine) waitNote(t *testing.T, method, match string, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for e.count(method, match) < n {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %d× %s containing %q (have %d)", n, method, match, e.count(method, match))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func newEngine(t *testing.T, era session.Era, dial func(log *events.Log) func(context.Context) (wire.Conn, error), dir string) *engine {
	t.Helper()
	log := events.New(nil)
	u := &user{}
	e := &engine{log: log, dir: dir, user: u}
	e.s = session.New(dial(log), log, &session.Options{
		Conn:     "demo",
		Era:      era,
		Handlers: session.Handlers{Sampling: u, Elicitation: u},
		Roots:    []mcp.Root{{URI: "file:///home/grace/cobol", Name: "cobol"}},
		Capabilities: &session.Capabilities{Roots: true, Sampling: true, SamplingTools: true,
			ElicitationForm: true, ElicitationURL: true, Tasks: true},
		RequestTimeout: 30 * time.Second,
	})
	cancel := e.s.OnNotification(e.onNote)
	t.Cleanup(func() { cancel(); e.s.Close() })
	if err := e.s.Connect(ctxT(t)); err != nil {
		var he *wire.HTTPError
		if errors.As(err, &he) {
			t.Fatalf("connect: %v: %s", err, he.Body)
		}
		t.Fatalf("connect: %v", err)
	}
	return e
}

// startStdio runs the demo server as a child process over stdio.
func startStdio(t *testing.T) *engine { return startStdioEra(t, session.EraLegacy) }

func startStdioEra(t *testing.T, era session.Era) *engine {
	dir := t.TempDir()
	return newEngine(t, era, func(log *events.Log) func(context.Context) (wire.Conn, error) {
		return func(context.Context) (wire.Conn, error) {
			return wire.NewStdio(wire.StdioConfig{
				Conn: "demo", Command: os.Args[0], Args: []string{"-test.run=^$"},
				Env: []string{serveEnv + "=stdio", NotesEnv + "=" + dir},
			}, log), nil
		}
	}, dir)
}

// startHTTP runs the demo server as a child process over Streamable HTTP.
func startHTTP(t *testing.T) *engine { return startHTTPEra(t, session.EraLegacy) }

func startHTTPEra(t *testing.T, era session.Era) *engine {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"=http", NotesEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	urlc := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		urlc <- strings.TrimSpace(line)
	}()
	var url string
	select {
	case url = <-urlc:
	case <-time.After(15 * time.Second):
		t.Fatal("the HTTP demo server did not start")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("demo server printed %q", url)
	}
	return newEngine(t, era, func(log *events.Log) func(context.Context) (wire.Conn, error) {
		return func(context.Context) (wire.Conn, error) {
			return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "demo", URL: url}, log), nil
		}
	}, dir)
}

var transports = []struct {
	name  string
	start func(t *testing.T) *engine
}{{"stdio", startStdio}, {"http", startHTTP}}

func (e *engine) call(t *testing.T, name string, args any, opts *session.CallOptions) mcpresult.ToolResult {
	t.Helper()
	res, err := e.s.CallTool(ctxT(t), session.ToolCall{Name: name, Arguments: args}, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Result.Problems) > 0 {
		t.Fatalf("%s: %v: %s", name, res.Result.Problems, res.Raw)
	}
	return res.Result
}

// textOf joins the text blocks of a tool result.
func textOf(r mcpresult.ToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestEngineTools(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			e := tr.start(t)
			ctx := ctxT(t)
			info := e.s.Info()
			if info.Name != Name || !strings.Contains(string(info.Capabilities), ExperimentalCapability) {
				t.Errorf("initialize: %s %s", info.Name, info.Capabilities)
			}
			tools, err := e.s.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var raw []string
			for _, tl := range tools.Tools {
				raw = append(raw, string(tl.Raw))
			}
			all := strings.Join(raw, "\n")
			for _, kw := range []string{`"$defs"`, `"$ref"`, `"oneOf"`, `"anyOf"`, `"enumNames"`, `"format":"uri"`, `"outputSchema"`, `"taskSupport":"optional"`, `"icons"`} {
				if !strings.Contains(all, kw) {
					t.Errorf("tools/list lacks %s", kw)
				}
			}

			if got := textOf(e.call(t, ToolEcho, map[string]any{"message": "über"}, nil)); got != "Echo: über" {
				t.Errorf("echo = %q", got)
			}
			w := e.call(t, ToolWeather, map[string]any{"city": "Lima"}, nil)
			var sc map[string]any
			if json.Unmarshal(w.StructuredContent, &sc); sc["city"] != "Lima" {
				t.Errorf("structuredContent = %s", w.StructuredContent)
			}
			if !e.call(t, ToolFail, nil, nil).IsError {
				t.Error("fail: no isError")
			}
			if _, err := e.s.CallTool(ctx, session.ToolCall{Name: ToolFail, Arguments: map[string]any{"mode": "protocol"}}, nil); err == nil {
				t.Error("fail mode protocol: no JSON-RPC error")
			}
			var kinds []string
			for _, n := range []string{ToolImage, ToolAudio, ToolResourceLink, ToolEmbeddedResource} {
				for _, c := range e.call(t, n, nil, nil).Content {
					kinds = append(kinds, c.Type)
				}
			}
			for _, k := range []string{"image", "audio", "resource_link", "resource"} {
				if !slices.Contains(kinds, k) {
					t.Errorf("no %s among %v", k, kinds)
				}
			}

			// Progress on every step.
			var mu sync.Mutex
			var steps []float64
			e.call(t, ToolSlowTask, map[string]any{"steps": 4, "step_ms": 5}, &session.CallOptions{Progress: func(p session.Progress) {
				mu.Lock()
				steps = append(steps, p.Progress)
				mu.Unlock()
			}})
			waitFor(t, "4 progress updates", func() bool { mu.Lock(); defer mu.Unlock(); return len(steps) == 4 })

			// Cancellation: slow_task stops, the server stays usable.
			cctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			started := make(chan struct{}, 1)
			go func() {
				_, err := e.s.CallTool(cctx, session.ToolCall{Name: ToolSlowTask, Arguments: map[string]any{"steps": 1000, "step_ms": 20}},
					&session.CallOptions{Progress: func(session.Progress) {
						select {
						case started <- struct{}{}:
						default:
						}
					}})
				done <- err
			}()
			<-started
			cancel()
			if err := <-done; err == nil {
				t.Error("cancelled slow_task answered")
			}
			e.call(t, ToolEcho, map[string]any{"message": "still here"}, nil)

			// Logs at every level; then only those at or above the level set.
			e.call(t, ToolLogLevels, nil, nil)
			for _, l := range logLevelsInOrder {
				e.waitNote(t, session.MethodMessage, `"level":"`+string(l)+`"`, 1)
			}
			if _, err := e.s.SetLogLevel(ctx, mcp.LoggingLevelError, nil); err != nil {
				t.Fatal(err)
			}
			e.call(t, ToolLogLevels, nil, nil)
			e.waitNote(t, session.MethodMessage, `"level":"emergency"`, 2)
			if n := e.count(session.MethodMessage, `"level":"warning"`); n != 1 {
				t.Errorf("warning messages after setLevel error: %d, want 1", n)
			}

			// Flood.
			r := e.call(t, ToolFlood, map[string]any{"count": 3000}, nil)
			if !strings.Contains(textOf(r), "Sent 3000") {
				t.Errorf("flood = %q", textOf(r))
			}
			e.waitNote(t, session.MethodMessage, `"logger":"flood"`, 3000)

			// The tool list changes.
			e.call(t, ToolToggleExtra, nil, nil)
			e.waitNote(t, session.MethodToolsListChanged, "", 1)
			tools2, _ := e.s.ListTools(ctx, nil)
			if len(tools2.Tools) != len(tools.Tools)+1 {
				t.Errorf("tools after toggle: %d, want %d", len(tools2.Tools), len(tools.Tools)+1)
			}

			// A task.
			tr, err := e.s.CallTool(ctx, session.ToolCall{Name: ToolCountdownTask, Arguments: map[string]any{"seconds": 1}, Task: &mcp.TaskParams{}}, nil)
			if err != nil || tr.Result.TaskID == "" {
				t.Fatalf("task call: %v %s", err, tr.Raw)
			}
			res, err := e.s.TaskResult(ctx, tr.Result.TaskID, nil)
			if err != nil || !strings.Contains(textOf(res.Result), "Liftoff") {
				t.Errorf("tasks/result: %v %+v", err, res)
			}

			// A task outlives its tools/call and can be cancelled.
			long, err := e.s.CallTool(ctx, session.ToolCall{Name: ToolCountdownTask, Arguments: map[string]any{"seconds": 60}, Task: &mcp.TaskParams{}}, nil)
			if err != nil || long.Result.TaskID == "" {
				t.Fatalf("task call: %v", err)
			}
			if ti, err := e.s.GetTask(ctx, long.Result.TaskID, nil); err != nil || ti.Task.Status != string(mcp.TaskStatusWorking) {
				t.Errorf("tasks/get: %v %+v", err, ti)
			}
			if _, err := e.s.CancelTask(ctx, long.Result.TaskID, nil); err != nil {
				t.Fatal(err)
			}
			if ti, err := e.s.GetTask(ctx, long.Result.TaskID, nil); err != nil || ti.Task.Status != string(mcp.TaskStatusCancelled) {
				t.Errorf("tasks/get after cancel: %v %+v", err, ti)
			}

			// The experimental method.
			rep, err := e.s.Call(ctx, ExperimentalMethod, json.RawMessage(`{"hello":"world"}`), nil)
			if err != nil || !strings.Contains(string(rep.Raw), `"pong":true`) || !strings.Contains(string(rep.Raw), `"hello":"world"`) {
				t.Errorf("%s: %v %v", ExperimentalMethod, err, rep)
			}
		})
	}
}

// waitFor fails the test when cond does not come to hold in time.
var waitFor = testwait.For

// TestEngineServerRequests: sampling, elicitation and roots, in both
// protocol eras: server→client requests before 2026-07-28, multi round-trip
// input requests from it on.
func TestEngineServerRequests(t *testing.T) {
	for _, tr := range []struct {
		name  string
		era   session.Era
		start func(*testing.T, session.Era) *engine
	}{
		{"stdio", session.EraLegacy, startStdioEra}, {"http", session.EraLegacy, startHTTPEra},
		// Not yet over HTTP: mcp-go wants the Mcp-Protocol-Version and
		// Mcp-Method headers on every modern request, server/discover
		// included, and the engine does not send them yet.
		{"stdio-modern", session.EraModern, startStdioEra},
	} {
		t.Run(tr.name, func(t *testing.T) {
			e := tr.start(t, tr.era)
			if modern := e.s.Info().Modern; modern != (tr.era == session.EraModern) {
				t.Fatalf("modern = %v", modern)
			}
			if got := textOf(e.call(t, ToolSample, map[string]any{"prompt": "hi"}, nil)); !strings.Contains(got, "the answer is 5") {
				t.Errorf("sample = %q", got)
			}
			got := textOf(e.call(t, ToolSampleWithTools, map[string]any{"prompt": "add"}, nil))
			if !strings.Contains(got, `add({"a":2,"b":3}) → 5`) || !strings.Contains(got, "after 2 round(s)") {
				t.Errorf("sample_with_tools = %q", got)
			}
			e.user.mu.Lock()
			if n := len(e.user.samplings); n != 3 || e.user.samplings[1].ToolChoice == nil || len(e.user.samplings[1].Tools) != 2 {
				t.Errorf("sampling requests: %d", n)
			}
			e.user.mu.Unlock()

			ef := e.call(t, ToolElicitForm, nil, nil)
			if !strings.Contains(textOf(ef), "accept") || !strings.Contains(textOf(ef), "Grace") {
				t.Errorf("elicit_form = %q", textOf(ef))
			}
			e.call(t, ToolElicitURL, nil, nil)
			e.waitNote(t, session.MethodElicitationComplete, "elicitationId", 1)

			// link_account: the URL-elicitation-required error path
			// (legacy), a URL elicitation within the call (modern).
			if tr.era == session.EraModern {
				if got := textOf(e.call(t, ToolLinkAccount, nil, nil)); !strings.Contains(got, "is linked") {
					t.Errorf("link_account (modern) = %q", got)
				}
			} else {
				// finish_ms 0: the page stays open until complete_link.
				for range 2 {
					_, err := e.s.CallTool(ctxT(t), session.ToolCall{Name: ToolLinkAccount, Arguments: map[string]any{"finish_ms": 0}}, nil)
					var re *session.RPCError
					if !errors.As(err, &re) || re.Code != session.CodeURLElicitationRequired ||
						!strings.Contains(string(re.Data), `"mode":"url"`) || !strings.Contains(string(re.Data), "link-account?elicitation=") {
						t.Fatalf("link_account before the page: %v", err)
					}
				}
				if got, want := textOf(e.call(t, ToolCompleteLink, nil, nil)), "Completed 2 link_account page(s); the demo account is linked."; got != want {
					t.Errorf("complete_link = %q, want %q", got, want)
				}
				e.waitNote(t, session.MethodElicitationComplete, "elicitationId", 3)
				if got, want := textOf(e.call(t, ToolCompleteLink, nil, nil)), "No link_account page was waiting."; got != want {
					t.Errorf("complete_link again = %q, want %q", got, want)
				}
				if got := textOf(e.call(t, ToolLinkAccount, nil, nil)); !strings.Contains(got, "is linked") {
					t.Errorf("link_account after the page = %q", got)
				}
			}

			if got := textOf(e.call(t, ToolListRoots, nil, nil)); !strings.Contains(got, "file:///home/grace/cobol") {
				t.Errorf("list_roots = %q", got)
			}
			if err := e.s.SetRoots(ctxT(t), []mcp.Root{{URI: "file:///srv/new", Name: "new"}}); err != nil {
				t.Fatal(err)
			}
			if tr.era == session.EraModern {
				// Stateless: list_roots (an input request) sees the new
				// roots.
				if got := textOf(e.call(t, ToolListRoots, nil, nil)); !strings.Contains(got, "file:///srv/new") {
					t.Errorf("list_roots after the change = %q", got)
				}
			} else {
				e.waitNote(t, session.MethodMessage, "file:///srv/new", 1)
			}
		})
	}
}

func TestEngineResourcesPrompts(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			e := tr.start(t)
			ctx := ctxT(t)
			rs, err := e.s.ListResources(ctx, nil)
			if err != nil || len(rs.Resources) != 5 {
				t.Fatalf("resources/list: %v %+v", err, rs)
			}
			logo, err := e.s.ReadResource(ctx, LogoURI, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c := logo.Result.Contents[0]; c.Type != "resource" || len(c.Data) == 0 {
				t.Errorf("logo: %+v", c)
			}
			item, err := e.s.ReadResource(ctx, "demo://items/2", nil)
			if err != nil || !strings.Contains(string(item.Raw), "Reflecting telescope") {
				t.Errorf("template: %v", err)
			}
			c, err := e.s.Complete(ctx, session.CompletionRef{Type: "ref/resource", URI: GreetingTemplate},
				mcp.CompleteArgument{Name: "name", Value: "b"}, map[string]string{"lang": "es"}, nil)
			if err != nil || strings.Join(c.Result.Values, ",") != "Bruno" {
				t.Errorf("completion: %v %s", err, c.Raw)
			}
			c, err = e.s.Complete(ctx, session.CompletionRef{Type: "ref/prompt", Name: PromptCodeReview},
				mcp.CompleteArgument{Name: "language", Value: "r"}, nil, nil)
			if err != nil || strings.Join(c.Result.Values, ",") != "rust" {
				t.Errorf("prompt completion: %v %s", err, c.Raw)
			}
			p, err := e.s.GetPrompt(ctx, PromptGreet, map[string]string{"name": "Grace"}, nil)
			if err != nil || !strings.Contains(string(p.Raw), "Greet Grace in a casual style") {
				t.Errorf("prompts/get: %v", err)
			}
			if _, err := e.s.SubscribeResource(ctx, CounterURI, nil); err != nil {
				t.Fatal(err)
			}
			e.call(t, ToolBumpCounter, nil, nil)
			e.waitNote(t, session.MethodResourceUpdated, CounterURI, 1)
		})
	}
}

// TestEngineFlakyWrite: the call ends without a response, the server is
// gone, and the note is there afterwards.
func TestEngineFlakyWrite(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			e := tr.start(t)
			_, err := e.s.CallTool(ctxT(t), session.ToolCall{Name: ToolFlakyWrite, Arguments: map[string]any{"text": "remember the milk"}}, nil)
			if err == nil {
				t.Fatal("flaky_write answered")
			}
			if tr.name == "stdio" && !errors.Is(err, session.ErrNoResponse) {
				t.Errorf("flaky_write over stdio: %v, want ErrNoResponse", err)
			}
			notes, rerr := ReadNotes(filepath.Join(e.dir, NotesFile))
			if rerr != nil || len(notes) != 1 || notes[0].Text != "remember the milk" {
				t.Fatalf("notes file: %v %v", notes, rerr)
			}
			if tr.name != "stdio" {
				return
			}
			// The recorded tools/call says "no response" (the log may learn
			// it a moment after the call returned).
			waitFor(t, `the flaky_write request marked "no response"`, func() bool {
				evs, _ := e.log.After(0, 10000)
				for _, ev := range evs {
					if ev.Kind == events.KindMessage && ev.Method == "tools/call" && ev.Dir == events.DirOut &&
						strings.Contains(string(ev.Raw), ToolFlakyWrite) {
						return ev.Outcome != nil && ev.Outcome.State == events.NoResponse
					}
				}
				return false
			})
			// The next call starts the server again and read_notes shows the write.
			if got := textOf(e.call(t, ToolReadNotes, nil, nil)); !strings.Contains(got, "remember the milk") {
				t.Errorf("read_notes = %q", got)
			}
			res, err := e.s.ReadResource(ctxT(t), NotesURI, nil)
			if err != nil || !strings.Contains(string(res.Raw), "remember the milk") {
				t.Errorf("demo://notes: %v", err)
			}
		})
	}
}
