package catalog

import (
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// vscodeJSONC is a VS Code .vscode/mcp.json as people write it: line and
// block comments, trailing commas.
const vscodeJSONC = `{
  // Servers for this workspace.
  "inputs": [
    {"type": "promptString", "id": "gh-token", "password": true}, // asked once
  ],
  "servers": {
    /* the hosted one */
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": {"Authorization": "Bearer ${input:gh-token}",},
    },
    "local": {
      "command": "node", // the runtime
      "args": ["server.js", "--verbose",], /* flags */
    },
  },
}
`

// TestImportVSCodeJSONC: a VS Code mcp.json with comments and trailing
// commas imports like plain JSON.
func TestImportVSCodeJSONC(t *testing.T) {
	im, err := ParseImport(".vscode/mcp.json", []byte(vscodeJSONC))
	if err != nil {
		t.Fatalf("ParseImport: %v", err)
	}
	if im.Format != FormatVSCode || strings.Join(im.Names(), ",") != "github,local" || strings.Join(im.InputIDs, ",") != "gh-token" {
		t.Fatalf("format %s, names %v, inputs %v", im.Format, im.Names(), im.InputIDs)
	}
	c := mustParse(t, Seed)
	res := c.Import(im)
	if strings.Join(res.Added, ",") != "github,local" || len(res.Inputs) != 1 || !res.Inputs[0].Declared {
		t.Fatalf("%+v", res)
	}
	gh, _ := c.Get("github")
	local, _ := c.Get("local")
	if gh.Headers["Authorization"] != "Bearer ${input:gh-token}" || local.Type != TypeStdio || strings.Join(local.Args, " ") != "server.js --verbose" {
		t.Fatalf("github %+v, local %+v", gh, local)
	}
	if _, err := Parse(c.Bytes()); err != nil {
		t.Fatalf("catalog after import does not parse: %v\n%s", err, c.Bytes())
	}
}

// TestEditKeepsComments: a catalog with comments and trailing commas is
// edited through the catalog API; every comment outside the removed entry
// survives, trailing commas stay, and untouched entries keep their bytes.
func TestEditKeepsComments(t *testing.T) {
	doc := `{
  // my servers
  "mcpServers": {
    "a": {
      // the binary
      "command": "node",
      "args": ["a.js",], // one script
      /* last */
    },
    "b": {"url": "https://b.example/mcp"}, /* b's comment */
    // gone soon
    "c": {"command": "c"},
  },
  "theme": "dark", // not ours
}
`
	c := mustParse(t, doc)
	if got := string(c.Bytes()); got != doc {
		t.Fatalf("unchanged JSONC rendered differently:\n%s", got)
	}
	a, _ := c.Get("a")
	a.Cwd = "/w"
	if err := c.Put("a", a); err != nil {
		t.Fatal(err)
	}
	c.Delete("c")
	if err := c.Rename("b", "bee"); err != nil {
		t.Fatal(err)
	}
	if err := c.Put("d", Server{Type: TypeStdio, Command: "d"}); err != nil {
		t.Fatal(err)
	}
	want := `{
  // my servers
  "mcpServers": {
    "a": {
      // the binary
      "command": "node",
      "args": ["a.js",], // one script
      "cwd": "/w",
      /* last */
    },
    "bee": {"url": "https://b.example/mcp"}, /* b's comment */
    "d": {
      "type": "stdio",
      "command": "d"
    },
  },
  "theme": "dark", // not ours
}
`
	if got := string(c.Bytes()); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	back := mustParse(t, string(c.Bytes()))
	if s, _ := back.Get("a"); s.Cwd != "/w" || s.Command != "node" {
		t.Fatalf("edit lost: %+v", s)
	}
	if strings.Join(back.Names(), ",") != "a,bee,d" {
		t.Fatal(back.Names())
	}
}

// TestDeleteEverythingAfterTrailingComma: removing every entry of an
// object that ended with a trailing comma leaves valid JSONC.
func TestDeleteEverythingAfterTrailingComma(t *testing.T) {
	c := mustParse(t, "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, /* end */ }}")
	c.Delete("a")
	if got := string(c.Bytes()); got != `{"mcpServers": { /* end */ }}` {
		t.Fatalf("%q", got)
	}
	if _, err := hujson.Parse(c.Bytes()); err != nil {
		t.Fatal(err)
	}
}
