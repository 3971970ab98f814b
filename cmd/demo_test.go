package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

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
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- runDemoServer([]string{"--notes-dir", dir}, pr, &syncWriter{w: &out}, &errb) }()
	go func() {
		pw.Write([]byte(in))
		// Leave the server time to answer before EOF ends it.
		waitUntil(func() bool { return strings.Count(outString(&out), "\n") >= 3 })
		pw.Close()
	}()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := map[string]json.RawMessage{}
	for _, line := range strings.Split(strings.TrimSpace(outString(&out)), "\n") {
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

// syncWriter guards a buffer written by the server's goroutines.
type syncWriter struct {
	w io.Writer
}

var outMu sync.Mutex

func (s *syncWriter) Write(p []byte) (int, error) {
	outMu.Lock()
	defer outMu.Unlock()
	return s.w.Write(p)
}

func outString(b *bytes.Buffer) string {
	outMu.Lock()
	defer outMu.Unlock()
	return b.String()
}

// waitUntil polls cond for at most 10 s.
func waitUntil(cond func() bool) {
	deadline := time.Now().Add(10 * time.Second)
	for !cond() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}
