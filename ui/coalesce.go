package ui

import "time"

// redrawInterval is how often a screen fed by a live stream redraws at
// most: about a frame of a slow display, so that a server flooding events
// costs the UI thread one redraw per interval, not one per batch.
const redrawInterval = 50 * time.Millisecond

// coalescer runs a redraw on the UI thread at most once per
// redrawInterval however often it is asked for: the first request arms a
// timer, later ones before it fires are folded into it. Every method runs
// on the UI thread.
type coalescer struct {
	fn      func()
	pending bool
	// runs counts the redraws done (tests read it).
	runs int
}

// newCoalescer returns a coalescer of fn.
func newCoalescer(fn func()) *coalescer { return &coalescer{fn: fn} }

// request asks for a redraw within redrawInterval.
func (c *coalescer) request() {
	if c.pending {
		return
	}
	c.pending = true
	time.AfterFunc(redrawInterval, func() { do(c.run) })
}

// run redraws now if a redraw was asked for.
func (c *coalescer) run() {
	if !c.pending {
		return
	}
	c.pending = false
	c.runs++
	c.fn()
}
