package schemaform

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/schemaform/internal/capture"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// TestPeerSchemas runs the real npm servers, lists their tools and
// compares each inputSchema with the copy committed under
// testdata/peers/<server>/<tool>.json (go test -update rewrites them).
// TestGoldenCaptured turns those copies into golden field models.
func TestPeerSchemas(t *testing.T) {
	node := peers.Node(t)
	servers := []struct {
		name string
		file string
		args func(t *testing.T) []string
		env  func(t *testing.T) []string
	}{
		{"everything", peers.Everything, nil, nil},
		{"filesystem", peers.Filesystem, func(t *testing.T) []string { return []string{t.TempDir()} }, nil},
		{"memory", peers.Memory, nil, func(t *testing.T) []string {
			return []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")}
		}},
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			args := []string{peers.File(t, srv.file)}
			if srv.args != nil {
				args = append(args, srv.args(t)...)
			}
			var env []string
			if srv.env != nil {
				env = srv.env(t)
			}
			tools, err := capture.Command(context.Background(), node, args, env)
			if err != nil {
				t.Fatalf("listing the tools of %s: %v", srv.name, err)
			}
			if len(tools) == 0 {
				t.Fatalf("%s listed no tools", srv.name)
			}
			dir := filepath.Join("testdata", "peers", srv.name)
			if *update {
				_ = os.RemoveAll(dir)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, tool := range tools {
				v, err := ParseValue(tool.InputSchema)
				if err != nil {
					t.Fatalf("%s: inputSchema is not JSON: %v", tool.Name, err)
				}
				got := append(v.Indent(), '\n')
				path := filepath.Join(dir, tool.Name+".json")
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%s: new tool %s (run go test -update): %v", srv.name, tool.Name, err)
					continue
				}
				if string(want) != string(got) {
					t.Errorf("%s: the schema of %s changed (run go test -update and review):\n%s", srv.name, tool.Name, got)
				}
			}
			if !*update {
				files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
				if len(files) != len(tools) {
					t.Errorf("%s: %d tools listed, %d schemas committed", srv.name, len(tools), len(files))
				}
			}
		})
	}
}

// TestPeerElicitation calls server-everything's trigger-elicitation-request
// tool, builds a form from the elicitation/create request it receives,
// fills every field like a user and accepts; the server must take the
// answer. The requested schema is kept under
// testdata/peers/everything-elicitation (golden files render it).
func TestPeerElicitation(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, peers.Everything)
	var sent []byte
	var problems []Issue
	var restriction []Issue
	var schemas []json.RawMessage
	var result json.RawMessage
	err := capture.Run(context.Background(), node, []string{file}, nil, func(ctx context.Context, r io.Reader, w io.Writer) error {
		var err error
		schemas, result, err = capture.Elicitations(ctx, r, w, "trigger-elicitation-request", nil, func(schema json.RawMessage) string {
			form, err := Build(schema)
			if err != nil {
				t.Errorf("requested schema: %v", err)
				return `{"action":"decline"}`
			}
			restriction = form.CheckElicitation()
			st := form.NewState()
			fill(st)
			problems = form.Check(st)
			sent = st.Value().JSON()
			return `{"action":"accept","content":` + string(sent) + `}`
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(result, &res); err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("tool result %s (%v)", result, err)
	}
	all := ""
	for _, c := range res.Content {
		all += c.Text
	}
	if !strings.Contains(all, "accept") || !strings.Contains(all, "a@example.com") || !strings.Contains(all, "fish-1") {
		t.Errorf("the server did not take the answer: %s", all)
	}
	if len(schemas) != 1 {
		t.Fatalf("%d elicitation requests, want 1", len(schemas))
	}
	if len(restriction) > 0 {
		t.Errorf("a real elicitation schema fails the restriction check: %v", restriction)
	}
	if len(problems) > 0 {
		t.Errorf("the filled form has problems: %v", problems)
	}
	v, _ := ParseValue(schemas[0])
	got := append(v.Indent(), '\n')
	path := filepath.Join("testdata", "peers", "everything-elicitation", "trigger-elicitation-request.json")
	if *update {
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if want, err := os.ReadFile(path); err != nil || string(want) != string(got) {
		t.Errorf("the requested schema changed (run go test -update and review): %v\n%s", err, got)
	}
	t.Logf("accepted with %s", sent)
}
