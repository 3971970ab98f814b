package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui/esc"
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
			var rows []*rowText
			walkVisible(in.list, func(o fyne.CanvasObject) {
				if c, ok := o.(*fyne.Container); ok {
					if _, ok := c.Layout.(*eventRow); ok {
						rows = append(rows, c.Objects[0].(*rowText))
					}
				}
			})
			for _, e := range sent {
				var row *rowText
				for _, l := range rows {
					if l.text == e.Title || titleCut(e.Title, e.Method, l.text) {
						row = l
					}
				}
				if row == nil {
					var got []string
					for _, l := range rows {
						got = append(got, l.text)
					}
					t.Errorf("%v: no row reads %q whole or with its method cut around …, its id kept (rows: %q)", size, e.Title, got)
					continue
				}
				need := fyne.MeasureText(row.text, theme.TextSize(), row.TextStyle()).Width + 2*theme.InnerPadding()
				if row.Size().Width < need {
					t.Errorf("%v: the row %q has %v px, under the %v its text needs: the label cuts it", size, row.text, row.Size().Width, need)
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

// TestStackedSideOpensFromItsName: clicking the name on a stacked side's
// head line ("Response · id 5") swaps the sides as its chevron does; the
// new-user walk clicked the name and nothing happened. Raw on the same
// line stays Raw, and the pair stays an accordion: one side open (#12).
func TestStackedSideOpensFromItsName(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(size) })
		sendPair(b)
		if err := w.OpenEvent("result #5", time.Minute); err != nil {
			t.Fatal(err)
		}
		Sync(func() {
			pair := w.inspector.detail.payload.Objects[0].(*fyne.Container)
			l := pair.Layout.(*pairLayout)
			if pair.Size().Width >= pairSideBySide {
				t.Fatalf("%v: the pair is %v px wide; this test wants it stacked", size, pair.Size().Width)
			}
			side := func(i int) (name *widget.Label, raw fyne.CanvasObject) {
				line := pair.Objects[i].(*fyne.Container).Objects[1].(*fyne.Container).Objects[0].(*fyne.Container)
				return line.Objects[0].(*widget.Label), line.Objects[1].(*fyne.Container).Objects[0]
			}
			c := w.win.Canvas()
			drv := fyne.CurrentApp().Driver()
			tapText := func(name *widget.Label) {
				// the middle of the name's text, as a user clicks it
				text := fyne.MeasureText(name.Text, theme.TextSize(), name.TextStyle)
				pos := drv.AbsolutePositionForObject(name).Add(fyne.NewPos(theme.InnerPadding()+text.Width/2, name.Size().Height/2))
				test.TapCanvas(c, pos)
			}
			if l.open != 1 {
				t.Fatalf("%v: result #5 opened side %d, want the response", size, l.open)
			}
			req, _ := side(0)
			tapText(req)
			if l.open != 0 {
				t.Errorf("%v: clicking the closed side's name %q left side %d open", size, req.Text, l.open)
			}
			resp, raw := side(1)
			tapText(resp)
			if l.open != 1 {
				t.Errorf("%v: clicking the closed side's name %q left side %d open", size, resp.Text, l.open)
			}
			resp, _ = side(1)
			tapText(resp) // the open side's name closes it, as its ▾ does
			if l.open != 0 {
				t.Errorf("%v: clicking the open side's name %q left it open", size, resp.Text)
			}
			// Raw is not the name: it toggles the raw view, not the side
			chk := raw.(*esc.Check)
			test.TapCanvas(c, drv.AbsolutePositionForObject(chk).Add(fyne.NewPos(chk.Size().Width/2, chk.Size().Height/2)))
			if l.open != 0 || !chk.Checked {
				t.Errorf("%v: clicking Raw on the response's line swapped the sides (open %d) or left Raw unticked (%v)", size, l.open, chk.Checked)
			}
		})
	}
}

// TestOpenedEventStaysInView: the details opened from elsewhere (the
// Tools screen's "Request and response") select the event's row and
// scroll the list to it, at 1280×800 and 1024×700. The list, searched
// afresh, stayed at its top ("state · connecting", "initialize #1") with
// tools/call #7 out of view under the details; a row clicked stays in
// view as the list gets shorter under it (#12).
func TestOpenedEventStaysInView(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(size) })
		for i := range 30 {
			b.ev.send(EventView{Seq: uint64(900 + i), Server: "fake", Kind: "message", Dir: "in", Type: "notification",
				Method: "notifications/progress", Title: "notifications/progress", Categories: []string{"rpc"}, Time: time.Now()})
		}
		sendPair(b)
		in := w.inspector
		listDrawn(t, in)
		waitFor(t, "the pair listed", func() bool { return !in.searching && in.rowOf(1001) >= 0 })
		for _, seq := range []uint64{1001, 905} { // the newest call, then an event far up the list
			Sync(func() { w.inspectEvent(seq) })
			waitFor(t, "the list searched afresh", func() bool { return !in.searching })
			Sync(func() {
				want, _ := in.event(seq)
				if !rowInView(in, seq) {
					t.Errorf("%v: the details of %q opened with its row out of the list's view (offset %v, list %v)", size, want.Heading(), in.list.GetScrollOffset(), in.list.Size())
				}
			})
		}
		// a click on the newest row, then the divider dragged up: the
		// row stays in view as the list gets shorter
		if err := w.OpenEvent("result #5", time.Minute); err != nil {
			t.Fatal(err)
		}
		Sync(func() {
			in.split.SetOffset(in.split.Offset * 0.7)
			if !rowInView(in, 1002) {
				t.Errorf("%v: the divider moved up, and the row of the event open went out of view (offset %v, list %v)", size, in.list.GetScrollOffset(), in.list.Size())
			}
		})
	}
}

// rowInView reports whether the row of seq is whole in the list's view.
func rowInView(in *inspector, seq uint64) bool {
	r := in.rowOf(seq)
	if r < 0 {
		return false
	}
	h := in.createRow().MinSize().Height // every row's
	top := float32(r) * (h + theme.Padding())
	off := in.list.GetScrollOffset()
	return top >= off-1 && top+h <= off+in.list.Size().Height+1
}

// TestStartFailureRowSaysTheCardsWords: the error event of a server that
// could not start is titled with the plain sentence the event carries,
// the one its card shows ("error · Command not found: no-such-command —
// …", recorded by the engine: session.Options.WordError); the details
// keep the whole Go error chain. The row read "error · Executable file
// not found in $PAT…" beside a card that said it plainly (#12).
func TestStartFailureRowSaysTheCardsWords(t *testing.T) {
	const chain = `session: start: wire: start no-such-command: exec: "no-such-command": executable file not found in $PATH`
	head := "Command not found: no-such-command — check the command, or give its full path"
	b := newFakeBackend("fake")
	w := newTestWindow(t, b, nil)
	in := w.inspector
	Sync(func() { w.selectServer(w.server("fake")) })
	failure := func() EventView {
		return EventView{Server: "fake", Kind: "error", Text: chain, Categories: []string{"logs"},
			Event: events.Event{Conn: "fake", Kind: events.KindError, Text: chain, Summary: head}}
	}
	b.ev.send(failure(), failure()) // two attempts'
	listDrawn(t, in)
	want := "error · " + head
	waitFor(t, "both errors listed", func() bool { return !in.searching && in.rows() == 2 })
	Sync(func() {
		for i, got := range in.shownTitles() {
			if got != want {
				t.Errorf("row %d is titled %q, want %q", i, got, want)
			}
		}
		drawn := 0
		walkVisible(in.list, func(o fyne.CanvasObject) {
			if c, ok := o.(*fyne.Container); ok {
				if _, ok := c.Layout.(*eventRow); ok {
					drawn++
					if l := c.Objects[0].(*rowText); !strings.HasPrefix(want, strings.TrimSuffix(l.Shown(), "…")) {
						t.Errorf("a row on screen reads %q, want (the start of) %q", l.Shown(), want)
					}
				}
			}
		})
		if drawn == 0 {
			t.Error("no row on screen")
		}
		in.onSelect(in.rowSeq(0))
		if got := in.detail.title.Text; got != want {
			t.Errorf("the details are titled %q, want %q", got, want)
		}
		if !strings.Contains(texts(in.detail.payload), chain) {
			t.Errorf("the details lost the whole error chain:\n%s", texts(in.detail.payload))
		}
	})
}
