package capture_test

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/core/schemaform/internal/capture"
)

var update = flag.Bool("update", false, "rewrite ../../testdata/demo/*.json")

// TestDemoSchemas lists the tools of Spyglass's own demo server in
// process and compares each inputSchema with the copy the schemaform
// golden tests use (core/schemaform/testdata/demo/<tool>.json).
func TestDemoSchemas(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := demo.New(&demo.Options{NotesDir: t.TempDir(), Crash: func() {}})
	cin, sin := io.Pipe()
	sout, cout := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- demo.ServeStdio(ctx, srv, cin, cout, nil) }()
	tools, err := capture.Tools(ctx, sout, sin)
	sin.Close()
	cancel()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "testdata", "demo")
	if *update {
		_ = os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range tools {
		v, err := schemaform.ParseValue(tool.InputSchema)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
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
			t.Errorf("new demo tool %s (run go test -update here and in core/schemaform): %v", tool.Name, err)
			continue
		}
		if string(want) != string(got) {
			t.Errorf("the demo schema of %s changed (run go test -update here and in core/schemaform)", tool.Name)
		}
	}
}
