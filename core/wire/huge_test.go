package wire

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
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

// A body of unknown length (a chunked response) is read into one buffer
// of its size, byte for byte across the stage's chunks, and no further
// than max; io.ReadAll's growing buffer allocated 3.2x a 50 MB body (#17).
// A small body is read as io.ReadAll reads it.
func TestReadAllStaged(t *testing.T) {
	const n = 16*stageChunk + 12345
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i % 251)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := readAllStaged(iotest.OneByteReader(bytes.NewReader(src[:3])), n)
	if err != nil || string(got) != string(src[:3]) {
		t.Fatalf("a 3-byte body read one byte at a time: %q, %v", got, err)
	}
	got, err = readAllStaged(bytes.NewReader(src), n)
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("a %d-byte body read as %d bytes (equal %v), err %v", n, len(got), bytes.Equal(got, src), err)
	}
	// the body once, and the garbage of its first 256 KB, read as
	// io.ReadAll reads a small body
	if alloc, want := after.TotalAlloc-before.TotalAlloc, uint64(n+2<<20); alloc > want {
		t.Fatalf("reading a %d-byte body allocated %d bytes, want at most %d", n, alloc, want)
	}
	if got, err := readAllStaged(bytes.NewReader(src), 1000); err != nil || !bytes.Equal(got, src[:1000]) {
		t.Fatalf("a body read up to 1000 bytes: %d bytes, %v", len(got), err)
	}
	if got, err := readAllStaged(bytes.NewReader(src[:firstChunk]), n); err != nil || !bytes.Equal(got, src[:firstChunk]) {
		t.Fatalf("a body of exactly the first chunk: %d bytes, %v", len(got), err)
	}
	if got, err := readAllStaged(bytes.NewReader(src[:firstChunk+1]), n); err != nil || !bytes.Equal(got, src[:firstChunk+1]) {
		t.Fatalf("a body one byte past the first chunk: %d bytes, %v", len(got), err)
	}
	if _, err := readAllStaged(io.MultiReader(bytes.NewReader(src), iotest.ErrReader(io.ErrUnexpectedEOF)), n+1); err != io.ErrUnexpectedEOF {
		t.Fatalf("a read failing after the first chunk: %v", err)
	}
	if _, err := readAllStaged(iotest.ErrReader(io.ErrUnexpectedEOF), n); err != io.ErrUnexpectedEOF {
		t.Fatalf("a failed read: %v", err)
	}
}
