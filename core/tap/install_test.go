package tap

import (
	"errors"
	"strings"
	"testing"
)

// TestInstallRoundTrip: installing the tap changes only the entry's
// command and args (comments, trailing commas and the other entries stay
// byte for byte), and uninstalling gives back the original file.
func TestInstallRoundTrip(t *testing.T) {
	files := map[string]string{
		"claude": `{
  "mcpServers": {
    "everything": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"],
      "env": {"A": "1"}
    },
    "web": {"url": "http://127.0.0.1:3001/mcp"}
  }
}
`,
		"vscode": `{
	// my servers
	"servers": {
		"everything": {
			"type": "stdio",
			"command": "node", // the runtime
			"args": ["dist/index.js",],
		},
	},
	"inputs": [],
}
`,
	}
	for name, orig := range files {
		t.Run(name, func(t *testing.T) {
			got, err := Install([]byte(orig), "everything", "/usr/bin/spyglass", []string{"--name", "everything"})
			if err != nil {
				t.Fatal(err)
			}
			e, _, err := FindEntry(got, "everything")
			if err != nil {
				t.Fatal(err)
			}
			cmd, args, ok := e.Tapped()
			if e.Command != "/usr/bin/spyglass" || !ok || (cmd != "npx" && cmd != "node") || len(args) == 0 {
				t.Errorf("installed entry %+v", e)
			}
			for _, keep := range []string{"// my servers", "// the runtime", `"env": {"A": "1"}`, `"web": {"url": "http://127.0.0.1:3001/mcp"}`, `"inputs": [],`} {
				if strings.Contains(orig, keep) && !strings.Contains(string(got), keep) {
					t.Errorf("lost %q:\n%s", keep, got)
				}
			}
			if _, err := Install(got, "everything", "/usr/bin/spyglass", nil); !errors.Is(err, ErrTapped) {
				t.Errorf("second install: %v", err)
			}
			back, err := Uninstall(got, "everything")
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != orig {
				t.Errorf("uninstall did not restore the file:\n%s\nwant\n%s", back, orig)
			}
			if _, _, err := FindEntry(back, "everything"); err != nil {
				t.Error(err)
			}
			if _, err := Uninstall(back, "everything"); !errors.Is(err, ErrNotTapped) {
				t.Errorf("second uninstall: %v", err)
			}
			t.Logf("installed:\n%s\nuninstalled:\n%s", got, back)
		})
	}
	if _, err := Install([]byte(files["claude"]), "web", "spyglass", nil); !errors.Is(err, ErrNotStdio) {
		t.Errorf("http entry: %v", err)
	}
	if _, err := Install([]byte(files["claude"]), "nope", "spyglass", nil); !errors.Is(err, ErrNoServer) {
		t.Errorf("missing entry: %v", err)
	}
}
