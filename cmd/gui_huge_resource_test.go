package cmd

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUIHugeResource: a 50 MB resource read (the demo server's
// demo://large/text/{size}; 10 MB under the race detector, as
// TestGUIHugeResult) is shown in the Resources screen as a preview of its
// first 64 KB with Load more, which extends it (#17).
func TestGUIHugeResource(t *testing.T) {
	size, sizeText := hugeSize()
	h := newGUIHarness(t)
	h.waitFor("the server cards", func() bool { return h.hasText("demo") })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("Connected") && h.hasText("tools") })
	h.openTab("Resources")
	h.waitFor("the templates", func() bool { return h.hasText(demo.LargeTemplate) })
	ui.Sync(func() {
		if !h.selectRow("Large read") {
			t.Fatal("could not select the large read template")
		}
	})
	h.waitFor("two variables", func() bool { return len(h.formEntries()) == 2 })
	ui.Sync(func() {
		ents := h.formEntries()
		test.Type(ents[0], "text")
		test.Type(ents[1], fmt.Sprint(size))
	})
	h.waitFor("the expansion", func() bool { return h.hasText(fmt.Sprintf("→ demo://large/text/%d", size)) })
	h.tap("Read")
	h.waitPreview("read", sizeText)
	ui.Sync(func() {
		if h.find(func(o fyne.CanvasObject) bool {
			c, ok := o.(*canvas.Text) // a paged text's rows
			return ok && strings.HasPrefix(c.Text, "# Spyglass demo server")
		}) == nil {
			t.Error("the preview does not show the text's first line")
		}
	})
	h.loadMore(sizeText)
}
