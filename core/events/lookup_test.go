package events

import (
	"slices"
	"testing"
)

// decoded returns the chunks the log's cache holds: those decoded since
// the cache was last reset.
func decoded(l *Log) []*chunk {
	l.cache.mu.Lock()
	defer l.cache.mu.Unlock()
	var out []*chunk
	for _, it := range l.cache.items {
		out = append(out, it.c)
	}
	return out
}

// TestScanReadsOnlyItsConnection: with events sealed, spilled and
// unsealed, Scan, ScanBackward and EventsOf give exactly a connection's
// events (as Events holds them, patched outcomes and pairs included, in
// order and newest first), decode only the sealed chunks holding one of
// them, and a backward walk stopped at its first hit decodes nothing
// when the hit is unsealed.
func TestScanReadsOnlyItsConnection(t *testing.T) {
	l := New(&Options{MaxBytes: 1 << 20, SpillDir: t.TempDir()})
	t.Cleanup(func() { l.Close() })
	// "a" only in the first 3,000 and the last 500 events, "b" throughout.
	const n = 30000
	for i := 0; i < n; i++ {
		c := "b"
		if i < 3000 && i%2 == 0 || i >= n-500 && i%5 == 0 {
			c = "a"
		}
		l.Append(connEvent(c, i))
	}
	if r := l.Retention(); r.Spilled == 0 || r.Sealed == r.Spilled {
		t.Fatalf("want spilled, sealed in memory and unsealed events, got %+v", r)
	}
	var wantA, wantB []Event
	for _, e := range l.Events() {
		switch e.Conn {
		case "a":
			wantA = append(wantA, e)
		case "b":
			wantB = append(wantB, e)
		}
	}
	if len(wantA) == 0 || len(wantB) == 0 {
		t.Fatal("no events of a or b")
	}
	seqs := func(evs []Event) []uint64 {
		var out []uint64
		for _, e := range evs {
			out = append(out, e.Seq)
		}
		return out
	}
	same := func(what string, got, want []Event) {
		t.Helper()
		if !slices.Equal(seqs(got), seqs(want)) {
			t.Fatalf("%s: %d events, want %d", what, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Pair != w.Pair || (g.Outcome == nil) != (w.Outcome == nil) || g.Outcome != nil && *g.Outcome != *w.Outcome || string(g.Raw) != string(w.Raw) {
				t.Fatalf("%s: event %d differs from Events': %+v, want %+v", what, g.Seq, g, w)
			}
		}
	}

	l.cache.reset()
	same("EventsOf(a)", l.EventsOf("a"), wantA)
	l.mu.Lock()
	idx := l.connIdx["a"]
	l.mu.Unlock()
	for _, c := range decoded(l) {
		if !slices.Contains(c.conn, idx) {
			t.Errorf("Scan(a) decoded the chunk of seqs %d–%d, which holds no event of a", c.first, c.last())
		}
	}
	if len(decoded(l)) == 0 {
		t.Error("Scan(a) decoded no chunk, but a's first events are sealed")
	}
	same("EventsOf(b)", l.EventsOf("b"), wantB)
	same("Scan()", slices.Collect(l.Scan("")), l.Events())

	back := slices.Collect(l.ScanBackward("a"))
	slices.Reverse(back)
	same("ScanBackward(a)", back, wantA)

	l.cache.reset()
	newest := wantA[len(wantA)-1].Seq
	for e := range l.ScanBackward("a") {
		if e.Seq != newest {
			t.Fatalf("ScanBackward(a) starts at %d, want a's newest %d", e.Seq, newest)
		}
		break
	}
	// At most the chunk holding the hit is decoded, nothing older.
	for _, c := range decoded(l) {
		if c.last() < newest {
			t.Errorf("a backward walk stopped at %d decoded the older chunk of seqs %d–%d", newest, c.first, c.last())
		}
	}
	if got := l.EventsOf("nobody"); len(got) != 0 {
		t.Errorf("EventsOf(nobody) = %d events", len(got))
	}
}

// TestScanAfterClearConn: events ClearConn removed are not walked.
func TestScanAfterClearConn(t *testing.T) {
	l := New(&Options{MaxBytes: 1 << 20, SpillDir: t.TempDir()})
	t.Cleanup(func() { l.Close() })
	for i := 0; i < 12000; i++ {
		c := "a"
		if i%2 == 1 {
			c = "b"
		}
		l.Append(connEvent(c, i))
	}
	l.ClearConn("a", 10000)
	for e := range l.Scan("a") {
		if e.Seq <= 10000 {
			t.Fatalf("Scan(a) walked event %d, which ClearConn removed", e.Seq)
		}
	}
	var got []uint64
	for e := range l.ScanBackward("") {
		got = append(got, e.Seq)
	}
	if len(got) != l.Len() {
		t.Fatalf("ScanBackward() walked %d events, the log holds %d", len(got), l.Len())
	}
}
