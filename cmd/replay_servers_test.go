package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
)

// TestReplayTraceOfSeveralServers records two real servers (server-everything
// over stdio, the demo over HTTP) into one trace, the way the window's
// File → Save trace keeps every server, and replays it: without --server
// it says which names to pick from (exit 2), with a name the trace does not
// hold it lists them too, and --server NAME replays that server's session
// against the server of that name in the --config file (exit 0 for each).
func TestReplayTraceOfSeveralServers(t *testing.T) {
	isolateCLI(t)
	tmp := t.TempDir()
	servers := map[string]any{
		"everything": map[string]any{"command": peers.Node(t), "args": []string{peers.File(t, peers.Everything)}},
		"demo":       map[string]any{"type": "http", "url": demotest.URL(t, nil)},
	}
	cfg := filepath.Join(tmp, "servers.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	record := func(server, tool, arg string) *events.Trace {
		t.Helper()
		file := filepath.Join(tmp, server+".json")
		if code, out, errs := cli(t, "--cli", "--config", cfg, "--server", server, "--method", "tools/call",
			"--tool-name", tool, "--tool-arg", arg, "--trace", file); code != exitOK {
			t.Fatalf("record %s: exit %d %s %s", server, code, out, errs)
		}
		tr, err := readTraceFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	ta, tb := record("everything", "echo", "message=both"), record("demo", "get_weather", "city=Oslo")

	// one trace holding both sessions, paired again as a log does
	log := events.New(nil)
	for _, tr := range []*events.Trace{ta, tb} {
		for _, e := range tr.Events {
			e.Seq = 0
			log.Append(e)
		}
	}
	meta := events.TraceMeta{App: "test", Conns: append(append([]events.ConnInfo{}, ta.Meta.Conns...), tb.Meta.Conns...)}
	both := filepath.Join(tmp, "both.json")
	f, err := os.Create(both)
	if err != nil {
		t.Fatal(err)
	}
	if err := events.WriteTrace(f, meta, log.Events()); err != nil {
		t.Fatal(err)
	}
	f.Close()

	code, out, errs := cli(t, "--replay", both, "--config", cfg)
	if code != exitUsage || !strings.Contains(errs, "holds the sessions of 2 servers (everything, demo)") || !strings.Contains(errs, "--server NAME") {
		t.Fatalf("no choice: exit %d, want 2 naming everything and demo\n%s\n%s", code, out, errs)
	}
	code, out, errs = cli(t, "--replay", both, "--config", cfg, "--server", "memory")
	if code != exitUsage || !strings.Contains(errs, `holds no session of "memory"; its servers are everything, demo`) {
		t.Fatalf("a name not in the trace: exit %d, want 2 naming everything and demo\n%s\n%s", code, out, errs)
	}
	for _, name := range []string{"everything", "demo"} {
		code, out, errs = cli(t, "--replay", both, "--config", cfg, "--server", name)
		if code != exitSame || !strings.Contains(out, "no differences") {
			t.Fatalf("--server %s: exit %d, want 0\n%s\n%s", name, code, out, errs)
		}
	}
}
