package events

import (
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// benchMessages builds n request/response pairs with distinct ids.
func benchMessages(n int) (reqs, resps [][]byte) {
	for i := 0; i < n; i++ {
		id := strconv.Itoa(i)
		reqs = append(reqs, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello world"}}}`))
		resps = append(resps, []byte(`{"jsonrpc":"2.0","id":`+id+`,"result":{"content":[{"type":"text","text":"Echo: hello world"}]}}`))
	}
	return reqs, resps
}

// BenchmarkAppend appends a request and its response per op (2 events,
// both derived from Raw and paired).
func BenchmarkAppend(b *testing.B) {
	reqs, resps := benchMessages(4096)
	l := New(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i & 4095
		l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirOut, Raw: reqs[k]})
		l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirIn, Raw: resps[k]})
	}
}

// BenchmarkAppendBigResult appends a request and a 1 MB response.
func BenchmarkAppendBigResult(b *testing.B) {
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x"}}`)
	resp := []byte(`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"file:///x","text":"` + strings.Repeat("abcdefgh", 1<<17) + `"}]}}`)
	l := New(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(resp)))
	for i := 0; i < b.N; i++ {
		l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirOut, Raw: req})
		l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirIn, Raw: resp})
	}
}

// BenchmarkAfter reads 100 events from a random point of a full ring.
func BenchmarkAfter(b *testing.B) {
	reqs, resps := benchMessages(4096)
	l := New(nil)
	for i := 0; i < DefaultCapacity; i += 2 {
		l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirOut, Raw: reqs[i&4095]})
		l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirIn, Raw: resps[i&4095]})
	}
	last := l.LastSeq()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		seq := uint64(i*7919) % (last - 100)
		if evs, err := l.After(seq, 100); err != nil || len(evs) != 100 {
			b.Fatal(len(evs), err)
		}
	}
}

// BenchmarkAppendMillion appends 1,000,000 events (request, response,
// progress notification, stderr line) into a 100,000-event ring while a
// listener receives batches. ns/event and allocs/event are per event.
func BenchmarkAppendMillion(b *testing.B) {
	const n = 1_000_000
	reqs, resps := benchMessages(4096)
	prog := []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":50,"total":100}}`)
	b.ReportAllocs()
	var seen atomic.Uint64
	start := time.Now()
	for it := 0; it < b.N; it++ {
		l := New(&Options{Capacity: 100_000})
		cancel := l.Subscribe(func(bt Batch) {
			seen.Add(uint64(len(bt.Events)) + bt.Dropped)
		})
		for i := 0; i < n; i += 4 {
			k := (i / 4) & 4095
			l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirOut, Raw: reqs[k]})
			l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirIn, Raw: prog})
			l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirIn, Raw: resps[k]})
			l.Append(Event{Conn: "srv", Kind: KindStderr, Text: "working"})
		}
		if l.Len() != 100_000 || l.Stats().Dropped != n-100_000 {
			b.Fatalf("len %d stats %+v", l.Len(), l.Stats())
		}
		cancel()
	}
	b.StopTimer()
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*n), "ns/event")
}

// BenchmarkMatch searches a request's title and payload.
func BenchmarkMatch(b *testing.B) {
	e := Event{Kind: KindMessage, Type: MsgRequest, ID: "5", Method: "tools/call",
		Raw: []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"Hello World, this is a longer payload"}}}`)}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Match(e, "payload")
	}
}
