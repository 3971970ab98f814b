package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The experimentalCapabilities field is read, kept, rewritten minimally,
// and refused when it is not an object.
func TestExperimentalCapabilitiesField(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	doc := `{"mcpServers": {"a": {"command": "x", "experimentalCapabilities": {"acme.trace": {}}}, "b": {"command": "y"}}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Get("a")
	if string(a.ExperimentalCapabilities) != `{"acme.trace": {}}` {
		t.Fatalf("read %q", a.ExperimentalCapabilities)
	}
	b, _ := c.Get("b")
	b.ExperimentalCapabilities = []byte(`{"x.y":{"v":1}}`)
	if err := c.Put("b", b); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), `"acme.trace": {}`) || !strings.Contains(string(got), `"experimentalCapabilities"`) || !strings.Contains(string(got), `"x.y"`) {
		t.Fatalf("saved:\n%s", got)
	}
	c2, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := c2.Get("b")
	if !jsonEqual(b2.ExperimentalCapabilities, []byte(`{"x.y":{"v":1}}`)) {
		t.Fatalf("reloaded %q", b2.ExperimentalCapabilities)
	}
	bad := Server{Type: TypeStdio, Command: "x", ExperimentalCapabilities: []byte(`[1]`)}
	var ee *EntryError
	if err := bad.Validate(); !errors.As(err, &ee) || ee.Field != "experimentalCapabilities" {
		t.Fatalf("a non-object was accepted: %v", err)
	}
}
