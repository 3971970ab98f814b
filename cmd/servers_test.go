package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

// runCatalogCmd parses args and runs servers/list, servers/show or --import
// with XDG_CONFIG_HOME pointed at a temporary folder.
func runCatalogCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	inv, err := ParseArgs(args)
	if err != nil {
		t.Fatalf("ParseArgs(%q): %v", args, err)
	}
	var out, errOut bytes.Buffer
	switch inv.Mode {
	case ModeImport:
		code = runImport(inv, &out, &errOut)
	case ModeCLI:
		code = runServers(inv, &out, &errOut)
	default:
		t.Fatalf("mode %v", inv.Mode)
	}
	return code, out.String(), errOut.String()
}

func isolate(t *testing.T) (defaultCatalog string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(catalog.EnvCatalog, "")
	return filepath.Join(dir, "spyglass", "mcp.json")
}

func put(t *testing.T, path, data string) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func checksum(t *testing.T, path string) [32]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

const twoServers = `{
  "mcpServers": {
    "local": {"command": "node", "args": ["build/index.js", "two words"], "env": {"API_KEY": "sk-123", "MODE": "dev"}},
    "remote": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer t0k", "X-Tenant": "acme"},
               "protocolEra": "modern", "oauth": {"clientId": "c", "clientSecret": "hidden"}},
    "broken": {"type": "websocket", "url": "ws://x"}
  }
}`

func TestServersListSeedsDefaultCatalog(t *testing.T) {
	def := isolate(t)
	code, out, errOut := runCatalogCmd(t, "--cli", "--method", "servers/list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(def)
	if string(b) != catalog.Seed {
		t.Fatalf("default catalog not seeded with the shared seed:\n%s", b)
	}
	for _, want := range []string{"spyglass-demo", "stdio  spyglass --demo-server", "filesystem-server-default", "npx -y @modelcontextprotocol/server-everything"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "created "+def) {
		t.Fatalf("creation not reported: %q", errOut)
	}
	// second run: no re-seed, no note
	os.WriteFile(def, []byte(`{"mcpServers": {}}`), 0o600)
	code, out, errOut = runCatalogCmd(t, "--cli", "--method", "servers/list")
	if code != 0 || !strings.Contains(out, "(none)") || errOut != "" {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
}

func TestServersListJSONAndMasking(t *testing.T) {
	isolate(t)
	cfg := put(t, filepath.Join(t.TempDir(), "cfg.json"), twoServers)
	before := checksum(t, cfg)
	code, out, errOut := runCatalogCmd(t, "--cli", "--method", "servers/list", "--config", cfg, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Result struct {
			Source  sourceInfo   `json:"source"`
			Servers []serverItem `json:"servers"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if res.Result.Source != (sourceInfo{Kind: "config", Path: cfg, ReadOnly: true}) || len(res.Result.Servers) != 3 {
		t.Fatalf("%+v", res.Result)
	}
	for _, leak := range []string{"sk-123", "t0k", "hidden"} {
		if strings.Contains(out, leak) {
			t.Fatalf("secret %q printed: %s", leak, out)
		}
	}
	if !strings.Contains(out, `"MODE":"dev"`) || !strings.Contains(out, `"X-Tenant":"acme"`) {
		t.Fatalf("plain values masked too: %s", out)
	}
	if res.Result.Servers[2].Problem == "" || !strings.Contains(res.Result.Servers[2].Problem, `write "type": "stdio"`) {
		t.Fatalf("problem %q", res.Result.Servers[2].Problem)
	}
	if checksum(t, cfg) != before {
		t.Fatal("--config bytes changed")
	}
}

func TestServersShow(t *testing.T) {
	isolate(t)
	cat := put(t, filepath.Join(t.TempDir(), "cat.json"), twoServers)
	tests := []struct {
		name    string
		args    []string
		code    int
		want    []string
		notWant []string
	}{
		{"text", []string{"--server", "local"}, 0, []string{"local  (from " + cat + ")", `"args": [`, `"API_KEY": "****"`, "protocolEra                legacy", "taskTtl                    60000"}, []string{"sk-123"}},
		{"json", []string{"--server", "remote", "--format", "json"}, 0, []string{`"name":"remote"`, `"protocolEra":"modern"`, `{"key":"protocolEra","value":"modern"}`, `{"key":"maxFetchRequests","value":1000}`}, []string{"hidden", "t0k"}},
		{"override applied", []string{"--server", "local", "-e", "MODE=prod", "--cwd", "/w"}, 0, []string{`"MODE": "prod"`, `"cwd": "/w"`}, nil},
		{"override that does not fit", []string{"--server", "remote", "-e", "A=1"}, 2, []string{`-e sets the environment of a stdio server, but "remote" is http`}, nil},
		{"broken entry shows its problem", []string{"--server", "broken"}, 0, []string{`problem:`, `unknown "type" "websocket"`}, nil},
		{"no --server with several", nil, 2, []string{"choose one with --server NAME (local, remote, broken)"}, nil},
		{"unknown server", []string{"--server", "nope"}, 2, []string{`server "nope": no such server; the file has: local, remote, broken`}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := checksum(t, cat)
			args := append([]string{"--cli", "--method", "servers/show", "--catalog", cat}, tc.args...)
			code, out, errOut := runCatalogCmd(t, args...)
			all := out + errOut
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Fatalf("output lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(all, w) {
					t.Fatalf("output has %q:\n%s", w, all)
				}
			}
			if checksum(t, cat) != before {
				t.Fatal("servers/show changed the catalog")
			}
		})
	}
}

func TestServersShowDemoAndAdHoc(t *testing.T) {
	isolate(t)
	code, out, _ := runCatalogCmd(t, "--cli", "--method", "servers/show", "--server", "spyglass-demo")
	exe, _ := os.Executable()
	if code != 0 || !strings.Contains(out, "runs: "+exe+" --demo-server") {
		t.Fatalf("%d\n%s", code, out)
	}
	code, out, _ = runCatalogCmd(t, "--cli", "--method", "servers/show", "--", "python3", "-m", "srv")
	if code != 0 || !strings.Contains(out, "python3 srv  (from the command line (ad-hoc server))") || !strings.Contains(out, `"-m",`) {
		t.Fatalf("%d\n%s", code, out)
	}
}

func TestServersErrors(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	bad := put(t, filepath.Join(dir, "bad.json"), "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",,}\n  }\n}\n")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--config", missing}, "missing.json does not exist (a --config file is never created"},
		{[]string{"--catalog", bad}, "bad.json:3:26: not valid JSON"},
		{[]string{"--catalog", bad, "--config", bad}, "--catalog and --config cannot be used together"},
		{[]string{"--server", "a", "-e", "A=1"}, "-e cannot be combined with --method servers/list"},
		{[]string{"--server", "zz"}, `server "zz": no such server`},
	}
	for _, tc := range tests {
		before := checksum(t, bad)
		code, out, errOut := runCatalogCmd(t, append([]string{"--cli", "--method", "servers/list"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("%q: exit %d, stderr %q", tc.args, code, errOut)
		}
		if checksum(t, bad) != before {
			t.Fatal("malformed catalog changed")
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatal("--config was created")
	}
}
