package wire

import "io"

// stage gathers the fragments of one line longer than the reader's
// buffer until its end is found, and then moves them into the line,
// which is allocated once at its exact size. The stage's memory is
// mapped apart from Go's heap where the system allows it (stage_mmap.go)
// and each chunk is returned to the system as soon as it was moved, so
// that a 50 MB line costs about 50 MB and a chunk at its peak, not the
// fragments and the line side by side (issue #17: a stdio line was
// briefly twice the message). The first chunk is smaller and from the
// heap: a message of a few hundred KB, common in a busy session, costs
// no mapping, no fresh pages and a copy that the collector soon reuses.
type stage struct {
	chunks [][]byte // filled in order, each to its cap
	n      int      // bytes held
}

const (
	// firstChunk is the size of a stage's first chunk, from the heap.
	firstChunk = 256 << 10
	// stageChunk is the size of each later chunk, mapped.
	stageChunk = 1 << 20
)

// room returns the chunk to fill next, adding one when the last is full.
func (s *stage) room() *[]byte {
	if len(s.chunks) == 0 {
		s.chunks = append(s.chunks, make([]byte, 0, firstChunk))
	} else if c := s.chunks[len(s.chunks)-1]; len(c) == cap(c) {
		s.chunks = append(s.chunks, newStageChunk())
	}
	return &s.chunks[len(s.chunks)-1]
}

// write appends p.
func (s *stage) write(p []byte) {
	for len(p) > 0 {
		c := s.room()
		k := copy((*c)[len(*c):cap(*c)], p)
		*c = (*c)[:len(*c)+k]
		p = p[k:]
		s.n += k
	}
}

// head returns a copy of the first k bytes held (fewer when it holds
// fewer).
func (s *stage) head(k int) []byte {
	var h []byte
	for _, c := range s.chunks {
		if len(h) >= k {
			break
		}
		h = append(h, c[:min(len(c), k-len(h))]...)
	}
	return h
}

// moveTo copies what the stage holds to the start of dst (at least s.n
// long), freeing each chunk once copied, and returns s.n. The stage is
// empty afterwards.
func (s *stage) moveTo(dst []byte) int {
	off := 0
	for i, c := range s.chunks {
		off += copy(dst[off:], c)
		freeStageChunk(c)
		s.chunks[i] = nil
	}
	s.chunks, s.n = nil, 0
	return off
}

// free returns every chunk; the stage is empty afterwards.
func (s *stage) free() {
	for _, c := range s.chunks {
		freeStageChunk(c)
	}
	s.chunks, s.n = nil, 0
}

// readFrom reads r into the stage until EOF or until it holds max bytes.
func (s *stage) readFrom(r io.Reader, max int) error {
	for s.n < max {
		c := s.room()
		k, err := r.Read((*c)[len(*c):min(cap(*c), len(*c)+max-s.n)])
		*c = (*c)[:len(*c)+k]
		s.n += k
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readAllStaged reads r to its end, or its first max bytes, into one
// buffer of exactly that size, where io.ReadAll grows its buffer by
// copies that the garbage collector frees later (a 50 MB body of unknown
// length cost about 2.2x its size in garbage beside it). A body within
// firstChunk is read as io.ReadAll reads it.
func readAllStaged(r io.Reader, max int) ([]byte, error) {
	head, err := io.ReadAll(io.LimitReader(r, int64(min(max, firstChunk))))
	if err != nil {
		return nil, err
	}
	if len(head) < firstChunk || len(head) >= max {
		return head, nil
	}
	st := stage{chunks: [][]byte{head[:len(head):len(head)]}, n: len(head)}
	defer st.free()
	if err := st.readFrom(r, max); err != nil {
		return nil, err
	}
	b := make([]byte, st.n)
	st.moveTo(b)
	return b, nil
}
