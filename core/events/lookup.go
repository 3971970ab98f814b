package events

import (
	"iter"
	"slices"
)

// Readers that want one connection's events, or the newest event that
// matches, walk the log with Scan or ScanBackward instead of Events: a
// sealed chunk is decoded only when its index (the connection of each
// of its events) holds an event of the connection asked for, and a
// backward walk that stops at its first hit decodes nothing older.

// span is a run of sequence numbers read back at once: a sealed chunk,
// or the unsealed tail.
type span struct{ lo, hi uint64 }

// spans returns the runs of the log that may hold events of conn ("":
// any), oldest first, up to the last event appended now.
func (l *Log) spans(conn string) []span {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.first > l.last {
		return nil
	}
	idx, known := l.connIdx[conn]
	var out []span
	for _, c := range l.chunks {
		if conn != "" && (!known || !slices.Contains(c.conn, idx)) {
			continue // no event of the chunk is of conn
		}
		out = append(out, span{max(c.first, l.first), c.last()})
	}
	if l.hotFirst <= l.last {
		out = append(out, span{max(l.hotFirst, l.first), l.last})
	}
	return out
}

// Scan returns the events of connection conn ("": every connection) that
// the log holds, oldest first, up to the last event appended when the
// walk starts. Chunks holding no event of conn are not decoded, and the
// walk reads no further than the loop goes. Events evicted or cleared
// while it walks are left out.
func (l *Log) Scan(conn string) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		for _, s := range l.spans(conn) {
			for _, e := range l.read(s.lo, s.hi) {
				if (conn == "" || e.Conn == conn) && !yield(e) {
					return
				}
			}
		}
	}
}

// ScanBackward is Scan newest first: a lookup of the latest event that
// matches stops decoding at its hit.
func (l *Log) ScanBackward(conn string) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		sp := l.spans(conn)
		for i := len(sp) - 1; i >= 0; i-- {
			evs := l.read(sp[i].lo, sp[i].hi)
			for j := len(evs) - 1; j >= 0; j-- {
				if (conn == "" || evs[j].Conn == conn) && !yield(evs[j]) {
					return
				}
			}
		}
	}
}

// EventsOf returns a copy of the events of connection conn the log
// holds, in order, decoding only the sealed chunks that hold one.
func (l *Log) EventsOf(conn string) []Event {
	return slices.Collect(l.Scan(conn))
}
