package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/mcpresult"
)

// CacheHint is the ttlMs and cacheScope a modern (2026-07-28) list or read
// result carried.
type CacheHint = mcpresult.CacheHint

// CacheHinter is what a Conn may also do: report the cache hint of the
// last result of a list method it fetched ("tools/list", "resources/list",
// "prompts/list"). A read result carries its own (ReadResult.Cache).
type CacheHinter interface {
	LastCacheHint(method string) (CacheHint, bool)
}

// cacheTick is how often the "fresh for N s" countdowns are redrawn.
const cacheTick = time.Second

// cacheTracker runs the cache-hint badges of one server's screens: one
// ticker for all of them (started with the first hint, stopped with the
// screens), and what each list or read looked like when it last arrived,
// so that a change while still fresh is flagged.
type cacheTracker struct {
	ctx     context.Context
	now     func() time.Time // the clock (tests set their own)
	badges  []*cacheBadge
	started bool
	start   func() // starts the ticker; tests leave it nil and call tick
}

func newCacheTracker(ctx context.Context) *cacheTracker {
	ct := &cacheTracker{ctx: ctx, now: time.Now}
	ct.start = func() {
		go runTicker(ctx, cacheTick, func(now time.Time) { do(func() { ct.tick(now) }) })
	}
	return ct
}

// runTicker calls f with the time every d until ctx ends.
func runTicker(ctx context.Context, d time.Duration, f func(time.Time)) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			f(now)
		}
	}
}

// tick redraws every badge for now (UI thread).
func (ct *cacheTracker) tick(now time.Time) {
	for _, b := range ct.badges {
		b.tick(now)
	}
}

// badge returns a new badge kept up to date by the tracker.
func (ct *cacheTracker) badge() *cacheBadge {
	b := &cacheBadge{ct: ct, label: widget.NewLabel("")}
	b.label.Importance = widget.LowImportance
	b.label.SizeName = theme.SizeNameCaptionText
	b.label.Truncation = fyne.TextTruncateEllipsis // never widens the list it sits on
	b.mark = newBadge("", "")
	b.obj = container.NewBorder(nil, nil, container.NewCenter(b.mark), nil, b.label)
	b.obj.Hide()
	ct.badges = append(ct.badges, b)
	return b
}

// cacheBadge shows one result's freshness: "fresh for 42 s" counting
// down, then "stale"; "changed while fresh" when a list_changed
// notification (or a refetch with other content) came before the ttl ran
// out.
type cacheBadge struct {
	ct      *cacheTracker
	fr      mcpresult.Freshness
	content string // what the result looked like (to notice a change)
	changed bool
	obj     *fyne.Container
	mark    *badge
	label   *widget.Label
}

// set records a result that just arrived with hint h; content stands for
// what it holds. A result without a hint (legacy) hides the badge.
func (b *cacheBadge) set(h CacheHint, content string) {
	now := b.ct.now()
	if b.fr.Hint.Present && b.fr.Fresh(now) && content != b.content {
		b.changed = true // the content changed while the old one was still fresh
	} else {
		b.changed = false
	}
	b.fr, b.content = mcpresult.Freshness{Hint: h, Received: now}, content
	if !h.Present {
		b.obj.Hide()
		return
	}
	if !b.ct.started && b.ct.start != nil {
		b.ct.started = true
		b.ct.start()
	}
	b.obj.Show()
	b.tick(now)
}

// listChanged notes a list_changed notification: a list still within its
// ttl is flagged.
func (b *cacheBadge) listChanged() {
	now := b.ct.now()
	if b.fr.Hint.Present && b.fr.Fresh(now) {
		b.changed = true
		b.tick(now)
	}
}

// text is what the badge says at now, and its colour.
func (b *cacheBadge) text(now time.Time) (mark, level, detail string) {
	scope := b.fr.Hint.Scope
	if scope != "" {
		scope = " · " + scope
	}
	left := b.fr.Remaining(now)
	switch {
	case b.changed && left > 0:
		return "changed while fresh", "error", fmt.Sprintf("ttl %s, %s left%s", secs(b.fr.Hint.TTL), secs(left), scope)
	case b.changed:
		return "changed while fresh", "error", "ttl " + secs(b.fr.Hint.TTL) + " passed" + scope
	case left > 0:
		return "fresh for " + secs(left), "ok", "ttl " + secs(b.fr.Hint.TTL) + scope
	}
	return "stale", "warning", fmt.Sprintf("ttl %s, passed %s ago%s", secs(b.fr.Hint.TTL), secs(now.Sub(b.fr.Received.Add(b.fr.Hint.TTL))), scope)
}

func (b *cacheBadge) tick(now time.Time) {
	if !b.fr.Hint.Present {
		return
	}
	mark, level, detail := b.text(now)
	b.mark.Set(mark, level)
	b.label.SetText(detail)
}

// secs is a duration in whole seconds ("42 s"), or minutes past two
// minutes ("5 min").
func secs(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d >= 2*time.Minute {
		return fmt.Sprintf("%d min", int(d.Round(time.Minute)/time.Minute))
	}
	return fmt.Sprintf("%d s", int((d+time.Second-1)/time.Second))
}

// lastHint asks the connection for the cache hint of its last method list.
func lastHint(c Conn, method string) CacheHint {
	if h, ok := c.(CacheHinter); ok {
		if hint, ok := h.LastCacheHint(method); ok {
			return hint
		}
	}
	return CacheHint{}
}

// listContent stands for a list's items, to tell a refetch that changed.
func listContent[T any](items []T) string {
	return fmt.Sprintf("%d %+v", len(items), items)
}

// readBadge is the cache badge of uri's read result, updated with res (a
// read of the same URI that comes back different while the last one is
// still fresh is flagged); nil when the result has no hint.
func (r *resourcesScreen) readBadge(uri string, res ReadResult) *cacheBadge {
	b := r.reads[uri]
	if b == nil {
		if !res.Cache.Present {
			return nil
		}
		b = r.ss.cache.badge()
		r.reads[uri] = b
	}
	b.set(res.Cache, listContent(res.Contents))
	if !res.Cache.Present {
		return nil
	}
	return b
}
