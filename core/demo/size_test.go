package demo

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestEmbeddedResourceSize: get_embedded_resource's size makes its text
// resource exactly that many bytes (the large results of issue #17's
// benchmarks); no size keeps the README, and a size out of range is a
// tool error, not a huge allocation.
func TestEmbeddedResourceSize(t *testing.T) {
	p := startInProcess(t, nil)
	text := func(r *mcp.CallToolResult) string {
		t.Helper()
		for _, c := range r.Content {
			if e, ok := c.(mcp.EmbeddedResource); ok {
				if tr, ok := e.Resource.(mcp.TextResourceContents); ok {
					return tr.Text
				}
			}
		}
		t.Fatalf("no embedded text resource in %+v", r.Content)
		return ""
	}
	if got := text(p.call(t, ToolEmbeddedResource, nil)); got != readmeText {
		t.Errorf("without size: %d bytes, want the README (%d)", len(got), len(readmeText))
	}
	const n = 1<<20 + 7
	got := text(p.call(t, ToolEmbeddedResource, map[string]any{"size": n}))
	if len(got) != n || !strings.HasPrefix(got, readmeText) {
		t.Errorf("size %d: %d bytes, prefix %.40q", n, len(got), got)
	}
	if r := p.call(t, ToolEmbeddedResource, map[string]any{"size": MaxEmbeddedSize + 1}); !r.IsError {
		t.Error("a size beyond MaxEmbeddedSize was not refused")
	}
}
