package events

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// connEvent is mixedEvent i on connection conn.
func connEvent(conn string, i int) Event {
	e := mixedEvent(i)
	e.Conn = conn
	return e
}

// searchAll returns the seqs Search finds for q.
func searchAll(t *testing.T, l *Log, q Query) []uint64 {
	t.Helper()
	var out []uint64
	if _, err := l.Search(context.Background(), q, func(s []uint64) { out = append(out, s...) }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestClearConnKeepsOthers: clearing one connection's events up to a
// sequence number, with events sealed, spilled and unsealed, removes
// exactly those: the other connection's events and the connection's
// later ones stay readable through Get, After, Search and a trace, and
// Len, Stats and Retention no longer count the removed ones.
func TestClearConnKeepsOthers(t *testing.T) {
	l := New(&Options{MaxBytes: 1 << 20, SpillDir: t.TempDir()})
	t.Cleanup(func() { l.Close() })
	conn := map[uint64]string{}
	const n = 40000
	for i := 0; i < n; i++ {
		c := "a"
		if i%3 == 0 {
			c = "b"
		}
		conn[l.Append(connEvent(c, i))] = c
	}
	if r := l.Retention(); r.Spilled == 0 || r.Sealed == r.Spilled {
		t.Fatalf("want spilled, sealed in memory and unsealed events, got %+v", r)
	}
	upTo := uint64(n - 2000) // in the unsealed tail: every kind of storage is cut
	before := l.Stats()
	var cleared, clearedReq uint64
	for s := uint64(1); s <= upTo; s++ {
		if conn[s] == "a" {
			cleared++
			if e, _ := l.Get(s); e.Type == MsgRequest {
				clearedReq++
			}
		}
	}
	l.ClearConn("a", upTo)

	for s := uint64(1); s <= n; s++ {
		e, ok := l.Get(s)
		gone := conn[s] == "a" && s <= upTo
		if ok == gone || ok && (e.Seq != s || e.Conn != conn[s]) {
			t.Fatalf("Get(%d) of %s = %v, %v; cleared up to %d", s, conn[s], e.Seq, ok, upTo)
		}
	}
	want := n - int(cleared)
	if got := l.Len(); got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
	if r := l.Retention(); r.Events != want {
		t.Errorf("Retention.Events = %d, want %d", r.Events, want)
	}
	st := l.Stats()
	if st.Events != before.Events-cleared || st.Requests != before.Requests-clearedReq || st.Dropped != 0 {
		t.Errorf("Stats after = %+v, before %+v, %d events and %d requests cleared", st, before, cleared, clearedReq)
	}
	// After pages over the holes: a trace holds every remaining event
	var seqs []uint64
	for after := uint64(0); ; {
		evs, err := l.After(after, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 {
			break
		}
		if len(evs) != 100 && evs[len(evs)-1].Seq != n {
			t.Fatalf("After(%d, 100) returned %d events ending at %d", after, len(evs), evs[len(evs)-1].Seq)
		}
		for _, e := range evs {
			seqs = append(seqs, e.Seq)
		}
		after = evs[len(evs)-1].Seq
	}
	if len(seqs) != want {
		t.Errorf("After read %d events, want %d", len(seqs), want)
	}
	if got := searchAll(t, l, Query{Conn: "a"}); len(got) != n-int(upTo)-(n-int(upTo)+2)/3 {
		t.Errorf("Search of a finds %d events", len(got))
	} else if got[0] <= upTo {
		t.Errorf("Search of a finds cleared event %d", got[0])
	}
	if got := searchAll(t, l, Query{Text: "hello"}); len(got) == 0 {
		t.Error("Search finds nothing")
	} else {
		for _, s := range got {
			if conn[s] == "a" && s <= upTo {
				t.Fatalf("Search finds cleared event %d", s)
			}
		}
	}
	if got := searchAll(t, l, Query{Conn: "b"}); len(got) != (n+2)/3 {
		t.Errorf("Search of b finds %d events, want %d", len(got), (n+2)/3)
	}
}

// TestClearConnReleasesChunks: clearing a connection whose events fill
// whole sealed chunks gives their memory back; what is left of the other
// connection stays intact.
func TestClearConnReleasesChunks(t *testing.T) {
	l := New(&Options{NoSpill: true})
	for i := 0; i < 20000; i++ {
		l.Append(connEvent("a", i))
	}
	for i := 0; i < 100; i++ {
		l.Append(connEvent("b", i))
	}
	mem := l.Retention().Memory
	l.ClearConn("a", l.LastSeq())
	r := l.Retention()
	if r.Events != 100 || r.Sealed != 0 || r.Memory > mem/10 {
		t.Fatalf("after clearing a: %+v, memory before %d", r, mem)
	}
	evs := l.Events()
	if len(evs) != 100 || evs[0].Conn != "b" || evs[0].Seq != 20001 {
		t.Fatalf("%d events left, first %+v", len(evs), evs[0])
	}
	// new events evict the removed ones' slots without counting them dropped
	for i := 0; i < 30000; i++ {
		l.Append(connEvent("b", i))
	}
	if st := l.Stats(); st.Dropped != 0 || l.Len() != 30100 || len(l.Events()) != 30100 {
		t.Errorf("after more events: %d held, %d read, stats %+v", l.Len(), len(l.Events()), st)
	}
}

// TestClearConnEvicts: with a small capacity the removed events' slots
// are reused and evictions count only events that were not removed.
func TestClearConnEvicts(t *testing.T) {
	l := New(&Options{Capacity: 6000})
	for i := 0; i < 5000; i++ {
		l.Append(connEvent("a", i))
		l.Append(connEvent("b", i))
		if i == 2000 {
			l.ClearConn("a", l.LastSeq())
		}
	}
	evs, err := l.After(0, 0)
	if l.Len() != len(evs) || l.Len() > 6000 {
		t.Fatalf("Len %d, After read %d (%v)", l.Len(), len(evs), err)
	}
	for _, e := range evs {
		if e.Conn == "a" && e.Seq <= 4002 {
			t.Fatalf("cleared event %d read back", e.Seq)
		}
	}
	if st := l.Stats(); st.Events != 10000-2001 {
		t.Errorf("Stats.Events = %d, want %d", st.Events, 10000-2001)
	}
}

// TestClearConnPairing: a request cleared before its answer leaves the
// answer paired (with the request's method) and the request gone;
// cancelling or closing the connection afterwards touches nothing
// removed; the other connection's requests pair as before.
func TestClearConnPairing(t *testing.T) {
	l := New(nil)
	req := l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirOut, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)})
	done := l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirOut, Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)})
	l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)})
	other := l.Append(Event{Conn: "b", Kind: KindMessage, Dir: DirOut, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
	l.ClearConn("a", other)
	// a listener from here on: a batch before the clear may hold what it
	// then removed (batches go out on their own timer)
	got := make(chan Batch, 100)
	cancel := l.Subscribe(func(b Batch) { got <- b })
	defer cancel()
	l.MarkCancelled("a", DirOut, "1")
	resp := l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)})
	late := l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)})
	l.Append(Event{Conn: "b", Kind: KindMessage, Dir: DirIn, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)})
	l.CloseConn("a")
	if _, ok := l.Get(req); ok {
		t.Error("the cleared request is still there")
	}
	if _, ok := l.Get(done); ok {
		t.Error("the cleared answered request is still there")
	}
	e, ok := l.Get(resp)
	if !ok || e.Pair != req || e.Method != "tools/call" || !e.Late || e.Unpaired {
		t.Errorf("the answer of the cleared, cancelled request: %+v", e)
	}
	if e, _ := l.Get(late); !e.Unpaired {
		t.Errorf("a second answer to a cleared answered request: %+v, want unpaired", e)
	}
	if e, _ := l.Get(other); e.Outcome == nil || e.Outcome.State != OK {
		t.Errorf("the other connection's request: %+v", e.Outcome)
	}
	if evs := l.Events(); len(evs) != 4 {
		t.Errorf("%d events left, want 4", len(evs))
	}
	// a listener reads nothing removed, updates included
	l.Append(Event{Conn: "b", Kind: KindStderr, Text: "last"})
	for {
		b := <-got
		for _, x := range append(b.Events, b.Updated...) {
			if x.Conn == "a" && x.Seq <= other {
				t.Fatalf("listener got cleared event %d (%s)", x.Seq, x.Title())
			}
		}
		if n := len(b.Events); n > 0 && b.Events[n-1].Text == "last" {
			break
		}
	}
}

// TestClearConnConcurrent: appending on other connections, reading and
// listening while a connection is cleared (for -race).
func TestClearConnConcurrent(t *testing.T) {
	l := New(&Options{MaxBytes: 1 << 20, SpillDir: t.TempDir()})
	t.Cleanup(func() { l.Close() })
	cancel := l.Subscribe(func(Batch) {})
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 20000; i++ {
			l.Append(connEvent("b", i))
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			l.After(0, 500)
			searchAll(t, l, Query{Text: "hello 7"})
		}
	}()
	for i := 0; i < 20000; i++ {
		l.Append(connEvent("a", i))
		if i%2000 == 0 {
			l.ClearConn("a", l.LastSeq())
		}
	}
	wg.Wait()
	l.ClearConn("a", l.LastSeq())
	for _, e := range l.Events() {
		if e.Conn == "a" {
			t.Fatalf("event %d of a left", e.Seq)
		}
	}
	if n := l.Len(); n != 20000 || len(l.Events()) != n {
		t.Errorf("Len %d, read %d, want 20000", n, len(l.Events()))
	}
}

// TestClearConnLeavesTheChunkCache: ClearConn reads every chunk it
// clears events from, to count what goes, and keeps none of them decoded:
// a chunk that also holds another connection's events stays, and cached
// it kept its removed events decoded in memory after the Clear (up to
// cacheBytes), pushing out what a reader had open.
func TestClearConnLeavesTheChunkCache(t *testing.T) {
	l := New(&Options{SpillDir: t.TempDir(), NoSpill: true})
	t.Cleanup(func() { l.Close() })
	line := strings.Repeat("progress ", 200)
	const n = 12 * chunkEvents
	for i := 0; i < n; i++ {
		c := "a"
		if i%16 == 0 { // every chunk holds some of b's events
			c = "b"
		}
		l.Append(Event{Conn: c, Kind: KindStderr, Text: line + strconv.Itoa(i)})
	}
	if r := l.Retention(); r.Sealed == 0 {
		t.Fatalf("want sealed events, got %+v", r)
	}
	l.ClearConn("a", l.LastSeq())
	if r := l.Retention(); r.Events != n/16 || r.Sealed == 0 {
		t.Fatalf("after the Clear: %+v, want b's %d events left, some sealed", r, n/16)
	}
	l.cache.mu.Lock()
	defer l.cache.mu.Unlock()
	if len(l.cache.items) != 0 || l.cache.bytes != 0 {
		t.Fatalf("%d decoded chunks (%d bytes) cached after a Clear when no reader opened one", len(l.cache.items), l.cache.bytes)
	}
}
