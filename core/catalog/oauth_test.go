package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// TestOAuthWorkloadAndDPoP: oauth.assertionFile, oauth.assertionEnv and
// oauth.dpop are read from a JSONC file, written back (comments kept, the
// default "auto" not written), and a dpop value other than auto/off is the
// entry's problem.
func TestOAuthWorkloadAndDPoP(t *testing.T) {
	doc := `{
  // workload identity federation
  "mcpServers": {
    "wif": {
      "url": "https://mcp.example/mcp",
      "oauth": {
        "assertionFile": "/var/run/secrets/tokens/mcp", // projected token
        "dpop": "off",
      },
    },
  },
}`
	c := mustParse(t, doc)
	c.readOnly = false
	s, _ := c.Get("wif")
	if s.OAuth == nil || s.OAuth.AssertionFile != "/var/run/secrets/tokens/mcp" || s.OAuth.DPoP != DPoPOff {
		t.Fatalf("read %+v", s.OAuth)
	}
	s.OAuth.AssertionFile, s.OAuth.AssertionEnv, s.OAuth.DPoP = "", "MCP_WORKLOAD_JWT", DPoPAuto
	if err := c.Put("wif", s); err != nil {
		t.Fatal(err)
	}
	out := string(c.Bytes())
	if !strings.Contains(out, "// workload identity federation") || !strings.Contains(out, `"assertionEnv": "MCP_WORKLOAD_JWT"`) ||
		strings.Contains(out, "assertionFile") || strings.Contains(out, `"dpop"`) {
		t.Errorf("written:\n%s", out)
	}
	if _, err := hujson.Parse([]byte(out)); err != nil {
		t.Fatalf("the written file is not JSONC: %v", err)
	}
	c2 := mustParse(t, out)
	got, _ := c2.Get("wif")
	if !got.Equal(&s) {
		t.Errorf("read back %+v, want %+v", got.OAuth, s.OAuth)
	}

	_, err := Parse([]byte(`{"mcpServers":{"x":{"url":"https://h/mcp","oauth":{"dpop":"always"}}}}`))
	if !errors.Is(err, ErrInvalidValue) || !strings.Contains(err.Error(), "oauth.dpop") || !strings.Contains(err.Error(), "auto, off") {
		t.Errorf("dpop \"always\": %v", err)
	}
}
