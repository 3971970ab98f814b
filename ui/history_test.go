package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// historyLines are the texts of the History's rows as drawn, top down.
func historyLines(h *historyScreen) []string {
	var out []string
	for _, o := range h.box.Objects {
		out = append(out, texts(o))
	}
	return out
}

// TestHistoryHiddenDrawsWhenShown: calls that come while the History's
// tab is not shown are taken (and stored) but no row is made or drawn
// again for them; selecting the tab shows every call, newest first, with
// the outcome that came meanwhile (#17: ten calls a second redrew every
// row of a hidden History).
func TestHistoryHiddenDrawsWhenShown(t *testing.T) {
	_, b, ss := connected(t, nil)
	h := ss.history
	call := func(id int, tool string) EventView {
		return EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: fmt.Sprint(id), Title: "tools/call",
			Raw: json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q}}`, id, tool))}
	}
	Sync(func() { ss.selectTab("History") })
	b.ev.send(call(1, "first"))
	waitFor(t, "the first call's row", func() bool {
		return !h.later.pending && len(h.box.Objects) == 1 && strings.Contains(texts(h.box.Objects[0]), "tools/call first")
	})
	var row fyne.CanvasObject
	var redraws int
	var first *historyCall
	Sync(func() {
		row, redraws, first = h.box.Objects[0], h.redraws, h.calls[0]
		ss.selectTab("Tools")
	})

	// hidden: three calls and the first's outcome
	for i := 2; i <= 4; i++ {
		b.ev.send(call(i, fmt.Sprintf("hidden%d", i)))
	}
	sendUpdated(b.ev, EventView{Seq: first.req.Seq, Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call",
		ID: "1", Raw: first.req.Raw, Badge: "ok 7ms", BadgeLevel: "ok"})
	waitFor(t, "the hidden calls taken", func() bool { return len(h.calls) == 4 && h.calls[0].req.Badge == "ok 7ms" && !h.later.pending })
	Sync(func() {
		if h.redraws != redraws || !h.stale {
			t.Errorf("the hidden History redrew: %d redraws, %d before (stale %v)", h.redraws, redraws, h.stale)
		}
		if len(h.box.Objects) != 1 || h.box.Objects[0] != row {
			t.Errorf("the hidden History's rows changed: %q", historyLines(h))
		}
	})

	// shown: every call, newest first, the first with its outcome
	Sync(func() { ss.selectTab("History") })
	waitFor(t, "the calls after the tab is shown", func() bool { return !h.stale && !h.later.pending && len(h.box.Objects) == 4 })
	Sync(func() {
		lines := historyLines(h)
		for i, want := range []string{"tools/call hidden4", "tools/call hidden3", "tools/call hidden2", "tools/call first"} {
			if !strings.Contains(lines[i], want) {
				t.Errorf("row %d = %q, want %q", i, lines[i], want)
			}
		}
		if !strings.Contains(lines[3], "ok 7ms") || strings.Contains(lines[3], "waiting") {
			t.Errorf("the first call's row = %q, want its outcome ok 7ms", lines[3])
		}
		if h.box.Objects[3] == row {
			t.Error("the first call's row was not made again though its outcome came")
		}
	})

	// shown, a new call leaves the rows that did not change as they were
	var kept []fyne.CanvasObject
	Sync(func() { kept = append(kept, h.box.Objects...) })
	b.ev.send(call(5, "shown5"))
	waitFor(t, "the fifth call's row", func() bool { return !h.later.pending && len(h.box.Objects) == 5 })
	Sync(func() {
		if !strings.Contains(texts(h.box.Objects[0]), "tools/call shown5") {
			t.Errorf("the newest row = %q", texts(h.box.Objects[0]))
		}
		for i, o := range kept {
			if h.box.Objects[i+1] != o {
				t.Errorf("row %d was made again though its call did not change", i+1)
			}
		}
	})
}
