package cmd

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIHugeResource: --cli --method resources/read of the demo server's
// demo://large template prints the whole 50 MB text (10 MB under the race
// detector) and a blob whole, as the server sent them (#17).
func TestCLIHugeResource(t *testing.T) {
	dir := isolateCLI(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cat, []byte(`{"mcpServers": {"demo": {"command": "`+exe+`", "args": ["--demo-server"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	size, sizeArg := 50<<20, "52428800"
	if raceEnabled {
		size, sizeArg = 10<<20, "10485760"
	}
	read := func(uri string) map[string]any {
		t.Helper()
		code, out, errs := cli(t, "--cli", "--catalog", cat, "--server", "demo", "--method", "resources/read", "--uri", uri, "--format", "json")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %.500s", uri, code, errs)
		}
		return result(t, out)
	}
	item := func(r map[string]any) map[string]any {
		t.Helper()
		cs, _ := r["contents"].([]any)
		if len(cs) != 1 {
			t.Fatalf("%d items, want 1", len(cs))
		}
		return cs[0].(map[string]any)
	}
	text, _ := item(read("demo://large/text/" + sizeArg))["text"].(string)
	if len(text) != size || !strings.HasPrefix(text, "# Spyglass demo server") {
		t.Fatalf("the text is %d bytes (%.40q), want %d", len(text), text, size)
	}
	it := item(read("demo://large/blob/1048576"))
	b, err := base64.StdEncoding.DecodeString(it["blob"].(string))
	if err != nil || len(b) != 1<<20 || it["mimeType"] != "application/octet-stream" {
		js, _ := json.Marshal(it["mimeType"])
		t.Fatalf("the blob is %d bytes (%v), type %s", len(b), err, js)
	}
}
