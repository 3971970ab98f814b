package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui"
)

// saveTrace writes the trace of server's events, as the window's Save
// trace does, to run.spyglass-trace in the harness's folder.
func (h *guiHarness) saveTrace(server string) string {
	h.t.Helper()
	path := filepath.Join(h.dir, "run"+ui.TraceExt)
	f, err := os.Create(path)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.be.Events().WriteTrace(f, server); err != nil {
		h.t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		h.t.Fatal(err)
	}
	return path
}

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

	path := h.saveTrace("demo")
	if got := traceArgs("/", []string{path}); len(got) != 1 || got[0] != path {
		t.Fatalf("traceArgs(%s) = %v: the command line would not open it", path, got)
	}

	var names []string
	ui.Sync(func() { h.w.OpenTrace(path) })
	h.waitFor("the recorded entry's screens", func() bool {
		return h.hasText("— read-only") && h.hasText("Recorded") && h.hasText("echo · Echoes the message back.")
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
	h.waitFor("not a trace", func() bool { return h.hasText("s not a Spyglass trace") })
}

// TestGUIRecordedScreens opens a recorded demo session: its Tools screen
// lists the demo's tools as the server offered them, marked recorded and
// read-only; selecting echo shows its schema as the form does, filled with
// the recorded call's arguments, Run off with the reason, and the recorded
// result; the Prompts and Resources screens list what was offered, and a
// prompt fetched in the recording answers as recorded.
func TestGUIRecordedScreens(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	var live string
	ui.Sync(func() {
		live = h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && strings.HasSuffix(l.Text, " tools")
		}).(*widget.Label).Text
	})
	runToolForm(h, "echo", "kept in the trace")
	h.waitFor("the echo result", func() bool { return h.hasText("Echo: kept in the trace") })
	h.openTab("Prompts")
	h.waitFor("the greet prompt", func() bool { return h.hasText("Greet someone") })

	path := h.saveTrace("demo")
	ui.Sync(func() { h.w.OpenTrace(path) })
	h.waitFor("the recorded tools", func() bool {
		return h.hasText("— read-only") && h.hasText(live) && h.hasText("echo · Echoes the message back.")
	})
	h.openTab("Tools")
	ui.Sync(func() { h.entry("Search tools").SetText("echo") })
	h.waitFor("echo", func() bool { return h.hasText("echo · ") })
	ui.Sync(func() {
		if !h.selectRow("echo") {
			t.Fatal("could not select echo")
		}
	})
	h.waitFor("the recorded call and its result", func() bool {
		return h.hasText("Recorded session, read-only: Run is off") && h.hasText("Recorded calls") && h.hasText("Echo: kept in the trace")
	})
	ui.Sync(func() {
		if b := h.button("Run"); b == nil || !b.Disabled() {
			t.Errorf("Run of a recorded session: %v, want disabled", b)
		}
		var filled bool
		for _, e := range h.formEntries() {
			filled = filled || e.Text == "kept in the trace"
		}
		if !filled {
			t.Error("the form does not hold the recorded call's message")
		}
	})
	h.openTab("Prompts")
	h.waitFor("the recorded prompts", func() bool { return h.hasText("Greet someone") })
	h.openTab("Resources")
	h.waitFor("the recorded resources", func() bool { return h.hasText("readme") })
	if n := len(h.be.live); n != 1 {
		t.Errorf("%d live sessions, want only the demo's: the recorded one must not connect", n)
	}
}
