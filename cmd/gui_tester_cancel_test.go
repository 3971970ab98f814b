package cmd

import (
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUITesterCancel: a raw tools/call of the demo's slow_task waits in
// the tester; Cancel sends notifications/cancelled for its id, the
// request's outcome is cancelled (in the tester and the inspector's
// record) and the history row says so.
func TestGUITesterCancel(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.openTab("Experimental")
	ui.Sync(func() {
		h.testerEditor().SetText(`{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "slow_task", "arguments": {"steps": 100, "step_ms": 200}}}`)
	})
	h.tap("Send Request")
	var id string
	h.waitFor("the request on its way", func() bool {
		evs, _ := h.be.Events().After(0, 100000)
		for _, e := range evs {
			if e.Dir == "out" && e.Type == "request" && e.Method == "tools/call" && strings.Contains(string(e.Raw), "slow_task") {
				id = e.ID
			}
		}
		return id != "" && h.hasBadge("waiting")
	})
	h.tap("Cancel")
	h.waitFor("the cancelled outcome", func() bool {
		return h.hasBadge("cancelled") && h.hasText("Cancelled: Spyglass sent notifications/cancelled") && h.hasText("tools/call (cancelled)")
	})
	evs, _ := h.be.Events().After(0, 100000)
	sent, outcome := false, ""
	for _, e := range evs {
		if e.Dir == "out" && e.Method == "notifications/cancelled" && strings.Contains(string(e.Raw), `"requestId":`+id) {
			sent = true
		}
		if e.Dir == "out" && e.Type == "request" && e.ID == id && e.Event.Outcome != nil {
			outcome = string(e.Event.Outcome.State)
		}
	}
	if !sent || outcome != "cancelled" {
		t.Fatalf("after Cancel: notifications/cancelled for id %s sent = %v, the request's outcome %q", id, sent, outcome)
	}
}
