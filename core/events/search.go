package events

import (
	"bytes"
	"context"
	"strings"
	"unicode/utf8"
)

// Query says which events Search finds.
type Query struct {
	// Text is matched as Match matches it: a case-insensitive substring
	// of the title, text, payload, HTTP URL or error, or run. Empty
	// matches every event.
	Text string
	// Conn, when set, keeps only the events of that connection.
	Conn string
	// Category, when set, keeps only the events of that inspector tab.
	Category Category
	// After keeps only events with a greater Seq (the inspector's clear).
	After uint64
}

// searchBatch is how many hits Search gathers before it calls found.
const searchBatch = 512

// Search finds the events the log holds that match q, oldest first, up
// to the last event appended when it starts, which it returns: a caller
// that also follows new events takes those after it. It calls found (on
// the calling goroutine) with the sequence numbers of the hits in
// batches as it goes, and stops early with ctx's error when ctx is done.
// Sealed events are searched in their compressed chunks, titles included,
// without being decoded; a chunk that cannot be read back is skipped.
func (l *Log) Search(ctx context.Context, q Query, found func(seqs []uint64)) (last uint64, err error) {
	text := strings.TrimSpace(q.Text)
	m := newMatcher(text)
	bit := catBit(q.Category)
	l.mu.Lock()
	last = l.last
	from := max(l.first, q.After+1)
	chunks := append([]*chunk(nil), l.chunks...)
	var hot []Event
	if len(l.hot) > 0 && last >= from {
		hot = append(hot, l.hot[max(from, l.hotFirst)-l.hotFirst:]...)
	}
	conn, connOK := l.connIdx[q.Conn]
	hidden := l.searchHiddenLocked()
	if hidden != nil {
		hot = l.visibleLocked(hot)
	}
	l.mu.Unlock()

	var out []uint64
	flush := func(force bool) {
		if len(out) > 0 && (force || len(out) >= searchBatch) {
			found(out)
			out = nil
		}
	}
	want := make([]bool, chunkEvents)
	var scratch decodedBody // each chunk is decoded into the last one's buffers
	for _, c := range chunks {
		if c.last() < from {
			continue
		}
		if err := ctx.Err(); err != nil {
			flush(true)
			return last, err
		}
		if q.Conn != "" && !connOK {
			break // no sealed event is of that connection
		}
		want = want[:0]
		anyWant := false
		for i := 0; i < c.n; i++ {
			s := c.first + uint64(i)
			ok := s >= from && (q.Conn == "" || c.conn[i] == conn) && (bit == 0 || c.cats[i]&bit != 0) &&
				(hidden == nil || s > hidden[c.conn[i]])
			want = append(want, ok)
			anyWant = anyWant || ok
		}
		if !anyWant {
			continue
		}
		if text == "" {
			for i, ok := range want {
				if ok {
					out = append(out, c.first+uint64(i))
				}
			}
			flush(false)
			continue
		}
		bl, err := c.load(l.sp, false)
		if err != nil {
			continue
		}
		d, err := decodeBody(c, bl, &scratch)
		if err != nil {
			continue
		}
		for i := 0; i < c.n; {
			if !want[i] {
				i++
				continue
			}
			// Search from event i to the end of the chunk at once; a
			// hit's event is the one whose record holds it.
			start := int(d.off[4*i])
			h := m.index(d.b[start:d.off[4*c.n]])
			if h < 0 {
				break
			}
			h += start
			j := i
			for int(d.off[4*(j+1)]) <= h {
				j++
			}
			if want[j] {
				out = append(out, c.first+uint64(j))
			}
			i = j + 1
		}
		flush(false)
	}
	for i := range hot {
		e := &hot[i]
		if e.Seq < from || e.Seq > last || q.Conn != "" && e.Conn != q.Conn || q.Category != "" && !e.In(q.Category) {
			continue
		}
		if text == "" || m.event(e) {
			out = append(out, e.Seq)
		}
	}
	flush(true)
	return last, ctx.Err()
}

// matcher finds a query case-insensitively. An ASCII query (the usual
// case) is lower-cased once and found by scanning for its rarest byte in
// both cases with bytes.IndexByte, then comparing around each candidate;
// any other query takes containsFold.
type matcher struct {
	q      string
	lq     []byte // lower-cased ASCII query
	ascii  bool
	anchor int
}

func newMatcher(q string) *matcher {
	m := &matcher{q: q, ascii: true}
	for i := 0; i < len(q); i++ {
		if q[i] >= utf8.RuneSelf {
			m.ascii = false
		}
	}
	if m.ascii {
		m.lq = []byte(strings.ToLower(q))
		best := 0
		for i, c := range m.lq {
			if byteRank(c) < byteRank(m.lq[best]) {
				best = i
			}
		}
		m.anchor = best
	}
	return m
}

// index returns the first place the query is in hay, or -1. The NUL
// bytes between a sealed event's fields keep a hit within one field (a
// query has none).
func (m *matcher) index(hay []byte) int {
	if !m.ascii {
		// Rare: a non-ASCII query, found record by record.
		for i := 0; i < len(hay); {
			end := bytes.IndexByte(hay[i:], 0)
			if end < 0 {
				end = len(hay) - i
			}
			if containsFold(hay[i:i+end], m.q) {
				return i
			}
			i += end + 1
		}
		return -1
	}
	q := m.lq
	n, k := len(q), m.anchor
	if n == 0 {
		return 0
	}
	if n > len(hay) {
		return -1
	}
	lo := q[k]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	limit := len(hay) - (n - 1 - k) // anchor positions < limit
	nextLo, nextUp := -1, -1
	if up == lo {
		nextUp = len(hay)
	}
	for i := k; i < limit; {
		if nextLo < i {
			nextLo = len(hay)
			if j := bytes.IndexByte(hay[i:limit], lo); j >= 0 {
				nextLo = i + j
			}
		}
		if nextUp < i {
			nextUp = len(hay)
			if j := bytes.IndexByte(hay[i:limit], up); j >= 0 {
				nextUp = i + j
			}
		}
		p := min(nextLo, nextUp)
		if p >= limit {
			return -1
		}
		if s := p - k; equalFoldASCII(hay[s:s+n], q) {
			return s
		}
		i = p + 1
	}
	return -1
}

// contains reports whether the query is in hay.
func (m *matcher) contains(hay []byte) bool {
	if !m.ascii {
		return containsFold(hay, m.q)
	}
	return m.index(hay) >= 0
}

// event is Match for one unsealed event.
func (m *matcher) event(e *Event) bool {
	if m.containsString(e.Title()) || m.containsString(e.Text) || m.contains(e.Raw) {
		return true
	}
	if e.HTTP != nil && (m.containsString(e.HTTP.URL) || m.containsString(e.HTTP.Err)) {
		return true
	}
	return e.Run != "" && m.containsString(e.Run)
}

func (m *matcher) containsString(s string) bool {
	if s == "" {
		return m.q == ""
	}
	return m.contains([]byte(s))
}

// equalFoldASCII reports whether a equals the lower-case q, ignoring
// ASCII case.
func equalFoldASCII(a, q []byte) bool {
	for i, c := range q {
		b := a[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != c {
			return false
		}
	}
	return true
}

// byteRank is roughly how often a byte (both cases of a letter) turns up
// in JSON-RPC traffic and logs: lower is rarer, a better anchor.
func byteRank(c byte) int {
	const common = " \"etaoinsr:,lcdhu{}mpfgy._-/wb0123456789"
	if i := strings.IndexByte(common, c); i >= 0 {
		return 10 + i
	}
	return 0
}
