package cmd

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// newMRTRHarness opens the window, with the request queue, on a catalog
// holding testdata/tssdk_mrtr.mjs — a server on the official TypeScript
// SDK v2 whose tools ask for input with multi round-trip requests — over
// stdio in the 2026-07-28 era.
func newMRTRHarness(t *testing.T) *guiHarness {
	t.Helper()
	node := testpeers.Node(t)
	dist := filepath.Dir(testpeers.File(t, "@modelcontextprotocol/server/dist/index.mjs"))
	script, err := filepath.Abs(filepath.Join("testdata", "tssdk_mrtr.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"mrtr": map[string]any{"command": node, "args": []string{script}, "protocolEra": "modern", "env": map[string]string{
			"MCP_SERVER_SDK":       "file://" + filepath.ToSlash(filepath.Join(dist, "index.mjs")),
			"MCP_SERVER_SDK_STDIO": "file://" + filepath.ToSlash(filepath.Join(dist, "stdio.mjs")),
		}},
	}})
	h := newCatalogHarness(t, doc)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	return h
}

// queueObject is the request queue's view.
func (h *guiHarness) queueObject() fyne.CanvasObject {
	h.be.mu.Lock()
	defer h.be.mu.Unlock()
	return h.be.queue.Object()
}

// inQueue finds a visible object of the request queue.
func (h *guiHarness) inQueue(match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	return under(h.queueObject(), match)
}

// queueShows reports whether a label of the request queue contains s.
func (h *guiHarness) queueShows(s string) bool {
	return h.inQueue(func(o fyne.CanvasObject) bool {
		l, ok := o.(*widget.Label)
		return ok && strings.Contains(l.Text, s)
	}) != nil
}

// requestPanel returns where the waiting request whose panel shows
// message (in quotes, as the panel shows it; the queue's rows show it
// bare) is answered: the panel it has in the running call's screen
// (seed 000: a request the call sent is answered there), or else the
// queue's view once its row is selected, as a person picks it (UI
// thread). Nil when no waiting request shows message.
func (h *guiHarness) requestPanel(message string) fyne.CanvasObject {
	quoted := "“" + message + "”"
	for _, p := range h.inlinePanels() {
		if shows(p, quoted) {
			return p
		}
	}
	l, _ := h.inQueue(func(o fyne.CanvasObject) bool { _, ok := o.(*widget.List); return ok }).(*widget.List)
	if l == nil {
		return nil
	}
	for i := 0; i < l.Length(); i++ {
		l.Select(i)
		if h.queueShows(quoted) {
			return h.queueObject()
		}
	}
	return nil
}

// inlinePanels returns the requests' panels in running calls' screens.
func (h *guiHarness) inlinePanels() []fyne.CanvasObject {
	h.be.mu.Lock()
	q := h.be.queue
	h.be.mu.Unlock()
	return q.InlinePanels()
}

// inRequests finds a visible object where waiting requests are answered:
// their panels in running calls' screens, then the queue's view.
func (h *guiHarness) inRequests(match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	for _, p := range h.inlinePanels() {
		if o := under(p, match); o != nil {
			return o
		}
	}
	return h.inQueue(match)
}

// shows reports whether a visible label under o contains s.
func shows(o fyne.CanvasObject, s string) bool {
	found := false
	walk(o, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, s) {
			found = true
		}
	})
	return found
}

// under finds a visible object under o.
func under(o fyne.CanvasObject, match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	var found fyne.CanvasObject
	walk(o, func(o fyne.CanvasObject) {
		if found == nil && match(o) {
			found = o
		}
	})
	return found
}

// answerForm types value into the first text field of the elicitation
// form that asks message (over what it held) and submits it (UI thread).
func (h *guiHarness) answerForm(message, value string) {
	h.t.Helper()
	p := h.requestPanel(message)
	if p == nil {
		h.t.Fatalf("no waiting request asks %q", message)
	}
	e := asEntry(under(p, func(o fyne.CanvasObject) bool { e := asEntry(o); return e != nil && !e.MultiLine }))
	if e == nil {
		h.t.Fatal("no text field in the form")
	}
	e.SetText("") // a default the schema gives
	test.Type(e, value)
	b, _ := esc.AsButton(under(p, func(o fyne.CanvasObject) bool { b, ok := esc.AsButton(o); return ok && b.Text == "Submit" }))
	if b == nil {
		h.t.Fatal("no Submit in the form")
	}
	test.Tap(b)
}

// rounds returns the round labels of the log's tools/call messages, in
// order ("round 1/2 · tools/call #3", ...), the way the inspector
// labels its rows.
func (h *guiHarness) rounds() []string {
	var r events.Rounds
	evs := h.be.log.Events()
	var out []string
	for i := range evs {
		r.Add(&evs[i])
	}
	for i := range evs {
		if l := r.Label(&evs[i]); l != "" && evs[i].Method == "tools/call" {
			out = append(out, l+" · "+evs[i].Title())
		}
	}
	return out
}

// TestGUIMRTRRound: a tool of the TypeScript SDK v2 that asks for input
// in two rounds (a form, then sampling) over the 2026-07-28 protocol:
// each round waits in the request queue marked "Round N of tools/call
// plan (MRTR)"; the test answers the form like a person and the sampling
// round by hand (Manual Review), the call completes with what the server
// echoes, and the inspector labels the five messages as one conversation,
// round 1/3 … 3/3.
func TestGUIMRTRRound(t *testing.T) {
	h := newMRTRHarness(t)
	h.connectWithTools()
	h.runTool("plan", `{"topic": "the launch"}`)
	h.waitFor("round 1 in the queue", func() bool {
		return h.queueShows("Round 1 of tools/call plan (MRTR)") && h.queueShows(`Who is the plan for "the launch"?`)
	})
	h.checkFits()
	ui.Sync(func() { h.answerForm(`Who is the plan for "the launch"?`, "the ops team") })
	h.waitFor("round 2 (sampling) in the queue", func() bool {
		return h.queueShows("Round 2 of tools/call plan (MRTR)") && h.button("Edit & Send") != nil
	})
	ui.Sync(func() {
		e := asEntry(h.inRequests(func(o fyne.CanvasObject) bool { e := asEntry(o); return e != nil && e.MultiLine }))
		if e == nil {
			t.Fatal("no response field in the sampling panel")
		}
		e.SetText("Ship on Monday, announce on Tuesday.")
	})
	h.tap("Edit & Send")
	h.waitFor("the call's result", func() bool {
		return h.hasText("plan for the launch (the ops team): Ship on Monday, announce on Tuesday.")
	})
	h.waitFor("an empty queue", func() bool { return h.queueShows("No pending requests") })

	var got []string
	ui.Sync(func() { got = h.rounds() })
	if len(got) != 6 || !strings.HasPrefix(got[0], "round 1/3 · ") || !strings.HasPrefix(got[3], "round 2/3 · ") || !strings.HasPrefix(got[5], "round 3/3 · ") {
		t.Fatalf("the round trip's messages: %q", got)
	}
	// the inspector's rows carry the same labels
	h.waitFor("labelled inspector rows", func() bool { return h.hasText(got[2]) && h.hasText(got[5]) })
}

// TestGUIMRTRCancel: Cancel call on a queued round abandons the call: it
// is not sent again, the Tools screen says so and the inspector marks
// the conversation abandoned; the tool attempt ends "cancelled".
func TestGUIMRTRCancel(t *testing.T) {
	h := newMRTRHarness(t)
	h.connectWithTools()
	h.runTool("confirm", `{"what": "the deploy"}`)
	h.waitFor("the round in the queue", func() bool {
		return h.queueShows("Round 1 of tools/call confirm (MRTR)") && h.queueShows("Confirm the deploy?")
	})
	h.tap("Cancel call")
	h.waitFor("the call abandoned", func() bool {
		return h.hasText("You cancelled the call in the request queue while the server waited for your input")
	})
	h.waitFor("the note", func() bool { return h.queueShows("call cancelled") && h.queueShows("No pending requests") })
	var got []string
	ui.Sync(func() { got = h.rounds() })
	if len(got) != 3 || !strings.HasPrefix(got[2], "abandoned at round 1/1 · ") {
		t.Fatalf("the round trip's messages: %q", got)
	}
	sent, class, unknown := 0, "", false
	for _, e := range h.be.log.Events() {
		if e.Kind == events.KindMessage && e.Type == events.MsgRequest && e.Method == "tools/call" {
			sent++
		}
		if e.Kind == events.KindTool {
			class, unknown = e.ErrorClass, e.OutcomeUnknown
		}
	}
	// the one request sent was answered (input required): nothing runs
	if sent != 1 || class != "cancelled" || unknown {
		t.Errorf("%d tools/call requests sent, attempt ended %q (outcome unknown %v); want 1, cancelled and known", sent, class, unknown)
	}
	h.waitFor("the abandoned row", func() bool { return h.hasText("abandoned at round 1/1") })
}

// TestGUIMRTRParallel: two calls of the same tool wait for input at once
// (one from the Tools screen, one from the JSON-RPC tester), with the same
// input key; answered out of order, each call gets its own answer.
func TestGUIMRTRParallel(t *testing.T) {
	useDataHome(t)
	h := newMRTRHarness(t)
	h.connectWithTools()
	h.runTool("confirm", `{"what": "from tools"}`)
	h.waitFor("the first round", func() bool { return h.queueShows("Confirm from tools?") })
	h.openTab("Experimental")
	h.waitFor("the tester", func() bool { return h.testerEditor() != nil })
	ui.Sync(func() {
		h.testerEditor().SetText(`{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "confirm", "arguments": {"what": "from tester"}}}`)
	})
	h.tap("Send Request")
	h.waitFor("two rounds waiting", func() bool { return h.queueShows("2 pending requests") })

	// the later one first
	ui.Sync(func() {
		h.answerForm("Confirm from tester?", "Grace")
	})
	h.waitFor("the tester's answer", func() bool { return h.hasText(`confirmed from tester: {\"name\":\"Grace\",\"ok\":true}`) })
	ui.Sync(func() {
		h.answerForm("Confirm from tools?", "Ada")
	})
	h.openTab("Tools")
	h.waitFor("the Tools screen's answer", func() bool { return h.hasText(`confirmed from tools: {"name":"Ada","ok":true}`) })
	var got []string
	ui.Sync(func() { got = h.rounds() })
	if len(got) != 8 {
		t.Fatalf("the round trips' messages: %q", got)
	}
	for _, l := range got {
		if !strings.HasPrefix(l, "round 1/2 · ") && !strings.HasPrefix(l, "round 2/2 · ") {
			t.Errorf("%s: not a round of two", l)
		}
	}
}

// TestGUIMRTRProfile: with the Quick Mock testing profile active (chosen
// in Settings → Sampling profiles), a sampling round is answered by the
// profile without waiting in the queue; the form round before it still
// waits for the person.
func TestGUIMRTRProfile(t *testing.T) {
	h := newMRTRHarness(t)
	h.connectWithTools()
	ui.Sync(func() { h.menuItem("Settings", "Sampling profiles…").Action() })
	ui.Sync(func() {
		sel, _ := h.find(func(o fyne.CanvasObject) bool {
			s, ok := o.(*esc.Select)
			return ok && slices.Contains(s.Options, "Quick Mock")
		}).(*esc.Select)
		if sel == nil {
			t.Fatal("no Active Profile choice in the profiles dialog")
		}
		sel.SetSelected("Quick Mock")
	})
	ui.Sync(func() {
		walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if b, ok := esc.AsButton(o); ok && b.Text == "Close" {
				test.Tap(b)
			}
		})
	})
	h.runTool("plan", `{"topic": "the launch"}`)
	h.waitFor("round 1 in the queue", func() bool { return h.queueShows("Round 1 of tools/call plan (MRTR)") })
	ui.Sync(func() { h.answerForm(`Who is the plan for "the launch"?`, "the ops team") })
	h.waitFor("the call's result", func() bool {
		return h.hasText("plan for the launch (the ops team): This is a mock LLM response for testing purposes.")
	})
	h.waitFor("the profile's note", func() bool {
		return h.queueShows("sampling Round 2 of tools/call plan (MRTR) from mrtr: auto-responded by the profile “Quick Mock”")
	})
}

// checkFits fails the test when the window needs more than the smallest
// supported size, 1024×700, and says which splits need what.
func (h *guiHarness) checkFits() {
	h.t.Helper()
	ui.Sync(func() {
		m := h.win.Content().MinSize()
		if m.Width > 1024 || m.Height > 700 {
			h.t.Errorf("with a round waiting the window needs %v, more than 1024×700", m)
			walk(h.win.Content(), func(o fyne.CanvasObject) {
				if sp, ok := o.(*container.Split); ok {
					h.t.Logf("a split (horizontal %v) needs %v | %v", sp.Horizontal, sp.Leading.MinSize(), sp.Trailing.MinSize())
				}
			})
		}
	})
}
