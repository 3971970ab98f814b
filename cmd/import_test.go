package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

func TestImportCommand(t *testing.T) {
	def := isolate(t)
	dir := t.TempDir()
	claude := put(t, filepath.Join(dir, "claude_desktop_config.json"), `{
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "spyglass-demo": {"command": "elsewhere"}
  }
}`)
	code, out, errOut := runCatalogCmd(t, "--import", claude)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Claude Desktop / Cursor / Claude Code format", "added    memory", "skipped  spyglass-demo", "1 added, 1 skipped"} {
		if !strings.Contains(out, want) {
			t.Fatalf("lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "created "+def) {
		t.Fatalf("seed not reported: %q", errOut)
	}
	b, _ := os.ReadFile(def)
	c, err := catalog.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Names(), ",") != "spyglass-demo,filesystem-server-default,everything-server-default,memory" {
		t.Fatal(c.Names())
	}
	if !strings.HasPrefix(string(b), catalog.Seed[:strings.LastIndex(catalog.Seed, "    }\n  }")]) {
		t.Fatal("seeded entries were rewritten")
	}
	if s, _ := c.Get("spyglass-demo"); s.Command != "spyglass" {
		t.Fatal("clash overwrote the entry")
	}

	// importing again: everything clashes, nothing changes
	before := checksum(t, def)
	code, out, _ = runCatalogCmd(t, "--import", claude)
	if code != 0 || !strings.Contains(out, "0 added, 2 skipped") || checksum(t, def) != before {
		t.Fatalf("%d %s", code, out)
	}
}

func TestImportVSCodeInputs(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	cat := put(t, filepath.Join(dir, "cat.json"), `{"mcpServers": {}}`)
	vs := put(t, filepath.Join(dir, "mcp.json"), `{
  "inputs": [{"type": "promptString", "id": "gh-token", "password": true}],
  "servers": {
    "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${input:gh-token}"}}
  }
}`)
	code, out, errOut := runCatalogCmd(t, "--import", vs, "--catalog", cat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "VS Code format") || !strings.Contains(out, "${input:gh-token} in headers.Authorization is kept as written (declared") {
		t.Fatal(out)
	}
	b, _ := os.ReadFile(cat)
	if !strings.Contains(string(b), `"Authorization": "Bearer ${input:gh-token}"`) {
		t.Fatalf("%s", b)
	}
}

func TestImportBadInputChangesNothing(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	cat := put(t, filepath.Join(dir, "cat.json"), catalog.Seed)
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"malformed", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"\n  }\n}", []string{"bad.json:5:2: not valid JSON", "nothing imported"}},
		{"unknown type", `{"mcpServers": {"a": {"type": "ws", "url": "ws://x"}}}`, []string{`server "a": unknown "type" "ws"; write "type": "stdio"`}},
		{"no command", `{"mcpServers": {"a": {"type": "stdio"}}}`, []string{`needs a "command", e.g. "command": "node"`}},
		{"bad url", `{"mcpServers": {"a": {"type": "http", "url": "localhost:3000"}}}`, []string{`"url" is "localhost:3000", not an absolute http(s) URL`}},
		{"wrong shape", `{"servers": []}`, []string{`"servers" is [], not an object of servers`}},
		{"no servers", `{"foo": 1}`, []string{`expected {"mcpServers": {"NAME": {...}}}`}},
		{"one good one bad", `{"mcpServers": {"ok": {"command": "x"}, "a": {"type": "sse"}}}`, []string{`needs a "url"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := put(t, filepath.Join(dir, "bad.json"), tc.doc)
			before := checksum(t, cat)
			code, out, errOut := runCatalogCmd(t, "--import", f, "--catalog", cat)
			if code == 0 {
				t.Fatalf("bad input accepted: %s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Fatalf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if checksum(t, cat) != before {
				t.Fatal("catalog changed")
			}
		})
	}
	code, _, errOut := runCatalogCmd(t, "--import", filepath.Join(dir, "nope.json"), "--catalog", cat)
	if code != 2 || !strings.Contains(errOut, "nope.json") {
		t.Fatal(code, errOut)
	}
}

// The seed is the same whichever surface creates the catalog first.
func TestSameSeedOnEverySurface(t *testing.T) {
	surfaces := map[string][]string{
		"servers/list": {"--cli", "--method", "servers/list"},
		"servers/show": {"--cli", "--method", "servers/show", "--server", "spyglass-demo"},
		"import":       {"--import", "EMPTY"},
	}
	for name, args := range surfaces {
		t.Run(name, func(t *testing.T) {
			def := isolate(t)
			empty := put(t, filepath.Join(t.TempDir(), "empty.json"), `{"mcpServers": {}}`)
			for i, a := range args {
				if a == "EMPTY" {
					args[i] = empty
				}
			}
			if code, _, errOut := runCatalogCmd(t, args...); code != 0 {
				t.Fatal(errOut)
			}
			b, _ := os.ReadFile(def)
			if string(b) != catalog.Seed {
				t.Fatalf("%s seeded:\n%s", name, b)
			}
		})
	}
}
