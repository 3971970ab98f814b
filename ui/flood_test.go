package ui

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Issue #17: a flood into a connected window. These tests prove what the
// window does per batch and what Clear releases; they assert no timing.

// sendUpdated delivers request events whose outcome changed, as the
// log's batches carry them (Batch.Updated).
func sendUpdated(f *fakeEvents, evs ...EventView) {
	f.mu.Lock()
	for i := range evs {
		if evs[i].Event.Kind == "" {
			evs[i].Event = coreEvent(evs[i])
		}
	}
	fns := f.fns
	f.mu.Unlock()
	for _, fn := range fns {
		fn(EventBatch{Updated: evs})
	}
}

// floodBatch is n of the demo flood's log notifications of server.
func floodBatch(server string, from, n int) []EventView {
	evs := make([]EventView, n)
	for i := range evs {
		evs[i] = EventView{Server: server, Kind: "message", Dir: "in", Type: "notification", Method: "notifications/message",
			Title: "notifications/message", Raw: json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"line %d"}}`, from+i))}
	}
	return evs
}

// listDrawn waits until the inspector's list has been redrawn since the
// last batch (it redraws at most once per redrawInterval).
func listDrawn(t *testing.T, in *inspector) {
	t.Helper()
	waitFor(t, "the inspector's redraw", func() bool { return !in.later.pending })
}

// historySettled waits until no redraw of the History is pending and
// returns how many it did.
func historySettled(t *testing.T, h *historyScreen) int {
	t.Helper()
	n := 0
	waitFor(t, "the History's redraw", func() bool { n = h.redraws; return !h.later.pending })
	return n
}

func TestHistoryIgnoresBatchesWithoutCalls(t *testing.T) {
	_, b, ss := connected(t, nil)
	h := ss.history
	Sync(func() { ss.selectTab("History") }) // a hidden History draws nothing (TestHistoryHiddenDrawsWhenShown)
	before := historySettled(t, h)

	// a flood: notifications, a list's request and its outcome, another
	// server's call — nothing of a call of this server
	for i := 0; i < 100; i++ {
		b.ev.send(floodBatch("fake", i*50, 50)...)
	}
	b.ev.send(EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/list", ID: "9", Title: "tools/list"},
		EventView{Server: "other", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: "1", Title: "tools/call",
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)})
	b.ev.mu.Lock()
	listSeq := b.ev.seq - 1
	b.ev.mu.Unlock()
	sendUpdated(b.ev, EventView{Seq: listSeq, Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/list", BadgeLevel: "ok", Badge: "ok"})
	Sync(func() {
		if h.redraws != before || h.later.pending {
			t.Errorf("the History redrew for batches without a call of its server: %d redraws, %d before (pending %v)", h.redraws, before, h.later.pending)
		}
		if len(h.calls) != 0 {
			t.Errorf("the History took %d calls from the flood", len(h.calls))
		}
	})

	// a call of this server is drawn; a second one leaves the first's
	// row as it was (not made again)
	call := func(id int, tool string) EventView {
		return EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: fmt.Sprint(id), Title: "tools/call",
			Raw: json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q}}`, id, tool))}
	}
	b.ev.send(call(20, "echo"))
	n := historySettled(t, h)
	if n <= before {
		t.Fatalf("the History did not redraw for a call: %d redraws, %d before", n, before)
	}
	var first *historyCall
	Sync(func() {
		if len(h.calls) != 1 || h.calls[0].title != "tools/call echo" {
			t.Fatalf("History calls = %+v", h.calls)
		}
		first = h.calls[0]
	})
	var old fyne.CanvasObject
	Sync(func() { old = h.rows[first].obj })
	b.ev.send(call(21, "add"))
	historySettled(t, h)
	Sync(func() {
		if len(h.calls) != 2 || len(h.box.Objects) != 2 {
			t.Fatalf("History: %d calls, %d rows", len(h.calls), len(h.box.Objects))
		}
		if h.rows[first].obj != old || h.box.Objects[1] != old {
			t.Error("the first call's row was made again though it did not change")
		}
	})
	// its outcome changes its row
	sendUpdated(b.ev, EventView{Seq: first.req.Seq, Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call",
		ID: "20", Raw: first.req.Raw, Badge: "ok 3ms", BadgeLevel: "ok"})
	historySettled(t, h)
	Sync(func() {
		if h.rows[first].obj == old {
			t.Error("the first call's row was not drawn again when its outcome came")
		}
	})
}

func TestLogsScreenFloodBounded(t *testing.T) {
	_, b, ss := connected(t, nil)
	c := b.conns["fake"]
	c.mu.Lock()
	notify := c.notify
	c.mu.Unlock()
	const n = 15000
	for i := 0; i < n; i++ {
		notify(Notification{Method: "notifications/message", Time: time.Now(),
			Params: json.RawMessage(fmt.Sprintf(`{"level":"info","logger":"flood","data":"line %d"}`, i))})
	}
	l := ss.logs
	want := fmt.Sprintf("flood: line %d", n-1)
	waitFor(t, "the newest message", func() bool {
		return len(l.all) > 0 && l.all[len(l.all)-1].text == want && !l.later.pending && !l.dirty && !l.stale
	})
	Sync(func() {
		if len(l.all) > maxLogLines || len(l.all) < keepLogLines {
			t.Errorf("the Logs screen keeps %d messages, want %d to %d", len(l.all), keepLogLines, maxLogLines)
		}
		if len(l.shown) != len(l.all) || l.list.Length() != len(l.shown) {
			t.Errorf("shown %d of %d, the list %d", len(l.shown), len(l.all), l.list.Length())
		}
		if l.shown[len(l.shown)-1].text != want {
			t.Errorf("the newest shown is %q", l.shown[len(l.shown)-1].text)
		}
	})

	// stderr lines are bounded alike
	for i := 0; i < 130; i++ {
		evs := make([]EventView, 100)
		for j := range evs {
			evs[j] = EventView{Server: "fake", Kind: "stderr", Title: "stderr", Text: fmt.Sprintf("err %d", i*100+j)}
		}
		b.ev.send(evs...)
	}
	Sync(func() {
		if len(l.errs) > maxLogLines || l.errs[len(l.errs)-1] != "err 12999" {
			t.Errorf("stderr: %d lines, the last %q", len(l.errs), l.errs[len(l.errs)-1])
		}
	})
}

// clearedBy records the ClearEvents calls a fakeEvents got.
var clearedBy sync.Map // *fakeEvents → chan [2]any

// ClearEvents implements EventClearer for the tests: it records the call.
func (f *fakeEvents) ClearEvents(server string, upTo uint64) bool {
	if ch, ok := clearedBy.Load(f); ok {
		ch.(chan [2]any) <- [2]any{server, upTo}
	}
	return false
}

func TestClearReleasesServer(t *testing.T) {
	w, b, ss := connected(t, nil)
	calls := make(chan [2]any, 4)
	clearedBy.Store(b.ev, calls)
	t.Cleanup(func() { clearedBy.Delete(b.ev) })
	c := b.conns["fake"]
	c.mu.Lock()
	notify := c.notify
	c.mu.Unlock()
	for i := 0; i < 500; i++ {
		notify(Notification{Method: "notifications/message", Time: time.Now(),
			Params: json.RawMessage(fmt.Sprintf(`{"level":"info","data":"line %d"}`, i))})
	}
	b.ev.send(EventView{Server: "fake", Kind: "stderr", Title: "stderr", Text: "warming up"})
	b.ev.send(EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: "5", Title: "tools/call",
		Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}`)})
	b.ev.send(floodBatch("fake", 0, 300)...)
	l, h := ss.logs, ss.history
	waitFor(t, "the messages, stderr and the call", func() bool {
		return len(l.all) == 500 && len(l.errs) == 1 && len(h.calls) == 1
	})
	var last uint64
	Sync(func() {
		b.ev.mu.Lock()
		last = b.ev.seq
		b.ev.mu.Unlock()
		w.inspector.onClear()
	})
	Sync(func() {
		if len(l.all) != 0 || len(l.shown) != 0 || len(l.errs) != 0 || l.list.Length() != 0 || l.stderr.Length() != 0 {
			t.Errorf("after Clear the Logs screen holds %d messages (%d shown), %d stderr lines", len(l.all), len(l.shown), len(l.errs))
		}
		if len(h.calls) != 0 || len(h.bySeq) != 0 || len(h.byRun) != 0 || len(h.rows) != 0 || len(h.box.Objects) != 0 {
			t.Errorf("after Clear the History holds %d calls, %d rows", len(h.calls), len(h.box.Objects))
		}
		if n := len(w.inspector.cache); n != 0 {
			t.Errorf("after Clear the inspector caches %d events", n)
		}
	})
	select {
	case got := <-calls:
		if got != [2]any{"fake", last} {
			t.Errorf("the log was asked to clear %v, want fake up to %d", got, last)
		}
	case <-time.After(time.Minute): // a hang bound, not a timing assertion
		t.Fatal("the window did not ask the log to drop the server's events")
	}
	// what comes after Clear is shown again
	b.ev.send(EventView{Server: "fake", Kind: "stderr", Title: "stderr", Text: "after"})
	Sync(func() {
		if len(l.errs) != 1 || l.errs[0] != "after" {
			t.Errorf("stderr after Clear = %q", l.errs)
		}
	})
}

// rowTexts are the titles and badges of the inspector's rows in view,
// top to bottom.
func rowTexts(in *inspector) (titles, badges []string) {
	walkVisible(in.list, func(o fyne.CanvasObject) {
		if c, ok := o.(*fyne.Container); ok {
			if _, ok := c.Layout.(*eventRow); ok {
				title, _, b, _ := rowParts(c.Objects)
				titles = append(titles, title.text)
				badges = append(badges, b.text)
			}
		}
	})
	return titles, badges
}

// A flood the inspector follows is drawn in the rows it has: each redraw
// that refreshed the whole list made its rows anew (Fyne's List drops the
// rows it keeps for reuse on a Refresh), some hundred rows a second whose
// renderers Fyne's cache keeps for a minute, 56–75 MB of heap still held
// after a 60 s flood and its Clear. The rows still show the newest events,
// and a row in view whose event changed is drawn again.
func TestFloodDrawsNewRowsInTheRowsItHas(t *testing.T) {
	// Fyne keeps the rows for reuse in a sync.Pool, which a collection
	// empties: without one the rows made are the rows the list needs
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	w, b, _ := connected(t, nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1280, 800)) })
	in := w.inspector
	batch := func(from, n int) []EventView {
		evs := floodBatch("fake", from, n)
		for i := range evs {
			evs[i].Title = fmt.Sprintf("flood line %d", from+i)
		}
		return evs
	}
	sent := 0
	flood := func(batches, per int) {
		t.Helper()
		for range batches {
			b.ev.send(batch(sent, per)...)
			sent += per
			want := fmt.Sprintf("flood line %d", sent-1)
			waitFor(t, "the batch drawn", func() bool {
				titles, _ := rowTexts(in)
				return !in.later.pending && len(titles) > 0 && titles[len(titles)-1] == want
			})
		}
	}
	flood(3, 100) // the list fills and scrolls
	var made, inView int
	Sync(func() {
		titles, _ := rowTexts(in)
		made, inView = in.rowsMade, len(titles)
	})
	flood(40, 100)
	Sync(func() {
		titles, _ := rowTexts(in)
		// a redraw that makes its rows anew makes every row in view
		// again, 40×inView; drawn in the rows kept for reuse, none but
		// those a Put into the pool lost (the race detector has sync.Pool
		// drop a quarter of them on purpose, some 10×inView)
		if n := in.rowsMade - made; n > 40*inView/2 {
			t.Errorf("40 redraws of a flood made %d rows for the %d in view: the list made its rows anew", n, inView)
		}
		// the rows in view are the newest, in order
		for i, title := range titles {
			if want := fmt.Sprintf("flood line %d", sent-len(titles)+i); title != want {
				t.Fatalf("row %d of %d in view reads %q, want %q", i+1, len(titles), title, want)
			}
		}
	})

	// a request in view gets its answer: its row says so
	b.ev.send(EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: "7", Title: "tools/call #7",
		Raw: json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"flood"}}`)})
	b.ev.mu.Lock()
	seq := b.ev.seq
	b.ev.mu.Unlock()
	flood(1, 2)
	sendUpdated(b.ev, EventView{Seq: seq, Server: "fake", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: "7",
		Title: "tools/call #7", Badge: "ok 3ms", BadgeLevel: "ok"})
	flood(1, 2)
	Sync(func() {
		titles, badges := rowTexts(in)
		for i, title := range titles {
			if title == "tools/call #7" {
				if badges[i] != "ok 3ms" {
					t.Errorf("the request's row in view shows badge %q after its answer, want %q", badges[i], "ok 3ms")
				}
				return
			}
		}
		t.Errorf("the request's row is not in view: %q", titles)
	})
}

// logRows returns the texts of the rows in view of a Logs list.
func logRows(list *widget.List) []string {
	var got []string
	walkVisible(list, func(o fyne.CanvasObject) {
		c, ok := o.(*fyne.Container)
		if !ok || len(c.Objects) != 2 {
			return
		}
		if t, ok := c.Objects[0].(*rowText); ok && !t.caption { // not the time
			got = append(got, t.Text())
		}
	})
	return got
}

// stderrRows returns the lines in view of the stderr list.
func stderrRows(list *widget.List) []string {
	var got []string
	walkVisible(list, func(o fyne.CanvasObject) {
		if t, ok := o.(*rowText); ok {
			got = append(got, t.Text())
		}
	})
	return got
}

// A flood of log messages and of stderr lines is drawn in the rows the
// Logs screen's lists have, as the inspector's is
// (TestFloodDrawsNewRowsInTheRowsItHas): the newest in view, in order.
func TestLogsFloodDrawsNewRowsInTheRowsItHas(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // see TestFloodDrawsNewRowsInTheRowsItHas
	w, b, ss := connected(t, nil)
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		ss.selectTab("Logs")
	})
	l := ss.logs
	c := b.conns["fake"]
	c.mu.Lock()
	notify := c.notify
	c.mu.Unlock()
	sent := 0
	messages := func(batches, per int) {
		t.Helper()
		for range batches {
			for range per {
				notify(Notification{Method: "notifications/message", Time: time.Now(),
					Params: json.RawMessage(fmt.Sprintf(`{"level":"info","data":"line %d"}`, sent))})
				sent++
			}
			want := fmt.Sprintf("line %d", sent-1)
			waitFor(t, "the batch drawn", func() bool {
				rows := logRows(l.list)
				return !l.later.pending && !l.dirty && len(rows) > 0 && rows[len(rows)-1] == want
			})
		}
	}
	check := func(what string, rows []string, last int) {
		t.Helper()
		if len(rows) < 5 {
			t.Fatalf("%s: %d rows in view", what, len(rows))
		}
		for i, r := range rows {
			if want := fmt.Sprintf("line %d", last-len(rows)+1+i); r != want {
				t.Fatalf("%s: row %d of %d in view reads %q, want %q", what, i+1, len(rows), r, want)
			}
		}
	}
	// a flood drawn in the rows the list has, the newest in view
	drawnInPlace := func(what string, flood func(batches, per int), rows func() []string, sent *int) {
		t.Helper()
		flood(3, 100) // the list fills and scrolls
		var made, inView int
		Sync(func() { made, inView = l.rowsMade, len(rows()) })
		flood(20, 100)
		Sync(func() {
			if n := l.rowsMade - made; n > 20*inView/2 {
				t.Errorf("20 redraws of a flood of %s made %d rows for the %d in view: the list made its rows anew", what, n, inView)
			}
			check(what, rows(), *sent-1)
		})
	}
	drawnInPlace("messages", messages, func() []string { return logRows(l.list) }, &sent)

	Sync(func() { l.tabs.SelectIndex(1) }) // stderr
	lines := 0
	stderr := func(batches, per int) {
		t.Helper()
		for range batches {
			evs := make([]EventView, per)
			for j := range evs {
				evs[j] = EventView{Server: "fake", Kind: "stderr", Title: "stderr", Text: fmt.Sprintf("line %d", lines)}
				lines++
			}
			b.ev.send(evs...)
			want := fmt.Sprintf("line %d", lines-1)
			waitFor(t, "the stderr batch drawn", func() bool {
				rows := stderrRows(l.stderr)
				return !l.later.pending && !l.errsDirty && len(rows) > 0 && rows[len(rows)-1] == want
			})
		}
	}
	drawnInPlace("stderr lines", stderr, func() []string { return stderrRows(l.stderr) }, &lines)
}

// The Logs screen's empty views say why they are empty: before a level is
// set, after one was set and nothing came, when a filter hides every
// message, and for stderr (#12: it kept saying "Set a level…" after one
// was set, and the stderr view was blank).
func TestLogsEmptyStatesSayWhy(t *testing.T) {
	_, b, ss := connected(t, nil)
	l := ss.logs
	Sync(func() { ss.selectTab("Logs") })
	says := func(label *widget.Label, want string) {
		t.Helper()
		Sync(func() {
			if !label.Visible() || !strings.Contains(label.Text, want) {
				t.Errorf("the empty view reads %q (shown: %v), want %q", label.Text, label.Visible(), want)
			}
		})
	}
	says(l.empty, "Set a level")
	says(l.errsEmpty, "Nothing on stderr yet")
	Sync(func() { l.level.SetSelected("warning") })
	waitFor(t, "the level set", func() bool { return l.levelSet == "warning" })
	says(l.empty, "No log messages yet at warning or above")
	Sync(func() {
		ss.onNotification(Notification{Method: "notifications/message", Time: time.Now(),
			Params: json.RawMessage(`{"level":"warning","data":"disk almost full"}`)})
		l.flush()
	})
	waitFor(t, "the message shown", func() bool { return !l.empty.Visible() && len(l.shown) == 1 })
	Sync(func() { l.search.SetText("no such words") })
	says(l.empty, "No message matches")
	b.ev.send(EventView{Server: "fake", Kind: "stderr", Title: "stderr", Text: "listening"})
	waitFor(t, "the stderr line", func() bool { return len(l.errs) == 1 && !l.later.pending })
	Sync(func() {
		if l.errsEmpty.Visible() {
			t.Error("the stderr view still says it is empty with a line in it")
		}
	})
}
