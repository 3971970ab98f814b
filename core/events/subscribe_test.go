package events

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// collector gathers batches and lets a test wait for a condition.
type collector struct {
	mu      sync.Mutex
	cond    *sync.Cond
	events  []Event
	updated []Event
	dropped uint64
	cleared int
	batches int
}

func newCollector() *collector {
	c := &collector{}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *collector) add(b Batch) {
	c.mu.Lock()
	c.events = append(c.events, b.Events...)
	c.updated = append(c.updated, b.Updated...)
	c.dropped += b.Dropped
	if b.Cleared {
		c.cleared++
	}
	c.batches++
	c.mu.Unlock()
	c.cond.Broadcast()
}

// waitFor waits (at most 10 s) until ok holds.
func (c *collector) waitFor(t *testing.T, what string, ok func(c *collector) bool) {
	t.Helper()
	timer := time.AfterFunc(10*time.Second, c.cond.Broadcast)
	defer timer.Stop()
	deadline := time.Now().Add(10 * time.Second)
	c.mu.Lock()
	defer c.mu.Unlock()
	for !ok(c) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		c.cond.Wait()
	}
}

func TestSubscribeBatchesAndUpdates(t *testing.T) {
	l := New(&Options{BatchInterval: time.Millisecond})
	l.Append(Event{Kind: KindState, Text: "before"}) // not delivered: Subscribe starts now
	c := newCollector()
	cancel := l.Subscribe(c.add)
	defer cancel()
	rq := l.Append(request("a", DirOut, "1", "tools/call"))
	c.waitFor(t, "the request", func(c *collector) bool { return len(c.events) == 1 })
	rs := l.Append(result("a", DirIn, "1"))
	c.waitFor(t, "the response and the updated request", func(c *collector) bool {
		return len(c.events) == 2 && len(c.updated) >= 1
	})
	c.mu.Lock()
	if c.events[0].Seq != rq || c.events[1].Seq != rs {
		t.Errorf("events %v", c.events)
	}
	if u := c.updated[len(c.updated)-1]; u.Seq != rq || u.Pair != rs || u.Outcome.State != OK {
		t.Errorf("updated %+v", u)
	}
	c.mu.Unlock()

	l.MarkCancelled("a", DirOut, "1") // answered: no update
	q2 := l.Append(request("a", DirOut, "2", "ping"))
	c.waitFor(t, "ping", func(c *collector) bool { return len(c.events) == 3 })
	l.MarkTimedOut("a", DirOut, "2")
	c.waitFor(t, "timeout update", func(c *collector) bool {
		u := c.updated[len(c.updated)-1]
		return u.Seq == q2 && u.Outcome.State == TimedOut
	})
	l.Clear()
	c.waitFor(t, "clear", func(c *collector) bool { return c.cleared == 1 })
	c.mu.Lock()
	if c.dropped != 0 {
		t.Errorf("dropped %d", c.dropped)
	}
	c.mu.Unlock()
}

func TestSubscribeAfterMissesNothing(t *testing.T) {
	l := New(&Options{BatchInterval: time.Millisecond})
	for i := 0; i < 5; i++ {
		l.Append(Event{Kind: KindStderr, Text: fmt.Sprint(i)})
	}
	c := newCollector()
	cancel := l.SubscribeAfter(2, c.add)
	defer cancel()
	l.Append(Event{Kind: KindStderr, Text: "5"})
	c.waitFor(t, "events 3..6", func(c *collector) bool { return len(c.events) == 4 })
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.events {
		if e.Seq != uint64(i+3) {
			t.Errorf("event %d has seq %d", i, e.Seq)
		}
	}
}

// A listener that does not return never slows Append; when it wakes up it
// learns how much it missed and every event is accounted for exactly once.
func TestSlowSubscriberDoesNotBlockAppend(t *testing.T) {
	l := New(&Options{Capacity: 100, BatchInterval: time.Millisecond})
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	c := newCollector()
	cancel := l.Subscribe(func(b Batch) {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release
		c.add(b)
	})
	defer cancel()
	l.Append(Event{Kind: KindStderr, Text: "first"})
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("listener never called")
	}
	done := make(chan struct{})
	go func() {
		for i := 0; i < 5000; i++ {
			l.Append(Event{Kind: KindStderr, Text: "flood"})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Append blocked on a stuck listener")
	}
	close(release)
	c.waitFor(t, "catch-up", func(c *collector) bool {
		n := uint64(len(c.events)) + c.dropped
		return n == 5001
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dropped == 0 {
		t.Error("no drop reported")
	}
	prev := uint64(0)
	for _, e := range c.events {
		if e.Seq <= prev {
			t.Fatalf("seq %d after %d", e.Seq, prev)
		}
		prev = e.Seq
	}
	if prev != 5001 {
		t.Errorf("last seq %d", prev)
	}
}

func TestCancelStopsDeliveries(t *testing.T) {
	l := New(&Options{BatchInterval: time.Millisecond})
	c := newCollector()
	cancel := l.Subscribe(c.add)
	l.Append(Event{Kind: KindStderr})
	c.waitFor(t, "first", func(c *collector) bool { return len(c.events) == 1 })
	cancel()
	cancel() // idempotent
	l.Append(Event{Kind: KindStderr})
	// Another listener proves the append was processed.
	c2 := newCollector()
	cancel2 := l.SubscribeAfter(0, c2.add)
	defer cancel2()
	c2.waitFor(t, "second listener", func(c *collector) bool { return len(c.events) == 2 })
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.events) != 1 {
		t.Errorf("cancelled listener got %d events", len(c.events))
	}
}

func TestConcurrentUse(t *testing.T) {
	l := New(&Options{Capacity: 500, BatchInterval: time.Millisecond, Redact: func(e *Event) { e.Text += "." }})
	c := newCollector()
	cancel := l.Subscribe(c.add)
	defer cancel()
	var wg sync.WaitGroup
	const writers, per = 4, 500
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn := fmt.Sprint("c", w)
			for i := 0; i < per; i++ {
				id := fmt.Sprint(i)
				l.Append(request(conn, DirOut, id, "tools/call"))
				if i%3 == 0 {
					l.MarkCancelled(conn, DirOut, id)
				}
				l.Append(result(conn, DirIn, id))
			}
			l.CloseConn(conn)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		var seq uint64
		for i := 0; i < 200; i++ {
			evs, _ := l.After(seq, 50)
			for _, e := range evs {
				_ = e.Title() + e.Badge()
				seq = e.Seq
			}
			l.Get(seq)
			l.Stats()
			l.Run("x")
		}
	}()
	wg.Wait()
	c.waitFor(t, "all events", func(c *collector) bool {
		return uint64(len(c.events))+c.dropped == writers*per*2
	})
	if s := l.Stats(); s.Events != writers*per*2 || s.ToolCalls != writers*per {
		t.Errorf("stats %+v", s)
	}
}

func TestBatchesAreBounded(t *testing.T) {
	l := New(&Options{BatchInterval: time.Millisecond})
	const n = 2*MaxBatch + 5
	for i := 0; i < n; i++ {
		l.Append(Event{Kind: KindStderr})
	}
	var mu sync.Mutex
	largest := 0
	c := newCollector()
	cancel := l.SubscribeAfter(0, func(b Batch) {
		mu.Lock()
		largest = max(largest, len(b.Events))
		mu.Unlock()
		c.add(b)
	})
	defer cancel()
	c.waitFor(t, "every event", func(c *collector) bool { return len(c.events) == n })
	mu.Lock()
	defer mu.Unlock()
	if largest > MaxBatch || c.dropped != 0 {
		t.Errorf("largest batch %d, dropped %d", largest, c.dropped)
	}
}
