//go:build linux

// Command benchcmp runs Spyglass's CLI and the official MCP Inspector's CLI
// side by side against the same real server, alternating runs on the same
// machine, and prints the median wall time and peak memory of each and the
// ratio ours/theirs. `make bench` runs it; the figures go into issue notes.
//
// These machines are shared and noisy, so only ratios from one run are
// meaningful; nothing here asserts a timing. It is Linux only: it reads
// process accounting (rusage, fadvise, process groups).
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// sample is one measured run of a command.
type sample struct {
	wall  time.Duration
	maxKB int64
}

// run executes argv once and measures wall time and the child's peak RSS.
func run(argv []string, env []string) (sample, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdout = nil
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, stderr.String())
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var kb int64
	if ru != nil {
		kb = ru.Maxrss
	}
	return sample{wall: wall, maxKB: kb}, nil
}

func median(xs []sample) (time.Duration, int64) {
	ws := make([]time.Duration, len(xs))
	ms := make([]int64, len(xs))
	for i, x := range xs {
		ws[i], ms[i] = x.wall, x.maxKB
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i] < ws[j] })
	sort.Slice(ms, func(i, j int) bool { return ms[i] < ms[j] })
	return ws[len(ws)/2], ms[len(ms)/2]
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitPort(port int, d time.Duration) error {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("nothing listens on port %d after %s", port, d)
}

// evict drops a file's pages from the page cache (posix_fadvise
// DONTNEED), so that the next run maps it the way an installed program is
// mapped: read in by readahead. A binary the compiler has just written sits
// in the page cache in large folios, which the kernel maps whole; that
// inflates the peak RSS of a freshly built Go binary by ~8 MB (the whole
// text and rodata) and is not what a user's machine sees. Done for both
// sides' executables alike.
func evict(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

// compare runs ours and theirs alternately n times and prints one line.
func compare(name string, n int, ours, theirs []string, env []string) error {
	var os1, ts []sample
	// One warm-up run each, not counted (page cache, node's compile cache).
	if _, err := run(ours, env); err != nil {
		return err
	}
	if _, err := run(theirs, env); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		a, err := run(ours, env)
		if err != nil {
			return err
		}
		b, err := run(theirs, env)
		if err != nil {
			return err
		}
		os1, ts = append(os1, a), append(ts, b)
	}
	ow, om := median(os1)
	tw, tm := median(ts)
	fmt.Printf("%-34s ours %8.1fms %6.1fMB | theirs %8.1fms %6.1fMB | wall ratio %.3f  memory ratio %.3f\n",
		name, ms(ow), float64(om)/1024, ms(tw), float64(tm)/1024,
		float64(ow)/float64(tw), float64(om)/float64(tm))
	return nil
}

// startOnly prints the median of `spyglass --version`: the process start
// alone (runtime and package initialisation, no protocol), the floor
// under every --cli run of the one binary.
func startOnly(n int, ours string, env []string) error {
	var xs []sample
	for i := 0; i <= n; i++ {
		x, err := run([]string{ours, "--version"}, env)
		if err != nil {
			return err
		}
		if i > 0 { // the first run warms the page cache
			xs = append(xs, x)
		}
	}
	w, m := median(xs)
	fmt.Printf("%-34s ours %8.1fms %6.1fMB   (process start only: the floor under every --cli run)\n", "spyglass --version", ms(w), float64(m)/1024)
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func main() {
	ours := flag.String("spyglass", "bin/spyglass", "the Spyglass binary")
	modules := flag.String("peers", ".ci/peers/node_modules", "node_modules holding the npm peers")
	n := flag.Int("n", 9, "runs of each command")
	flag.Parse()

	abs, err := filepath.Abs(*ours)
	must(err)
	everything := filepath.Join(*modules, "@modelcontextprotocol/server-everything/dist/index.js")
	inspector := filepath.Join(*modules, "@modelcontextprotocol/inspector/clients/launcher/build/index.js")
	// A server on the official TypeScript SDK v2 listing 10,000 tools and
	// 10,000 resources (issue #17's thousand-tool servers).
	manyTools, err := filepath.Abs("core/session/testdata/tssdk_many_tools.mjs")
	must(err)
	for _, f := range []string{abs, everything, inspector, manyTools} {
		if _, err := os.Stat(f); err != nil {
			must(fmt.Errorf("missing %s (run `make build peers`)", f))
		}
	}
	home, err := os.MkdirTemp("", "benchcmp-home-")
	must(err)
	defer os.RemoveAll(home)
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))

	node, err := exec.LookPath("node")
	must(err)
	for _, exe := range []string{abs, node} {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			must(evict(real))
		}
	}

	port, err := freePort()
	must(err)
	srv := exec.Command("node", everything, "streamableHttp")
	srv.Env = append(env, fmt.Sprintf("PORT=%d", port))
	srv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	must(srv.Start())
	defer syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
	must(waitPort(port, 20*time.Second))
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)

	fmt.Printf("benchcmp: %d alternating runs each, medians (Spyglass vs @modelcontextprotocol/inspector --cli);\n", *n)
	fmt.Printf("both executables evicted from the page cache first (as installed programs are loaded)\n")
	must(compare("tools/list, Streamable HTTP", *n,
		[]string{abs, "--cli", "--server-url", url, "--transport", "http", "--method", "tools/list", "--format", "json"},
		[]string{"node", inspector, "--cli", "--server-url", url, "--transport", "http", "--method", "tools/list"}, env))
	must(startOnly(*n, abs, env))
	must(compare("tools/list, stdio", *n,
		[]string{abs, "--cli", "--method", "tools/list", "--format", "json", "--", "node", everything},
		[]string{"node", inspector, "--cli", "node", everything, "--method", "tools/list"}, env))
	// Each run starts a server that registers 20,000 entries: fewer runs.
	// Peak memory is the larger of the client and the server it started
	// (rusage of the waited-for tree), on both sides alike.
	must(compare("tools/list, 10,000 tools, stdio", max(3, *n/3),
		[]string{abs, "--cli", "--method", "tools/list", "--format", "json", "--", "node", manyTools, "10000"},
		[]string{"node", inspector, "--cli", "node", manyTools, "10000", "--method", "tools/list"}, env))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}
