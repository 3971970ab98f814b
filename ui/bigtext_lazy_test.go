package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/core/mcpresult"
)

// TestPagedContentDecodesOnDemand: a 2 MB text with escapes, which the
// decoder leaves undecoded (mcpresult.LazyText), shows its first page
// decoded; Load more decodes further, and Copy all hands over the whole
// text — the window never holds a decoded copy it does not show.
func TestPagedContentDecodesOnDemand(t *testing.T) {
	test.NewTempApp(t)
	line := "tab\there, é, and a line end\n"
	text := strings.Repeat(line, (2<<20)/len(line))
	q, _ := json.Marshal(text)
	c, probs := mcpresult.DecodeContent([]byte(`{"type":"text","text":`+string(q)+`}`), "/content/0")
	if len(probs) > 0 || c.Text != "" || c.TextLen() != len(text) {
		t.Fatalf("problems %v; Text %d bytes, TextLen %d: want the text left for later", probs, len(c.Text), c.TextLen())
	}
	Sync(func() {
		p := newPagedContent(c)
		w := test.NewTempWindow(t, p.obj)
		w.Resize(fyne.NewSize(600, 500))
		if p.shown < textPage || p.shown > textPage+8 || len(p.text) > textPage+8 || !p.more.Visible() {
			t.Fatalf("shows %d bytes of %d decoded (Load more %v), want the first %d", p.shown, len(p.text), p.more.Visible(), textPage)
		}
		if want := "Showing the first " + sizeText(p.shown) + " of " + sizeText(len(text)) + "."; p.note.Text != want {
			t.Errorf("note %q, want %q", p.note.Text, want)
		}
		test.Tap(p.more)
		if p.shown < textPage+morePage || len(p.text) > textPage+morePage+8 {
			t.Fatalf("after Load more: %d bytes shown, %d decoded", p.shown, len(p.text))
		}
		var b strings.Builder
		for i := range p.rows {
			b.WriteString(p.row(i))
		}
		if want := strings.ReplaceAll(strings.ReplaceAll(text[:p.shown], "\n", ""), "\t", "    "); b.String() != want {
			t.Error("the rows do not join up to the text shown")
		}
		if p.all() != text {
			t.Error("Copy all does not hand over the whole text")
		}
	})
}
