// Package testwait waits, in tests, for a condition that no event
// announces: a state another goroutine or process reaches in its own time.
// It polls on a short tick up to a bound that only a hang reaches, so a slow
// machine makes a test slower, never wrong. Code that sleeps or times out is
// tested under testing/synctest instead.
package testwait

import (
	"testing"
	"time"
)

// Bound is how long a condition is given to come to hold: far beyond what
// any healthy run needs, so reaching it means a hang.
const Bound = 15 * time.Second

// Eventually reports whether cond came to hold within Bound, checking it
// every few milliseconds.
func Eventually(cond func() bool) bool { return Within(Bound, cond) }

// Within reports whether cond came to hold within d: for what takes longer
// than Bound on a loaded machine, such as a whole program starting.
func Within(d time.Duration, cond func() bool) bool {
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline.C:
			return cond()
		}
	}
	return true
}

// For fails the test, naming what it waited for, when cond does not come
// to hold within Bound.
func For(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !Eventually(cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}
