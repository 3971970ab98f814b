package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/ui"
)

// newMemoryHarness opens the window on a catalog holding server-memory
// over stdio, started through sh so that the wrapper writes "boot" to
// stderr before the real server runs.
func newMemoryHarness(t *testing.T) *guiHarness {
	t.Helper()
	node := testpeers.Node(t)
	file := testpeers.File(t, testpeers.Memory)
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"memory": map[string]any{
			"command": "sh",
			"args":    []string{"-c", `echo boot >&2; exec "$0" "$1"`, node, file},
			"env":     map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")},
		},
	}})
	return newCatalogHarness(t, doc)
}

// stderrLines are the lines the Logs screen's stderr view shows (its
// rows are the only monospace labels in a list).
func (h *guiHarness) stderrLines() []string {
	var out []string
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.List); ok {
			walk(l, func(x fyne.CanvasObject) {
				if y, ok := x.(*widget.Label); ok && y.TextStyle.Monospace && y.Text != "" {
					out = append(out, y.Text)
				}
			})
		}
	})
	return out
}

// TestGUIStderrFromFirstByte: what a stdio server writes to stderr while
// it starts (before the initialize answer, so before the window has its
// screens) is in the record and in Logs → stderr: the wrapper's "boot"
// and server-memory's own start-up line.
func TestGUIStderrFromFirstByte(t *testing.T) {
	h := newMemoryHarness(t)
	h.connectWithTools()
	var inLog bool
	for _, e := range h.be.log.Events() {
		if e.Kind == events.KindStderr && e.Conn == "memory" && e.Text == "boot" {
			inLog = true
		}
	}
	if !inLog {
		t.Fatal("the record has no stderr line \"boot\"")
	}
	h.openTab("Logs")
	h.openTab("stderr")
	h.waitFor("boot in Logs → stderr", func() bool {
		lines := h.stderrLines()
		boot, own := false, false
		for _, l := range lines {
			boot = boot || l == "boot"
			own = own || strings.Contains(l, "Knowledge Graph MCP Server")
		}
		return boot && own
	})
	ui.Sync(func() {
		if lines := h.stderrLines(); len(lines) == 0 || lines[0] != "boot" {
			t.Errorf("stderr view starts with %q, want the first byte's line \"boot\" first", lines)
		}
	})
}
