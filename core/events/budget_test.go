package events

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
)

// bigNote returns a notifications/message of about size bytes.
func bigNote(size int) []byte {
	head := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`
	b := make([]byte, 0, size)
	b = append(b, head...)
	b = append(b, bytes.Repeat([]byte("x"), size-len(head)-3)...)
	return append(b, `"}}`...)
}

func TestByteBudgetDropsOldest(t *testing.T) {
	l, _ := newTestLog(&Options{MaxBytes: 10_000})
	req := l.Append(request("a", DirOut, "1", "tools/call")) // waiting: stays pairable
	for i := 0; i < 20; i++ {
		l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: bigNote(1_000)})
	}
	held := 0
	for _, e := range l.Events() {
		held += len(e.Raw) + len(e.Text)
	}
	if held > 10_000 || l.Len() != 10 {
		t.Fatalf("%d events of %d bytes held, want 10 within the 10000-byte budget", l.Len(), held)
	}
	if s := l.Stats(); s.Dropped != 11 || s.Events != 21 {
		t.Errorf("stats %+v, want 11 dropped of 21", s)
	}
	_, err := l.After(0, 0)
	var de *DroppedError
	if !errors.As(err, &de) || de.From != 1 || de.To != 11 || de.Count != 11 {
		t.Errorf("After(0): %v, want seq 1–11 dropped", err)
	}
	// The answer to the evicted request still pairs and finds its method.
	e := mustGet(t, l, l.Append(result("a", DirIn, "1")))
	if e.Pair != req || e.Title() != "result #1 · tools/call" {
		t.Errorf("answer to an evicted request: pair %d, %q", e.Pair, e.Title())
	}
	// An event larger than the whole budget is kept alone.
	big := l.Append(Event{Conn: "a", Kind: KindStderr, Text: string(bytes.Repeat([]byte("y"), 50_000))})
	if l.Len() != 1 || mustGet(t, l, big).Text == "" {
		t.Errorf("after an oversize event %d events are held, want it alone", l.Len())
	}
	l.Clear()
	for i := 0; i < 9; i++ {
		l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: bigNote(1_000)})
	}
	if l.Len() != 9 {
		t.Errorf("after Clear the budget starts afresh: %d events held, want 9", l.Len())
	}
}

// heap returns the bytes allocated on the heap and still in use after a
// collection.
func heap() (inUse, total uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.TotalAlloc
}

// TestByteBudgetBoundsMemory: 100 notifications of 1 MB with a 10 MB
// budget leave about 10 MB in the heap, not 100 MB.
func TestByteBudgetBoundsMemory(t *testing.T) {
	const mb = 1 << 20
	l := New(&Options{MaxBytes: 10 * mb})
	before, _ := heap()
	for i := 0; i < 100; i++ {
		l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Type: MsgNotification, Method: "notifications/message", Raw: bigNote(mb)})
	}
	after, _ := heap()
	if grown := int64(after) - int64(before); grown > 15*mb {
		t.Errorf("the log holds %d MB after 100 × 1 MB with a 10 MB budget", grown/mb)
	}
	if l.Len() > 10 || l.Stats().Dropped < 90 {
		t.Errorf("%d events held, %d dropped", l.Len(), l.Stats().Dropped)
	}
	runtime.KeepAlive(l)
}

// TestLargeMessageCopies: recording, reading, searching (a non-ASCII
// query too), counting and tracing one 100 MB message allocate a small
// fraction of its size — the log never copies the bytes (the trace writer
// streams them).
func TestLargeMessageCopies(t *testing.T) {
	size := 100 << 20
	if raceEnabled {
		size = 8 << 20
	}
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`)
	raw = append(raw, bytes.Repeat([]byte("abcdefgh"), (size-len(raw))/8)...)
	raw = append(raw, `"}],"isError":false}}`...)
	l := New(nil)
	l.Append(request("a", DirOut, "1", "tools/call"))
	_, total0 := heap()
	seq := l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Type: MsgResult, ID: "1", Raw: raw})
	e, _ := l.Get(seq)
	evs, _ := l.After(0, 0)
	var st Stats
	st.Add(&e)
	matched := Match(e, "ABCDEFGH") && Match(e, "result #1") && !Match(e, "wörld")
	if err := l.WriteTrace(io.Discard, TraceMeta{}); err != nil {
		t.Fatal(err)
	}
	_, total1 := heap()
	if alloc := total1 - total0; alloc > uint64(size)/10 {
		t.Errorf("one %d MB message cost %d MB of allocations, want under a tenth of its size", size>>20, alloc>>20)
	}
	if !matched || len(evs) != 2 || e.Pair != 1 || st.Events != 1 || st.Errors != 0 {
		t.Errorf("matched %v, %d events, pair %d, stats %+v", matched, len(evs), e.Pair, st)
	}
}

func TestStatsAdd(t *testing.T) {
	l, _ := newTestLog(nil)
	var want Stats
	for _, e := range []Event{
		request("a", DirOut, "1", "tools/call"),
		{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}`)},
		request("a", DirOut, "2", "tools/list"),
		errorResp("a", DirIn, "2"),
		{Conn: "a", Kind: KindError, Text: "exited"},
		{Conn: "a", Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://x/mcp", Status: 500}},
		{Conn: "a", Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://x/mcp", Status: 200}},
	} {
		got := mustGet(t, l, l.Append(e))
		want.Add(&got)
	}
	if want != (Stats{Events: 7, Requests: 2, ToolCalls: 1, Errors: 4}) || want != l.Stats() {
		t.Errorf("Stats.Add counted %+v, the log %+v", want, l.Stats())
	}
}
