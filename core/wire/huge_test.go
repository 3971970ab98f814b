package wire

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// An SSE event of one 8 MB data line is the line readLine gathered, not
// a copy of it: reading it allocates the line once from Go's heap (the
// fragments wait in a stage mapped apart from it), where joining its data
// into a buffer of its own made it 3x and keeping the fragments on the
// heap 2x (#17).
func TestSSEHugeEventOneCopy(t *testing.T) {
	const n = 8 << 20
	data := strings.Repeat("x", n)
	stream := "event: message\ndata: " + data + "\n\n"
	r := newSSEReader(strings.NewReader(stream), 0)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ev, err := r.next()
	runtime.ReadMemStats(&after)
	if err != nil || len(ev.Data) != n || !bytes.Equal(ev.Data[:3], []byte("xxx")) {
		t.Fatalf("event of %d bytes, err %v", len(ev.Data), err)
	}
	if got, want := after.TotalAlloc-before.TotalAlloc, uint64(n+1<<20); got > want {
		t.Fatalf("reading an %d-byte event allocated %d bytes, want at most %d", n, got, want)
	}
}

// A data field without a colon is an empty line of data, not none.
func TestSSEDataWithoutColon(t *testing.T) {
	ev, err := newSSEReader(strings.NewReader("data\n\n"), 0).next()
	if err != nil || ev.Data == nil || len(ev.Data) != 0 {
		t.Fatalf("data %q (nil %v), err %v", ev.Data, ev.Data == nil, err)
	}
}
