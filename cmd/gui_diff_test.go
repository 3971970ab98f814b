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
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// recordDemoRun connects to the demo server, calls echo with args,
// disconnects, and saves that connection's events (those after seq from)
// as the trace name.spyglass-trace; it returns the trace's path and the
// last sequence number of the run.
func recordDemoRun(h *guiHarness, name, args string, from uint64) (string, uint64) {
	h.t.Helper()
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("echo", args)
	h.waitFor("the echo call's response", func() bool {
		for _, e := range h.be.log.Events() {
			if e.Seq > from && e.Method == "tools/call" && e.Type == events.MsgRequest && e.Outcome != nil && e.Outcome.State == events.OK {
				return true
			}
		}
		return false
	})
	ui.Sync(h.menuItem("Servers", "Disconnect").Action)
	h.waitFor("disconnected", func() bool { return h.button("Connect") != nil })
	var evs []events.Event
	last := from
	for _, e := range h.be.log.Events() {
		if e.Seq > from && e.Conn == "demo" {
			evs = append(evs, e)
		}
		last = max(last, e.Seq)
	}
	path := filepath.Join(h.dir, name+ui.TraceExt)
	f, err := os.Create(path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	if err := events.WriteTrace(f, events.TraceMeta{}, evs); err != nil {
		h.t.Fatal(err)
	}
	return path, last
}

// diffLines is the diff view's change lines (monospace labels that
// start with request or response).
func diffLines(h *guiHarness) []string {
	var out []string
	for _, o := range h.win.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && (strings.HasPrefix(l.Text, "request ") || strings.HasPrefix(l.Text, "response ")) {
				out = append(out, l.Text)
			}
		})
	}
	return out
}

// TestGUICompareSessions records three real sessions with the demo
// server (echo "first", echo "second", echo "first" again), opens them
// as recorded sessions and compares them in the window: the changed
// argument is reported at exactly its JSON path (and the echoed text in
// the response), the same calls give "No differences", and editing the
// ignore list compares again.
func TestGUICompareSessions(t *testing.T) {
	h := newGUIHarness(t)
	p1, seq := recordDemoRun(h, "first", `{"message":"first"}`, 0)
	p2, seq := recordDemoRun(h, "second", `{"message":"second"}`, seq)
	p3, _ := recordDemoRun(h, "again", `{"message":"first"}`, seq)
	for _, p := range []string{p1, p2, p3} {
		ui.Sync(func() { h.w.OpenTrace(p) })
	}
	h.waitFor("three recorded entries", func() bool {
		h.be.mu.Lock()
		defer h.be.mu.Unlock()
		return len(h.be.session) == 3
	})

	// the menu's picker offers every entry, live or recorded
	ui.Sync(h.menuItem("File", "Compare sessions…").Action)
	h.waitFor("the picker", func() bool { return h.button("Compare") != nil })
	ui.Sync(func() {
		if s, ok := h.find(func(o fyne.CanvasObject) bool { _, ok := o.(*esc.Select); return ok }).(*esc.Select); !ok || len(s.Options) != 5 {
			t.Fatalf("the picker offers %v, want demo, broken and the three recordings", s)
		}
	})
	h.tap("Cancel")

	ui.Sync(func() { h.w.CompareSessions("first", "second") })
	h.waitFor("the differing call", func() bool { return h.hasText("1 of ") && h.hasText("differs · tools/call echo") })
	var lines []string
	ui.Sync(func() { lines = diffLines(h) })
	want := []string{
		`request  changed /params/arguments/message: "first" → "second"`,
		`response changed /result/content/0/text: "Echo: first" → "Echo: second"`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("change lines %q, want exactly %q", lines, want)
	}

	// ignoring the message and the echoed text leaves no differences
	ui.Sync(func() {
		e := asEntry(h.find(func(o fyne.CanvasObject) bool {
			e := asEntry(o)
			return e != nil && e.MultiLine && strings.HasPrefix(e.Text, "/id")
		}))
		if e == nil {
			t.Fatal("no ignore list in the diff view")
		}
		e.SetText(e.Text + "\n/params/arguments/message\n/result/content/*/text\n/result/structuredContent")
	})
	h.waitFor("no differences once ignored", func() bool { return h.hasText("No differences: ") })
	h.tap("Close")

	ui.Sync(func() { h.w.CompareSessions("first", "again") })
	h.waitFor("same calls, no differences", func() bool { return h.hasText("No differences: ") })
	ui.Sync(func() { lines = diffLines(h) })
	if len(lines) != 0 {
		t.Fatalf("same calls show changes %q", lines)
	}
}
