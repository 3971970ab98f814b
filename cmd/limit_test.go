package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/internal/tracetest"
)

// TestCLIMaxMessageSize: the catalog's maxMessageSize bounds one message
// read from the server. The demo's echo of 8,000 characters is over a
// 4,096-byte limit: its answer is recorded as invalid, naming the limit and
// keeping the first bytes, and skipped, so the call ends in --timeout
// (exit 6); without the field the same call succeeds.
func TestCLIMaxMessageSize(t *testing.T) {
	dir := isolateCLI(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(dir, "mcp.json")
	doc := `{"mcpServers": {
  "small": {"command": "` + exe + `", "args": ["--demo-server"], "maxMessageSize": 4096},
  "default": {"command": "` + exe + `", "args": ["--demo-server"]}
}}`
	if err := os.WriteFile(cat, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	msg := "message=" + strings.Repeat("x", 8000)
	trace := filepath.Join(dir, "trace.json")
	code, _, errs := cli(t, "--cli", "--catalog", cat, "--server", "small", "--method", "tools/call", "--tool-name", "echo",
		"--tool-arg", msg, "--timeout", "3s", "--trace", trace)
	if code != exitTimeout {
		t.Fatalf("over the limit: exit %d: %s", code, errs)
	}
	_, evs := tracetest.Read(t, trace)
	found := false
	for _, e := range evs {
		if e.Kind == events.KindInvalid && strings.Contains(e.Text, "exceeds the 4096-byte limit (the server's maxMessageSize)") &&
			strings.Contains(e.Text, `"jsonrpc"`) {
			found = true
		}
	}
	if !found {
		t.Fatal("the trace has no invalid event naming the 4096-byte limit")
	}
	code, out, errs := cli(t, "--cli", "--catalog", cat, "--server", "default", "--method", "tools/call", "--tool-name", "echo",
		"--tool-arg", msg, "--format", "json")
	if code != exitOK || !strings.Contains(out, strings.Repeat("x", 8000)) {
		t.Fatalf("within the default limit: exit %d: %s", code, errs)
	}
}
