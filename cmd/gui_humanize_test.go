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
		{"crash", fmt.Errorf("session: tools/call: %w", crash), []string{"Error: connect ECONNREFUSED 127.0.0.1:5432 — the server process exited with status 1 before answering."}, "wire:"},
		{"a drop while idle", &wire.ExitError{Code: -1, Signal: syscall.SIGTERM}, []string{"The server process was killed by signal terminated."}, "before answering"},
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

// TestTellingLine: of what a program wrote before it failed, the line
// quoted is the one that says why, in the words real runtimes print.
func TestTellingLine(t *testing.T) {
	for _, c := range []struct {
		name, out, want string
		isErr           bool
	}{
		{"node", "node:net:1555\n      throw er;\n      ^\n\nError: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {\n  errno: -111,\n  code: 'ECONNREFUSED',\n  port: 5432\n}\n\nNode.js v20.19.2\n",
			"Error: connect ECONNREFUSED 127.0.0.1:5432", true},
		{"python", "Traceback (most recent call last):\n  File \"/srv/s.py\", line 3, in <module>\n    raise ValueError('no DATABASE_URL')\nValueError: no DATABASE_URL\n",
			"ValueError: no DATABASE_URL", true},
		{"go", "starting\npanic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:12 +0x1d\nexit status 2\n",
			"panic: runtime error: index out of range [3] with length 3", true},
		{"chromium", "[10186:10186:1203/182507.945739:ERROR:content/browser/zygote_host/zygote_host_impl_linux.cc:103] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.\n",
			"Running as root without --no-sandbox is not supported. See https://crbug.com/638180.", false},
		{"go log", "2026/12/03 18:49:54 listening\n2026/12/03 18:49:55 open db.sqlite: permission denied\n", "open db.sqlite: permission denied", true},
		{"plain", "first\nno browser here\n", "no browser here", false},
		{"usage", "Usage: mcp-server-filesystem <allowed-directory> [additional-directories...]\n", "Usage: mcp-server-filesystem <allowed-directory> [additional-directories...]", false},
		{"nothing", "\n  \n", "", false},
	} {
		if got, isErr := tellingLine(c.out); got != c.want || isErr != c.isErr {
			t.Errorf("%s: %q (an error: %v), want %q (%v)", c.name, got, isErr, c.want, c.isErr)
		}
	}
}
