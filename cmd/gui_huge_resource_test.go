package cmd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/testwait"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUIHugeResource: a 50 MB resource read (the demo server's
// demo://large/text/{size}; 10 MB under the race detector, as
// TestGUIHugeResult) is shown in the Resources screen as a preview of its
// first 64 KB with Load more, which extends it (#17).
func TestGUIHugeResource(t *testing.T) {
	size, sizeText := 50<<20, "50.0 MB"
	if raceEnabled {
		size, sizeText = 10<<20, "10.0 MB"
	}
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
	// The bound is a hang's (see TestGUIHugeResult); each poll is a turn
	// of the UI thread, which answers while the read is under way.
	if !testwait.Within(5*time.Minute, func() bool {
		var ok bool
		ui.Sync(func() { ok = h.hasText("Showing the first 64.0 KB of " + sizeText + ".") })
		return ok
	}) {
		t.Fatalf("timed out waiting for the preview of the %s read", sizeText)
	}
	ui.Sync(func() {
		if h.find(func(o fyne.CanvasObject) bool {
			c, ok := o.(*canvas.Text) // a paged text's rows
			return ok && strings.HasPrefix(c.Text, "# Spyglass demo server")
		}) == nil {
			t.Error("the preview does not show the text's first line")
		}
	})
	h.tap("Load more")
	h.waitFor("more of the text", func() bool { return h.hasText("Showing the first 320.0 KB of " + sizeText + ".") })
}

// TestGUIThousandResources: the 10,000 resources of a server on the
// official TypeScript SDK v2 (core/session/testdata/tssdk_many_tools.mjs)
// are listed under a header per URI folder; search says how many match
// and finds the last one, which reads (#17).
func TestGUIThousandResources(t *testing.T) {
	node := testpeers.Node(t)
	testpeers.File(t, "@modelcontextprotocol/server/dist/index.mjs")
	script, err := filepath.Abs("../core/session/testdata/tssdk_many_tools.mjs")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"many": map[string]any{"command": node, "args": []string{script, "10000"}},
	}})
	h := newCatalogHarness(t, doc)
	h.connectWithTools()
	h.openTab("Resources")
	h.waitFor("10,000 resources in groups", func() bool {
		return h.hasText("10000 resources · 0 templates") && h.hasText("▾ group00/ in test://records/") && h.hasText("100 resources · tap to collapse")
	})
	ui.Sync(func() { h.entry("Search resources").SetText("group99/9999") })
	h.waitFor("the last resource", func() bool { return h.hasText("1 of 10000 resources") })
	ui.Sync(func() {
		if !h.selectRow("record9999") {
			t.Fatal("could not select the last resource")
		}
	})
	h.tap("Read")
	h.waitFor("its text", func() bool { return h.hasText("record 9999") })
}
