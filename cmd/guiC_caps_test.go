package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestGUIC_AddedServerDeclaresEveryCapability: a server added by hand in
// the window (what the Add server form saves for stdio: a name, a command
// and its arguments, nothing else) is connected declaring every
// capability Spyglass supports — roots, sampling, elicitation form and
// url, tasks — so the real server-everything lists all 19 of its tools,
// the two task-augmented ones (trigger-sampling-request-async,
// trigger-elicitation-request-async) included.
func TestGUIC_AddedServerDeclaresEveryCapability(t *testing.T) {
	node := testpeers.Node(t)
	file := testpeers.File(t, testpeers.Everything)
	h := newCatalogHarness(t, []byte(`{"mcpServers":{}}`))
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	if err := h.be.SaveServer("", ui.ServerConfig{Name: "everything", Transport: "stdio", Command: node, Args: []string{file}}); err != nil {
		t.Fatal(err)
	}
	ui.Sync(h.w.ServersChanged)
	h.selectCard("everything")
	h.connectWithTools()

	// server-everything registers its conditional tools on initialized
	// and says tools/list_changed; the window lists them again
	h.waitFor("19 tools", func() bool { return h.hasText("19 tools") })

	h.be.mu.Lock()
	sess := h.be.live["everything"]
	h.be.mu.Unlock()
	var caps map[string]json.RawMessage
	if err := json.Unmarshal(sess.ClientCapabilities(), &caps); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"roots", "sampling", "elicitation", "tasks"} {
		if _, ok := caps[want]; !ok {
			t.Errorf("client capabilities %s lack %s", sess.ClientCapabilities(), want)
		}
	}
	if e := string(caps["elicitation"]); !strings.Contains(e, `"form"`) || !strings.Contains(e, `"url"`) {
		t.Errorf("elicitation capability %s, want form and url", e)
	}
	ui.Sync(func() { h.entry("Search tools").SetText("async") })
	h.waitFor("the task-augmented tools", func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && strings.HasPrefix(l.Text, "trigger-elicitation-request-async")
		}) != nil && h.hasText("trigger-sampling-request-async")
	})
}
