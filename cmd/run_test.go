package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	junit "github.com/joshdk/go-junit"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
)

// writeCollection writes a collection of calls to a file.
func writeCollection(t *testing.T, server string, calls ...string) string {
	t.Helper()
	s := ""
	if server != "" {
		s = `"server": ` + server + `,`
	}
	doc := fmt.Sprintf(`{"format":"spyglass-collection","formatVersion":1,"name":"smoke",%s"calls":[%s]}`, s, strings.Join(calls, ","))
	p := filepath.Join(t.TempDir(), "collection.json")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunCollection runs collections with passing and failing
// expectations against server-everything and the demo server over stdio
// and HTTP, and reads the JUnit report with a JUnit reader CI tools use.
func TestRunCollection(t *testing.T) {
	isolateCLI(t)
	node, everything := peers.Node(t), peers.File(t, peers.Everything)
	demoURL := demotest.URL(t, nil)
	everythingURL := peers.EverythingHTTP(t, "streamableHttp") + "/mcp"
	for _, tc := range []struct {
		name, server string   // server: in the collection file
		flags        []string // server flags
		structured   string   // a tool call with an outputSchema
	}{
		{"everything stdio (server in the file)", fmt.Sprintf(`{"command":%q,"args":[%q]}`, node, everything), nil,
			`{"name":"get-structured-content","arguments":{"location":"Chicago"}}`},
		{"everything http", "", []string{"--server-url", everythingURL}, `{"name":"get-structured-content","arguments":{"location":"Chicago"}}`},
		{"demo stdio", `{"name":"spyglass-demo"}`, nil, `{"name":"get_weather","arguments":{"city":"Oslo"}}`},
		{"demo http", "", []string{"--server-url", demoURL}, `{"name":"get_weather","arguments":{"city":"Oslo"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			passing := []string{
				`{"name":"echo","method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}},
				  "expect":{"result":{"content":[{"type":"text","text":"Echo: hi"}]},"pointers":[{"pointer":"/content/0/text","equals":"Echo: hi"}],"isError":false,"maxDuration":"60s"}}`,
				`{"name":"structured","method":"tools/call","params":` + tc.structured + `,"expect":{"schema":true,"isError":false}}`,
				`{"name":"lists tools","method":"tools/list","expect":{"schema":{"type":"object","required":["tools"]}}}`,
				`{"name":"unknown method","method":"no/such-method","expect":{"error":{"code":-32601}}}`,
			}
			coll := writeCollection(t, tc.server, passing...)
			code, out, errs := cli(t, append([]string{"--run", coll}, tc.flags...)...)
			if code != exitAllHold || !strings.Contains(out, "smoke: all 4 calls passed") || !strings.Contains(out, "✓ echo") {
				t.Fatalf("passing collection: exit %d\n%s\n%s", code, out, errs)
			}

			failing := append(passing,
				`{"name":"wrong text","method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}},"expect":{"pointers":[{"pointer":"/content/0/text","equals":"Echo: bye"}]}}`,
				`{"name":"wrong code","method":"no/such-method","expect":{"error":{"code":-32602}}}`)
			coll = writeCollection(t, tc.server, failing...)
			code, out, errs = cli(t, append([]string{"--run", coll, "--format", "junit"}, tc.flags...)...)
			if code != exitOneFail {
				t.Fatalf("failing collection: exit %d\n%s\n%s", code, out, errs)
			}
			suites, err := junit.Ingest([]byte(out))
			if err != nil || len(suites) != 1 {
				t.Fatalf("the JUnit report does not read: %v\n%s", err, out)
			}
			s := suites[0]
			if s.Name != "smoke" || s.Totals.Tests != 6 || s.Totals.Failed != 2 || s.Totals.Passed != 4 {
				t.Errorf("suite %s: %+v\n%s", s.Name, s.Totals, out)
			}
			for _, tt := range s.Tests {
				failed := tt.Name == "wrong text" || tt.Name == "wrong code"
				if (tt.Status == junit.StatusFailed) != failed {
					t.Errorf("%s: %s (%s)", tt.Name, tt.Status, tt.Message)
				}
			}
			for _, tt := range s.Tests {
				if tt.Name == "wrong text" && !strings.Contains(tt.Message, `"Echo: hi", expected "Echo: bye"`) {
					t.Errorf("wrong text's message: %q", tt.Message)
				}
			}

			code, out, _ = cli(t, append([]string{"--run", coll, "--format", "json"}, tc.flags...)...)
			var rep runReport
			if err := json.Unmarshal([]byte(out), &rep); code != exitOneFail || err != nil || rep.Passed || rep.Failed != 2 || len(rep.Calls) != 6 {
				t.Errorf("--format json: exit %d %v %+v", code, err, rep)
			}
		})
	}
}

func TestRunCollectionBadInput(t *testing.T) {
	isolateCLI(t)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"format":"spyglass-collection","formatVersion":1,"name":"x","calls":[{"method":"ping","expect":{"maxDuraton":"1s"}}]}`), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--run", bad, "--server", "spyglass-demo"}, "maxDuraton"},
		{[]string{"--run", filepath.Join(t.TempDir(), "none.json"), "--server", "spyglass-demo"}, "cannot read the collection"},
		{[]string{"--run", bad, "--method", "ping"}, "--method cannot be combined with --run"},
		{[]string{"--replay", bad, "--format", "junit"}, "--format junit is for --run"},
		{[]string{"--cli", "--method", "ping", "--ignore", "/id"}, "--ignore works with"},
	} {
		code, _, errs := cli(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d %q, want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// The example collection of core/collection/FORMAT.md passes against
// server-everything, as the page says.
func TestRunFormatExample(t *testing.T) {
	isolateCLI(t)
	node := peers.Node(t)
	peers.File(t, peers.Everything)
	b, err := os.ReadFile("../core/collection/FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "```json\n")
	doc, _, _ := strings.Cut(rest, "```")
	doc = strings.Replace(doc, `"command": "node"`, fmt.Sprintf(`"command": %q`, node), 1)
	doc = strings.Replace(doc, `"node_modules/`, `"`+filepath.ToSlash(peers.Modules())+`/`, 1)
	p := filepath.Join(t.TempDir(), "example.json")
	os.WriteFile(p, []byte(doc), 0o600)
	if code, out, errs := cli(t, "--run", p); code != exitAllHold {
		t.Fatalf("the FORMAT.md example: exit %d\n%s\n%s", code, out, errs)
	}
}
