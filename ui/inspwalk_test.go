package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

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

// TestInspectorRowsKeepTheirID: every row of a request or a response
// keeps its id where the inspector is narrow; the method is cut in its
// middle instead. At 1024×700 "resources/templates/list #6" and "result
// #6 · resources/templates/list" lost their "#6" (and said nothing of
// it), while every other row kept its own, so that pair could no longer
// be matched by eye (#12).
func TestInspectorRowsKeepTheirID(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1024, Height: 700}, {Width: 1280, Height: 800}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(size) })
		in := w.inspector
		var sent []EventView
		for i, m := range []string{"resources/templates/list", "notifications/resources/list_changed_too", "tools/call"} {
			id := strconv.Itoa(60 + i)
			sent = append(sent,
				EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: id, Method: m, Title: m + " #" + id, Badge: "1ms", Categories: []string{"rpc"}},
				EventView{Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: id, Method: m, Title: "result #" + id + " · " + m, Categories: []string{"rpc"}})
		}
		b.ev.send(sent...)
		listDrawn(t, in)
		last := sent[len(sent)-1].Title
		waitFor(t, "the rows sent", func() bool {
			titles := in.shownTitles()
			return !in.searching && len(titles) > 0 && titles[len(titles)-1] == last
		})
		Sync(func() {
			var rows []*widget.Label
			walkVisible(in.list, func(o fyne.CanvasObject) {
				if c, ok := o.(*fyne.Container); ok {
					if _, ok := c.Layout.(*eventRow); ok {
						rows = append(rows, c.Objects[0].(*widget.Label))
					}
				}
			})
			for _, e := range sent {
				var row *widget.Label
				for _, l := range rows {
					if l.Text == e.Title || titleCut(e.Title, e.Method, l.Text) {
						row = l
					}
				}
				if row == nil {
					var got []string
					for _, l := range rows {
						got = append(got, l.Text)
					}
					t.Errorf("%v: no row reads %q whole or with its method cut around …, its id kept (rows: %q)", size, e.Title, got)
					continue
				}
				need := fyne.MeasureText(row.Text, theme.TextSize(), row.TextStyle).Width + 2*theme.InnerPadding()
				if row.Size().Width < need {
					t.Errorf("%v: the row %q has %v px, under the %v its text needs: the label cuts it", size, row.Text, row.Size().Width, need)
				}
			}
			t.Logf("%v: the list is %v px wide", size, in.list.Size().Width)
		})
	}
}

// titleCut reports whether text is whole, a row's title, with its method
// cut in the middle and the rest (the id, "result") kept.
func titleCut(whole, method, text string) bool {
	i := strings.LastIndex(whole, method)
	if i < 0 || !strings.Contains(text, "…") || utf8.RuneCountInString(text) >= utf8.RuneCountInString(whole) {
		return false
	}
	head, tail := whole[:i], whole[i+len(method):]
	mid := strings.TrimSuffix(strings.TrimPrefix(text, head), tail)
	parts := strings.SplitN(mid, "…", 2)
	return strings.HasPrefix(text, head) && strings.HasSuffix(text, tail) && len(parts) == 2 &&
		strings.HasPrefix(method, parts[0]) && strings.HasSuffix(method, parts[1])
}
