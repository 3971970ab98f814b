package ui

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestNextInterval(t *testing.T) {
	for _, tc := range []struct {
		cur, since, want time.Duration
	}{
		{0, 0, redrawInterval}, // the first request
		{redrawInterval, 10 * time.Millisecond, 2 * redrawInterval},  // a stream
		{2 * redrawInterval, 0, 4 * redrawInterval},                  // still one
		{maxRedrawInterval, time.Millisecond, maxRedrawInterval},     // bounded
		{maxRedrawInterval, quietSpell, redrawInterval},              // quiet again
		{redrawInterval, 150 * time.Millisecond, 2 * redrawInterval}, // ten calls a second stream too
	} {
		if got := nextInterval(tc.cur, tc.since); got != tc.want {
			t.Errorf("nextInterval(%v, %v) = %v, want %v", tc.cur, tc.since, got, tc.want)
		}
	}
}

// The coalescers asked for a redraw in the same interval redraw in one
// callback of the UI thread, each once however often it was asked, and
// a stream stretches the interval; virtual time (synctest), no sleeps.
func TestCoalescersShareFrames(t *testing.T) {
	newTestWindow(t, newFakeBackend("fake"), nil) // an app for fyne.Do
	synctest.Test(t, func(t *testing.T) {
		var order []string
		var a, b *coalescer
		a = newCoalescer(func() { order = append(order, fmt.Sprintf("a%d", frames.callbacks)) })
		b = newCoalescer(func() { order = append(order, fmt.Sprintf("b%d", frames.callbacks)) })
		var n0 int
		Sync(func() { n0 = frames.callbacks })
		Sync(func() {
			for range 10 {
				a.request()
				b.request()
			}
		})
		time.Sleep(redrawInterval) // virtual: the timer's instant
		synctest.Wait()
		Sync(func() {
			// one callback ran both, once each
			if got, want := strings.Join(order, " "), fmt.Sprintf("a%d b%d", n0+1, n0+1); got != want || a.runs != 1 || b.runs != 1 {
				t.Errorf("redraws %q, want %q (a %d, b %d runs)", got, want, a.runs, b.runs)
			}
			a.request() // at once after a redraw: a stream
		})
		if a.interval != 2*redrawInterval || !a.streaming() {
			t.Errorf("a stream's interval is %v, want %v", a.interval, 2*redrawInterval)
		}
		time.Sleep(2 * redrawInterval)
		synctest.Wait()
		Sync(func() {
			if a.runs != 2 || a.pending {
				t.Errorf("after the stretched interval: %d redraws, pending %v", a.runs, a.pending)
			}
		})
		time.Sleep(quietSpell)
		Sync(a.request)
		if a.interval != redrawInterval || a.streaming() {
			t.Errorf("after a quiet spell the interval is %v, want %v", a.interval, redrawInterval)
		}
		time.Sleep(redrawInterval)
		synctest.Wait()
		Sync(func() {
			if a.runs != 3 {
				t.Errorf("%d redraws, want 3", a.runs)
			}
		})
	})
}

// Under a stream the counters wait for the list's redraw; once it ran,
// the newest event is the last row and the counters count every event.
func TestInspectorFloodShowsTheLastEvent(t *testing.T) {
	w, b, _ := connected(t, nil)
	in := w.inspector
	var before uint64
	Sync(func() { before = in.stats.Events })
	const batches, per = 60, 100
	// in rounds, each right after the last redraw: from the second on
	// the interval has stretched and the counters wait for the redraw
	for i := 0; i < batches; i++ {
		b.ev.send(floodBatch("fake", i*per, per)...)
		if i%20 == 19 {
			listDrawn(t, in)
		}
	}
	want := fmt.Sprintf("%d events", before+batches*per)
	Sync(func() {
		if !strings.Contains(in.counters.Text, want) {
			t.Errorf("counters %q, want %q", in.counters.Text, want)
		}
		last, ok := in.event(in.rowSeq(in.rows() - 1))
		if !ok || !strings.Contains(string(last.Raw), fmt.Sprintf(`"line %d"`, batches*per-1)) {
			t.Errorf("the last row is %s, want the flood's last line", last.Raw)
		}
		if rows := texts(in.list); !strings.Contains(rows, "notifications/message") {
			t.Errorf("the list does not show the flood:\n%s", rows)
		}
	})
}
