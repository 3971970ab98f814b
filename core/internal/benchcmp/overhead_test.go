package main

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// serveEnv makes the test binary serve the demo server over stdio, so both
// clients below talk to the same real server process through real pipes.
const serveEnv = "SPYGLASS_BENCH_SERVE_DEMO"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		srv := demo.New(&demo.Options{NotesDir: os.TempDir()})
		if err := demo.ServeStdio(context.Background(), srv, os.Stdin, os.Stdout, nil); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// spyglassCaller is Spyglass's recorded session over wire.Stdio.
func spyglassCaller(tb testing.TB) (call func(context.Context) error, stop func()) {
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	log := events.New(&events.Options{Redact: wire.NewRedactor().Redact})
	cfg := wire.StdioConfig{Conn: "bench", Command: self, Env: []string{serveEnv + "=1"}}
	s := session.New(func(context.Context) (wire.Conn, error) { return wire.NewStdio(cfg, log), nil }, log, &session.Options{Conn: "bench"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		tb.Fatalf("spyglass connect: %v", err)
	}
	args := map[string]any{"message": "hello"}
	return func(ctx context.Context) error {
		res, err := s.CallTool(ctx, session.ToolCall{Name: demo.ToolEcho, Arguments: args}, nil)
		if err == nil && res.Result.IsError {
			err = fmt.Errorf("echo failed: %s", res.Raw)
		}
		return err
	}, func() { s.Close() }
}

// mcpgoCaller is a bare mark3labs/mcp-go client over its own stdio transport.
func mcpgoCaller(tb testing.TB) (call func(context.Context) error, stop func()) {
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	c, err := client.NewStdioMCPClient(self, append(os.Environ(), serveEnv+"=1"))
	if err != nil {
		tb.Fatalf("mcp-go client: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		tb.Fatalf("mcp-go initialize: %v", err)
	}
	return func(ctx context.Context) error {
		req := mcp.CallToolRequest{}
		req.Params.Name = demo.ToolEcho
		req.Params.Arguments = map[string]any{"message": "hello"}
		res, err := c.CallTool(ctx, req)
		if err == nil && res.IsError {
			err = fmt.Errorf("echo failed")
		}
		return err
	}, func() { c.Close() }
}

// BenchmarkRecordingOverhead runs tools/call round trips to the demo
// server's echo tool through Spyglass's recorded session and through a bare
// mcp-go client, alternating blocks of calls in one run, and reports each
// side's time per call and the ratio spyglass/mcp-go (target ≤ 1.10).
// Run it with -benchtime=10000x for the 10,000 round trips.
func BenchmarkRecordingOverhead(b *testing.B) {
	ours, stopOurs := spyglassCaller(b)
	defer stopOurs()
	theirs, stopTheirs := mcpgoCaller(b)
	defer stopTheirs()
	ctx := context.Background()
	const block = 250
	var tOurs, tTheirs time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += block {
		n := min(block, b.N-done)
		for _, side := range []struct {
			call func(context.Context) error
			acc  *time.Duration
		}{{ours, &tOurs}, {theirs, &tTheirs}} {
			start := time.Now()
			for i := 0; i < n; i++ {
				if err := side.call(ctx); err != nil {
					b.Fatal(err)
				}
			}
			*side.acc += time.Since(start)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(tOurs.Nanoseconds())/float64(b.N), "ns/spyglass-call")
	b.ReportMetric(float64(tTheirs.Nanoseconds())/float64(b.N), "ns/mcpgo-call")
	b.ReportMetric(float64(tOurs)/float64(tTheirs), "ratio")
}

// TestBothClientsCallEcho checks that the benchmark's two clients work, so
// a broken benchmark is caught by make test rather than by make bench.
func TestBothClientsCallEcho(t *testing.T) {
	for name, mk := range map[string]func(testing.TB) (func(context.Context) error, func()){
		"spyglass": spyglassCaller, "mcp-go": mcpgoCaller,
	} {
		call, stop := mk(t)
		// Many calls in a row: a write deadline left over from one call's
		// context once failed every later write.
		for i := 0; i < 300; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			err := call(ctx)
			cancel()
			if err != nil {
				t.Errorf("%s call %d: %v", name, i, err)
				break
			}
		}
		stop()
	}
}
