package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/demo"
)

func TestRunDemoServerFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--transport", "carrier-pigeon"},
		{"--port", "70000"},
		{"--no-such-flag"},
		{"stray"},
	} {
		var out, errb bytes.Buffer
		if code := runDemoServer(args, strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, errb.String())
		}
		if errb.Len() == 0 {
			t.Errorf("%v: nothing on stderr", args)
		}
	}
}

// TestRunDemoServerStdio talks to the demo server over in-memory stdio:
// initialize, tools/list, the experimental method, then EOF ends it.
func TestRunDemoServerStdio(t *testing.T) {
	dir := t.TempDir()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"` + demo.ExperimentalMethod + `","params":{"n":1}}`,
	}, "\n") + "\n"
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	var out lockedBuffer
	done := make(chan int, 1)
	go func() { done <- runDemoServer([]string{"--notes-dir", dir}, pr, &out, &errb) }()
	go func() {
		pw.Write([]byte(in))
		// EOF ends the server: send it once the three answers are out.
		out.await(func(s string) bool { return strings.Count(s, "\n") >= 3 })
		pw.Close()
	}()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := map[string]json.RawMessage{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad line %q", line)
		}
		got[string(m.ID)] = m.Result
	}
	if !strings.Contains(string(got["1"]), demo.Name) {
		t.Errorf("initialize: %s", got["1"])
	}
	if !strings.Contains(string(got["2"]), demo.ToolFlakyWrite) {
		t.Errorf("tools/list lacks flaky_write")
	}
	if !strings.Contains(string(got["3"]), `"pong":true`) {
		t.Errorf("experimental method: %s", got["3"])
	}
}
