package cmd

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestHumanize: real failures read cause first for the window, and the
// whole chain stays behind Show full error (ui.PlainError's Detail).
func TestHumanize(t *testing.T) {
	// a real missing command, started through the wire
	st := wire.NewStdio(wire.StdioConfig{Command: "spyglass-no-such-command-xyz"}, nil)
	notFound := st.Start(context.Background(), wire.Handler{})
	if notFound == nil {
		st.Close()
		t.Fatal("a missing command started")
	}
	crash := &session.ClosedError{Method: "tools/call", Err: &wire.ExitError{Code: 1,
		Stderr: "starting\nError: connect ECONNREFUSED 127.0.0.1:5432\n"}}
	rpc := fmt.Errorf("session: tools/call: %w", &session.RPCError{Code: session.CodeInternalError, Message: "database is locked"})
	for _, c := range []struct {
		name   string
		err    error
		want   []string
		unwant string
	}{
		{"JSON-RPC error", rpc, []string{"The server reported an error: database is locked", "-32603"}, "session:"},
		{"crash", fmt.Errorf("session: tools/call: %w", crash), []string{"The server process exited with status 1", "ECONNREFUSED 127.0.0.1:5432"}, "wire:"},
		{"command not found", fmt.Errorf("session: connect: %w", notFound), []string{"Command not found: spyglass-no-such-command-xyz", "full path"}, "wire:"},
		{"a file of the window's", fmt.Errorf("trace: %w", &fs.PathError{Op: "open", Path: "/tmp/gone.json", Err: syscall.ENOENT}), []string{"No such file or directory (/tmp/gone.json)"}, "open /tmp"},
		{"no words", fmt.Errorf("session: tools/call: %w", fmt.Errorf("wire: write: broken pipe")), []string{"Broken pipe"}, "session:"},
	} {
		pe, ok := humanize(c.err).(ui.PlainError)
		if !ok {
			t.Fatalf("%s: humanize gives %T, not a ui.PlainError", c.name, humanize(c.err))
		}
		head := pe.Headline()
		for _, w := range c.want {
			if !strings.Contains(head, w) {
				t.Errorf("%s: headline %q lacks %q", c.name, head, w)
			}
		}
		if strings.Contains(head, c.unwant) {
			t.Errorf("%s: headline %q carries the chain (%q)", c.name, head, c.unwant)
		}
		if pe.Detail() != c.err.Error() {
			t.Errorf("%s: full error %q, want the chain %q", c.name, pe.Detail(), c.err.Error())
		}
	}
	if humanize(context.Canceled) != context.Canceled || humanize(nil) != nil {
		t.Error("humanize words a cancellation or nil")
	}
}
