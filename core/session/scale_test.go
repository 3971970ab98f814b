//go:build linux

package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
)

// demoHTTPEnv makes the test binary the demo server over Streamable HTTP
// on a free loopback port; it prints the endpoint's URL as its first line.
const demoHTTPEnv = "SPYGLASS_SESSION_TEST_DEMO_HTTP"

func init() {
	if dir := os.Getenv(demoHTTPEnv); dir != "" {
		err := demo.ServeHTTP(context.Background(), demo.New(&demo.Options{NotesDir: dir}), 0, func(u string) { fmt.Println(u) })
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// demoHTTPChild starts the demo server over Streamable HTTP in a child
// process (so that its memory and allocations are not this process's)
// and returns its endpoint.
func demoHTTPChild(tb testing.TB) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), demoHTTPEnv+"="+tb.TempDir())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		tb.Fatalf("the demo server did not say where it listens: %v", err)
	}
	return strings.TrimSpace(line)
}

// demoStdioDial starts the demo server as a child process (this test
// binary, see TestMain) for every connection.
func demoStdioDial(tb testing.TB, log *events.Log) func(context.Context) (wire.Conn, error) {
	return stdioDial(log, wire.StdioConfig{Conn: "demo", Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{demoServeEnv + "=stdio", demo.NotesEnv + "=" + tb.TempDir()}})
}

// floodCounter counts the flood's notifications/message events a log
// listener receives, and the data.seq of each when asked to check them.
type floodCounter struct {
	mu      sync.Mutex
	cond    *sync.Cond
	last    uint64 // highest seq delivered
	n       int    // flood notifications seen
	dropped uint64 // events evicted before the listener read them
	seqs    map[int]int
}

func newFloodCounter(l *events.Log, checkSeqs bool) (*floodCounter, func()) {
	c := &floodCounter{}
	c.cond = sync.NewCond(&c.mu)
	if checkSeqs {
		c.seqs = map[int]int{}
	}
	cancel := l.Subscribe(func(b events.Batch) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.dropped += b.Dropped
		for i := range b.Events {
			e := &b.Events[i]
			c.last = max(c.last, e.Seq)
			if e.Method != "notifications/message" || e.Dir != events.DirIn {
				continue
			}
			c.n++
			if c.seqs != nil {
				var m struct {
					Params struct {
						Logger string `json:"logger"`
						Data   struct {
							Seq int `json:"seq"`
						} `json:"data"`
					} `json:"params"`
				}
				if json.Unmarshal(e.Raw, &m) == nil && m.Params.Logger == "flood" {
					c.seqs[m.Params.Data.Seq]++
				}
			}
		}
		c.cond.Broadcast()
	})
	return c, cancel
}

// waitFor blocks until the listener has been handed every event up to seq.
func (c *floodCounter) waitFor(seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.last < seq {
		c.cond.Wait()
	}
}

// flood calls the demo's flood tool for count log notifications and
// returns how many the server says it sent.
func flood(ctx context.Context, s *Session, count int) (int, error) {
	res, err := s.CallTool(ctx, ToolCall{Name: demo.ToolFlood, Arguments: map[string]any{"count": count}}, nil)
	if err != nil {
		return 0, err
	}
	if res.Result.IsError || len(res.Result.Content) == 0 {
		return 0, fmt.Errorf("flood failed: %s", res.Result.Raw)
	}
	var sent int
	if _, err := fmt.Sscanf(res.Result.Content[0].Text, "Sent %d", &sent); err != nil {
		return 0, fmt.Errorf("flood result %q: %w", res.Result.Content[0].Text, err)
	}
	return sent, nil
}

// TestFloodNoneLost: every notification of the demo server's flood is
// recorded, exactly once, over stdio (a child process) and over
// Streamable HTTP (issue #17's ingest, the correctness half; the rate is
// measured by BenchmarkFlood, never asserted).
func TestFloodNoneLost(t *testing.T) {
	const count = 20000
	for name, dial := range map[string]func(*events.Log) func(context.Context) (wire.Conn, error){
		"stdio": func(l *events.Log) func(context.Context) (wire.Conn, error) { return demoStdioDial(t, l) },
		"http":  func(l *events.Log) func(context.Context) (wire.Conn, error) { return httpDial(l, demotest.URL(t, nil)) },
	} {
		t.Run(name, func(t *testing.T) {
			log := events.New(nil)
			c, cancel := newFloodCounter(log, true)
			defer cancel()
			s := New(dial(log), log, &Options{Conn: "demo"})
			defer s.Close()
			sent, err := flood(testCtx(t), s, count)
			if err != nil {
				t.Fatal(err)
			}
			c.waitFor(log.LastSeq())
			c.mu.Lock()
			defer c.mu.Unlock()
			if sent != count || c.n != count || c.dropped != 0 {
				t.Fatalf("server sent %d of %d, the log recorded %d (%d dropped before the listener read them)", sent, count, c.n, c.dropped)
			}
			for i := 1; i <= count; i++ {
				if c.seqs[i] != 1 {
					t.Fatalf("flood notification %d recorded %d times", i, c.seqs[i])
				}
			}
		})
	}
}

// TestClearReleasesMemory: after a flood fills the log, Clear gives the
// payloads back: the heap returns to within a few MB of where it was
// before the flood (bounded memory where the log bounds it).
func TestClearReleasesMemory(t *testing.T) {
	log := events.New(nil)
	s := New(demoStdioDial(t, log), log, &Options{Conn: "demo"})
	defer s.Close()
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	before := heapAfterGC()
	if _, err := flood(ctx, s, 50000); err != nil {
		t.Fatal(err)
	}
	full := heapAfterGC()
	log.Clear()
	after := heapAfterGC()
	t.Logf("heap: %.1f MB before the flood, %.1f MB with 50,000 notifications held, %.1f MB after Clear", mb(before), mb(full), mb(after))
	if full < before+2<<20 {
		t.Fatalf("the flood held no memory (%.1f → %.1f MB): nothing measured", mb(before), mb(full))
	}
	if after > before+4<<20 {
		t.Errorf("after Clear the heap is %.1f MB, %.1f MB above the %.1f MB before the flood", mb(after), mb(after-before), mb(before))
	}
}

func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
