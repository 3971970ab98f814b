package cmd

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/tracetest"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestInfoHandshake: the window's Server info learns from the Info adapter
// what the demo server negotiated and how, in each era of the catalog.
func TestInfoHandshake(t *testing.T) {
	srv := httptest.NewServer(demo.NewHTTPHandler(demo.New(&demo.Options{NotesDir: t.TempDir()})))
	defer srv.Close()
	url := srv.URL + demo.HTTPPath
	cat, err := catalog.Parse([]byte(`{"mcpServers": {
		"legacy": {"type": "http", "url": "` + url + `", "protocolEra": "legacy"},
		"modern": {"type": "http", "url": "` + url + `", "protocolEra": "modern"},
		"auto":   {"type": "http", "url": "` + url + `", "protocolEra": "auto"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b := newGUIBackend(cat, "", nil)
	b.secrets = secrets.NewMemory()
	for _, tc := range []struct {
		name, version string
		modern        bool
	}{
		{"legacy", "2025-11-25", false},
		{"modern", "2026-07-28", true},
		{"auto", "2026-07-28", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := b.Open(tc.name, func(ui.StateView) {})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Connect(context.Background()); err != nil {
				t.Fatal(err)
			}
			in := c.Info()
			if in.ProtocolVersion != tc.version || in.Modern != tc.modern || in.Fallback != "" {
				t.Errorf("Info() = version %q, modern %v, fallback %q; want %q, %v, none", in.ProtocolVersion, in.Modern, in.Fallback, tc.version, tc.modern)
			}
		})
	}
}

// TestCLIHandshakeFallback: server-everything speaks only the legacy
// handshake, so the auto era falls back to initialize; the CLI records
// that, and why, in --trace (and --verbose); the legacy era needs no note.
func TestCLIHandshakeFallback(t *testing.T) {
	dir := isolateCLI(t)
	node, file := peers.Node(t), peers.File(t, peers.Everything)
	for _, era := range []string{"auto", "legacy"} {
		t.Run(era, func(t *testing.T) {
			trace := filepath.Join(dir, era+".trace.json")
			var out, errb bytes.Buffer
			code := run([]string{"--cli", "--method", "ping", "--protocol-era", era, "--trace", trace, "--", node, file},
				strings.NewReader(""), &out, &errb)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			_, evs := tracetest.Read(t, trace)
			var note string
			for _, e := range evs {
				if e.Kind == events.KindWarning && strings.HasPrefix(e.Text, "protocol ") {
					note = e.Text
				}
			}
			switch era {
			case "auto":
				for _, want := range []string{"protocol 2025-11-25 (legacy era, via initialize)", "server/discover failed", "fell back to initialize"} {
					if !strings.Contains(note, want) {
						t.Errorf("the handshake note %q lacks %q", note, want)
					}
				}
			case "legacy":
				if note != "" {
					t.Errorf("a first-try handshake got a note: %q", note)
				}
			}
		})
	}
}
