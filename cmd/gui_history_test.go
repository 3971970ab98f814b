package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/sampling"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// historyButtons are the visible buttons named text, top to bottom (the
// History lists newest first).
func (h *guiHarness) historyButtons(text string) []*widget.Button {
	var out []*widget.Button
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if b, ok := esc.AsButton(o); ok && b.Text == text {
			out = append(out, b)
		}
	})
	return out
}

// toolCalls are the recorded tools/call requests whose message contains s.
func (h *guiHarness) toolCalls(s string) int {
	n := 0
	evs, _ := h.be.Events().After(0, 100000)
	for _, e := range evs {
		if e.Dir == "out" && e.Type == "request" && e.Method == "tools/call" && strings.Contains(string(e.Raw), s) {
			n++
		}
	}
	return n
}

// TestGUIHistoryReplay runs echo twice with different arguments against
// the demo server, replays the first from the History screen, and checks
// that a third tools/call went out with the first's arguments and that the
// replay's result is shown; Edit and replay opens the Tools form with the
// first call's arguments.
func TestGUIHistoryReplay(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("echo", `{"message": "first run"}`)
	h.waitFor("the first result", func() bool { return h.hasText("first run") && h.toolCalls("first run") == 1 })
	h.runTool("echo", `{"message": "second run"}`)
	h.waitFor("the second call", func() bool { return h.toolCalls("second run") == 1 })

	h.openTab("History")
	h.waitFor("two calls in the History", func() bool {
		return len(h.historyButtons("Replay")) == 2 && h.hasText("tools/call echo  · ")
	})
	// newest first: the first run is the last row
	ui.Sync(func() { bs := h.historyButtons("Replay"); test.Tap(bs[len(bs)-1]) })
	h.waitFor("the replay's result", func() bool {
		return h.hasText("Replay of tools/call") && h.hasText("first run") && h.toolCalls("first run") == 2
	})
	if n := h.toolCalls("second run"); n != 1 {
		t.Errorf("the replay of the first call sent the second's arguments too (%d calls with them)", n)
	}
	h.waitFor("the replay in the History", func() bool { return len(h.historyButtons("Replay")) == 3 })

	// Edit and replay of a tools/call: the Tools form with its arguments
	ui.Sync(func() { bs := h.historyButtons("Edit and replay"); test.Tap(bs[len(bs)-1]) })
	h.waitFor("the Tools form pre-filled", func() bool {
		for _, e := range h.formEntries() {
			if e.Text == "first run" {
				return true
			}
		}
		return false
	})
}

// TestGUIHistorySampling: a tool that asks the client for sampling shows
// the sampling request nested under its call, with its relative time.
func TestGUIHistorySampling(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	ui.Sync(func() { h.entry("Search tools").SetText("sample") })
	h.waitFor("sample", func() bool { return h.hasText("sample · ") })
	ui.Sync(func() {
		if !h.selectRow("(sample)") {
			t.Fatal("could not select sample")
		}
	})
	h.tap("Run")
	h.openTab("History")
	h.waitFor("the sampling request nested under the call", func() bool {
		return h.hasText("tools/call sample") && h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && strings.HasPrefix(strings.TrimSpace(l.Text), "↳ +") && strings.Contains(l.Text, "sampling/createMessage")
		}) != nil
	})
}

// detailTab selects the inspector details tab named name (Payload,
// Attempts) and reports whether there is one.
func (h *guiHarness) detailTab(name string) bool {
	for _, t := range h.tabs() {
		for i, it := range t.Items {
			if it.Text == name {
				t.SelectIndex(i)
				return true
			}
		}
	}
	return false
}

// requestSeqs are the Seqs of the recorded outgoing method requests
// whose message contains s, oldest first.
func (h *guiHarness) requestSeqs(method, s string) []uint64 {
	var out []uint64
	evs, _ := h.be.Events().After(0, 100000)
	for _, e := range evs {
		if e.Dir == "out" && e.Type == "request" && e.Method == method && strings.Contains(string(e.Raw), s) {
			out = append(out, e.Seq)
		}
	}
	return out
}

// tapButtonPrefix taps the visible button whose text starts with prefix.
func (h *guiHarness) tapButtonPrefix(prefix string) {
	h.t.Helper()
	var b *widget.Button
	h.waitFor("a button "+prefix, func() bool {
		b, _ = esc.AsButton(h.find(func(o fyne.CanvasObject) bool {
			x, ok := esc.AsButton(o)
			return ok && strings.HasPrefix(x.Text, prefix)
		}))
		return b != nil
	})
	ui.Sync(func() { test.Tap(b) })
}

// hasButton: a button whose text is text is shown.
func (h *guiHarness) hasButton(text string) bool {
	return h.find(func(o fyne.CanvasObject) bool {
		b, ok := esc.AsButton(o)
		return ok && b.Text == text
	}) != nil
}

// attemptLine is the text beside the "Attempt n" button of the Attempts
// list (its outcome, duration and request id), or "" while there is none.
// Called from waitFor, on the UI thread.
func (h *guiHarness) attemptLine(n int) string {
	want := fmt.Sprintf("Attempt %d", n)
	line := ""
	h.find(func(o fyne.CanvasObject) bool {
		row, ok := o.(*fyne.Container)
		if !ok || len(row.Objects) != 2 {
			return false
		}
		l, ok := row.Objects[0].(*widget.Label)
		box, ok2 := row.Objects[1].(*fyne.Container)
		if !ok || !ok2 || len(box.Objects) != 1 {
			return false
		}
		b, ok := esc.AsButton(box.Objects[0])
		if !ok || strings.TrimPrefix(b.Text, "▸ ") != want {
			return false
		}
		line = l.Text
		return true
	})
	return line
}

// TestGUIAttempts: the same echo twice is one lineage of two attempts;
// Attempts on the result card lists both with outcome, duration and
// request id, and clicking the first selects its messages in the
// inspector; below them, the arguments as typed, as parsed and as sent.
// The window still fits 1024×700 with them open.
func TestGUIAttempts(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	typed := "{\"message\":   \"again\"}"
	h.runTool("echo", typed)
	h.waitFor("the first result", func() bool { return h.hasText("Result") && len(h.requestSeqs("tools/call", "again")) == 1 })
	h.tap("Run")
	h.waitFor("the second call", func() bool { return len(h.requestSeqs("tools/call", "again")) == 2 })
	h.tap("Attempts")
	h.waitFor("both attempts", func() bool {
		// each attempt is an "Attempt N" button, its outcome, duration
		// and request id in a label beside it
		l1, l2 := h.attemptLine(1), h.attemptLine(2)
		return h.hasText("2 attempts of this call") && h.hasButton("▸ Attempt 2") && h.hasButton("Attempt 1") &&
			strings.HasPrefix(l1, "ok · ") && strings.Contains(l1, " · id ") &&
			strings.HasPrefix(l2, "ok · ") && strings.Contains(l2, " · id ") && l1 != l2
	})
	ui.Sync(func() {
		if m := h.win.Content().MinSize(); m.Width > 1024 || m.Height > 700 {
			t.Errorf("with the Attempts open the window needs %v, more than 1024×700", m)
		}
	})
	seqs := h.requestSeqs("tools/call", "again")
	h.tapButtonPrefix("Attempt 1")
	h.waitFor("the first attempt's request selected", func() bool {
		return h.hasText(fmt.Sprintf("#%d · ", seqs[0])) && h.hasButton("▸ Attempt 1")
	})
	ui.Sync(func() {
		if !h.detailTab("Attempts") {
			t.Fatal("no Attempts tab for a tools/call")
		}
	})
	h.waitFor("the hops", func() bool {
		return h.hasText("Arguments at each hop") && h.hasText("JSON text, as typed:") && h.hasText(typed) && h.hasText("Parsed by Spyglass") &&
			h.hasText("Sent to server") && h.hasText("Parsed → sent: no differences") && h.hasText("Entered → parsed: no differences")
	})
	ui.Sync(func() {
		if m := h.win.Content().MinSize(); m.Width > 1024 || m.Height > 700 {
			t.Errorf("with the argument hops open the window needs %v, more than 1024×700", m)
		}
	})
}

// TestGUIAttemptsEverything: against server-everything (stdio), get-sum
// filled in through the form: Attempts lists the lineage, Arguments
// shows the form fields as typed and the numbers the server received.
func TestGUIAttemptsEverything(t *testing.T) {
	h := newEverythingHarness(t, false)
	h.connectWithTools()
	ui.Sync(func() { h.entry("Search tools").SetText("get-sum") })
	h.waitFor("get-sum", func() bool { return h.hasText("get-sum · ") })
	ui.Sync(func() {
		if !h.selectRow("get-sum") {
			t.Fatal("could not select get-sum")
		}
	})
	ui.Sync(func() {
		ents := h.formEntries()
		if len(ents) < 2 {
			t.Fatalf("get-sum's form has %d entries", len(ents))
		}
		ents[0].SetText("")
		test.Type(ents[0], "2")
		ents[1].SetText("")
		test.Type(ents[1], "40")
	})
	h.tap("Run")
	h.waitFor("the sum", func() bool { return h.hasText("42") })
	h.tap("Run")
	h.waitFor("the second call", func() bool { return len(h.requestSeqs("tools/call", "get-sum")) == 2 })
	h.tap("Attempts")
	h.waitFor("both attempts", func() bool {
		return h.hasText("2 attempts of this call") && h.hasButton("Attempt 1") && strings.HasPrefix(h.attemptLine(1), "ok · ")
	})
	ui.Sync(func() { h.detailTab("Attempts") })
	h.waitFor("the form hops", func() bool {
		return h.hasText("Form fields, as typed:") && h.hasText("/a = 2\n/b = 40") &&
			h.hasText(`"a": 2`) && h.hasText("Parsed → sent: no differences")
	})
}

// TestGUIReplayDiffers: bump_counter answers differently every time; its
// replay from the inspector's request row is marked "differs from the
// first run" in the History with the paths that differ; Edit and replay
// of the tools/call opens the Tools form with its arguments.
func TestGUIReplayDiffers(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("bump_counter", `{"by": 3}`)
	h.waitFor("the first run", func() bool { return len(h.requestSeqs("tools/call", "bump_counter")) == 1 && h.hasText("Result") })
	if err := h.w.OpenEvent("tools/call #", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	h.tap("Replay")
	h.waitFor("the replay marked as differing", func() bool {
		return len(h.requestSeqs("tools/call", "bump_counter")) == 2 && h.hasBadge("differs from the first run") &&
			h.hasText("Differs at /") && h.hasText("Differs from the first run at ")
	})
	ui.Sync(func() {
		if m := h.win.Content().MinSize(); m.Width > 1024 || m.Height > 700 {
			t.Errorf("with a differing replay in the History the window needs %v, more than 1024×700", m)
		}
	})

	// Edit and replay (History row) → the Tools form with {"by": 3}
	ui.Sync(func() { bs := h.historyButtons("Edit and replay"); test.Tap(bs[len(bs)-1]) })
	h.waitFor("the Tools form pre-filled", func() bool {
		for _, e := range h.formEntries() {
			if e.Text == "3" {
				return h.hasText("Bump counter")
			}
		}
		return false
	})
}

// runSampleWithTools connects to the demo with the request queue's Quick
// Mock profile answering sampling, runs sample_with_tools to its end and
// opens the History tab.
func runSampleWithTools(h *guiHarness) {
	h.t.Helper()
	profiles := filepath.Join(h.dir, "profiles.json")
	ps := sampling.DefaultProfiles()
	ps.Active = "Quick Mock"
	if err := sampling.Save(profiles, ps); err != nil {
		h.t.Fatal(err)
	}
	ui.Sync(func() { h.be.useQueue(h.w, profiles) })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("sample_with_tools", "")
	h.waitFor("the loop's result", func() bool { return h.hasText("finished after") })
	h.openTab("History")
}

// TestGUIHistoryChain: sample_with_tools against the demo, answered by
// the request queue's Quick Mock (it calls the offered tool, then ends
// its turn): the History shows the sampling request with tools, its
// toolUse answer summarised, the server's tool execution and the
// continuation, each with its time relative to the call.
func TestGUIHistoryChain(t *testing.T) {
	h := newGUIHarness(t)
	runSampleWithTools(h)
	h.waitFor("the chain", func() bool {
		return h.hasText("tools/call sample_with_tools") &&
			h.hasText("sampling/createMessage (with tools)") &&
			h.hasText("Response: toolUse – ") &&
			h.hasText("tool execution: ") &&
			h.hasText("sampling/createMessage (continuation)")
	})
}

// TestGUIHistoryChainRestart: the chain of a sampling-with-tools loop
// (the demo server's sample_with_tools, answered by the Quick Mock
// profile) is kept with the call, and after a restart (a new backend and
// window on the same data folder) the History shows it as it was, marked
// as from an earlier session.
func TestGUIHistoryChainRestart(t *testing.T) {
	data := useDataHome(t)
	h := newGUIHarness(t)
	runSampleWithTools(h)
	chain := []string{"sampling/createMessage (with tools)", "Response: toolUse – ", "tool execution: ", "sampling/createMessage (continuation)"}
	h.waitFor("the chain", func() bool {
		for _, s := range chain {
			if !h.hasText(s) {
				return false
			}
		}
		return true
	})
	var lines []string
	h.waitFor("the call stored with its chain", func() bool {
		b, _ := os.ReadFile(filepath.Join(data, "spyglass", "calls", "demo.json"))
		return strings.Contains(string(b), `"nested"`) && strings.Contains(string(b), "continuation")
	})
	// the History redraws at most every 50 ms: the continuation's answer
	// may reach the file before the window shows it
	h.waitFor("the chain's every answer in the window", func() bool {
		lines = h.chainLines()
		return len(lines) > 0 && !strings.Contains(strings.Join(lines, "\n"), "waiting…")
	})
	ui.Sync(h.w.Close)

	h2 := &guiHarness{t: t, dir: h.dir, be: newGUIBackend(h.be.cat, "", nil)}
	h2.open(test.NewTempApp(t), &ui.Options{ConnectAttempts: 1})
	t.Cleanup(func() { ui.Sync(h2.w.Close) })
	h2.tap("Connect")
	h2.waitFor("connected", func() bool { return h2.hasText("echo · Echoes the message back.") })
	h2.openTab("History")
	h2.waitFor("the earlier call with its chain", func() bool {
		return h2.hasBadge("earlier session") && h2.hasText("tools/call sample_with_tools")
	})
	var again []string
	ui.Sync(func() { again = h2.chainLines() })
	if strings.Join(again, "\n") != strings.Join(lines, "\n") {
		t.Fatalf("after the restart the chain reads\n%s\nwhere it read\n%s", strings.Join(again, "\n"), strings.Join(lines, "\n"))
	}
	for _, s := range chain {
		if !strings.Contains(strings.Join(again, "\n"), s) {
			t.Errorf("the chain after the restart has no %q", s)
		}
	}
}

// chainLines are the History's nested lines (↳ and Response:), top down.
func (h *guiHarness) chainLines() []string {
	var out []string
	h.find(func(o fyne.CanvasObject) bool {
		if l, ok := o.(*widget.Label); ok {
			if t := strings.TrimSpace(l.Text); strings.HasPrefix(t, "↳ +") || strings.HasPrefix(t, "Response: ") {
				out = append(out, t)
			}
		}
		return false
	})
	return out
}

// TestGUIHistoryRestart: the calls made are kept per server under the XDG
// data folder (secrets masked) and shown after a restart, marked as from
// an earlier session, with Replay.
func TestGUIHistoryRestart(t *testing.T) {
	data := useDataHome(t)
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("echo", `{"message": "kept", "api_key": "sekrit-42"}`)
	h.waitFor("the call stored", func() bool {
		b, _ := os.ReadFile(filepath.Join(data, "spyglass", "calls", "demo.json"))
		return strings.Contains(string(b), "kept")
	})
	b, _ := os.ReadFile(filepath.Join(data, "spyglass", "calls", "demo.json"))
	if strings.Contains(string(b), "sekrit") {
		t.Fatalf("the stored History holds the secret:\n%s", b)
	}
	ui.Sync(h.w.Close)

	// a new window on the same catalog and data folder
	h2 := &guiHarness{t: t, dir: h.dir, be: newGUIBackend(h.be.cat, "", nil)}
	h2.open(test.NewTempApp(t), &ui.Options{ConnectAttempts: 1})
	t.Cleanup(func() { ui.Sync(h2.w.Close) })
	h2.tap("Connect")
	h2.waitFor("connected", func() bool { return h2.hasText("echo · Echoes the message back.") })
	h2.openTab("History")
	h2.waitFor("the earlier call", func() bool {
		return h2.hasBadge("earlier session") && h2.hasText("tools/call echo  · ok")
	})
	ui.Sync(func() { test.Tap(h2.historyButtons("Replay")[0]) })
	h2.waitFor("the replay", func() bool { return h2.hasText("Replay of tools/call") && h2.hasText("kept") })
}

// isolateDataHome gives a window test History and tester files of its
// own, unless the test chose a folder itself (useDataHome): neither the
// real XDG data folder nor one a whole run shares (.ci/keyring.sh sets
// XDG_DATA_HOME for every test), where other tests' calls would show up.
func isolateDataHome(t *testing.T) {
	if d := os.Getenv("XDG_DATA_HOME"); d == "" || d != os.Getenv(chosenDataHome) {
		useDataHome(t)
	}
}
