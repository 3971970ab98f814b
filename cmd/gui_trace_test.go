package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUIOpenTrace records a real session with the demo server, saves its
// trace, and opens it in the window: a recorded entry appears in the server
// list, selected, marked Recorded and never connecting, with the session's
// messages in the inspector, paired again; a damaged copy opens as far as
// it is valid and says where it stopped.
func TestGUIOpenTrace(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("echo", `{"message":"kept in the trace"}`)
	h.waitFor("the echo result", func() bool { return h.hasText("Echo: kept in the trace") }) // the result, not the arguments shown

	path := filepath.Join(h.dir, "run"+ui.TraceExt)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.be.Events().WriteTrace(f, "demo"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := traceArgs("/", []string{path}); len(got) != 1 || got[0] != path {
		t.Fatalf("traceArgs(%s) = %v: the command line would not open it", path, got)
	}

	var names []string
	ui.Sync(func() { h.w.OpenTrace(path) })
	h.waitFor("the recorded entry", func() bool {
		return h.hasText("A recorded session, read-only, from "+path+".\nIts messages are in the inspector; it does not connect.") &&
			h.hasText("Recorded")
	})
	h.be.mu.Lock()
	names = append(names, h.be.session...)
	h.be.mu.Unlock()
	if len(names) != 1 || names[0] != "run" {
		t.Fatalf("entries %v, want [run]", names)
	}
	h.waitFor("the recorded tools/call, paired", func() bool {
		for _, e := range h.be.log.Events() {
			if e.Conn == "run" && e.Method == "tools/call" && e.Type == events.MsgRequest && e.Outcome != nil && e.Outcome.State == events.OK {
				return true
			}
		}
		return false
	})
	if _, err := h.be.Open("run", nil); err == nil || !strings.Contains(err.Error(), "recorded session") {
		t.Fatalf("connecting a recorded session: %v", err)
	}

	// a copy cut short opens as far as it is valid
	b, _ := os.ReadFile(path)
	cut := filepath.Join(h.dir, "cut"+ui.TraceExt)
	if err := os.WriteFile(cut, b[:len(b)*2/3], 0o600); err != nil {
		t.Fatal(err)
	}
	ui.Sync(func() { h.w.OpenTrace(cut) })
	h.waitFor("the damaged trace's warning", func() bool { return h.hasText("it is damaged; opened up to line") })

	// a file that is not a trace says so
	other := filepath.Join(h.dir, "other"+ui.TraceExt)
	os.WriteFile(other, []byte(`{"mcpServers":{}}`), 0o600)
	ui.Sync(func() { h.w.OpenTrace(other) })
	h.waitFor("not a trace", func() bool { return h.hasText("it is not a Spyglass trace") })
}
