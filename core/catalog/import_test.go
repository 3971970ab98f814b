package catalog

import (
	"errors"
	"strings"
	"testing"
)

func TestImport(t *testing.T) {
	claude := `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"],
      "env": {"DEBUG": "1"},
      "disabled": false
    },
    "remote": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer x"}},
    "spyglass-demo": {"command": "other"}
  }
}`
	vscode := `{
  "inputs": [
    {"type": "promptString", "id": "api-key", "description": "API key", "password": true}
  ],
  "servers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": {"Authorization": "Bearer ${input:api-key}"}
    },
    "local": {
      "type": "stdio",
      "command": "node",
      "args": ["server.js", "--token=${input:undeclared}"],
      "envFile": "${workspaceFolder}/.env"
    }
  }
}`
	settings := `{"editor.fontSize": 12, "mcp": {"servers": {"s": {"command": "x"}}, "inputs": []}}`
	tests := []struct {
		name    string
		doc     string
		format  ImportFormat
		added   []string
		clashes []string
		inputs  []string // server/field/id/declared
		contain []string // in the saved catalog
	}{
		{"claude desktop", claude, FormatMCPServers, []string{"filesystem", "remote"}, []string{"spyglass-demo"}, nil,
			[]string{`"filesystem": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"],
      "env": {
        "DEBUG": "1"
      },
      "disabled": false
    }`, `"type": "http"`}},
		{"vscode", vscode, FormatVSCode, []string{"github", "local"}, nil,
			[]string{"github/headers.Authorization/api-key/true", "local/args/undeclared/false"},
			[]string{`"Authorization": "Bearer ${input:api-key}"`, `"--token=${input:undeclared}"`, `"envFile": "${workspaceFolder}/.env"`}},
		{"vscode settings", settings, FormatVSCode, []string{"s"}, nil, nil, []string{`"s": {`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			im, err := ParseImport("in.json", []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			c := mustParse(t, Seed)
			res := c.Import(im)
			if res.Format != tc.format || strings.Join(res.Added, ",") != strings.Join(tc.added, ",") || strings.Join(res.Clashes, ",") != strings.Join(tc.clashes, ",") {
				t.Fatalf("%+v", res)
			}
			var inputs []string
			for _, in := range res.Inputs {
				inputs = append(inputs, strings.Join([]string{in.Server, in.Field, in.ID, map[bool]string{true: "true", false: "false"}[in.Declared]}, "/"))
			}
			if strings.Join(inputs, " ") != strings.Join(tc.inputs, " ") {
				t.Fatalf("inputs %v", inputs)
			}
			out := string(c.Bytes())
			if !strings.HasPrefix(out, Seed[:strings.LastIndex(Seed, "    }\n  }")]) {
				t.Fatalf("existing entries changed:\n%s", out)
			}
			for _, want := range tc.contain {
				if !strings.Contains(out, want) {
					t.Fatalf("missing %s in\n%s", want, out)
				}
			}
			if demo, _ := c.Get(DemoServerName); demo.Command != "spyglass" {
				t.Fatal("a clash overwrote the existing entry")
			}
			if _, err := Parse([]byte(out)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestImportBadInput(t *testing.T) {
	tests := []struct {
		doc string
		err error
	}{
		{`{"mcpServers": {`, ErrSyntax},
		{`{"other": {}}`, ErrShape},
		{`{"servers": [1]}`, ErrShape},
		{`"x"`, ErrShape},
		{`{"mcpServers": {"a": {"type": "websocket", "url": "ws://x"}}}`, ErrUnknownType},
		{`{"mcpServers": {"a": {"type": "stdio"}}}`, ErrMissingCommand},
		{`{"servers": {"a": {"type": "http", "url": "/relative"}}}`, ErrInvalidURL},
		{`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, ErrDuplicateName},
	}
	for _, tc := range tests {
		_, err := ParseImport("f.json", []byte(tc.doc))
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.doc, err, tc.err)
		}
	}
	_, err := ParseImport("f.json", []byte("{\n  \"mcpServers\": {\n    \"a\": }\n}"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.File != "f.json" || se.Line != 3 || se.Column != 10 {
		t.Fatalf("%v", err)
	}
}

func TestImportSecretNotWritten(t *testing.T) {
	im, err := ParseImport("", []byte(`{"mcpServers": {"a": {"url": "https://h.example/mcp", "oauth": {"clientId": "c", "clientSecret": "TOPSECRET"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := New()
	res := c.Import(im)
	if len(res.SecretsNotWritten) != 1 || strings.Contains(string(c.Bytes()), "TOPSECRET") {
		t.Fatalf("%+v\n%s", res, c.Bytes())
	}
	if s, _ := c.Get("a"); s.OAuth.ClientSecret != "TOPSECRET" {
		t.Fatal("secret not kept in memory")
	}
}

// TestImportIntoOneLineCatalog: a minified catalog (with a final line
// break, as editors save it) stays on one line when a server is imported.
func TestImportIntoOneLineCatalog(t *testing.T) {
	c := mustParse(t, "{\"mcpServers\":{\"a\":{\"command\":\"x\"}}}\n")
	im, err := ParseImport("in.json", []byte(`{"mcpServers": {"b": {"command": "y", "args": ["1"], "env": {"K": "V"}, "x-extra": {"n": [1, 2]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c.Import(im)
	want := `{"mcpServers":{"a":{"command":"x"},"b":{"type":"stdio","command":"y","args":["1"],"env":{"K":"V"},"x-extra":{"n":[1,2]}}}}` + "\n"
	if got := string(c.Bytes()); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
