package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/core/collection"
	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui"
)

// saveShown taps the Save to collection… button shown, saves to path,
// and waits until the collection there holds n calls.
func saveShown(h *guiHarness, path string, n int) {
	h.t.Helper()
	h.tap("Save to collection…")
	def := h.be.DefaultCollection("demo")
	h.waitFor("the collection dialog", func() bool {
		return h.find(func(o fyne.CanvasObject) bool { e := asEntry(o); return e != nil && e.Text == def }) != nil
	})
	ui.Sync(func() {
		asEntry(h.find(func(o fyne.CanvasObject) bool { e := asEntry(o); return e != nil && e.Text == def })).SetText(path)
	})
	h.tap("Save")
	h.waitFor("the call saved", func() bool {
		if h.hasText("Could not save the call") {
			h.t.Fatal("the window could not save the call")
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		c, err := collection.Read(strings.NewReader(string(b)))
		return err == nil && len(c.Calls) == n
	})
}

// TestGUISaveToCollectionEverywhere saves calls to one collection from the
// prompt screen, the resource screen, the JSON-RPC tester and an
// inspector row, against the demo server; the collection holds the four
// in that order, and `--run` runs it against the demo with every
// expectation holding (exit 0).
func TestGUISaveToCollectionEverywhere(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	path := filepath.Join(h.dir, "saved.json")

	h.openTab("Prompts")
	h.waitFor("the greet prompt", func() bool { return h.hasText("Greet someone") })
	ui.Sync(func() {
		if !h.selectRow("Greet someone") {
			t.Fatal("could not select greet")
		}
	})
	h.waitFor("the arguments form", func() bool { return len(h.formEntries()) >= 2 })
	ui.Sync(func() { test.Type(h.formEntries()[0], "Ada") })
	h.tap("Get prompt")
	h.waitFor("the prompt messages", func() bool { return h.hasText("Messages") && h.hasText("Ada") })
	saveShown(h, path, 1)

	h.openTab("Resources")
	h.waitFor("the readme resource", func() bool { return h.hasText(demo.ReadmeURI) })
	ui.Sync(func() {
		if !h.selectRow("About the demo server") {
			t.Fatal("could not select the readme")
		}
	})
	// selecting a resource reads it
	h.waitFor("the readme contents", func() bool { return h.hasText("Raw JSON") && h.hasText(demo.ReadmeURI) })
	saveShown(h, path, 2)

	h.openTab("Experimental")
	h.waitFor("the tester", func() bool { return h.button("Send Request") != nil })
	h.tap("Send Request") // its first template: ping
	h.waitFor("the ping answer", func() bool {
		b := h.button("Save to collection…")
		return b != nil && !b.Disabled()
	})
	saveShown(h, path, 3)

	h.openTab("Tools")
	runToolForm(h, "echo", "saved from the inspector")
	h.waitFor("the echo result", func() bool { return h.hasText("Echo: saved from the inspector") })
	h.openTab("Logs") // no Save to collection… on the screens, only in the inspector's details
	var title string
	h.waitFor("the tools/call row", func() bool {
		for _, e := range h.be.log.Events() {
			if e.Conn == "demo" && e.Method == "tools/call" && e.Type == events.MsgRequest {
				title = "tools/call #" + e.ID
			}
		}
		return title != "" && h.hasText(title)
	})
	ui.Sync(func() {
		if !h.selectInspectorRow(title) {
			t.Fatalf("could not select the inspector row %s", title)
		}
	})
	saveShown(h, path, 4)

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := collection.Read(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, call := range c.Calls {
		got = append(got, call.Method)
	}
	if want := "prompts/get resources/read ping tools/call"; strings.Join(got, " ") != want {
		t.Fatalf("the collection holds %v, want %s", got, want)
	}
	code, out, errs := cli(t, "--run", path, "--config", filepath.Join(h.dir, "mcp.json"), "--server", "demo")
	if code != exitOK || !strings.Contains(out, "all 4 calls passed") {
		t.Fatalf("--run: exit %d\n%s\n%s", code, out, errs)
	}
}
