package requests

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// pressEsc types Esc as the window would: to the focused control, or to
// the canvas when nothing has the focus.
func pressEsc(c fyne.Canvas) {
	ev := &fyne.KeyEvent{Name: fyne.KeyEscape}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if h := c.OnTypedKey(); h != nil {
		h(ev)
	}
}

// TestEscClosesRequestDialogsWhateverHasFocus opens each request in a
// dialog ("Open in a dialog" / View Details), Tabs onto each of its
// controls in turn — the panel's buttons, entries, JSON editors and the
// dialog's Close — and presses Esc: the dialog closes every time and the
// request is still waiting in the queue (Esc is not an answer).
func TestEscClosesRequestDialogsWhateverHasFocus(t *testing.T) {
	q, win, _ := newQueue(t, testProfiles())
	c := win.Canvas()
	var answered int
	q.AddSampling(plainSampling(), func(SamplingAnswer) { answered++ })
	q.AddSampling(toolSampling(), func(SamplingAnswer) { answered++ })
	q.AddElicitation(formRequest(), func(ElicitationAnswer) { answered++ })
	q.AddElicitation(urlRequest(), func(ElicitationAnswer) { answered++ })

	inDialog := func(t *testing.T, server, id string) {
		t.Helper()
		if !q.OpenModal(server, id) {
			t.Fatalf("%s %s did not open in a dialog", server, id)
		}
	}
	open := []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"sampling with an image and audio", func(t *testing.T) { inDialog(t, "everything", "3") }},
		{"sampling offering tools, a tool call added", func(t *testing.T) {
			inDialog(t, "weather", "9")
			top := c.Overlays().Top()
			calls := 0
			walk(top, func(o fyne.CanvasObject) {
				if b, ok := o.(*esc.Button); ok && b.Text == "" && b.Visible() {
					calls++ // a tool call's remove button
				}
			})
			if calls == 0 {
				test.Tap(button(t, top, "Add tool call"))
			}
		}},
		{"form elicitation", func(t *testing.T) { inDialog(t, "data-processor", "7") }},
		{"URL elicitation", func(t *testing.T) { inDialog(t, "github-tools", "12") }},
		{"sampling details from the inline panel", func(t *testing.T) {
			q.list.Select(0) // the plain sampling request
			test.Tap(button(t, q.detail, "View Details"))
		}},
	}
	for _, o := range open {
		t.Run(o.name, func(t *testing.T) { escFromEveryControl(t, c, func() { o.fn(t) }) })
	}
	if answered != 0 || q.Len() != 4 {
		t.Errorf("Esc answered %d requests; %d left in the queue", answered, q.Len())
	}
}

// escFromEveryControl opens a dialog with open once to count the controls
// Tab reaches, then once per control: Tab onto it, Esc, and the dialog
// must be gone.
func escFromEveryControl(t *testing.T, c fyne.Canvas, open func()) {
	t.Helper()
	closeAll := func() { // as their Close buttons would, then whatever is left
		for esc.Cancel(c) {
		}
		for c.Overlays().Top() != nil {
			c.Overlays().Remove(c.Overlays().Top())
		}
	}
	open()
	test.FocusNext(c)
	first := c.Focused()
	if first == nil {
		t.Fatal("Tab reaches no control in the dialog")
	}
	n := 1
	for test.FocusNext(c); c.Focused() != first && n < 300; test.FocusNext(c) {
		n++
	}
	pressEsc(c)
	closeAll()
	if n < 3 {
		t.Fatalf("Tab reaches only %d controls", n)
	}
	for i := 1; i <= n; i++ {
		before := len(c.Overlays().List())
		open()
		if len(c.Overlays().List()) == before {
			t.Fatalf("no dialog opened")
		}
		for range i {
			test.FocusNext(c)
		}
		focused := fmt.Sprintf("%T", c.Focused())
		if f, ok := c.Focused().(fyne.CanvasObject); ok {
			if b, ok := esc.AsButton(f); ok {
				focused += " " + b.Text
			}
		}
		pressEsc(c)
		if got := len(c.Overlays().List()); got != before {
			t.Errorf("Esc with %s focused (Tab ×%d of %d) left the dialog open", focused, i, n)
			closeAll()
		}
	}
}
