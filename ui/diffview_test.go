package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/collection"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// diffBackend compares two fixed sessions.
type diffBackend struct {
	*fakeBackend
	a, b []sessiondiff.Exchange
}

func (d *diffBackend) DiffSessions(a, b string, ignore []string) (*sessiondiff.Result, error) {
	return sessiondiff.Compare(d.a, d.b, &sessiondiff.Options{Ignore: ignore})
}

func exchange(seq uint64, req, resp string, latency time.Duration) sessiondiff.Exchange {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	json.Unmarshal([]byte(req), &m)
	return sessiondiff.Exchange{Seq: seq, Dir: events.DirOut, Method: m.Method, Name: m.Params.Name, Request: json.RawMessage(req), Response: json.RawMessage(resp), Latency: latency}
}

// labelTexts lists the labels (and [buttons]) under o, a line each,
// walking containers only.
func labelTexts(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text + "\n")
		case *widget.Button:
			b.WriteString("[" + x.Text + "]\n")
		case *esc.Button:
			b.WriteString("[" + x.Text + "]\n")
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	return b.String()
}

// TestDiffView: a changed argument and a request only B has are listed
// with their paths and timing; an invalid ignore line says so and keeps
// the last comparison; ignoring the changed paths leaves only the extra
// request.
func TestDiffView(t *testing.T) {
	call := func(msg string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + msg + `"}}}`
	}
	res := func(msg string) string {
		return `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + msg + `"}]}}`
	}
	be := &diffBackend{fakeBackend: newFakeBackend("a", "b"),
		a: []sessiondiff.Exchange{exchange(3, call("hi"), res("hi"), 2*time.Millisecond)},
		b: []sessiondiff.Exchange{exchange(7, call("ho"), res("ho"), 5*time.Millisecond),
			exchange(9, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":2,"result":{}}`, time.Millisecond)}}
	w := newTestWindowBackend(t, be)
	var v *sessionDiffView
	Sync(func() { v = w.compareSessions("a", "b") })
	var got string
	Sync(func() { got = v.status.Text + "\n" + labelTexts(v.rows) })
	want := "2 of 2 requests differ.\n" +
		"differs · tools/call echo (A #3, B #7)\n2ms → 5ms\n" +
		`request  changed /params/arguments/message: "hi" → "ho"` + "\n" +
		`response changed /result/content/0/text: "hi" → "ho"` + "\n" +
		"only in B · ping (#9)\n\n"
	if got != want {
		t.Fatalf("the diff view reads\n%s\nwant\n%s", got, want)
	}

	Sync(func() { v.ignore.SetText(v.ignore.Text + "\nparams/oops") })
	Sync(func() { got = v.status.Text })
	if !strings.HasPrefix(got, "Fix the ignore list (the last comparison is shown): ") || !strings.Contains(got, `"params/oops"`) {
		t.Fatalf("an invalid ignore line: %q", got)
	}
	Sync(func() {
		v.ignore.SetText(strings.Join(sessiondiff.DefaultIgnore, "\n") + "\n/params/arguments/message\n/result/content/*/text")
	})
	Sync(func() { got = v.status.Text + "\n" + labelTexts(v.rows) })
	if want := "1 of 2 requests differ.\nsame · tools/call echo (A #3, B #7)\n2ms → 5ms\nonly in B · ping (#9)\n\n"; got != want {
		t.Fatalf("after ignoring the message: %q, want %q", got, want)
	}
}

// TestCollectionChecklist: each expectation of each call is ✓ or ✗, a
// call without expectations is checked for an answer, and a failed
// result's Differences open them.
func TestCollectionChecklist(t *testing.T) {
	w := newTestWindowBackend(t, newFakeBackend("demo"))
	v := &collectionView{w: w, path: "smoke.json"}
	yes := true
	rep := &collection.Report{Results: []collection.Result{
		{Call: &collection.Call{Method: "tools/call", Params: json.RawMessage(`{"name":"echo"}`),
			Expect: &collection.Expect{Result: json.RawMessage(`{}`), IsError: &yes}},
			Failures: []collection.Failure{{Expectation: "result", Message: "the result differs",
				Changes: []sessiondiff.Change{{Op: sessiondiff.Changed, Path: "/result/x", Old: json.RawMessage(`1`), New: json.RawMessage(`2`)}}}},
			Outcome: collection.Outcome{Duration: 3 * time.Millisecond}},
		{Call: &collection.Call{Name: "ping", Method: "ping"},
			Failures: []collection.Failure{{Expectation: "answer", Message: "no answer: " + errors.New("connection closed").Error()}}},
	}}
	var got string
	Sync(func() {
		v.buildUI()
		v.show("demo", rep, nil)
		got = v.status.Text + "\n" + labelTexts(v.rows)
	})
	want := "2 of 2 calls failed against demo.\n" +
		"✗ tools/call echo\n3ms\n    ✗ result: the result differs\n[Differences]\n    ✓ isError\n" +
		"✗ ping\n\n    ✗ answer: no answer: connection closed\n"
	if got != want {
		t.Fatalf("the checklist reads\n%s\nwant\n%s", got, want)
	}
	Sync(func() { tapButton(t, v.rows, "Differences") })
	var shown bool
	Sync(func() {
		for _, o := range w.win.Canvas().Overlays().List() {
			walkVisible(o, func(o fyne.CanvasObject) {
				if e, ok := esc.AsEntry(o); ok && strings.Contains(e.Text, "changed /result/x: 1 → 2") {
					shown = true
				}
			})
		}
	})
	if !shown {
		t.Fatal("Differences did not show the change")
	}
}

// shownRows are the rows a label draws, as its text objects hold them.
func shownRows(l *widget.Label) []string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *canvas.Text:
			out = append(out, x.Text)
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(l)
	return out
}

// TestDiffLinesBreakOnlyAtSpaces: in a pane narrower than a change line,
// the line wraps at spaces, never inside a word ("tues day"), and a word
// wider than the pane widens the rows (they scroll sideways) instead of
// being cut.
func TestDiffLinesBreakOnlyAtSpaces(t *testing.T) {
	test.NewTempApp(t)
	long := "https://example.com/" + strings.Repeat("segment/", 12) + "end"
	for _, text := range []string{
		`request  changed /params/arguments/day: "monday and then" → "tuesday and then wednesday and thursday"`,
		`request  changed /params/arguments/url: "` + long + `" → "x"`,
	} {
		Sync(func() {
			line := diffLine(text)
			pane := container.NewScroll(container.NewVBox(line))
			w := test.NewTempWindow(t, pane)
			w.Resize(fyne.NewSize(240, 400))
			var l *widget.Label
			walkAll(line, func(o fyne.CanvasObject) {
				if x, ok := o.(*widget.Label); ok {
					l = x
				}
			})
			rows := shownRows(l)
			if len(rows) < 2 {
				t.Fatalf("%q is one row of %v px in a 240 px pane: it should wrap", text, l.Size().Width)
			}
			words := map[string]bool{}
			for _, r := range rows {
				for _, w := range strings.Fields(r) {
					words[w] = true
				}
			}
			for _, w := range strings.Fields(text) {
				if !words[w] {
					t.Errorf("%q is broken inside a word: the rows are %q", w, rows)
				}
			}
		})
	}
}
