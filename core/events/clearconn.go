package events

// ClearConn removes the events of one connection with Seq <= upTo (the
// inspector's Clear of one server) and leaves every other event as it
// is: the others keep their sequence numbers and stay readable with Get,
// After, Search and listeners, and the connection's later events stay
// too. Stats lose the removed events' counts (events already evicted stay
// counted) and Retention no longer holds them; an unsealed event's
// payload is released at once, a sealed chunk's when every event in it is
// removed. Requests of the connection still waiting stay pairable, as with
// Clear, so their answers keep their titles; answered or given-up ones
// are forgotten. Listeners get no Cleared batch: the removed events
// simply stop being read.
func (l *Log) ClearConn(conn string, upTo uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	upTo = min(upTo, l.last)
	from := max(l.first, l.connClr[conn]+1)
	if upTo < from {
		return
	}
	if l.connClr == nil {
		l.connClr = map[string]uint64{}
	}
	for s := range l.patches {
		if s <= upTo && s >= from {
			if c, ok := l.connOfLocked(s); ok && c == conn {
				delete(l.patches, s)
			}
		}
	}
	var d Stats
	var hidden uint64
	// Sealed events: counted from their chunks, which go once every
	// event in them is removed.
	if idx, ok := l.connIdx[conn]; ok && from < l.hotFirst {
		kept := l.chunks[:0]
		for _, c := range l.chunks {
			if c.last() < from || c.first > upTo {
				kept = append(kept, c)
				continue
			}
			var evs []Event
			for j := 0; j < c.n; j++ {
				s := c.first + uint64(j)
				if c.conn[j] != idx || s < from || s > upTo {
					continue
				}
				if evs == nil {
					evs, _ = l.cache.peek(c, l.sp) // unreadable: counts stay
				}
				if evs != nil {
					d.Add(&evs[j])
				}
				hidden++
				c.hidden++
			}
			if c.hidden < c.n {
				kept = append(kept, c)
				continue
			}
			l.chunkMem -= c.cost() // a spilled one's bytes stay in the file until Clear
			l.cache.drop(c)
		}
		clear(l.chunks[len(kept):])
		l.chunks = kept
		// chunks[:spilled] are the spilled ones: recount them.
		l.spilled = 0
		for _, c := range l.chunks {
			if c.mem.Load() != nil {
				break
			}
			l.spilled++
		}
	}
	// Unsealed events: their payloads go now, the slots stay (they are
	// addressed by Seq) until they are sealed or dropped.
	for s := max(from, l.hotFirst); s <= upTo; s++ {
		e := &l.hot[s-l.hotFirst]
		if e.Conn != conn {
			continue
		}
		d.Add(e)
		hidden++
		l.hotBytes -= cost(e)
		*e = Event{Seq: e.Seq, Conn: e.Conn, Time: e.Time}
		l.hotBytes += cost(e)
	}
	l.connClr[conn] = upTo
	l.hidden += hidden
	// With nothing sealed before them, the removed events at the front of
	// the tail go now, slots and all.
	if len(l.chunks) == 0 {
		k := 0
		for k < len(l.hot) && l.hiddenLocked(l.hot[k].Conn, l.hot[k].Seq) {
			l.hotBytes -= cost(&l.hot[k])
			k++
		}
		n := copy(l.hot, l.hot[k:])
		clear(l.hot[n:])
		l.hot = l.hot[:n]
		l.hotFirst += uint64(k)
	}
	l.gapLocked()
	for k, p := range l.pending {
		if k.conn == conn && p.seq <= upTo && p.state != Waiting {
			delete(l.pending, k)
		}
	}
	sub(&l.nEvents, d.Events)
	sub(&l.nRequests, d.Requests)
	sub(&l.nToolCalls, d.ToolCalls)
	sub(&l.nErrors, d.Errors)
}

// sub subtracts n from a counter. An Append whose event was removed
// before it added its counts adds them after: the sum comes out right.
func sub(c interface{ Add(uint64) uint64 }, n uint64) {
	if n > 0 {
		c.Add(^(n - 1))
	}
}

// hiddenLocked reports whether event seq of conn was removed by ClearConn.
func (l *Log) hiddenLocked(conn string, seq uint64) bool {
	return len(l.connClr) > 0 && seq <= l.connClr[conn]
}

// visibleLocked returns evs without the events removed by ClearConn,
// filtering in place.
func (l *Log) visibleLocked(evs []Event) []Event {
	if len(l.connClr) == 0 {
		return evs
	}
	out := evs[:0]
	for i := range evs {
		if !l.hiddenLocked(evs[i].Conn, evs[i].Seq) {
			out = append(out, evs[i])
		}
	}
	clear(evs[len(out):])
	return out
}

// chunkHiddenLocked returns how many of c's events ClearConn removed
// (those sealed after it).
func (l *Log) chunkHiddenLocked(c *chunk) int {
	n := 0
	for j := 0; j < c.n; j++ {
		if c.first+uint64(j) <= l.connClr[l.connName[c.conn[j]]] {
			n++
		}
	}
	return n
}

// connOfLocked returns the connection of the retained event seq, from
// the hot tail or a chunk's index.
func (l *Log) connOfLocked(seq uint64) (string, bool) {
	if !l.retained(seq) {
		return "", false
	}
	if seq >= l.hotFirst {
		return l.hot[seq-l.hotFirst].Conn, true
	}
	if c := l.chunkLocked(seq); c != nil {
		return l.connName[c.conn[seq-c.first]], true
	}
	return "", false
}

// gapLocked drops the run of removed events before the oldest chunk (or
// the hot tail) left when ClearConn released whole chunks at the front,
// and reports whether there was one. Readers are not told of them as
// dropped when nothing else was dropped before them.
func (l *Log) gapLocked() bool {
	next := l.hotFirst
	if len(l.chunks) > 0 {
		next = l.chunks[0].first
	}
	if l.first >= next {
		return false
	}
	l.forgetLocked(l.first, next-1)
	l.hidden -= next - l.first
	if l.cleared+1 >= l.first {
		l.cleared = next - 1
	}
	l.first = next
	return true
}

// searchHidden returns, per connection index, the highest Seq removed by
// ClearConn (nil when none was), for Search's scan of sealed chunks.
func (l *Log) searchHiddenLocked() []uint64 {
	if len(l.connClr) == 0 {
		return nil
	}
	out := make([]uint64, len(l.connName))
	for name, up := range l.connClr {
		if i, ok := l.connIdx[name]; ok {
			out[i] = up
		}
	}
	return out
}

// drop forgets the decoded events of c.
func (cc *chunkCache) drop(c *chunk) {
	cc.mu.Lock()
	for i, it := range cc.items {
		if it.c == c {
			cc.bytes -= it.size
			cc.items = append(cc.items[:i:i], cc.items[i+1:]...)
			break
		}
	}
	cc.mu.Unlock()
}

// peek returns c's decoded events, from the cache when they are there;
// otherwise it decodes them without caching them: ClearConn reads each
// chunk it clears once, to count what goes, and caching those would push
// out the chunks readers use and keep up to cacheBytes of events that are
// about to be removed.
func (cc *chunkCache) peek(c *chunk, sp *spill) ([]Event, error) {
	cc.mu.Lock()
	for _, it := range cc.items {
		if it.c == c {
			cc.mu.Unlock()
			return it.evs, nil
		}
	}
	cc.mu.Unlock()
	return decodeChunk(c, sp)
}
