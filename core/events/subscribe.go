package events

import (
	"sync"
	"time"
)

type subscriber struct {
	fn       func(Batch)
	wakeC    chan struct{}
	done     chan struct{}
	stopOnce sync.Once

	// Guarded by Log.mu.
	cursor   uint64 // last seq delivered
	updPos   uint64 // journal position read so far
	clearGen uint64
}

// Subscribe calls fn with batches of new events (those appended after
// Subscribe returns) on a goroutine of its own, about every BatchInterval
// while events arrive. fn is never called concurrently with itself. A
// slow fn never slows Append: events it has not read yet stay in the
// ring, and if they are evicted first its next batch says how many it
// missed (Batch.Dropped). cancel stops the deliveries; a batch already
// being delivered may finish.
func (l *Log) Subscribe(fn func(Batch)) (cancel func()) {
	l.mu.Lock()
	after := l.last
	l.mu.Unlock()
	return l.SubscribeAfter(after, fn)
}

// SubscribeAfter is Subscribe starting from the events with Seq > seq, so
// a reader that has read history with After up to seq misses nothing.
func (l *Log) SubscribeAfter(seq uint64, fn func(Batch)) (cancel func()) {
	s := &subscriber{
		fn:    fn,
		wakeC: make(chan struct{}, 1),
		done:  make(chan struct{}),
	}
	l.mu.Lock()
	s.cursor = seq
	s.updPos = l.updBase + uint64(len(l.upd))
	s.clearGen = l.clearGen
	l.subList = append(append([]*subscriber(nil), l.subList...), s)
	list := l.subList
	l.subs.Store(&list)
	pending := seq < l.last
	l.mu.Unlock()
	if pending {
		s.wakeC <- struct{}{}
	}
	go l.deliver(s)
	return func() {
		s.stopOnce.Do(func() {
			close(s.done)
			l.mu.Lock()
			list := make([]*subscriber, 0, len(l.subList))
			for _, o := range l.subList {
				if o != s {
					list = append(list, o)
				}
			}
			l.subList = list
			l.subs.Store(&list)
			if len(list) == 0 {
				l.upd, l.updBase = nil, l.updBase+uint64(len(l.upd))
			}
			l.mu.Unlock()
		})
	}
}

// wake tells every listener that something changed, without blocking.
func (l *Log) wake() {
	p := l.subs.Load()
	if p == nil {
		return
	}
	for _, s := range *p {
		select {
		case s.wakeC <- struct{}{}:
		default:
		}
	}
}

// trimJournalLocked bounds the update journal; a listener further behind
// than that has lost those events to eviction anyway.
func (l *Log) trimJournalLocked() {
	limit := min(int(l.capacity), hotEvents+chunkEvents)
	if limit < 1024 {
		limit = 1024
	}
	if len(l.upd) <= 2*limit {
		return
	}
	drop := len(l.upd) - limit
	l.upd = append([]uint64(nil), l.upd[drop:]...)
	l.updBase += uint64(drop)
}

func (l *Log) deliver(s *subscriber) {
	var last time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-s.wakeC:
		}
		if wait := l.interval - time.Since(last); wait > 0 {
			timer.Reset(wait)
			select {
			case <-s.done:
				return
			case <-timer.C:
			}
		}
		for {
			b, more := l.collect(s)
			if !b.empty() {
				select {
				case <-s.done:
					return
				default:
				}
				s.fn(b)
			}
			last = time.Now()
			if !more {
				break
			}
		}
	}
}

// collect builds the next batch for s and reports whether more events are
// waiting beyond MaxBatch.
func (l *Log) collect(s *subscriber) (Batch, bool) {
	var b Batch
	l.mu.Lock()
	if s.clearGen != l.clearGen {
		b.Cleared = true
		s.clearGen = l.clearGen
	}
	from, n := l.missingLocked(s.cursor)
	b.Dropped = n
	if from < l.first {
		from = l.first
	}
	prev := s.cursor
	to := l.last
	read := false
	if from <= to {
		if to-from+1 > MaxBatch {
			to = from + MaxBatch - 1
		}
		if from >= l.hotFirst {
			b.Events = l.visibleLocked(append([]Event(nil), l.hot[from-l.hotFirst:to-l.hotFirst+1]...))
		} else {
			read = true // sealed events: decoded without the lock
		}
	}
	if to > s.cursor {
		s.cursor = to
	}
	if s.updPos < l.updBase {
		s.updPos = l.updBase
	}
	if j := l.upd[s.updPos-l.updBase:]; len(j) > 0 {
		var seen map[uint64]bool
		for _, rs := range j {
			if rs > prev || !l.retained(rs) || seen[rs] {
				continue
			}
			if seen == nil {
				seen = map[uint64]bool{}
			}
			seen[rs] = true
			if e, ok := l.getLocked(rs); ok {
				b.Updated = append(b.Updated, e)
			}
		}
	}
	s.updPos = l.updBase + uint64(len(l.upd))
	more := to < l.last
	l.mu.Unlock()
	if read {
		b.Events = l.read(from, to)
	}
	return b, more
}
