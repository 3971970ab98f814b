package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/collection"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUICollection saves a real echo call to the demo server's default
// collection (the result's Save to collection…), adds to the file a
// call whose pointer expectation holds and one whose result differs,
// runs it against the demo server (File → Run collection…'s run) and
// reads the checklist: the saved call and the pointer pass, the changed
// call fails at exactly the echoed text, and its Differences open.
func TestGUICollection(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("echo", `{"message":"saved"}`)
	h.waitFor("the echo result", func() bool { return h.hasText("Echo: saved") })

	h.tap("Save to collection…") // on the result
	path := filepath.Join(collection.DefaultDir(), "demo.json")
	h.waitFor("the save dialog with the default file", func() bool {
		return h.find(func(o fyne.CanvasObject) bool { e := asEntry(o); return e != nil && e.Text == path }) != nil
	})
	h.tap("Save")
	h.waitFor("the saved toast", func() bool { return h.hasText("Saved tools/call echo to " + path) })

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := collection.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the saved collection does not read: %v\n%s", err, b)
	}
	if len(c.Calls) != 1 || c.Server == nil || c.Server.Name != "demo" || c.Calls[0].Expect == nil || len(c.Calls[0].Expect.Result) == 0 {
		t.Fatalf("saved %s", b)
	}
	saved := c.Calls[0]
	c.Calls = append(c.Calls,
		collection.Call{Name: "pointer holds", Method: "tools/call", Params: saved.Params,
			Expect: &collection.Expect{Pointers: []collection.PointerEquals{{Pointer: "/content/0/text", Equals: json.RawMessage(`"Echo: saved"`)}}}},
		collection.Call{Name: "argument changed", Method: "tools/call", Params: json.RawMessage(`{"name":"echo","arguments":{"message":"changed"}}`),
			Expect: &collection.Expect{Result: saved.Expect.Result}})
	var buf bytes.Buffer
	if err := collection.Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	ui.Sync(func() { h.w.RunCollection(path) })
	h.waitFor("the checklist", func() bool { return h.hasText("1 of 3 calls failed against demo.") })
	var lines []string
	ui.Sync(func() {
		for _, o := range h.win.Canvas().Overlays().List() {
			walk(o, func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok && (strings.HasPrefix(l.Text, "✓") || strings.HasPrefix(l.Text, "✗") || strings.HasPrefix(l.Text, "    ")) {
					lines = append(lines, strings.TrimSpace(l.Text))
				}
			})
		}
	})
	want := []string{
		"✓ tools/call echo", "✓ result",
		"✓ pointer holds", "✓ pointer /content/0/text",
		"✗ argument changed",
	}
	got := strings.Join(lines, "\n")
	if !strings.HasPrefix(got, strings.Join(want, "\n")+"\n✗ result: the result differs from the expected one") {
		t.Fatalf("the checklist reads:\n%s", got)
	}
	h.tap("Differences")
	h.waitFor("the failure's differences", func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			e := asEntry(o)
			return e != nil && strings.Contains(e.Text, `changed /result/content/0/text: "Echo: saved" → "Echo: changed"`)
		}) != nil
	})
	h.tap("Close")

	// Tools → Save last call to collection… saves the latest call (the
	// run's "argument changed") to a file of the user's choosing
	ui.Sync(h.menuItem("Tools", "Save last call to collection…").Action)
	other := filepath.Join(h.dir, "project", "calls.json")
	ui.Sync(func() {
		e := asEntry(h.find(func(o fyne.CanvasObject) bool { e := asEntry(o); return e != nil && e.Text == path }))
		if e == nil {
			t.Fatal("no path in the save dialog")
		}
		e.SetText(other)
	})
	h.tap("Save")
	h.waitFor("saved elsewhere", func() bool { return h.hasText("Saved tools/call echo to " + other) })
	b, _ = os.ReadFile(other)
	if c, err := collection.Read(bytes.NewReader(b)); err != nil || len(c.Calls) != 1 || !strings.Contains(string(c.Calls[0].Params), `"changed"`) {
		t.Fatalf("the chosen file holds %s (%v)", b, err)
	}
}
