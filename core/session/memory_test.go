//go:build unix

package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// hugeServeEnv makes the test binary a stdio server whose tools/list
// answer is one line with a tool description of hugeSize bytes.
const hugeServeEnv = "SPYGLASS_SESSION_TEST_HUGE"

const hugeSize = 64 << 20

func init() {
	if os.Getenv(hugeServeEnv) != "" {
		os.Exit(serveHuge())
	}
}

// serveHuge answers initialize and ping like a server, and tools/list with
// one tool whose description is hugeSize bytes of 'x'.
func serveHuge() int {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		if !strings.Contains(line, `"id":`) {
			continue // a notification
		}
		id := strings.SplitN(strings.SplitN(line, `"id":`, 2)[1], ",", 2)[0]
		switch {
		case strings.Contains(line, `"initialize"`):
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"1"}}}`+"\n", id)
		case strings.Contains(line, `"tools/list"`):
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"big","description":"`, id)
			out.WriteString(strings.Repeat("x", hugeSize))
			out.WriteString(`","inputSchema":{"type":"object"}}]}}` + "\n")
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", id)
		}
		out.Flush()
	}
}

// TestOneLargeMessageMemory: one 64 MB message read from a real stdio
// server, recorded and decoded into a tool list costs at most 3x its size
// in bytes allocated (issue #11.6), plus a fixed baseline for the round
// trip's small allocations: the wire's pieces of the line while it is
// read and the line itself (2x: its length is unknown until its end), the
// typed tool's description string (1x). The envelope, the page's fields
// and the listed tool's raw bytes are windows on the line; any copy of
// them would add 1x and fail.
func TestOneLargeMessageMemory(t *testing.T) {
	log := events.New(nil)
	cfg := wire.StdioConfig{Conn: "huge", Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{hugeServeEnv + "=1"}}
	// No per-request timeout: the one bound is ctx's, for a slow machine
	// only (the race detector makes reading and decoding 64 MB take long;
	// on a loaded 2-core machine it took over the default 60 s), not a
	// timing assertion.
	s := New(stdioDial(log, cfg), log, &Options{Conn: "huge", RequestTimeout: -1})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tools, err := s.ListTools(ctx, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 1 || len(tools.Tools[0].Description) != hugeSize {
		t.Fatalf("tools/list: %d tools, want one with a %d-byte description", len(tools.Tools), hugeSize)
	}
	if !bytes.Contains(tools.Tools[0].Raw, []byte(`"name":"big"`)) {
		t.Fatalf("the tool's raw bytes lost its name: %.100s", tools.Tools[0].Raw)
	}
	const size = hugeSize + 100
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("one %d MB message: %d MB allocated (%.2fx), heap in use %d MB after", size>>20, alloc>>20, float64(alloc)/size, after.HeapAlloc>>20)
	const baseline = 1 << 20
	if alloc > 3*size+baseline {
		t.Errorf("one %d-byte message allocated %d bytes (%.2fx its size), want at most 3x and %d", size, alloc, float64(alloc)/size, baseline)
	}
	runtime.KeepAlive(tools)
}

// TestSpanAliasesInput: the envelope's spans are windows on the message,
// not copies (what TestOneLargeMessageMemory relies on); should
// encoding/json ever hand UnmarshalJSON a copy, this fails first.
func TestSpanAliasesInput(t *testing.T) {
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`)
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	if string(env.Result) != `{"a":1}` || string(env.ID) != "1" {
		t.Fatalf("envelope = %+v", env)
	}
	raw[bytes.Index(raw, []byte(`"a"`))+1] = 'b'
	if string(env.Result) != `{"b":1}` {
		t.Fatalf("result %s is a copy of the message, want a window on it", env.Result)
	}
	if cap(env.Result) != len(env.Result) {
		t.Fatalf("a span must not reach past its value (cap %d, len %d): an append would overwrite the message", cap(env.Result), len(env.Result))
	}
}
