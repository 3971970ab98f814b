package ui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// logSource is an EventSource over a real core/events.Log, as cmd's
// adapter is.
type logSource struct{ l *events.Log }

func view(e events.Event) EventView {
	v := EventView{Seq: e.Seq, Time: e.Time, Server: e.Conn, Kind: string(e.Kind), Dir: string(e.Dir),
		Type: string(e.Type), ID: e.ID, Method: e.Method, Title: e.Title(), Badge: e.Badge(),
		Raw: e.Raw, Text: e.Text, Run: e.Run, Pair: e.Pair, Size: e.Size, Event: e}
	for _, c := range e.Categories() {
		v.Categories = append(v.Categories, string(c))
	}
	return v
}

func (s logSource) Subscribe(fn func(EventBatch)) func() {
	return s.l.Subscribe(func(b events.Batch) {
		var out EventBatch
		for _, e := range b.Events {
			out.Events = append(out.Events, view(e))
		}
		for _, e := range b.Updated {
			out.Updated = append(out.Updated, view(e))
		}
		fn(out)
	})
}

func (s logSource) After(seq uint64, max int) ([]EventView, error) {
	evs, err := s.l.After(seq, max)
	var out []EventView
	for _, e := range evs {
		out = append(out, view(e))
	}
	return out, err
}

func (s logSource) Get(seq uint64) (EventView, bool) {
	e, ok := s.l.Get(seq)
	return view(e), ok
}

func (s logSource) Search(ctx context.Context, q EventQuery, found func([]uint64)) (uint64, error) {
	return s.l.Search(ctx, events.Query{Text: q.Text, Conn: q.Server, Category: events.Category(q.Category), After: q.After}, found)
}

func (s logSource) WriteTrace(w io.Writer, server string) error { return nil }

// scaleEvent is event i of a busy session of server "big".
func scaleEvent(i int) events.Event {
	id := fmt.Sprint(i)
	if i%2 == 0 {
		return events.Event{Conn: "big", Kind: events.KindMessage, Dir: events.DirOut,
			Raw: []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"message":"m` + id + `"}}}`)}
	}
	return events.Event{Conn: "big", Kind: events.KindMessage, Dir: events.DirIn,
		Raw: []byte(`{"jsonrpc":"2.0","id":` + fmt.Sprint(i-1) + `,"result":{"content":[{"type":"text","text":"Echo: m` + fmt.Sprint(i-1) + `"}]}}`)}
}

// TestInspectorScale: over a real log of 120,000 events (most of them
// sealed and spilled to disk) the inspector lists every row, reading
// them by Seq; a search finds an old event's payload among them, a new
// query replaces the one before, and live events keep arriving.
func TestInspectorScale(t *testing.T) {
	const n = 120_000
	l := events.New(&events.Options{MaxBytes: 2 << 20, SpillDir: t.TempDir()})
	defer l.Close()
	for i := 0; i < n; i++ {
		e := scaleEvent(i)
		if i == 20 {
			e.Raw = []byte(`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"echo","arguments":{"message":"an Old Needle"}}}`)
		}
		l.Append(e)
	}
	if r := l.Retention(); r.Spilled == 0 || r.Events != n {
		t.Fatalf("the log: %+v", r)
	}
	b := newFakeBackend("big")
	w := newTestWindow(t, b, nil)
	var in *inspector
	Sync(func() {
		in = newInspector(w, logSource{l})
		tw := test.NewTempWindow(t, in.buildUI())
		tw.Resize(tw.Canvas().Size().Max(in.obj.MinSize()).AddWidthHeight(0, 400))
		in.setServer("big")
	})
	defer Sync(in.stop)
	shownWhen(t, in, "every row", func(got []string) bool { return len(got) == n })
	Sync(func() {
		if len(in.cache) > rowCacheSize {
			t.Errorf("the inspector holds %d events, want at most %d", len(in.cache), rowCacheSize)
		}
		if got := in.counters.Text; !strings.Contains(got, fmt.Sprintf("%d events", n)) {
			t.Errorf("counters %q", got)
		}
		if rows := texts(in.list); !strings.Contains(rows, "result #119998 · tools/call") {
			t.Errorf("the newest rows are not on screen:\n%s", rows)
		}
		in.search.SetText("m1")         // many hits: cancelled by the next query
		in.search.SetText("OLD NEEDLE") // case-insensitive, in a spilled payload
	})
	shownWhen(t, in, "the old event found", func(got []string) bool { return len(got) == 1 && got[0] == "tools/call #20" })
	Sync(func() {
		if in.rowSeq(0) != 21 {
			t.Errorf("row 0 is event %d, want 21", in.rowSeq(0))
		}
		in.list.Select(0)
		if d := in.detail; d.cur.Seq != 21 || !strings.Contains(string(d.cur.Raw), "an Old Needle") || !strings.Contains(texts(d.obj), "tools/call #20") || !strings.Contains(texts(d.obj), "Request") {
			t.Errorf("the details show event %d: %s", d.cur.Seq, d.cur.Raw)
		}
		in.closeDetail()
	})
	// A live event that matches joins the rows; one that does not, not.
	l.Append(events.Event{Conn: "big", Kind: events.KindStderr, Text: "another old needle"})
	l.Append(events.Event{Conn: "big", Kind: events.KindStderr, Text: "nothing"})
	shownWhen(t, in, "the live match", func(got []string) bool {
		return len(got) == 2 && got[1] == "stderr · another old needle"
	})
}

// TestEventMemorySetting: the window gives the event log the remembered
// memory bound (256 MB unless Settings → Event log memory… changed it).
func TestEventMemorySetting(t *testing.T) {
	b := newFakeBackend("big")
	w := newTestWindow(t, b, nil)
	mem := func() int64 { b.ev.mu.Lock(); defer b.ev.mu.Unlock(); return b.ev.memory }
	Sync(w.applyEventMemory)
	if got := mem(); got != 256<<20 {
		t.Errorf("default bound %d, want 256 MB", got)
	}
	Sync(func() {
		w.app.Preferences().SetInt(prefEventMemMB, 1024)
		w.applyEventMemory()
	})
	if got := mem(); got != 1024<<20 {
		t.Errorf("bound %d after choosing 1024 MB", got)
	}
}
