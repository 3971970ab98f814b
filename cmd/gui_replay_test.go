package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/ui"
)

// runToolForm selects the tool name and runs it with its form's first
// field set to value ("" leaves the form as it is).
func runToolForm(h *guiHarness, name, value string) {
	h.t.Helper()
	h.selectTool(name, "")
	if value != "" {
		h.waitFor(name+"'s form", func() bool { return len(h.formEntries()) > 0 })
		ui.Sync(func() { h.formEntries()[0].SetText(value) })
	}
	h.tap("Run")
}

// recordDemoTrace connects the harness's demo server, calls echo, and
// clear_notes (no readOnlyHint), and opens the session's trace in the window as the recorded entry "run".
func recordDemoTrace(h *guiHarness) string {
	h.t.Helper()
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	runToolForm(h, "echo", "replayed")
	h.waitFor("the echo result", func() bool { return h.hasText("Echo: replayed") })
	runToolForm(h, "clear_notes", "")
	h.waitFor("the clear_notes result", func() bool { return h.hasText("Deleted 0 note(s).") })
	path := h.saveTrace("demo")
	ui.Sync(func() { h.w.OpenTrace(path) })
	h.waitFor("the recorded entry", func() bool { return h.hasText("— read-only") })
	return path
}

// TestGUIReplayAgainst replays a recorded demo session in the window:
// clear_notes has no readOnlyHint, so the replay asks first, naming it
// (and only it: echo says it is read-only); against
// the demo server every answer matches, and the replay is a session entry
// of its own with its messages in the log; against server-memory (a real
// npm server that has no echo and other tools) it differs.
func TestGUIReplayAgainst(t *testing.T) {
	h := newGUIHarness(t)
	recordDemoTrace(h)

	ui.Sync(func() { h.w.ReplaySession("run", "demo") })
	h.waitFor("the consent naming echo", func() bool {
		return h.hasText("do not say they are read-only (no readOnlyHint): clear_notes.")
	})
	h.tap("Replay them")
	h.waitFor("the replay's comparison", func() bool {
		return h.hasText("Replayed run against demo") && h.hasText("No differences:")
	})
	var echoed bool
	for _, e := range h.be.log.Events() {
		echoed = echoed || e.Conn == "demo · replay of run" && e.Method == "tools/call" && e.Type == events.MsgRequest && e.Outcome != nil && e.Outcome.State == events.OK
	}
	if !echoed {
		t.Error("the replay's tools/call is not in the log under its own session entry")
	}
	h.waitFor("the replay's entry", func() bool { return h.hasText("demo · replay of run") })
	h.tap("Close")

	mem := catalog.Server{Type: catalog.TypeStdio, Command: peers.Node(t), Args: []string{peers.File(t, peers.Memory)},
		Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(h.dir, "memory.json")}}
	h.be.addSessionServer("memory", mem)
	ui.Sync(func() { h.w.ReplaySession("run", "memory") })
	h.tap("Replay them")
	h.waitFor("the replay's end", func() bool {
		return h.hasText("Replayed run against memory") || h.hasText("The replay did not start") || h.hasText("stopped part way")
	})
	h.waitFor("the replay's differences", func() bool {
		return h.hasText("Replayed run against memory") && h.hasText("requests differ.")
	})
	h.waitFor("the differing tools/list", func() bool { return h.hasText("differs · tools/list") })
}

// TestGUIReplayAgainstMissingCommand: a replay against a server entry
// whose command does not exist says so in words, cause first, not as
// the Go error chain of resolving the command.
func TestGUIReplayAgainstMissingCommand(t *testing.T) {
	h := newGUIHarness(t)
	recordDemoTrace(h)
	ui.Sync(func() { h.w.ReplaySession("run", "broken") })
	h.tap("Replay them")
	var status string
	h.waitFor("the replay's failure", func() bool {
		h.find(func(o fyne.CanvasObject) bool {
			if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "The replay did not start: ") {
				status = l.Text
				return true
			}
			return false
		})
		return status != ""
	})
	if strings.Contains(status, "exec:") || strings.Contains(status, "resolve") || !strings.Contains(status, "/nonexistent/spyglass-test-missing-server") {
		t.Errorf("the replay's failure reads %q, want the missing command named in words", status)
	}
}
