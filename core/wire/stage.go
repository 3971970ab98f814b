package wire

// stage gathers the fragments of one line longer than the reader's
// buffer until its end is found, and then moves them into the line,
// which is allocated once at its exact size. The stage's memory is
// mapped apart from Go's heap where the system allows it (stage_mmap.go)
// and each chunk is returned to the system as soon as it was moved, so
// that a 50 MB line costs about 50 MB and a chunk at its peak, not the
// fragments and the line side by side (issue #17: a stdio line was
// briefly twice the message).
type stage struct {
	chunks [][]byte // each of cap stageChunk, filled in order
	n      int      // bytes held
}

// stageChunk is the size of one chunk of a stage.
const stageChunk = 1 << 20

// write appends p.
func (s *stage) write(p []byte) {
	for len(p) > 0 {
		if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1]) == stageChunk {
			s.chunks = append(s.chunks, newStageChunk())
		}
		c := &s.chunks[len(s.chunks)-1]
		k := copy((*c)[len(*c):stageChunk], p)
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
