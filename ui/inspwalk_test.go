package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

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

// TestPayloadTreeMarksBranchesWithChevrons: the payload tree marks an
// open branch ▾ and a closed one ▸, as the inspector's sections do. Fyne's
// ↓ and → ("↓ result: {1}", "→ tools: [19]") read as the inspector's
// message directions (→ sent, ← received) beside the rows (#12).
func TestPayloadTreeMarksBranchesWithChevrons(t *testing.T) {
	w, b, _ := connected(t, nil)
	sendPair(b)
	if err := w.OpenEvent("result #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	Sync(func() {
		def := theme.DefaultTheme()
		open, closed := def.Icon(theme.IconNameArrowDropDown).Name(), def.Icon(theme.IconNameMenuExpand).Name()
		arrows := map[string]bool{def.Icon(theme.IconNameMoveDown).Name(): true, def.Icon(theme.IconNameNavigateNext).Name(): true}
		seen := map[string]int{}
		walkVisible(w.inspector.detail.payload, func(o fyne.CanvasObject) {
			if tr, ok := o.(*widget.Tree); ok {
				walkVisible(tr, func(o fyne.CanvasObject) {
					if img, ok := o.(*canvas.Image); ok && img.Resource != nil {
						seen[img.Resource.Name()]++
					}
				})
			}
		})
		for name := range seen {
			if arrows[name] {
				t.Errorf("the payload tree marks a branch with the arrow %s (seen: %v)", name, seen)
			}
		}
		if seen[open] == 0 || seen[closed] == 0 {
			t.Errorf("the payload tree shows no ▾ (%s) or no ▸ (%s) (seen: %v)", open, closed, seen)
		}
	})
}
