package ui

import (
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestCountsSayOneInTheSingular: a count of one reads "1 tool call" and
// "1 error", not "1 tool calls · 1 errors" as the new-user walk found
// in the inspector's counters; sizes and the other counts say so too
// (#12).
func TestCountsSayOneInTheSingular(t *testing.T) {
	w, _, _ := connected(t, nil)
	in := w.inspector
	Sync(func() {
		in.stats = events.Stats{Events: 1, ToolCalls: 1, Errors: 1}
		in.updateCounters()
		if got, want := in.counters.Text, "1 tool call · 1 error · 1 event"; got != want {
			t.Errorf("counters = %q, want %q", got, want)
		}
		in.stats = events.Stats{Events: 2, ToolCalls: 0, Errors: 3}
		in.updateCounters()
		if got, want := in.counters.Text, "0 tool calls · 3 errors · 2 events"; got != want {
			t.Errorf("counters = %q, want %q", got, want)
		}
	})
	if got := sizeText(1); got != "1 byte" {
		t.Errorf("sizeText(1) = %q, want 1 byte", got)
	}
}
