package tap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	b.Cleanup(func() { // EOF first, so that a tap ends the way a host ends it
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
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
// over stdio, directly, through a bare relay (the floor: two extra pipe
// hops and nothing else, relayMain) and through the tap (recording into
// a trace), in interleaved rounds so that all three see the same machine
// load. Within a round they take turns call by call, the order rotating.
// Each round gives a wall ratio (tapped/direct time) and a CPU ratio (the
// tap and its server against the server alone, read from /proc around
// the round); the figures are their min, median and max over the rounds
// (the goal: wall ratio ≤ 1.05). The floor's figures are the relay's
// wall ratio against direct, and the tap's against the relay. Run with
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
	relay := startEcho(b, []string{"TAP_TEST_MAIN=relay"}, self, "--", node, ev)
	tapped := startEcho(b, []string{"TAP_TEST_MAIN=1"}, self, append(tapArgs(trace), "--", node, ev)...)
	directPIDs := []int{direct.cmd.Process.Pid}
	tappedPIDs := append([]int{tapped.cmd.Process.Pid}, childPIDs(tapped.cmd.Process.Pid)...)
	if len(tappedPIDs) < 2 {
		b.Fatal("the tap's server process was not found under /proc")
	}
	relayPID := []int{relay.cmd.Process.Pid}
	clients := []*echoClient{direct, relay, tapped}
	const echo = `"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}`
	for range 200 { // warm them up
		for _, c := range clients {
			c.call(b, echo)
		}
	}
	rounds := max(1, min(10, b.N/500))
	var walls, cpus, floors, overFloor []float64
	var total [3]time.Duration
	tap0, relay0 := cpuTicks(b, tappedPIDs[:1]), cpuTicks(b, relayPID)
	tapSw0, relaySw0 := switches(tappedPIDs[:1]), switches(relayPID)
	b.ResetTimer()
	for i := range rounds {
		n := b.N/rounds + boolInt(i < b.N%rounds)
		// Call by call, the three take turns (which goes first rotates
		// too), so that they meet the same machine load.
		cd0, ct0 := cpuTicks(b, directPIDs), cpuTicks(b, tappedPIDs)
		var w [3]time.Duration
		for j := range n {
			for k := range clients {
				c := (i + j + k) % len(clients)
				start := time.Now()
				clients[c].call(b, echo)
				w[c] += time.Since(start)
			}
		}
		cd, ct := cpuTicks(b, directPIDs)-cd0, cpuTicks(b, tappedPIDs)-ct0
		for c := range total {
			total[c] += w[c]
		}
		walls = append(walls, float64(w[2])/float64(w[0]))
		floors = append(floors, float64(w[1])/float64(w[0]))
		overFloor = append(overFloor, float64(w[2])/float64(w[1]))
		if cd > 0 {
			cpus = append(cpus, ct/cd)
		}
	}
	b.StopTimer()
	tapCPU, relayCPU := cpuTicks(b, tappedPIDs[:1])-tap0, cpuTicks(b, relayPID)-relay0
	tapSw, relaySw := switches(tappedPIDs[:1])-tapSw0, switches(relayPID)-relaySw0
	perCall := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) }
	b.ReportMetric(0, "ns/op")
	// The tap's own CPU per call (the server's left out): what recording
	// and copying cost, steadier than the ratios, which carry the
	// server's own variation (its garbage collector, its JIT) per round.
	b.ReportMetric(tapCPU/1e3/float64(b.N), "tap-cpu-µs/call")
	b.ReportMetric(relayCPU/1e3/float64(b.N), "floor-cpu-µs/call")
	// How often the tap's threads went to sleep per call (a read that
	// waits, a goroutine handed to another thread): a count that the
	// machine's load hardly moves, unlike the times.
	b.ReportMetric(tapSw/float64(b.N), "tap-sleeps/call")
	b.ReportMetric(relaySw/float64(b.N), "floor-sleeps/call")
	b.ReportMetric(perCall(total[0]), "direct-µs/call")
	b.ReportMetric(perCall(total[1]), "floor-µs/call")
	b.ReportMetric(perCall(total[2]), "tapped-µs/call")
	lo, med, hi := minMedMax(walls)
	b.ReportMetric(lo, "wall-ratio-min")
	b.ReportMetric(med, "wall-ratio-median(goal≤1.05)")
	b.ReportMetric(hi, "wall-ratio-max")
	lo, med, hi = minMedMax(cpus)
	b.ReportMetric(lo, "cpu-ratio-min")
	b.ReportMetric(med, "cpu-ratio-median")
	b.ReportMetric(hi, "cpu-ratio-max")
	lo, med, hi = minMedMax(floors)
	b.ReportMetric(lo, "floor-wall-ratio-min")
	b.ReportMetric(med, "floor-wall-ratio-median")
	b.ReportMetric(hi, "floor-wall-ratio-max")
	_, med, _ = minMedMax(overFloor)
	b.ReportMetric(med, "tap/floor-wall-median")
}

// cpuTicks sums the time the processes' threads ran on a CPU, in
// nanoseconds (/proc/PID/task/TID/schedstat; /proc/PID/stat counts in
// 10 ms ticks, too coarse for a round).
func cpuTicks(b *testing.B, pids []int) float64 {
	var sum float64
	for _, pid := range pids {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			b.Fatalf("the threads of process %d: %v", pid, err)
		}
		for _, t := range tasks {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
			if err != nil {
				continue // the thread ended
			}
			f := strings.Fields(string(data))
			if len(f) > 0 {
				ns, _ := strconv.ParseFloat(f[0], 64)
				sum += ns
			}
		}
	}
	return sum
}

// switches sums the voluntary context switches of the processes'
// threads (/proc/PID/task/TID/status): each time one went to sleep.
func switches(pids []int) float64 {
	var sum float64
	for _, pid := range pids {
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		for _, t := range tasks {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", pid, t.Name()))
			if err != nil {
				continue // the thread ended
			}
			for line := range strings.Lines(string(data)) {
				if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
					n, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
					sum += n
				}
			}
		}
	}
	return sum
}

// procStat returns the fields of /proc/PID/stat (the command name, which
// may hold spaces, as one field).
func procStat(pid int) []string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return append([]string{s[:strings.IndexByte(s, ' ')], s[:i+1]}, strings.Fields(s[i+1:])...)
}

// childPIDs returns the processes whose parent is pid.
func childPIDs(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := procStat(p); len(f) > 3 && f[3] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

func minMedMax(v []float64) (lo, med, hi float64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[0], s[len(s)/2], s[len(s)-1]
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
