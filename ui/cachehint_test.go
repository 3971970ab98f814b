package ui

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestCacheBadge counts a 42 s ttl down on a clock of the test's, marks it
// stale after, and flags a list_changed (or a refetch with other content)
// that comes while the list is still fresh — but not one after it went
// stale.
func TestCacheBadge(t *testing.T) {
	test.NewTempApp(t)
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := t0
	ct := &cacheTracker{ctx: t.Context(), now: func() time.Time { return now }}
	b := ct.badge()
	hint := CacheHint{Present: true, HasTTL: true, TTL: 42 * time.Second, Scope: "public"}
	b.set(hint, "a")
	if b.mark.text != "fresh for 42 s" || b.label.Text != "ttl 42 s · public" || !b.obj.Visible() {
		t.Fatalf("just arrived: %q / %q", b.mark.text, b.label.Text)
	}
	now = t0.Add(30 * time.Second)
	ct.tick(now)
	if b.mark.text != "fresh for 12 s" || b.mark.level != "ok" {
		t.Fatalf("after 30 s: %q", b.mark.text)
	}
	now = t0.Add(45 * time.Second)
	ct.tick(now)
	if b.mark.text != "stale" || b.mark.level != "warning" {
		t.Fatalf("after 45 s: %q", b.mark.text)
	}
	b.listChanged() // stale already: nothing to flag
	if b.mark.text != "stale" {
		t.Fatalf("a change after the ttl was flagged: %q", b.mark.text)
	}

	b.set(hint, "a") // refetched, same content
	now = now.Add(10 * time.Second)
	b.listChanged()
	if b.mark.text != "changed while fresh" || b.mark.level != "error" {
		t.Fatalf("list_changed while fresh: %q", b.mark.text)
	}
	if w := b.obj.MinSize().Width; w > 200 { // the badge must not widen the list it sits on
		t.Errorf("the badge needs %.0f px", w)
	}
	b.set(hint, "a") // refetched after the change: a fresh start
	if b.mark.text != "fresh for 42 s" {
		t.Fatalf("after the refetch: %q", b.mark.text)
	}
	now = now.Add(time.Second)
	b.set(hint, "b") // other content while the last was fresh
	if b.mark.text != "changed while fresh" {
		t.Fatalf("a refetch with other content while fresh: %q", b.mark.text)
	}
	b.set(CacheHint{}, "c") // a legacy result: no badge
	if b.obj.Visible() {
		t.Fatal("a result without a hint shows a badge")
	}
}

// TestRunTicker: the countdown's ticker fires once a second and stops
// with its context (in a synctest bubble, so no real second passes).
func TestRunTicker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var ticks []time.Duration
		start := time.Now()
		done := make(chan struct{})
		go func() {
			runTicker(ctx, time.Second, func(now time.Time) { ticks = append(ticks, now.Sub(start)) })
			close(done)
		}()
		time.Sleep(3*time.Second + time.Millisecond)
		synctest.Wait()
		cancel()
		<-done
		if len(ticks) != 3 || ticks[0] != time.Second || ticks[2] != 3*time.Second {
			t.Fatalf("ticks %v", ticks)
		}
	})
}
