package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoveRestore: a removed server comes back at its position with its
// unknown fields, after a save in between, and the enterprise fields of
// oauth round-trip.
func TestRemoveRestore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	doc := `{
  "mcpServers": {
    "a": {"command": "a"},
    "b": {
      "type": "http",
      "url": "https://mcp.example/mcp",
      "x-vendor": {"keep": true},
      "oauth": {"clientId": "mcp-client", "enterpriseManaged": true, "idpIssuer": "https://idp.example", "idpClientId": "spyglass", "idTokenEnv": "IDP_ID_TOKEN"}
    },
    "c": {"command": "c"}
  }
}
`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Get("b")
	if o := b.OAuth; o == nil || o.IDPIssuer != "https://idp.example" || o.IDPClientID != "spyglass" || o.IDTokenEnv != "IDP_ID_TOKEN" {
		t.Fatalf("enterprise fields read as %+v", b.OAuth)
	}
	r, ok := c.Remove("b")
	if !ok || r.Index != 1 {
		t.Fatalf("Remove: %+v %v", r, ok)
	}
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Names(), ","); got != "a,c" {
		t.Fatalf("after remove: %s", got)
	}
	if err := c.Restore(r); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(back.Names(), ","); got != "a,b,c" {
		t.Fatalf("after restore: %s", got)
	}
	got, _ := back.Get("b")
	if !got.Equal(&b) {
		t.Errorf("restored %+v, want %+v", got, b)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"x-vendor": {`) || !strings.Contains(string(data), `"keep": true`) {
		t.Errorf("the unknown field was lost:\n%s", data)
	}
	if err := back.Restore(r); !errors.Is(err, ErrExists) {
		t.Errorf("restoring over an existing name: %v", err)
	}

	if _, err := Parse([]byte(`{"mcpServers":{"x":{"url":"https://h/mcp","oauth":{"idpIssuer":"idp.example"}}}}`)); !errors.Is(err, ErrInvalidURL) || !strings.Contains(err.Error(), "oauth.idpIssuer") {
		t.Errorf("a bad idpIssuer: %v", err)
	}
}
