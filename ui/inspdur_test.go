package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestInspectorDurationWords: an event's details say how long it took in
// words — a tool call attempt "took 1.23 ms", a request and its response
// "took 2.5 s" — and the attempt's record reads
// `durationNs: 1234567 (1.23 ms)` in the tree, where it showed the bare
// nanoseconds; the raw view keeps the record's bytes (#12).
func TestInspectorDurationWords(t *testing.T) {
	w, b, _ := connected(t, nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1280, 800)) })
	now := time.Now()
	b.ev.send(
		EventView{Seq: 1001, Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "5", Method: "tools/call",
			Title: "tools/call #5", Categories: []string{"tools", "rpc"}, Pair: 1002, Time: now, Badge: "2.5s", BadgeLevel: "ok", Latency: 2500 * time.Millisecond,
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fail"}}`)},
		EventView{Seq: 1002, Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "5", Method: "tools/call",
			Title: "result #5 · tools/call", Categories: []string{"tools", "rpc"}, Pair: 1001, Time: now,
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"result":{"content":[],"isError":true}}`)},
		EventView{Seq: 1003, Server: "fake", Kind: "tool", Title: "tool · fail · tool error · 1ms", Categories: []string{"tools"}, Time: now, BadgeLevel: "error",
			Event: events.Event{Seq: 1003, Conn: "fake", Kind: events.KindTool, ErrorClass: "tool",
				Tool: &events.ToolInfo{Name: "fail", Status: "failed", Duration: 1234567}}},
	)
	in := w.inspector
	for _, c := range []struct{ ev, want string }{
		{"result #5", "took 2.5 s"}, {"tools/call #5", "took 2.5 s"}, {"tool · fail", "took 1.23 ms"},
	} {
		if err := w.OpenEvent(c.ev, time.Minute); err != nil {
			t.Fatal(err)
		}
		Sync(func() {
			if got := in.detail.meta.Text; !strings.HasPrefix(got, fmt.Sprintf("#%d · %s · ", in.selSeq, c.want)) {
				t.Errorf("%s: the details' line reads %q, want %q after the event's number", c.ev, got, c.want)
			}
		})
	}
	Sync(func() {
		var tree *widget.Tree
		walkVisible(in.detail.payload, func(o fyne.CanvasObject) {
			if tr, ok := o.(*widget.Tree); ok {
				tree = tr
			}
		})
		if tree == nil {
			t.Fatal("the attempt's record is not shown as a tree")
		}
		tree.OpenAllBranches()
		tree.ScrollToBottom()
		shown := texts(in.detail.payload)
		if !strings.Contains(shown, "durationNs: 1234567 (1.23 ms)") {
			t.Errorf("the record's tree reads:\n%s\nwant durationNs: 1234567 (1.23 ms)", shown)
		}
	})
}

// TestJSONTreeDurationWordsOnlyInRecords: members named …Ns read in words
// in a record of Spyglass's own only (a server's durationNs is its own
// business); the raw view holds the exact bytes either way.
func TestJSONTreeDurationWordsOnlyInRecords(t *testing.T) {
	test.NewTempApp(t)
	Sync(func() {
		raw := `{"tool":{"durationNs":1234567,"name":"x"},"latencyNs":"12"}`
		for _, rec := range []bool{true, false} {
			j := newJSONTree()
			j.nsWords = rec
			j.SetJSON([]byte(raw))
			got := strings.Join(j.labels(), "\n")
			if want := "durationNs: 1234567 (1.23 ms)"; rec != strings.Contains(got, want) {
				t.Errorf("record %v: tree\n%s", rec, got)
			}
			if strings.Contains(got, `"12" (`) {
				t.Errorf("a string member read as a duration:\n%s", got)
			}
			if j.rawT != raw {
				t.Errorf("record %v: the raw view holds %q, want the exact bytes", rec, j.rawT)
			}
		}
	})
}
