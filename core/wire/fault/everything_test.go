package fault

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// TestEverythingStdioFaults: server-everything over stdio with its first
// tools/call response dropped (timed out; the tool is read-only, so the
// outcome is known) and the connection cut after the next request (no
// response, the server restarted on the next call).
func TestEverythingStdioFaults(t *testing.T) {
	node := testpeers.Node(t)
	file := testpeers.File(t, testpeers.Everything)
	sp, err := Parse("drop=in:tools/call:*1,cut=out:5:*1")
	if err != nil {
		t.Fatal(err)
	}
	log := events.New(nil)
	dial := New(sp, log).Dial(func(context.Context) (wire.Conn, error) {
		return wire.NewStdio(wire.StdioConfig{Conn: "everything", Command: node, Args: []string{file}}, log), nil
	}, "everything")
	s := session.New(dial, log, &session.Options{Conn: "everything"})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := s.ListTools(ctx, nil); err != nil { // initialize, initialized, tools/list
		t.Fatal(err)
	}
	sum := session.ToolCall{Name: "get-sum", Arguments: map[string]any{"a": 1, "b": 2}}
	res, err := s.CallTool(ctx, sum, &session.CallOptions{Timeout: 500 * time.Millisecond}) // 4th: answer dropped
	if !errors.Is(err, session.ErrTimeout) || res.Attempt.OutcomeUnknown {
		t.Fatalf("dropped answer: %v, %+v", err, res.Attempt)
	}
	// The timeout sent notifications/cancelled, the 5th outgoing message:
	// the connection is cut after it, and the next call restarts the
	// server.
	waitFor(t, "the cut", func() bool { st, _ := s.State(); return st != session.StateConnected })
	res, err = s.CallTool(ctx, sum, nil)
	if err != nil {
		t.Fatalf("after the cut: %v", err)
	}
	if res.Attempt.N != 2 || res.Attempt.Warning() {
		t.Errorf("retry of a read-only tool: %+v", res.Attempt)
	}
	if n := len(warnings(log)); n != 2 {
		t.Errorf("%d faults recorded: %v", n, warnings(log))
	}
}
