package form

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TestEscFromFormEntries: a form shown in a dialog (an elicitation, the
// connect-time inputs) is cancelled by Esc typed in any of its entries —
// text, number, format, multi-line and JSON fields.
func TestEscFromFormEntries(t *testing.T) {
	test.NewTempApp(t)
	model, err := schemaform.Build([]byte(everyKind))
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(700, 900))
	c := w.Canvas()
	f := New(model, nil)
	var entries []*esc.Entry
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *esc.Entry:
			entries = append(entries, x)
		case *fyne.Container:
			for _, ch := range x.Objects {
				walk(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(x).Objects() {
				walk(ch)
			}
		}
	}
	walk(f)
	if len(entries) < 5 {
		t.Fatalf("%d esc entries in the form, want its text, number and format fields", len(entries))
	}
	for i, e := range entries {
		esc.Show(esc.NewCustom("Answer", "Cancel", f, w), w)
		c.Focus(e)
		if c.Focused() != fyne.Focusable(e) {
			t.Fatalf("entry %d (%q) did not take the focus", i, e.PlaceHolder)
		}
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if esc.Open(c) != 0 || c.Overlays().Top() != nil {
			t.Fatalf("Esc in entry %d (%q) left the dialog open", i, e.PlaceHolder)
		}
	}
}
