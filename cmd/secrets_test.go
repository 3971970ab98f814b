package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/redact"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/tracetest"
)

// secretShape is one row of core/redact/testdata/shapes.json, the one
// table of secret shapes every output is tested against, with its value.
type secretShape struct {
	Shape, Name string
	Secret      bool
	Value       string
}

// shapeServers turns the table into a stdio server (env, command-line
// flags) and an http server (headers, URL parameters, URL password).
type shapeServers struct {
	rows    []secretShape
	env     map[string]string
	args    []string
	headers map[string]string
	url     *url.URL
}

func loadSecretShapes(t *testing.T) shapeServers {
	t.Helper()
	b, err := os.ReadFile("../core/redact/testdata/shapes.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Rows []secretShape }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	s := shapeServers{rows: doc.Rows, env: map[string]string{}, headers: map[string]string{},
		url: &url.URL{Scheme: "http", Host: "127.0.0.1:1", Path: "/mcp"}}
	var query []string
	for i := range s.rows {
		r := &s.rows[i]
		r.Value = fmt.Sprintf("sv%03dq", i)
		switch r.Shape {
		case "env":
			s.env[r.Name] = r.Value
		case "header":
			s.headers[r.Name] = r.Value
		case "query":
			query = append(query, r.Name+"="+r.Value)
		case "userinfo":
			s.url.User = url.UserPassword(r.Name, r.Value)
		case "flag":
			s.args = append(s.args, r.Name, r.Value)
		case "flag=", "assign":
			s.args = append(s.args, r.Name+"="+r.Value)
		case "headerarg":
			s.args = append(s.args, "--header", r.Name+": "+r.Value)
		}
	}
	s.url.RawQuery = strings.Join(query, "&")
	return s
}

// check fails for every row of the given shapes whose value out shows
// although it is secret, or hides although it is not.
func (s shapeServers) check(t *testing.T, what, out string, shapes ...string) {
	t.Helper()
	bad := 0
	for _, r := range s.rows {
		for _, sh := range shapes {
			if r.Shape == sh && strings.Contains(out, r.Value) == r.Secret {
				bad++
				t.Errorf("%s: %s %s (secret=%v): its value %s is wrongly shown or hidden", what, r.Shape, r.Name, r.Secret, r.Value)
			}
		}
	}
	if bad > 0 {
		t.Logf("%s:\n%s", what, out)
	}
}

var (
	targetShapes = []string{"flag", "flag=", "assign", "headerarg", "query", "userinfo"}
	allShapes    = append([]string{"env", "header"}, targetShapes...)
)

// TestServersSecretShapes runs servers/list and servers/show, text and
// JSON, over a catalog holding every secret shape of the table.
func TestServersSecretShapes(t *testing.T) {
	isolate(t)
	s := loadSecretShapes(t)
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"local":  map[string]any{"command": "node", "args": s.args, "env": s.env},
		"remote": map[string]any{"type": "http", "url": s.url.String(), "headers": s.headers},
	}})
	cat := put(t, filepath.Join(t.TempDir(), "cat.json"), string(doc))
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCatalogCmd(t, append([]string{"--cli", "--catalog", cat}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		return out + errOut
	}
	s.check(t, "servers/list", run("--method", "servers/list"), targetShapes...)
	s.check(t, "servers/list --format json", run("--method", "servers/list", "--format", "json"), allShapes...)
	for _, name := range []string{"local", "remote"} {
		show := run("--method", "servers/show", "--server", name) + run("--method", "servers/show", "--server", name, "--format", "json")
		if name == "local" {
			s.check(t, "servers/show local", show, "env", "flag", "flag=", "assign", "headerarg")
		} else {
			s.check(t, "servers/show remote", show, "header", "query", "userinfo")
		}
	}
}

// TestSecretShapesInTraces runs real servers (server-everything over stdio
// and Streamable HTTP) given every secret shape of the table, and checks
// the trace (events and meta.conns[].target) and the --verbose stream.
func TestSecretShapesInTraces(t *testing.T) {
	s := loadSecretShapes(t)
	node, file := peers.Node(t), peers.File(t, peers.Everything)
	for _, tc := range []struct {
		name    string
		args    func() []string
		visible []string // the shapes whose plain values the trace shows
	}{
		{"stdio", func() []string {
			// get-env answers with the server's whole environment.
			a := []string{"--method", "tools/call", "--tool-name", "get-env"}
			for k, v := range s.env {
				a = append(a, "-e", k+"="+v)
			}
			return append(append(a, "--", node, file, "stdio"), s.args...)
		}, []string{"env", "flag", "flag=", "assign", "headerarg"}},
		{"http", func() []string {
			base, err := url.Parse(peers.EverythingHTTP(t, "streamableHttp"))
			if err != nil {
				t.Fatal(err)
			}
			u := *s.url
			u.Host = base.Host
			a := []string{"--method", "tools/list"}
			for k, v := range s.headers {
				a = append(a, "--header", k+": "+v)
			}
			return append(a, u.String())
		}, []string{"header", "query", "userinfo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := isolateCLI(t)
			trace := filepath.Join(dir, "run.trace.json")
			var out, errb bytes.Buffer
			args := append([]string{"--cli", "--trace", trace, "--verbose"}, tc.args()...)
			if code := run(args, strings.NewReader(""), &out, &errb); code != exitOK {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			raw, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			meta, _ := tracetest.Read(t, trace)
			if len(meta.Conns) != 1 {
				t.Fatalf("trace: %+v", meta.Conns)
			}
			s.check(t, "trace", string(raw), tc.visible...)
			for _, r := range s.rows {
				if r.Secret && strings.Contains(errb.String(), r.Value) {
					t.Errorf("--verbose shows the secret %s %s", r.Shape, r.Name)
				}
			}
			if tc.name == "stdio" && !strings.Contains(meta.Conns[0].Target, "--token "+redact.Mask+" ") {
				t.Errorf("trace target %q", meta.Conns[0].Target)
			}
		})
	}
}
