package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// While a tab or the search filters the inspector, its counter reads how
// many of the events it counted are listed ("1 of 4 events"), as the
// Tools screen words it; unfiltered it reads "4 events". A longer count
// never widens the panel: the buttons stay where they are.
func TestInspectorCounterFiltered(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(size) })
		in := w.inspector
		b.ev.send(
			EventView{Server: "fake", Kind: "message", Dir: "out", Type: "notification", Method: "notifications/initialized", Title: "notifications/initialized", Categories: []string{"rpc"}, Raw: json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)},
			EventView{Server: "fake", Kind: "stderr", Title: "stderr: hello", Text: "hello", Categories: []string{"logs"}},
			EventView{Server: "fake", Kind: "stderr", Title: "stderr: needle", Text: "needle", Categories: []string{"logs"}},
			EventView{Server: "fake", Kind: "stderr", Title: "stderr: bye", Text: "bye", Categories: []string{"logs"}},
		)
		listDrawn(t, in)
		var minBefore fyne.Size
		var pauseAt fyne.Position
		abs := func(o fyne.CanvasObject) fyne.Position {
			return fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
		}
		Sync(func() {
			if got := in.counters.Text; !strings.HasSuffix(got, "· 4 events") {
				t.Errorf("%v: unfiltered, the counter reads %q, want … · 4 events", size, got)
			}
			minBefore, pauseAt = in.obj.MinSize(), abs(in.pause.icon)
			if in.pauseBtn.Visible() {
				pauseAt = abs(in.pauseBtn)
			}
			test.Tap(in.tabBtns[4]) // Logs
		})
		waitFor(t, "the Logs tab's count", func() bool { return !in.searching && strings.HasSuffix(in.counters.Text, "· 3 of 4 events") })
		Sync(func() { in.search.SetText("needle") })
		waitFor(t, "the search's count", func() bool { return !in.searching && strings.HasSuffix(in.counters.Text, "· 1 of 4 events") })
		Sync(func() {
			// Pause becomes the wider Resume, and the header is laid out
			// again for it: where it stands now is what the counter must
			// not move.
			test.Tap(in.pauseBtn)
			pauseAt = abs(in.pause.icon)
			if in.pauseBtn.Visible() {
				pauseAt = abs(in.pauseBtn)
			}
		})
		b.ev.send(EventView{Server: "fake", Kind: "stderr", Title: "stderr: later", Text: "later", Categories: []string{"logs"}})
		waitFor(t, "the buffered count", func() bool { return strings.Contains(in.counters.Text, "1 of 4 events · paused, 1 buffered") })
		Sync(func() {
			if got := in.obj.MinSize(); got.Width > minBefore.Width {
				t.Errorf("%v: the counter %q widened the inspector's minimum from %v to %v", size, in.counters.Text, minBefore.Width, got.Width)
			}
			p := abs(in.pause.icon)
			if in.pauseBtn.Visible() {
				p = abs(in.pauseBtn)
			}
			if p != pauseAt {
				t.Errorf("%v: the counter %q moved Pause from %v to %v", size, in.counters.Text, pauseAt, p)
			}
			test.Tap(in.pauseBtn)
			in.search.SetText("")
			test.Tap(in.tabBtns[0]) // All
		})
		waitFor(t, "the unfiltered count", func() bool { return !in.searching && strings.HasSuffix(in.counters.Text, "· 5 events") })
	}
}

// The Raw JSON dialog of a tool's result shows the JSON in the monospace
// text style, as the inspector's Raw view does; a full error's dialog
// stays in the text style of prose.
func TestRawJSONDialogMonospace(t *testing.T) {
	w, _, ss := connected(t, nil)
	runTool(t, ss, "echo", `{"message":"hi"}`)
	Sync(func() { tapButton(t, w.win.Content(), "Raw JSON") })
	entryOf := func() *widget.Entry {
		var e *widget.Entry
		walkAll(w.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if x, ok := esc.AsEntry(o); ok && e == nil {
				e = x
			}
		})
		return e
	}
	Sync(func() {
		e := entryOf()
		if e == nil {
			t.Fatal("Raw JSON opened no dialog with the text")
		}
		if e.Text == "" || !e.TextStyle.Monospace {
			t.Errorf("the Raw JSON dialog shows %q, monospace %v", e.Text, e.TextStyle.Monospace)
		}
		w.win.Canvas().Overlays().Remove(w.win.Canvas().Overlays().Top())
		showTextDialog("Details", "session: tools/call: a long error", w.win)
		if e := entryOf(); e == nil || e.TextStyle.Monospace {
			t.Errorf("a full error's dialog is monospace")
		}
	})
}
