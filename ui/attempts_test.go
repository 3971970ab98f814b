package ui

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestArgumentDiffs: the hops of a tool call's arguments are compared the
// way core/sessiondiff compares messages, one line a path; a form field
// whose text is not what was parsed says so, one that was not sent too.
func TestArgumentDiffs(t *testing.T) {
	got := jsonDiffs(json.RawMessage(`{"message":"a","n":1,"list":[1,2]}`), json.RawMessage(`{"message":"b","x":true,"list":[1,2],"n":1.0}`))
	want := []string{`added /x: true`, `changed /message: "a" → "b"`, `changed /n: 1 → 1.0`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("jsonDiffs = %q, want %q", got, want)
	}
	if got := jsonDiffs(json.RawMessage(`{"a":1}`), json.RawMessage(` {"a": 1} `)); len(got) != 0 {
		t.Errorf("the same arguments differ: %q", got)
	}
	if got := jsonDiffs(nil, json.RawMessage(`{}`)); !reflect.DeepEqual(got, []string{`added (the whole message): {}`}) {
		t.Errorf("no arguments against {}: %q", got)
	}

	ent := &enteredArgs{Mode: "form", Parsed: json.RawMessage(`{"n":7.50,"s":"x","o":{"k~/":"v"}}`), Fields: []enteredField{
		{"/n", "7.5"}, {"/s", "x"}, {"/o/k~0~1", "v"}, {"/gone", "y"},
	}}
	want = []string{`/n: entered "7.5", parsed 7.50`, `/gone: entered "y", not sent`}
	if got := enteredDiffs(ent); !reflect.DeepEqual(got, want) {
		t.Errorf("enteredDiffs = %q, want %q", got, want)
	}
}

// TestAttemptRowFitsNarrowPane: the details pane asks for no width of its
// own, so an attempt's row with a long outcome must fit a 250 px pane and
// still say everything: the button is only "Attempt N", the rest wraps
// at spaces beside it.
func TestAttemptRowFitsNarrowPane(t *testing.T) {
	test.NewTempApp(t)
	x := EventView{Seq: 7, Kind: "tool", Event: events.Event{
		Lineage: &events.Lineage{ID: "L1", Attempt: 2}, ErrorClass: "transport", OutcomeUnknown: true,
		Tool: &events.ToolInfo{Name: "write_file", Status: "failed", RequestID: "1234567", Duration: 1500 * time.Millisecond},
	}}
	whole := attemptText(x)
	if !strings.Contains(whole, "failed: transport (outcome unknown)") || !strings.Contains(whole, "id 1234567") {
		t.Fatalf("the attempt's line is %q", whole)
	}
	Sync(func() {
		tapped := false
		row := attemptRow(x, true, func() { tapped = true })
		w := test.NewTempWindow(t, container.NewVBox(row))
		w.Resize(fyne.NewSize(250, 300))
		if m := row.MinSize(); m.Width > 250 {
			t.Errorf("the row needs %v px, more than a 250 px pane", m.Width)
		}
		got := texts(row)
		for _, part := range strings.Split(whole, " · ") {
			if !strings.Contains(got, part) {
				t.Errorf("the row lacks %q:\n%s", part, got)
			}
		}
		if !strings.Contains(got, "[▸ Attempt 2]") {
			t.Errorf("the row's button is not ▸ Attempt 2:\n%s", got)
		}
		// the label wraps inside the row's width, not past it
		walkAll(row, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok {
				if r := l.Position().X + l.Size().Width; r > row.Size().Width+1 {
					t.Errorf("the label ends at %v, past the row's %v", r, row.Size().Width)
				}
				if l.Size().Height <= l.MinSize().Height-1 {
					t.Errorf("the label is cut: %v tall, needs %v", l.Size().Height, l.MinSize().Height)
				}
			}
		})
		test.Tap(findButton(row, "▸ Attempt 2"))
		if !tapped {
			t.Error("the attempt's button does not open its messages")
		}
	})
}
