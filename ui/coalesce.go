package ui

import (
	"sync"
	"time"
)

// redrawInterval is how often a screen fed by a live stream redraws at
// most while events come now and then: about a frame of a slow display,
// so that a server flooding events costs the UI thread one redraw per
// interval, not one per batch.
const redrawInterval = 50 * time.Millisecond

// maxRedrawInterval is how far the interval stretches while a stream
// keeps every redraw busy (a flood): each redraw dirties the canvas, and a
// frame under software GL costs tens of milliseconds of the UI thread, so
// at 20 redraws a second the thread did little else (#17). Four a second
// still reads as live.
const maxRedrawInterval = 200 * time.Millisecond

// quietSpell is how long a stream must pause before the next redraw
// comes after redrawInterval again.
const quietSpell = 2 * maxRedrawInterval

// coalescer runs a redraw on the UI thread at most once per interval
// however often it is asked for: the first request arms a timer, later
// ones before it fires are folded into it. The interval is
// redrawInterval after a quiet spell and doubles, up to
// maxRedrawInterval, for each request that comes sooner than quietSpell
// after the last redraw (ten tool calls a second redrew the History ten
// times a second). Redraws come on multiples of the interval (wall
// clock), and those due at the same instant run in one callback, so that
// the inspector, the Logs screen and the History, asked for a redraw by
// the same batch, redraw in the same frame rather than in three.
// Every method runs on the UI thread.
type coalescer struct {
	fn      func()
	pending bool
	// runs counts the redraws done (tests read it).
	runs int
	// interval is the current interval (0 before the first request),
	// last when the last redraw ran.
	interval time.Duration
	last     time.Time
}

// newCoalescer returns a coalescer of fn.
func newCoalescer(fn func()) *coalescer { return &coalescer{fn: fn} }

// request asks for a redraw within the interval.
func (c *coalescer) request() {
	if c.pending {
		return
	}
	c.pending = true
	now := time.Now()
	c.interval = nextInterval(c.interval, now.Sub(c.last))
	frames.add(now, c)
}

// frames runs the redraws due at the same instant in one callback on the
// UI thread: posted one by one, the main loop could paint a frame between
// two of them, and each frame repaints the whole window.
var frames frameClock

// frameClock holds the coalescers due at each instant (a multiple of
// their interval) until it comes.
type frameClock struct {
	mu  sync.Mutex
	due map[time.Time][]*coalescer
	// callbacks counts the callbacks run (UI thread; tests read it).
	callbacks int
}

// add has c run at the next multiple of its interval after now.
func (f *frameClock) add(now time.Time, c *coalescer) {
	at := now.Truncate(c.interval).Add(c.interval)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.due == nil {
		f.due = map[time.Time][]*coalescer{}
	}
	if len(f.due[at]) == 0 {
		time.AfterFunc(at.Sub(now), func() { f.fire(at) })
	}
	f.due[at] = append(f.due[at], c)
}

// fire runs the coalescers due at at, together.
func (f *frameClock) fire(at time.Time) {
	f.mu.Lock()
	cs := f.due[at]
	delete(f.due, at)
	f.mu.Unlock()
	do(func() {
		f.callbacks++
		for _, c := range cs {
			c.run()
		}
	})
}

// nextInterval is the interval of a request that came since after the
// last redraw, the interval having been cur.
func nextInterval(cur, since time.Duration) time.Duration {
	if cur == 0 || since >= quietSpell {
		return redrawInterval // quiet, or the first: the next frame
	}
	return min(2*cur, maxRedrawInterval) // a stream: fewer redraws
}

// streaming reports whether requests come faster than the redraws (the
// interval has stretched): a caller then leaves to the redraw what it
// would otherwise draw at once.
func (c *coalescer) streaming() bool { return c.interval > redrawInterval }

// run redraws now if a redraw was asked for.
func (c *coalescer) run() {
	if !c.pending {
		return
	}
	c.pending = false
	c.runs++
	c.last = time.Now()
	c.fn()
}
