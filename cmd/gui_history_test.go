package cmd

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui"
)

// historyButtons are the visible buttons named text, top to bottom (the
// History lists newest first).
func (h *guiHarness) historyButtons(text string) []*widget.Button {
	var out []*widget.Button
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
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
// replay's result is shown; Edit and replay opens the tester pre-filled.
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

	ui.Sync(func() { bs := h.historyButtons("Edit and replay"); test.Tap(bs[len(bs)-1]) })
	ui.Sync(func() {
		text := h.testerEditor().Text
		if !strings.Contains(text, `"method": "tools/call"`) || !strings.Contains(text, `"first run"`) || strings.Contains(text, "progressToken") {
			t.Errorf("Edit and replay put into the tester:\n%s", text)
		}
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
