package form

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// jsonModePage is a form in JSON mode inside an esc.NewVScroll with more
// below it, as the Tools, Prompts and Resources screens lay it out.
func jsonModePage(t *testing.T, text string) (*Form, *container.Scroll, fyne.Canvas) {
	t.Helper()
	test.NewTempApp(t)
	model, err := schemaform.Build([]byte(everyKind))
	if err != nil {
		t.Fatal(err)
	}
	f := New(model, nil)
	below := container.NewVBox()
	for range 30 {
		below.Add(widget.NewLabel("result row"))
	}
	page := esc.NewVScroll(container.NewVBox(f, below))
	w := test.NewTempWindow(t, page)
	w.Resize(fyne.NewSize(500, 500))
	if err := setJSONMode(f, true); err != nil {
		t.Fatal(err)
	}
	f.jsonEntry.SetText(text)
	page.Refresh() // lay the page out for JSON mode, as the next frame would
	return f, page, w.Canvas()
}

func centreOf(o fyne.CanvasObject) fyne.Position {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return p.Add(fyne.NewPos(o.Size().Width/2, o.Size().Height/3))
}

// TestJSONModeWheelScrollsEditorThenPage: the wheel over the JSON
// editor scrolls the editor while it can, and once it is at its end it
// scrolls the page around the form.
func TestJSONModeWheelScrollsEditorThenPage(t *testing.T) {
	f, page, c := jsonModePage(t, "{\n"+strings.Repeat("  \"k\": 1,\n", 40)+"  \"end\": 1\n}")
	at := centreOf(f.jsonEdit)
	test.Scroll(c, at, 0, -20)
	if f.jsonEdit.Offset().Y == 0 || page.Offset.Y != 0 {
		t.Fatalf("first wheel: editor at %v, page at %v; want the editor to scroll, the page to stay", f.jsonEdit.Offset(), page.Offset)
	}
	for range 100 {
		test.Scroll(c, at, 0, -20)
		if page.Offset.Y != 0 {
			break
		}
	}
	if page.Offset.Y == 0 {
		t.Fatalf("the wheel over the JSON editor at its end (%v) did not scroll the page", f.jsonEdit.Offset())
	}
	// and back up: the editor first, while the page ... stays where the
	// pointer now is over the editor or not; the editor can scroll up.
	ed := f.jsonEdit.Offset().Y
	test.Scroll(c, centreOf(f.jsonEdit), 0, 20)
	if f.jsonEdit.Offset().Y >= ed {
		t.Fatalf("the wheel up over the editor did not scroll it back (%v)", f.jsonEdit.Offset())
	}
}

// TestJSONModeWheelWideShortText: an editor whose text fits in height but
// not in width passes the up-down wheel to the page instead of turning it
// sideways (Fyne's Scroll does that); a sideways wheel scrolls it.
func TestJSONModeWheelWideShortText(t *testing.T) {
	f, page, c := jsonModePage(t, `{"name": "`+strings.Repeat("a long value ", 30)+`"}`)
	at := centreOf(f.jsonEdit)
	test.Scroll(c, at, 0, -20)
	if page.Offset.Y == 0 || f.jsonEdit.Offset().X != 0 {
		t.Fatalf("up-down wheel: page at %v, editor at %v; want the page to scroll", page.Offset, f.jsonEdit.Offset())
	}
	test.Scroll(c, centreOf(f.jsonEdit), -20, 0)
	if f.jsonEdit.Offset().X == 0 {
		t.Fatalf("a sideways wheel did not scroll the wide editor")
	}
}
