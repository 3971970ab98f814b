package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

// TestInspectorDetailStacksWhenNarrow: a request and its response stand
// side by side in a wide detail pane and one above the other in a
// narrow one (at 1280 the pane gave each tree ~160 px); "This run"
// counts the rows it shows and says where the responses are (it said
// "2 steps" over one row) (#12).
func TestInspectorDetailStacksWhenNarrow(t *testing.T) {
	w, b, _ := connected(t, nil)
	now := time.Now()
	b.ev.send(
		EventView{Seq: 1001, Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "5", Method: "tools/call",
			Title: "tools/call #5", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1002, Time: now,
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"needle"}}}`)},
		EventView{Seq: 1002, Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "5", Method: "tools/call",
			Title: "result #5 · tools/call", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1001, Time: now.Add(3 * time.Millisecond),
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a"}],"isError":false}}`)},
	)
	if err := w.OpenEvent("result #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	Sync(func() {
		d := w.inspector.detail
		pair, ok := d.payload.Objects[0].(*fyne.Container)
		if !ok || len(pair.Objects) != 2 {
			t.Fatalf("the payload is %T, want the request/response pair", d.payload.Objects[0])
		}
		req, resp := pair.Objects[0], pair.Objects[1]
		pair.Resize(fyne.NewSize(400, 600))
		if req.Position().X != resp.Position().X || resp.Position().Y < req.Position().Y+req.Size().Height || req.Size().Width < 390 {
			t.Errorf("at 400 px the request is at %v %v and the response at %v %v: want them stacked, full width", req.Position(), req.Size(), resp.Position(), resp.Size())
		}
		pair.Resize(fyne.NewSize(800, 600))
		if req.Position().Y != resp.Position().Y || resp.Position().X < req.Position().X+req.Size().Width {
			t.Errorf("at 800 px the request is at %v and the response at %v: want them side by side", req.Position(), resp.Position())
		}

		got := texts(d.run)
		if !strings.Contains(got, "1 step · ") || !strings.Contains(got, "the response is drawn on its request's bar") {
			t.Errorf("This run reads:\n%s", got)
		}
		if rows := len(d.run.Objects) - 1; rows != 1 {
			t.Errorf("This run shows %d rows, want the 1 step it counts", rows)
		}
	})
}
