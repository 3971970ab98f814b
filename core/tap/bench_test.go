package tap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// echoClient speaks JSON-RPC lines to a server-everything process.
type echoClient struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startEcho(b *testing.B, env []string, name string, args ...string) *echoClient {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &echoClient{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}
	b.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	c.call(b, `"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}`)
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return c
}

// call sends one request (method and params as JSON text) and waits for
// its response.
func (c *echoClient) call(b *testing.B, methodAndParams string) {
	c.id++
	fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%d,"method":%s}`+"\n", c.id, methodAndParams)
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			b.Fatalf("server ended: %v", err)
		}
		var m struct {
			ID *int `json:"id"`
		}
		if json.Unmarshal(line, &m) == nil && m.ID != nil && *m.ID == c.id {
			return
		}
	}
}

// BenchmarkTapEcho: b.N tools/call echo round trips to server-everything
// over stdio, directly and through the tap (recording into a trace), in
// alternating blocks so both see the same machine load. Reports the time
// per call of each and their ratio (the goal: ratio ≤ 1.05). Run with
// -benchtime 10000x.
func BenchmarkTapEcho(b *testing.B) {
	node := peers.Node(b)
	ev := peers.File(b, peers.Everything)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	trace := filepath.Join(b.TempDir(), "trace.json")
	direct := startEcho(b, nil, node, ev)
	tapped := startEcho(b, []string{"TAP_TEST_MAIN=1"}, self, append(tapArgs(trace), "--", node, ev)...)
	const echo = `"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}`
	for range 200 { // warm both up
		direct.call(b, echo)
		tapped.call(b, echo)
	}
	const blocks = 10
	var tDirect, tTapped time.Duration
	b.ResetTimer()
	for i := range blocks {
		n := b.N/blocks + boolInt(i < b.N%blocks)
		start := time.Now()
		for range n {
			direct.call(b, echo)
		}
		tDirect += time.Since(start)
		start = time.Now()
		for range n {
			tapped.call(b, echo)
		}
		tTapped += time.Since(start)
	}
	b.StopTimer()
	// CPU time is steadier than wall time on a shared machine. The tap's
	// rusage includes the server it waited for, so tapped/direct is what
	// the server and the tap together spent per call against the server
	// alone (start-up and warm-up included).
	cpu := func(c *echoClient) time.Duration {
		c.in.Close()
		c.cmd.Wait()
		return c.cmd.ProcessState.UserTime() + c.cmd.ProcessState.SystemTime()
	}
	cDirect, cTapped := cpu(direct), cpu(tapped)
	b.ReportMetric(float64(cDirect.Microseconds())/float64(b.N+200), "direct-cpu-µs/call")
	b.ReportMetric(float64(cTapped.Microseconds())/float64(b.N+200), "tapped-cpu-µs/call")
	b.ReportMetric(float64(cTapped)/float64(cDirect), "cpu-ratio")
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(tDirect.Microseconds())/float64(b.N), "direct-µs/call")
	b.ReportMetric(float64(tTapped.Microseconds())/float64(b.N), "tapped-µs/call")
	b.ReportMetric(float64(tTapped)/float64(tDirect), "ratio(goal≤1.05)")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tapArgs are the tap's flags in the benchmark: TAP_BENCH_NOTRACE=1
// measures the tap without recording.
func tapArgs(trace string) []string {
	if os.Getenv("TAP_BENCH_NOTRACE") == "1" {
		return nil
	}
	return []string{"--trace", trace}
}
