//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/internal/xvfb"
)

// The window's own figures of issue #17, measured through the app's
// benchmark mode (cmd/benchmode.go): the UI thread's scheduling delay
// while the demo server's flood streams into a connected window, and the
// app itself (cold start to the first frame, memory with a server
// connected) against the official inspector's web mode in a headless
// Chromium. `make bench` runs them (.ci/bench.sh) with SPYGLASS_BIN set to
// the built binary; they are benchmarks only, never part of make test.

// windowReport mirrors cmd's benchReport (the JSON file of the mode).
type windowReport struct {
	ProcessStart int64   `json:"process_start_unix_ns"`
	FirstFrame   int64   `json:"first_frame_unix_ns"`
	Connected    int64   `json:"connected_unix_ns"`
	FirstFrameMs float64 `json:"first_frame_ms"`
	UIDelay      *struct {
		Samples int     `json:"samples"`
		P50     float64 `json:"p50_ms"`
		P99     float64 `json:"p99_ms"`
		Max     float64 `json:"max_ms"`
	} `json:"ui_delay"`
	Flood *struct {
		Rate        int     `json:"rate_per_s"`
		Elapsed     float64 `json:"elapsed_s"`
		Sent        int     `json:"sent"`
		Recorded    int     `json:"recorded"`
		Dropped     uint64  `json:"listener_dropped"`
		RSSBefore   float64 `json:"rss_before_mb"`
		RSSPeak     float64 `json:"rss_peak_mb"`
		RSSCleared  float64 `json:"rss_cleared_mb"`
		HeapBefore  float64 `json:"heap_before_mb"`
		HeapCleared float64 `json:"heap_cleared_mb"`
		Settle      float64 `json:"settle_s"`
		RSSSettled  float64 `json:"rss_settled_mb"`
		HeapSettled float64 `json:"heap_settled_mb"`
		LiveBefore  float64 `json:"live_before_mb"`
		LiveSettled float64 `json:"live_settled_mb"`
		Cleared     uint64  `json:"cleared_events"`
		CPU         float64 `json:"cpu_s"`
		UICPU       float64 `json:"ui_thread_cpu_s"`
		CaughtUp    float64 `json:"caught_up_s"`
		Load1       float64 `json:"load1"`
	} `json:"flood"`
	Error string `json:"error"`
}

// spyglassBin is the binary under test (SPYGLASS_BIN, set by make bench).
func spyglassBin(b *testing.B) string {
	p := os.Getenv("SPYGLASS_BIN")
	if p == "" {
		b.Fatal("SPYGLASS_BIN is not set: run these through make bench (it builds bin/spyglass)")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		b.Fatal(err)
	}
	return abs
}

// isolatedEnv is the environment of one app run: its own HOME and XDG
// folders (no catalog, preferences or running window of the user's), the
// display.
func isolatedEnv(b *testing.B, display string) []string {
	home := b.TempDir()
	rt := filepath.Join(home, "run")
	if err := os.Mkdir(rt, 0o700); err != nil {
		b.Fatal(err)
	}
	env := []string{"HOME=" + home, "XDG_RUNTIME_DIR=" + rt, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local/share"), "XDG_STATE_HOME=" + filepath.Join(home, ".local/state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "LANG=en_US.UTF-8", "DISPLAY=" + display}
	for _, kv := range os.Environ() {
		// the window's profiles (SPYGLASS_BENCH_HEAPPROFILE and the
		// like, cmd/benchmode.go) pass through for a run by hand
		if k, _, _ := strings.Cut(kv, "="); k == "PATH" || k == "TMPDIR" || strings.HasPrefix(k, "SPYGLASS_BENCH_") && strings.HasSuffix(k, "PROFILE") {
			env = append(env, kv)
		}
	}
	return env
}

// app is one run of the window in its benchmark mode.
type app struct {
	cmd     *exec.Cmd
	started time.Time // just before exec
	done    chan struct{}
	out     string // the report file
}

// startApp starts the window with SPYGLASS_BENCH=mode on args; done is
// closed when it prints "SPYGLASS_BENCH done".
func startApp(b *testing.B, env []string, mode string, args ...string) *app {
	a := &app{done: make(chan struct{}), out: filepath.Join(b.TempDir(), "bench.json")}
	a.cmd = exec.Command(spyglassBin(b), args...)
	a.cmd.Env = append(env, "SPYGLASS_BENCH="+mode, "SPYGLASS_BENCH_OUT="+a.out)
	a.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	a.cmd.Stderr = &stderr
	stdout, err := a.cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	a.started = time.Now()
	if err := a.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
		_ = a.cmd.Wait()
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if sc.Text() == "SPYGLASS_BENCH done" {
				close(a.done)
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case <-a.done:
	case <-time.After(10 * time.Minute): // a hang bound, not a measurement
		b.Fatalf("the window's benchmark mode did not finish in 10 minutes:\n%s", stderr.String())
	}
	return a
}

// report reads the app's report; a run that failed ends the benchmark.
func (a *app) report(b *testing.B) windowReport {
	data, err := os.ReadFile(a.out)
	if err != nil {
		b.Fatal(err)
	}
	var r windowReport
	if err := json.Unmarshal(data, &r); err != nil {
		b.Fatalf("the report is not valid JSON: %v\n%s", err, data)
	}
	if r.Error != "" {
		b.Fatalf("the window's benchmark mode failed: %s", r.Error)
	}
	return r
}

// demoHTTP starts the demo server over Streamable HTTP in a process of
// its own and returns its URL.
func demoHTTP(b *testing.B, bin string) string {
	port, err := freePort()
	if err != nil {
		b.Fatal(err)
	}
	srv := exec.Command(bin, "--demo-server", "--transport", "http", "--port", strconv.Itoa(port), "--notes-dir", b.TempDir())
	srv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
		_ = srv.Wait()
	})
	if err := waitPort(port, 30*time.Second); err != nil {
		b.Fatal(err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// floodSeconds is how long each flood runs: BENCH_FLOOD_SECONDS, 10 by
// default (issue #17's full figure is 60).
func floodSeconds() string {
	if s := os.Getenv("BENCH_FLOOD_SECONDS"); s != "" {
		return s
	}
	return "10"
}

// floodSettle is how long after Clear the memory is read again, once
// Fyne's caches have let go of what the flood drew (they keep it a minute
// after its last use and free it at a frame after that):
// BENCH_FLOOD_SETTLE seconds, 80 by default (the minute, and the ten
// seconds between two of its clean-ups), 0 for no second reading.
func floodSettle() string {
	if s := os.Getenv("BENCH_FLOOD_SETTLE"); s != "" {
		return s
	}
	return "80"
}

// BenchmarkUIFlood: the demo server's flood (10,000 notifications a
// second) into a connected window under Xvfb, over stdio (the demo server
// a child of the window) and over Streamable HTTP (a process of its own).
func BenchmarkUIFlood(b *testing.B) {
	bin := spyglassBin(b)
	display := xvfb.Start(b, 1280, 800)
	for _, tc := range []struct {
		name string
		args func(b *testing.B) []string
	}{
		{"stdio", func(*testing.B) []string { return []string{bin, "--", "--demo-server"} }},
		{"http", func(b *testing.B) []string { return []string{demoHTTP(b, bin)} }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			env := append(isolatedEnv(b, display), "SPYGLASS_BENCH_SECONDS="+floodSeconds(), "SPYGLASS_BENCH_SETTLE="+floodSettle())
			a := startApp(b, env, "ui-latency", tc.args(b)...)
			r := a.report(b)
			_ = a.cmd.Wait() // it quits once the report is written
			if r.UIDelay == nil || r.Flood == nil {
				b.Fatal("the report has no flood figures")
			}
			f := r.Flood
			if f.Cleared == 0 { // the mode fails such a run too; an older binary's report has no count
				b.Fatal("the inspector's Clear cleared no event: the memory after Clear was not measured")
			}
			b.ReportMetric(r.UIDelay.P50, "p50-ms")
			b.ReportMetric(r.UIDelay.P99, "p99-ms")
			b.ReportMetric(r.UIDelay.Max, "max-ms")
			b.ReportMetric(float64(r.UIDelay.Samples), "samples")
			b.ReportMetric(float64(f.Sent), "sent")
			b.ReportMetric(float64(f.Recorded), "recorded")
			b.ReportMetric(float64(f.Sent)/f.Elapsed, "notif/s")
			b.ReportMetric(f.RSSBefore, "rss-before-MB")
			b.ReportMetric(f.RSSPeak, "rss-peak-MB")
			b.ReportMetric(f.RSSCleared, "rss-cleared-MB")
			b.ReportMetric(f.RSSCleared/f.RSSBefore, "cleared/before")
			// Go's in-use heap at the same two points: what of the
			// difference the window's own objects hold (the rest is C
			// memory: GL, fonts, textures)
			b.ReportMetric(f.HeapBefore, "heap-before-MB")
			b.ReportMetric(f.HeapCleared, "heap-cleared-MB")
			if f.Settle > 0 {
				// the same once Fyne's caches let go (the goal:
				// back at the baseline after Clear)
				b.ReportMetric(f.RSSSettled, "rss-settled-MB")
				b.ReportMetric(f.RSSSettled/f.RSSBefore, "settled/before")
				b.ReportMetric(f.HeapSettled, "heap-settled-MB")
				// the live objects alone: what the window still holds
				b.ReportMetric(f.LiveBefore, "live-before-MB")
				b.ReportMetric(f.LiveSettled, "live-settled-MB")
			}
			// the CPU the window got while it took the flood and caught
			// up, in cores; with the machine's load, this says how much of
			// the delay is a shared machine's
			b.ReportMetric(f.CPU/f.CaughtUp, "cores-used")
			b.ReportMetric(f.CaughtUp, "caught-up-s")
			// the UI thread's own CPU per second of flood: the work the
			// stream costs it, which the machine's load hardly moves
			b.ReportMetric(f.UICPU/f.Elapsed, "ui-cpu/s")
			b.ReportMetric(f.Load1, "load1")
		})
	}
}

// settle is how long each side stays idle with the server connected
// before its memory is read: the point of measurement, alike for both.
const settle = 3 * time.Second

// BenchmarkAppItself: cold start to the first drawn frame and memory
// (PSS of every process) with the demo server connected over HTTP, the
// window against the official inspector's web mode (its Node server and a
// headless Chromium tab that connects on load). The demo server is one
// process both connect to and is counted on neither side.
func BenchmarkAppItself(b *testing.B) {
	bin := spyglassBin(b)
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		b.Fatal("chromium is missing: make bench installs Debian's chromium package")
	}
	display := xvfb.Start(b, 1280, 800)
	server := demoHTTP(b, bin)

	// both sides' executables out of the page cache first, as an
	// installed program is loaded (/usr/bin/chromium is a script that
	// starts /usr/lib/chromium/chromium)
	node, err := exec.LookPath("node")
	if err != nil {
		b.Fatal(err)
	}
	for _, exe := range []string{bin, node, "/usr/lib/chromium/chromium"} {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			if err := evict(real); err != nil {
				b.Fatal(err)
			}
		}
	}
	a := startApp(b, isolatedEnv(b, display), "startup", server)
	r := a.report(b)
	time.Sleep(settle) // the point of measurement, not synchronisation
	ourPSS, ourProcs := treePSS(a.cmd.Process.Pid)
	ourFrame := float64(r.FirstFrame-a.started.UnixNano()) / 1e6

	th := startInspectorWeb(b, chromium, server)
	time.Sleep(settle) // the point of measurement, not synchronisation
	nodePSS, nodeProcs := treePSS(th.node.Process.Pid)
	chromePSS, chromeProcs := treePSS(th.chrome.Process.Pid)

	b.ReportMetric(ourFrame, "first-frame-ms")
	b.ReportMetric(r.FirstFrameMs, "first-frame-own-ms")
	b.ReportMetric(th.firstPaintMs, "their-first-paint-ms")
	b.ReportMetric(th.browserPaintMs, "their-browser-paint-ms")
	b.ReportMetric(ourFrame/th.firstPaintMs, "frame/paint")
	b.ReportMetric(float64(ourPSS)/1024, "pss-MB")
	b.ReportMetric(float64(nodePSS)/1024, "their-node-pss-MB")
	b.ReportMetric(float64(chromePSS)/1024, "their-chromium-pss-MB")
	b.ReportMetric(float64(ourPSS)/float64(nodePSS+chromePSS), "pss-ratio")
	b.ReportMetric(float64(ourProcs), "procs")
	b.ReportMetric(float64(nodeProcs+chromeProcs), "their-procs")
}

// inspectorWeb is one run of the official inspector's web mode.
type inspectorWeb struct {
	node, chrome *exec.Cmd
	// firstPaintMs runs from starting its Node server to the page's first
	// paint; browserPaintMs from starting Chromium (once the server
	// printed its address) to that paint.
	firstPaintMs, browserPaintMs float64
}

// startInspectorWeb starts the inspector's web server (as `npx
// @modelcontextprotocol/inspector` does, without opening a browser), then
// a headless Chromium on its page with the demo server to connect to on
// load (its serverUrl and autoConnect parameters), and waits until the
// page shows the server connected.
func startInspectorWeb(b *testing.B, chromium, serverURL string) *inspectorWeb {
	launcher, err := filepath.Abs(".ci/peers/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(launcher); err != nil {
		// go test runs in the package folder
		launcher = filepath.Join("..", "..", "..", ".ci/peers/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js")
		if _, err := os.Stat(launcher); err != nil {
			b.Fatalf("the official inspector is missing (run make peers): %v", err)
		}
	}
	var ports [3]int
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			b.Fatal(err)
		}
	}
	home := b.TempDir()
	w := &inspectorWeb{}
	node := exec.Command("node", launcher, "--web")
	node.Env = append(os.Environ(), "HOME="+home, "MCP_AUTO_OPEN_ENABLED=false", "MCP_INSPECTOR_SECRET_STORE=memory",
		fmt.Sprintf("CLIENT_PORT=%d", ports[0]), fmt.Sprintf("MCP_SANDBOX_PORT=%d", ports[1]), fmt.Sprintf("MCP_APP_ORIGIN_PORT=%d", ports[2]))
	node.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := node.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	w.node = node
	nodeStarted := time.Now()
	if err := node.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = syscall.Kill(-node.Process.Pid, syscall.SIGKILL)
		_ = node.Wait()
	})
	pageURL := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "http://127.0.0.1:"); ok && strings.Contains(u, "MCP_INSPECTOR_API_TOKEN=") {
				pageURL <- "http://127.0.0.1:" + u
			}
		}
	}()
	var page string
	select {
	case page = <-pageURL:
	case <-time.After(2 * time.Minute): // a hang bound
		b.Fatal("the inspector's web server printed no address in 2 minutes")
	}
	_, token, _ := strings.Cut(page, "MCP_INSPECTOR_API_TOKEN=")
	page = strings.Replace(page, "?", "/?", 1) + "&serverUrl=" + url.QueryEscape(serverURL) + "&transport=http&autoConnect=" + token

	// Chromium with its DevTools protocol on fds 3 and 4 (--remote-debugging-pipe)
	toChrome, chromeIn, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	chromeOut, fromChrome, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	chrome := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+b.TempDir(),
		"--window-size=1280,800", "--remote-debugging-pipe", page)
	chrome.ExtraFiles = []*os.File{toChrome, fromChrome}
	chrome.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	w.chrome = chrome
	chromeStarted := time.Now()
	if err := chrome.Start(); err != nil {
		b.Fatal(err)
	}
	toChrome.Close()
	fromChrome.Close()
	b.Cleanup(func() {
		chromeIn.Close()
		_ = syscall.Kill(-chrome.Process.Pid, syscall.SIGKILL)
		_ = chrome.Wait()
		chromeOut.Close()
	})
	cdp := &cdpPipe{w: chromeIn, r: bufio.NewReader(chromeOut)}
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
		} `json:"targetInfos"`
	}
	cdp.call(b, "", "Target.getTargets", nil, &targets)
	var target string
	for _, t := range targets.TargetInfos {
		if t.Type == "page" {
			target = t.TargetID
		}
	}
	if target == "" {
		b.Fatal("Chromium has no page")
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	cdp.call(b, "", "Target.attachToTarget", map[string]any{"targetId": target, "flatten": true}, &att)
	// a promise that settles once the page has painted and shows the
	// demo server's name (the inspector's header, once connected)
	const expr = `new Promise(resolve => {
  const check = () => {
    const p = {};
    for (const e of performance.getEntriesByType('paint')) p[e.name] = performance.timeOrigin + e.startTime;
    if (p['first-paint'] && document.body && document.body.innerText.includes('spyglass-demo')) { resolve(JSON.stringify(p)); return true; }
    return false;
  };
  if (check()) return;
  new MutationObserver(check).observe(document, {subtree: true, childList: true, characterData: true});
  new PerformanceObserver(check).observe({type: 'paint', buffered: true});
})`
	var ev struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	// the page navigates after Chromium opened it (about:blank first),
	// which destroys the context an evaluation runs in: evaluate again
	for i := 0; ; i++ {
		err := cdp.try(b, att.SessionID, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &ev)
		if err == nil {
			break
		}
		if i == 50 || !strings.Contains(err.Error(), "context") {
			b.Fatalf("DevTools Runtime.evaluate: %v", err)
		}
	}
	if ev.ExceptionDetails != nil {
		b.Fatalf("the page's script failed: %s", ev.ExceptionDetails)
	}
	var paints map[string]float64 // epoch ms
	if err := json.Unmarshal([]byte(ev.Result.Value), &paints); err != nil {
		b.Fatalf("paint timing %q: %v", ev.Result.Value, err)
	}
	fp := paints["first-paint"]
	w.firstPaintMs = fp - float64(nodeStarted.UnixNano())/1e6
	w.browserPaintMs = fp - float64(chromeStarted.UnixNano())/1e6
	return w
}

// cdpPipe speaks the DevTools protocol over Chromium's pipe: JSON
// messages each ended by a NUL byte.
type cdpPipe struct {
	w  io.Writer
	r  *bufio.Reader
	id int
}

// call sends one command (to a target's session when session is not "")
// and decodes its result into out, skipping the events in between.
func (c *cdpPipe) call(b *testing.B, session, method string, params any, out any) {
	if err := c.try(b, session, method, params, out); err != nil {
		b.Fatalf("DevTools %s: %v", method, err)
	}
}

// try is call that returns the protocol's error instead of failing.
func (c *cdpPipe) try(b *testing.B, session, method string, params any, out any) error {
	c.id++
	msg := map[string]any{"id": c.id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.w.Write(append(data, 0)); err != nil {
		b.Fatalf("DevTools %s: %v", method, err)
	}
	for {
		line, err := c.r.ReadBytes(0)
		if err != nil {
			b.Fatalf("DevTools %s: %v", method, err)
		}
		var reply struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(bytes.TrimSuffix(line, []byte{0}), &reply); err != nil {
			b.Fatalf("DevTools %s: %v", method, err)
		}
		if reply.ID != c.id {
			continue // an event, or another session's message
		}
		if reply.Error != nil {
			return fmt.Errorf("%s", reply.Error)
		}
		if err := json.Unmarshal(reply.Result, out); err != nil {
			b.Fatalf("DevTools %s: %v", method, err)
		}
		return nil
	}
}

// treePSS sums the proportional set size (kB) of pid and every process
// under it (/proc/PID/smaps_rollup) and counts them.
func treePSS(pid int) (kb int64, procs int) {
	children := map[int][]int{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		_, after, ok := bytes.Cut(stat, []byte(") "))
		f := strings.Fields(string(after))
		if !ok || len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		children[ppid] = append(children[ppid], p)
	}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		queue = append(queue, children[p]...)
		roll, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", p))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(roll), "\n") {
			if v, ok := strings.CutPrefix(line, "Pss:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				kb += n
				procs++
			}
		}
	}
	return kb, procs
}
