package catalog

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tailscale/hujson"
)

// FuzzParse feeds arbitrary bytes to the parser: it must never panic, an
// accepted document must render back byte for byte, and an edited one must
// still be valid JSONC (valid JSON when it was JSON) that reads back with
// the edit.
func FuzzParse(f *testing.F) {
	for _, d := range roundTripDocs {
		f.Add([]byte(d))
	}
	f.Add([]byte(`{"mcpServers": {"a": {"command": "x", "oauth": {"clientSecret": "s", "scopes": ["a"]}}}}`))
	f.Add([]byte(`{"servers": {"a": {"type": "http", "url": "https://x/${input:k}"}}, "inputs": [{"id": "k"}]}`))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Add([]byte(`{"mcpServers": {"a": {"metadata": [{"key": "k"}]}}}`))
	f.Add([]byte(vscodeJSONC))
	f.Add([]byte("{\"mcpServers\": {\"a\": {\"command\": \"x\", // c\n\"args\": [1,],}, /* b */ },}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseImport("fuzz", data) //nolint:errcheck // must not panic
		c, err := Parse(data)
		if c == nil {
			if err == nil {
				t.Fatal("nil catalog without error")
			}
			return
		}
		if !bytes.Equal(c.Bytes(), data) {
			t.Fatalf("round trip changed the bytes:\n%q\n%q", data, c.Bytes())
		}
		names := c.Names()
		if len(names) > 0 && names[0] == "" {
			names = nil
		}
		if len(names) > 0 {
			s, _ := c.Get(names[0])
			s.Type, s.Command, s.URL = TypeStdio, "fuzz-cmd", ""
			s.Args = []string{"a\"b", "\u2028"}
			s.ProtocolEra, s.ProtocolVersion, s.ModernLogLevel = "", "", ""
			s.Metadata, s.AdvertisedExtensions, s.Roots = nil, nil, nil
			s.ConnectionTimeout, s.RequestTimeout, s.TaskTTL, s.MaxFetchRequests = 0, 0, 0, nil
			if s.OAuth != nil {
				s.OAuth.AuthorizationURL, s.OAuth.TokenURL = "", ""
			}
			if err := c.Put(names[0], s); err != nil {
				t.Fatalf("Put: %v", err)
			}
		}
		c.Put("fuzz-added", Server{Type: TypeHTTP, URL: "https://fuzz.example/mcp"})
		out := c.Bytes()
		if _, err := hujson.Parse(out[bomLen(out):]); err != nil {
			t.Fatalf("edited document is not JSONC (%v):\n%s\nfrom\n%s", err, out, data)
		}
		if json.Valid(data[bomLen(data):]) && !json.Valid(out[bomLen(out):]) {
			t.Fatalf("edited JSON document is not JSON:\n%s\nfrom\n%s", out, data)
		}
		c2, _ := Parse(out)
		if c2 == nil {
			t.Fatalf("edited document does not parse:\n%s", out)
		}
		if got, ok := c2.Get("fuzz-added"); !ok || got.URL != "https://fuzz.example/mcp" {
			t.Fatalf("added entry lost:\n%s", out)
		}
		if len(names) > 0 {
			if got, _ := c2.Get(names[0]); got.Command != "fuzz-cmd" || len(got.Args) != 2 || got.Args[0] != "a\"b" {
				t.Fatalf("edit lost (%+v):\n%s", got, out)
			}
		}
	})
}
