package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
)

// TestInvalidJSONArgsSaidOnce: Run with a trailing comma in the tool's
// JSON editor says so once, under the editor, in plain words — not again
// as the call's result, and without a "form:" prefix.
func TestInvalidJSONArgsSaidOnce(t *testing.T) {
	_, _, ss := connected(t, nil)
	Sync(func() {
		for i, x := range ss.tools.shown {
			if x.Name == "echo" {
				ss.tools.list.Select(i)
			}
		}
		var mode *widget.RadioGroup
		var entry *jsonedit.Entry
		walkAll(ss.tools.args.Object(), func(o fyne.CanvasObject) {
			if r, ok := o.(*widget.RadioGroup); ok && mode == nil {
				mode = r
			}
		})
		if mode == nil {
			t.Fatal("no Form/JSON switch")
		}
		mode.SetSelected("JSON")
		walkAll(ss.tools.args.Object(), func(o fyne.CanvasObject) {
			if e, ok := o.(*jsonedit.Entry); ok && entry == nil {
				entry = e
			}
		})
		if entry == nil {
			t.Fatal("no JSON editor")
		}
		entry.SetText("{\n  \"message\": \"hi\",\n}")
		ss.tools.onRun()
	})
	Sync(func() {
		if ss.tools.running != nil {
			t.Fatal("the call was sent")
		}
		if got := texts(ss.tools.result); strings.Contains(got, "not valid JSON") {
			t.Errorf("the result repeats the editor's message:\n%s", got)
		}
		var said []string
		walkVisible(ss.tools.detail, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "not valid JSON") {
				said = append(said, l.Text)
			}
		})
		if len(said) != 1 || !strings.HasPrefix(said[0], "The arguments are not valid JSON: line 3") {
			t.Errorf("the tools screen says %q; want it once, under the editor, cause first", said)
		}
	})
}
