package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/internal/hartest"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUIExportHAR: File → Export HAR… saves the demo server's HTTP
// exchanges (over Streamable HTTP) as a HAR file that validates against
// the HAR 1.2 schema and holds the echo call and its answer; for a stdio
// server the item is off and says why.
func TestGUIExportHAR(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runTool("echo", `{"message":"kept in the HAR"}`)
	h.waitFor("the echo result", func() bool { return h.hasText("Echo: kept in the HAR") })

	item := h.menuItem("File", "Export HAR…")
	ui.Sync(func() {
		if item.Disabled {
			t.Fatal("Export HAR… is off for an http server")
		}
	})
	ui.Sync(item.Action)
	path := filepath.Join(h.dir, "demo.har")
	h.waitFor("the saved toast", func() bool { return h.hasText("Saved " + path) })
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hartest.Validate(t, b)
	var f struct {
		Log struct {
			Entries []struct {
				Request struct {
					Method   string `json:"method"`
					PostData struct {
						Text string `json:"text"`
					} `json:"postData"`
				} `json:"request"`
				Response struct {
					Status  int `json:"status"`
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"response"`
			} `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range f.Log.Entries {
		if e.Request.Method == "POST" && strings.Contains(e.Request.PostData.Text, `"tools/call"`) &&
			strings.Contains(e.Request.PostData.Text, "kept in the HAR") && e.Response.Status == 200 &&
			strings.Contains(e.Response.Content.Text, "Echo: kept in the HAR") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no POST of the echo call with its answer among %d entries:\n%s", len(f.Log.Entries), b)
	}

	// a stdio server: the item is off and says why
	h.selectCard("broken")
	ui.Sync(func() {
		var it = item
		for _, m := range h.win.MainMenu().Items {
			for _, x := range m.Items {
				if strings.HasPrefix(x.Label, "Export HAR…") {
					it = x
				}
			}
		}
		if !it.Disabled || it.Label != "Export HAR… (stdio servers have no HTTP)" {
			t.Fatalf("for a stdio server the item is %q, disabled %v", it.Label, it.Disabled)
		}
	})
}
