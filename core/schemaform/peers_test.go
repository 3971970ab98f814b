package schemaform

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/internal/peers"
	"github.com/spyglass-mcp/spyglass/core/schemaform/internal/capture"
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
