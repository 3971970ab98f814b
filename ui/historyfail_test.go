package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// historyHead is the head line of a History row (its first label).
func historyHead(o fyne.CanvasObject) *widget.Label {
	var head *widget.Label
	walkVisible(o, func(x fyne.CanvasObject) {
		if l, ok := x.(*widget.Label); ok && head == nil {
			head = l
		}
	})
	return head
}

// TestHistoryMarksFailedToolCall: a tools/call answered with isError:
// true, and one answered with a JSON-RPC error, read as failures in the
// History — red, and the first says "tool error" — where the first read
// as a success; a call that succeeded stays plain. A call of an earlier
// session kept as "tool error" is red too (#12).
func TestHistoryMarksFailedToolCall(t *testing.T) {
	_, b, ss := connected(t, nil)
	h := ss.history
	Sync(func() { ss.selectTab("History") })
	call := func(seq uint64, tool string) EventView {
		return EventView{Seq: seq, Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: fmt.Sprint(seq), Title: "tools/call",
			Raw: json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q}}`, seq, tool))}
	}
	answer := func(seq uint64, typ, body string) EventView {
		return EventView{Seq: seq + 1, Server: "fake", Kind: "message", Dir: "in", Type: typ, Method: "tools/call", ID: fmt.Sprint(seq), Pair: seq,
			Raw: json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, seq, body))}
	}
	settled := func(req EventView, badge, level string) EventView {
		req.Pair, req.Badge, req.BadgeLevel = req.Seq+1, badge, level
		return req
	}
	okCall, toolErr, rpcErr := call(2001, "works"), call(2003, "fails"), call(2005, "breaks")
	b.ev.send(okCall, toolErr, rpcErr)
	b.ev.send(answer(2001, "result", `"result":{"content":[],"isError":false}`),
		answer(2003, "result", `"result":{"content":[{"type":"text","text":"no such city"}],"isError":true}`),
		answer(2005, "error", `"error":{"code":-32602,"message":"bad params"}`))
	sendUpdated(b.ev, settled(okCall, "7ms", "ok"), settled(toolErr, "9ms", "ok"), settled(rpcErr, "error · 3ms", "error"))
	waitFor(t, "the three calls settled", func() bool {
		return !h.later.pending && len(h.box.Objects) == 3 && !strings.Contains(strings.Join(historyLines(h), "\n"), "waiting")
	})
	Sync(func() {
		for i, want := range []struct {
			text, not string
			imp       widget.Importance
		}{
			{"tools/call breaks  · error · 3ms", "tool error", widget.DangerImportance},
			{"tools/call fails  · tool error · 9ms", "", widget.DangerImportance},
			{"tools/call works  · 7ms", "error", widget.MediumImportance},
		} {
			head := historyHead(h.box.Objects[i])
			if !strings.Contains(head.Text, want.text) || want.not != "" && strings.Contains(head.Text, want.not) {
				t.Errorf("row %d reads %q, want %q", i, head.Text, want.text)
			}
			if head.Importance != want.imp {
				t.Errorf("row %d (%q) is drawn with importance %v, want %v", i, head.Text, head.Importance, want.imp)
			}
		}
		past := &historyCall{past: &HistoryEntry{Method: "tools/call", Status: "tool error"}}
		if status, imp := h.outcome(past); status != "tool error" || imp != widget.DangerImportance {
			t.Errorf("an earlier session's tool error reads %q with importance %v", status, imp)
		}
		if _, imp := h.outcome(&historyCall{past: &HistoryEntry{Method: "tools/call", Status: "ok"}}); imp != widget.MediumImportance {
			t.Errorf("an earlier session's success has importance %v", imp)
		}
	})
}
