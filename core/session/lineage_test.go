package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/lineage"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// demoServeEnv makes the test binary a demo server over stdio (see
// TestMain), so that flaky_write's crash is a real process exit.
const demoServeEnv = "SPYGLASS_SESSION_TEST_DEMO"

func TestMain(m *testing.M) {
	if os.Getenv(demoServeEnv) == "noread" {
		os.Exit(serveNoRead())
	}
	if os.Getenv(demoServeEnv) == "stdio" {
		if err := demo.ServeStdio(context.Background(), demo.New(nil), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// demoStdio connects a session to a demo server process over stdio.
func demoStdio(t *testing.T, log *events.Log, opts *Options) *Session {
	t.Helper()
	dir := t.TempDir()
	cfg := wire.StdioConfig{Conn: "demo", Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{demoServeEnv + "=stdio", demo.NotesEnv + "=" + dir}}
	if opts == nil {
		opts = &Options{}
	}
	opts.Conn = "demo"
	s := New(stdioDial(log, cfg), log, opts)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func toolEvents(log *events.Log) []events.Event {
	var out []events.Event
	for _, e := range log.Events() {
		if e.Kind == events.KindTool {
			out = append(out, e)
		}
	}
	return out
}

// TestFlakyWriteLineage: flaky_write saves its note and crashes before
// answering: the call fails with class transport and an unknown outcome
// (the note is there); the retry succeeds and may have run twice. A
// read-only tool repeated is just attempt 2.
func TestFlakyWriteLineage(t *testing.T) {
	log := events.New(nil)
	s := demoStdio(t, log, nil)
	ctx := testCtx(t)
	if _, err := s.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"text": "buy milk"}
	r1, err := s.CallTool(ctx, ToolCall{Name: demo.ToolFlakyWrite, Arguments: args}, nil)
	if !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrNoResponse) {
		t.Fatalf("flaky_write: %v, want outcome unknown and no response", err)
	}
	a1 := r1.Attempt
	if a1 == nil || a1.Class != lineage.ClassTransport || !a1.OutcomeUnknown || a1.N != 1 || a1.RequestID == "" {
		t.Fatalf("attempt 1: %+v", a1)
	}
	notes, err := s.CallTool(ctx, ToolCall{Name: demo.ToolReadNotes}, nil) // restarts the server
	if err != nil || !strings.Contains(textOf(t, notes), "buy milk") {
		t.Fatalf("read_notes after the crash: %v", err)
	}
	// The retry, with the same arguments in another key order (as JSON).
	r2, err := s.CallTool(ctx, ToolCall{Name: demo.ToolFlakyWrite, Arguments: json.RawMessage(`{ "text" : "buy milk" }`)}, nil)
	if !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("second flaky_write: %v", err)
	}
	if a2 := r2.Attempt; a2.Lineage != a1.Lineage || a2.N != 2 || a2.SameCallAgain || a2.Label() != "attempt 2" {
		t.Errorf("attempt 2: %+v", a2)
	}
	// A read-only tool repeated: attempt 2, never flagged.
	n2, err := s.CallTool(ctx, ToolCall{Name: demo.ToolReadNotes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := n2.Attempt; a.N != 2 || a.Label() != "attempt 2" || a.Warning() || a.Lineage != notes.Attempt.Lineage {
		t.Errorf("read_notes again: %+v", a)
	}
	// A different argument is a new lineage.
	other, _ := s.CallTool(ctx, ToolCall{Name: demo.ToolEcho, Arguments: map[string]any{"message": "x"}}, nil)
	if other.Attempt.N != 1 || other.Attempt.Lineage == a1.Lineage {
		t.Errorf("echo: %+v", other.Attempt)
	}

	// Every attempt is recorded with its lineage, class and callId; the
	// raw tools/call carries the same callId.
	tev := toolEvents(log)
	if len(tev) != 5 {
		t.Fatalf("%d tool events", len(tev))
	}
	first := tev[0]
	if first.ErrorClass != "transport" || !first.OutcomeUnknown || first.Lineage.ID != a1.Lineage || first.Tool.Name != demo.ToolFlakyWrite {
		t.Errorf("first tool event %+v", first)
	}
	req, ok := log.Get(first.Tool.RequestSeq)
	if !ok || req.RPC == nil || req.RPC.CallID != first.RPC.CallID || req.Outcome.State != events.NoResponse {
		t.Errorf("request of attempt 1: %+v", req)
	}
	if atts := log.Attempts(a1.Lineage); len(atts) != 2 {
		t.Errorf("log.Attempts: %d", len(atts))
	}
	if atts := s.Lineage().Attempts(a1.Lineage); len(atts) != 2 || !atts[0].OutcomeUnknown {
		t.Errorf("tracker Attempts: %+v", atts)
	}
}

// TestRetrySucceedsMayHaveRunTwice: a write that timed out (outcome
// unknown) and then succeeds may have run twice; a plain repeat of the
// success is the same call again; an idempotent tool is not flagged.
func TestRetrySucceedsMayHaveRunTwice(t *testing.T) {
	log := events.New(nil)
	s := demoStdio(t, log, &Options{})
	ctx := testCtx(t)
	tools, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// slow_task may change something (no readOnlyHint in the demo?): use
	// its listing, with the hints forced, to test each kind of tool.
	var slow *mcpresult.Tool
	for i := range tools.Tools {
		if tools.Tools[i].Name == demo.ToolSlowTask {
			slow = &tools.Tools[i]
		}
	}
	if slow == nil {
		t.Fatal("no slow_task")
	}
	for _, tc := range []struct {
		name       string
		raw        string
		twice      bool
		label      string
		sameOnNext bool
	}{
		{"write", `{"name":"slow_task","inputSchema":` + string(mustSchema(t, slow)) + `}`, true, "attempt 2", true},
		{"idempotent", `{"name":"slow_task","inputSchema":` + string(mustSchema(t, slow)) + `,"annotations":{"idempotentHint":true}}`, false, "attempt 2 (idempotent)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, _ := mcpresult.DecodeTools([]json.RawMessage{json.RawMessage(tc.raw)})
			tool := &ts[0]
			args := map[string]any{"steps": 2, "step_ms": 400, "tag": tc.name}
			_, err := s.CallTool(ctx, ToolCall{Name: demo.ToolSlowTask, Arguments: args}, &CallOptions{Tool: tool, Timeout: 100e6})
			if !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrOutcomeUnknown) {
				t.Fatalf("first attempt: %v", err)
			}
			r, err := s.CallTool(ctx, ToolCall{Name: demo.ToolSlowTask, Arguments: map[string]any{"steps": 2, "step_ms": 1, "tag": tc.name}}, &CallOptions{Tool: tool})
			if err != nil {
				t.Fatal(err)
			}
			if r.Attempt.N != 1 {
				t.Errorf("other arguments joined the lineage: %+v", r.Attempt)
			}
			r, err = s.CallTool(ctx, ToolCall{Name: demo.ToolSlowTask, Arguments: args}, &CallOptions{Tool: tool, Timeout: -1})
			if err != nil {
				t.Fatal(err)
			}
			if a := r.Attempt; a.N != 2 || a.MayHaveRunTwice != tc.twice || a.Label() != tc.label {
				t.Errorf("retry: %+v", a)
			}
			r, _ = s.CallTool(ctx, ToolCall{Name: demo.ToolSlowTask, Arguments: args}, &CallOptions{Tool: tool, Timeout: -1})
			if a := r.Attempt; a.N != 3 || a.SameCallAgain != tc.sameOnNext {
				t.Errorf("repeat: %+v", a)
			}
		})
	}
	warned := false
	for _, e := range log.Events() {
		if e.Kind == events.KindWarning && strings.Contains(e.Text, "may have run twice") {
			warned = true
		}
	}
	if !warned {
		t.Error("no may-have-run-twice warning in the log")
	}
}

func mustSchema(t *testing.T, tool *mcpresult.Tool) []byte {
	t.Helper()
	m := metaOf(tool)
	if len(m.schema) == 0 {
		t.Fatal("no schema")
	}
	return m.schema
}

// TestLostAnswer: when the wire says an answer will not come (an HTTP
// response stream that ended early), the call fails at once with no
// response and the connection stays usable.
func TestLostAnswer(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "tools/call" {
			c.emitMu.Lock()
			c.h.OnLost(string(m.ID), wire.ErrResponseLost)
			c.emitMu.Unlock()
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, nil)
	res, err := s.CallTool(testCtx(t), ToolCall{Name: "write"}, nil)
	var lost *LostError
	if !errors.As(err, &lost) || !errors.Is(err, ErrNoResponse) || !errors.Is(err, wire.ErrResponseLost) || !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("err %v", err)
	}
	if ev, _ := log.Get(res.Seq); ev.Outcome == nil || ev.Outcome.State != events.NoResponse {
		t.Errorf("outcome %+v", ev.Outcome)
	}
	if _, err := s.Ping(testCtx(t), nil); err != nil {
		t.Fatal(err)
	}
}
