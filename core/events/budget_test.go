package events

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
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

// noise returns n bytes of hex that do not compress.
func noise(r *rand.Rand, n int) string {
	b := make([]byte, n/2)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return hex.EncodeToString(b)
}

// TestByteBudgetDropsOldest: without spilling, the oldest events beyond
// the memory bound are dropped and counted, waiting requests stay
// pairable, and an event larger than the bound is kept alone.
func TestByteBudgetDropsOldest(t *testing.T) {
	const bound = 100_000
	l, _ := newTestLog(&Options{MaxBytes: bound, NoSpill: true})
	r := rand.New(rand.NewPCG(1, 2))
	req := l.Append(request("a", DirOut, "1", "tools/call")) // waiting: stays pairable
	for i := 0; i < 200; i++ {
		l.Append(Event{Conn: "a", Kind: KindStderr, Text: noise(r, 1_000)})
	}
	st := l.Stats()
	if m := l.Retention().Memory; m > bound || st.Dropped == 0 || uint64(l.Len())+st.Dropped != 201 || st.Events != 201 {
		t.Fatalf("%d events held in %d bytes, stats %+v; want some of 201 dropped within %d bytes", l.Len(), m, st, bound)
	}
	_, err := l.After(0, 0)
	var de *DroppedError
	if !errors.As(err, &de) || de.From != 1 || de.Count != st.Dropped {
		t.Errorf("After(0): %v, want seq 1–%d dropped", err, st.Dropped)
	}
	// The answer to the evicted request still pairs and finds its method.
	e := mustGet(t, l, l.Append(result("a", DirIn, "1")))
	if e.Pair != req || e.Title() != "result #1 · tools/call" {
		t.Errorf("answer to an evicted request: pair %d, %q", e.Pair, e.Title())
	}
	// An event larger than the whole bound is kept alone.
	big := l.Append(Event{Conn: "a", Kind: KindStderr, Text: noise(r, 500_000)})
	if l.Len() != 1 || mustGet(t, l, big).Text == "" {
		t.Errorf("after an oversize event %d events are held, want it alone", l.Len())
	}
	l.Clear()
	for i := 0; i < 9; i++ {
		l.Append(Event{Conn: "a", Kind: KindStderr, Text: noise(r, 1_000)})
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
// budget leave about 10 MB in the heap, not 100 MB, and all are kept
// (sealed, compressed, spilled when needed).
func TestByteBudgetBoundsMemory(t *testing.T) {
	const mb = 1 << 20
	l := New(&Options{MaxBytes: 10 * mb, SpillDir: t.TempDir()})
	defer l.Close()
	before, _ := heap()
	for i := 0; i < 100; i++ {
		l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Type: MsgNotification, Method: "notifications/message", Raw: bigNote(mb)})
	}
	after, _ := heap()
	if grown := int64(after) - int64(before); grown > 15*mb {
		t.Errorf("the log holds %d MB after 100 × 1 MB with a 10 MB budget", grown/mb)
	}
	if r := l.Retention(); l.Len() != 100 || r.Memory > 10*mb {
		t.Errorf("%d events held, retention %+v", l.Len(), r)
	}
	if e, ok := l.Get(1); !ok || !bytes.Equal(e.Raw, bigNote(mb)) {
		t.Errorf("the first notification reads back as %v, %d bytes", ok, len(e.Raw))
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
