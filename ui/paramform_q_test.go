package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// manualClock stands in for time.AfterFunc: timers fire when the test
// says so.
type manualClock struct {
	timers []*manualTimer
}

type manualTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (c *manualClock) after(d time.Duration, f func()) func() bool {
	t := &manualTimer{d: d, f: f}
	c.timers = append(c.timers, t)
	return func() bool { was := !t.stopped; t.stopped = true; return was }
}

// live are the timers not stopped.
func (c *manualClock) live() []*manualTimer {
	var out []*manualTimer
	for _, t := range c.timers {
		if !t.stopped {
			out = append(out, t)
		}
	}
	return out
}

// TestCompletionsDebounced: typing in a template variable asks for its
// completions once, completionDelay after the last keystroke, with the
// value as typed by then, and only for that variable; the form keeps its
// height whether the suggestions show or not.
func TestCompletionsDebounced(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() { selectTab(ss, "Resources"); ss.resources.list.Select(2) })
	r := ss.resources
	clock := &manualClock{}
	var h0 float32
	Sync(func() {
		h0 = r.params.Object().MinSize().Height
		r.params.after = clock.after
		e := r.params.form.FieldEntry("name")
		w.win.Canvas().Focus(e)
		test.Type(e, "ada")
	})
	Sync(func() {
		live := clock.live()
		if len(clock.timers) != 3 || len(live) != 1 {
			t.Fatalf("3 keystrokes: %d timers, %d live, want 3 and 1", len(clock.timers), len(live))
		}
		if live[0].d != completionDelay || completionDelay != 250*time.Millisecond {
			t.Errorf("delay %v, want 250ms", live[0].d)
		}
		if r.params.drop.Visible() {
			t.Error("a request went out before the pause")
		}
		// a stopped timer that fires anyway sends nothing
		clock.timers[0].f()
	})
	Sync(func() {
		if r.params.drop.Visible() {
			t.Error("an edit that was typed over asked for completions")
		}
		clock.live()[0].f()
	})
	waitFor(t, "name suggestions for the whole value", func() bool {
		s := texts(r.params.drop)
		return r.params.active == "name" && (strings.Contains(s, "[Alice]") || strings.Contains(s, "[Amélie]"))
	})
	Sync(func() {
		if h := r.params.Object().MinSize().Height; h != h0 {
			t.Errorf("the form's height changed with the suggestions: %v → %v", h0, h)
		}
	})
}

// selectTab shows the server's screen titled text (a field in a screen
// not shown cannot take the focus).
func selectTab(ss *serverScreens, text string) {
	for i, it := range ss.tabs.Items {
		if it.Text == text {
			ss.tabs.SelectIndex(i)
		}
	}
}
