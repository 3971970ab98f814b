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

// TestInstallURLRoundTrip: an HTTP entry's url is pointed at the tap and
// given back exactly as it was written (its escapes, an & in the query,
// the comments around it), and an entry without a url is refused.
func TestInstallURLRoundTrip(t *testing.T) {
	orig := `{
	"servers": {
		// the team's server
		"web": {"type": "http", "url": /* where */ "https://mcp.example.com/mcp?a=1&b=\u00e9", "headers": {"Authorization": "Bearer ${input:token}"}},
		"local": {"command": "node"},
	},
}
`
	e, _, err := FindEntry([]byte(orig), "web")
	if err != nil {
		t.Fatal(err)
	}
	if e.URL != "https://mcp.example.com/mcp?a=1&b=é" || e.URLLiteral != `"https://mcp.example.com/mcp?a=1&b=\u00e9"` {
		t.Errorf("entry %+v", e)
	}
	got, err := InstallURL([]byte(orig), "web", "http://127.0.0.1:8931/mcp?a=1&b=é")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(orig, `"https://mcp.example.com/mcp?a=1&b=\u00e9"`, `"http://127.0.0.1:8931/mcp?a=1&b=é"`, 1)
	if string(got) != want {
		t.Errorf("installed:\n%s\nwant\n%s", got, want)
	}
	if _, err := InstallURL(got, "web", "http://127.0.0.1:8931/mcp?a=1&b=é"); !errors.Is(err, ErrTapped) {
		t.Errorf("second install: %v", err)
	}
	back, err := UninstallURL(got, "web", e.URLLiteral)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != orig {
		t.Errorf("uninstall did not restore the file:\n%s\nwant\n%s", back, orig)
	}
	if _, err := InstallURL([]byte(orig), "local", "http://127.0.0.1:1/"); !errors.Is(err, ErrNoURL) {
		t.Errorf("stdio entry: %v", err)
	}
	if _, err := Install([]byte(orig), "web", "spyglass", nil); !errors.Is(err, ErrNotStdio) {
		t.Errorf("Install of an http entry: %v", err)
	}
}
