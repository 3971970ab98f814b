package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
)

// TestTemplateExpansionInPlainWords: a template's variables edited as
// JSON that is not valid say so on the expansion line in plain words,
// starting with a capital as every error line of the window, where the
// line showed the error's text as it came.
func TestTemplateExpansionInPlainWords(t *testing.T) {
	_, _, ss := connected(t, nil)
	r := ss.resources
	Sync(func() { r.list.Select(2) })
	waitFor(t, "the template's form", func() bool { return r.params != nil && r.params.form != nil })
	Sync(func() {
		var mode *widget.RadioGroup
		walkVisible(r.vars, func(o fyne.CanvasObject) {
			if g, ok := o.(*widget.RadioGroup); ok && mode == nil {
				mode = g
			}
		})
		if mode == nil {
			t.Fatal("no Form/JSON switch in the variables' form")
		}
		mode.SetSelected("JSON")
		var editor *jsonedit.Entry
		walkVisible(r.vars, func(o fyne.CanvasObject) {
			if e, ok := o.(*jsonedit.Entry); ok && editor == nil {
				editor = e
			}
		})
		if editor == nil {
			t.Fatal("no JSON editor")
		}
		editor.SetText(`{"lang": "fr",}`)
		r.showExpansion()
		if got := r.expand.Identifier(); !strings.HasPrefix(got, "The arguments are not valid JSON: line 1, column 15") || !r.expand.Visible() {
			t.Errorf("the expansion line says %q", got)
		}
	})
}
