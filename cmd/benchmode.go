//go:build linux

package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"golang.org/x/sys/unix"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/ui"
)

// The benchmark mode of the window (issue #17), for `make bench` only and
// not in the help: SPYGLASS_BENCH names what to measure and
// SPYGLASS_BENCH_OUT the JSON file the figures go to (benchReport).
//
//   - startup: the time from process start to the first frame painted,
//     then, once the ad-hoc server given on the command line is connected
//     and its tools are listed, the report; the window stays open so that
//     the caller can measure its memory, and is ended by the caller.
//   - ui-latency: as startup, then the UI thread's scheduling delay while
//     the demo server's flood streams in: a ticker posts a callback with
//     fyne.Do every SPYGLASS_BENCH_TICK (default 10ms) and records how late
//     each one runs. The flood is SPYGLASS_BENCH_RATE notifications a
//     second (default 10000) for SPYGLASS_BENCH_SECONDS (default 10), sent
//     as one flood call of rate/10 notifications every 100 ms. It counts the
//     flood's notifications the log recorded against those the server
//     sent, and the process's memory before the flood, at its peak, and
//     after the inspector's Clear. The baseline is taken after a warm-up:
//     one flood call of SPYGLASS_BENCH_WARMUP notifications (default
//     1000), drawn, then cleared, so that what any use of the window
//     loads once (the font faces of the styles the inspector draws,
//     Fyne's caches) is in the baseline as it is after Clear. Then the
//     window quits.
//     SPYGLASS_BENCH_SETTLE=N measures memory again N seconds after
//     Clear, the window repainted each second: what Fyne's caches still
//     held at Clear is freed a minute after its last use.
//     SPYGLASS_BENCH_CPUPROFILE=FILE writes a CPU profile of the flood,
//     SPYGLASS_BENCH_TRACE=FILE an execution trace of it,
//     SPYGLASS_BENCH_HEAPPROFILE=FILE a heap profile after Clear and
//     FILE.before one at the baseline (go tool pprof -diff_base).
//
// When the report is written, one line "SPYGLASS_BENCH done" goes to stdout.
const (
	benchEnv    = "SPYGLASS_BENCH"
	benchOutEnv = "SPYGLASS_BENCH_OUT"
)

// benchReport is the JSON file the benchmark mode writes.
type benchReport struct {
	Mode   string `json:"mode"`
	Server string `json:"server"`
	// ProcessStartUnixNano is when the kernel started this process
	// (/proc/self/stat; 10 ms resolution), FirstFrameUnixNano when the
	// window's first frame had been painted (the first callback the UI
	// thread ran after the GL painter drew a marker object of that
	// frame), ConnectedUnixNano when the server's tools/list answer was
	// recorded.
	ProcessStartUnixNano int64 `json:"process_start_unix_ns"`
	FirstFrameUnixNano   int64 `json:"first_frame_unix_ns"`
	ConnectedUnixNano    int64 `json:"connected_unix_ns"`
	// FirstFrameMs is FirstFrameUnixNano - ProcessStartUnixNano.
	FirstFrameMs float64 `json:"first_frame_ms"`
	// UIDelay is the UI thread's scheduling delay during the flood.
	UIDelay *delayStats `json:"ui_delay,omitempty"`
	Flood   *floodStats `json:"flood,omitempty"`
	// Error says why the run could not finish ("" when it did).
	Error string `json:"error,omitempty"`
}

// delayStats summarises how late the UI thread ran posted callbacks.
type delayStats struct {
	TickMs  float64 `json:"tick_ms"`
	Samples int     `json:"samples"`
	P50Ms   float64 `json:"p50_ms"`
	P99Ms   float64 `json:"p99_ms"`
	MaxMs   float64 `json:"max_ms"`
}

// floodStats is what the flood sent, what was recorded, and memory.
type floodStats struct {
	Rate    int     `json:"rate_per_s"`
	Seconds float64 `json:"seconds"`
	// Elapsed is the wall time from the first flood call to the last
	// answer; Sent what the server reported sending; Recorded the flood's
	// notifications the event log recorded (seen by a listener);
	// ListenerDropped the events the listener missed (evicted before it
	// read them), which would hide recorded ones.
	ElapsedSeconds  float64 `json:"elapsed_s"`
	Sent            int     `json:"sent"`
	Recorded        int     `json:"recorded"`
	ListenerDropped uint64  `json:"listener_dropped"`
	// Memory, resident set in MB: before the flood (after a GC that
	// returns free pages to the OS), the peak during it (VmHWM, reset
	// before the flood), and after the inspector's Clear (again after a
	// GC returning free pages). Heap figures are Go's in-use heap spans
	// (HeapInuse) at the same points. ClearedEvents is how many events
	// the inspector's Clear cleared (ui.Window.ClearInspector); a run that
	// cleared none measured nothing after Clear and fails.
	RSSBeforeMB  float64 `json:"rss_before_mb"`
	RSSPeakMB    float64 `json:"rss_peak_mb"`
	RSSClearedMB float64 `json:"rss_cleared_mb"`
	HeapBeforeMB float64 `json:"heap_before_mb"`
	HeapPeakMB   float64 `json:"heap_peak_mb"`
	HeapClearMB  float64 `json:"heap_cleared_mb"`
	// RSSSettledMB and HeapSettledMB are the same again once Fyne's
	// caches let go of what the flood drew: they keep each renderer,
	// canvas object and text measurement for a minute after its last use
	// and free them at the next frame after that. SettleSeconds is how
	// long after Clear (SPYGLASS_BENCH_SETTLE, 0 for no second reading),
	// the window repainted each second meanwhile, as a cursor's blink or
	// a pointer's move has it.
	SettleSeconds float64 `json:"settle_s"`
	RSSSettledMB  float64 `json:"rss_settled_mb"`
	HeapSettledMB float64 `json:"heap_settled_mb"`
	// LiveBeforeMB and LiveSettledMB are the Go heap's live objects at
	// the baseline and settled (what the last collection marked): the
	// in-use spans above also count the free room in spans that kept a
	// few live objects, which a heap that does not move cannot give back.
	LiveBeforeMB  float64 `json:"live_before_mb"`
	LiveSettledMB float64 `json:"live_settled_mb"`
	ClearedEvents uint64  `json:"cleared_events"`
	// CPUSeconds is the CPU time the whole process used from the first
	// flood call until the UI thread had caught up (user + system), and
	// Load1 the machine's one-minute load average at the start: on a
	// shared machine a window that gets a fraction of a core falls behind.
	// CaughtUpSeconds is the wall time of that span.
	CPUSeconds      float64 `json:"cpu_s"`
	CaughtUpSeconds float64 `json:"caught_up_s"`
	Load1           float64 `json:"load1"`
	// UIThreadCPUSeconds is the part of CPUSeconds the UI thread used (the main
	// thread, which Fyne's loop is locked to: its Go code and the GL
	// calls it makes), read from the kernel per thread; unlike the delay
	// it hardly moves with the machine's load.
	UIThreadCPUSeconds float64 `json:"ui_thread_cpu_s"`
}

// startBench installs the benchmark mode when SPYGLASS_BENCH is set. It
// runs on the UI thread before the window is shown; server is the ad-hoc
// server the window connects to at start.
func startBench(be *guiBackend, w *ui.Window, server string, stdout, stderr io.Writer) {
	mode := os.Getenv(benchEnv)
	if mode == "" {
		return
	}
	out := os.Getenv(benchOutEnv)
	rep := &benchReport{Mode: mode, Server: server, ProcessStartUnixNano: processStart().UnixNano()}
	finish := func(err error) {
		if err != nil {
			rep.Error = err.Error()
			fmt.Fprintf(stderr, "spyglass: benchmark: %v\n", err)
		}
		if err := writeBenchReport(out, rep); err != nil {
			fmt.Fprintf(stderr, "spyglass: benchmark: %v\n", err)
		}
		fmt.Fprintln(stdout, "SPYGLASS_BENCH done")
	}
	if out == "" || (mode != "startup" && mode != "ui-latency") || server == "" {
		fmt.Fprintln(stderr, "spyglass: benchmark: set SPYGLASS_BENCH=startup|ui-latency, SPYGLASS_BENCH_OUT=FILE and give one server on the command line")
		return
	}
	painted, frames := firstFrameHook(w.Window())
	connected := waitListed(be.log, server)
	go func() {
		<-painted
		rep.FirstFrameUnixNano = time.Now().UnixNano()
		rep.FirstFrameMs = float64(rep.FirstFrameUnixNano-rep.ProcessStartUnixNano) / 1e6
		select {
		case <-connected:
			rep.ConnectedUnixNano = time.Now().UnixNano()
		case <-time.After(2 * time.Minute): // a hang bound, not a measurement
			finish(fmt.Errorf("%s did not connect and list its tools within 2 minutes", server))
			return
		}
		if mode == "startup" {
			finish(nil)
			return // the caller measures the open window, then ends it
		}
		err := benchFlood(be, w, frames, server, rep)
		finish(err)
		fyne.Do(func() { quitBench(w, stderr) })
	}()
}

// quitBound is how long the app may take to end once the benchmark has
// quit it.
const quitBound = 30 * time.Second

// quitBench ends the app the way File → Quit does — the window's Close
// first, which disconnects every server and so closes a stdio server's
// stdin — then quits Fyne. Should Fyne's shutdown wedge, the process
// ends anyway after quitBound with its goroutines on stderr: once the
// benchmark app wrote its report and stayed for 10 minutes, a thread
// waiting on the demo child whose stdin was never closed. Fyne 2.7.1's
// runGL drains its queue of posted functions while the lifecycle's
// OnStopped hook is being posted to it with a wait; a post that lands
// after the drain is never answered, and Run waits for that hook. UI
// thread.
func quitBench(w *ui.Window, stderr io.Writer) {
	w.Close()
	armExit(quitBound, stderr, os.Exit)
	fyne.CurrentApp().Quit()
}

// armExit ends the process with exit(0) after bound unless it has ended
// by then, with every goroutine's stack written to stderr first.
func armExit(bound time.Duration, stderr io.Writer, exit func(int)) *time.Timer {
	return time.AfterFunc(bound, func() {
		fmt.Fprintf(stderr, "spyglass: benchmark: the app had not ended %s after Quit; its goroutines:\n", bound)
		_ = pprof.Lookup("goroutine").WriteTo(stderr, 2)
		exit(0)
	})
}

// frameMarker is a 1×1 transparent raster over the window's content: the
// GL painter calls its generator while drawing a frame after the raster
// was refreshed, so a caller learns when the window has drawn what it
// shows.
type frameMarker struct {
	raster  *canvas.Raster
	mu      sync.Mutex
	waiting []chan struct{}
}

// newFrameMarker puts a frameMarker over win's content. UI thread.
func newFrameMarker(win fyne.Window) *frameMarker {
	m := &frameMarker{}
	m.raster = canvas.NewRaster(func(w, h int) image.Image {
		m.mu.Lock()
		done := m.waiting
		m.waiting = nil
		m.mu.Unlock()
		if len(done) > 0 {
			// posted: it runs on the UI thread once this frame is done
			fyne.Do(func() {
				for _, c := range done {
					close(c)
				}
			})
		}
		return image.NewNRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))
	})
	m.raster.Resize(fyne.NewSize(1, 1))
	win.SetContent(container.NewStack(win.Content(), container.NewWithoutLayout(m.raster)))
	return m
}

// next returns a channel closed once the next frame the window draws is
// done. UI thread.
func (m *frameMarker) next() <-chan struct{} {
	c := make(chan struct{})
	m.mu.Lock()
	m.waiting = append(m.waiting, c)
	m.mu.Unlock()
	m.raster.Refresh()
	return c
}

// firstFrameHook puts a frameMarker over the window's content and returns
// a channel closed once the first frame is done. UI thread.
func firstFrameHook(win fyne.Window) (<-chan struct{}, *frameMarker) {
	m := newFrameMarker(win)
	return m.next(), m
}

// waitListed returns a channel closed once the log has recorded the
// answer to server's tools/list (the window lists tools on connect).
func waitListed(log *events.Log, server string) <-chan struct{} {
	done := make(chan struct{})
	var once sync.Once
	var cancel func()
	cancel = log.Subscribe(func(b events.Batch) {
		for _, e := range b.Events {
			if e.Conn == server && e.Method == "tools/list" && e.Type == events.MsgResult {
				once.Do(func() { close(done); go cancel() })
			}
		}
	})
	return done
}

// benchFlood runs the flood and fills rep.UIDelay and rep.Flood.
func benchFlood(be *guiBackend, w *ui.Window, frames *frameMarker, server string, rep *benchReport) error {
	rate := envInt("SPYGLASS_BENCH_RATE", 10000)
	seconds := envInt("SPYGLASS_BENCH_SECONDS", 10)
	tick := time.Duration(envInt("SPYGLASS_BENCH_TICK_MS", 10)) * time.Millisecond
	be.mu.Lock()
	sess := be.live[server]
	be.mu.Unlock()
	if sess == nil {
		return fmt.Errorf("no live session of %s", server)
	}
	fs := &floodStats{Rate: rate, Seconds: float64(seconds)}
	rep.Flood = fs
	if err := warmUp(be, w, frames, sess, envInt("SPYGLASS_BENCH_WARMUP", 1000)); err != nil {
		return err
	}

	// the flood's notifications as the log records them
	var mu sync.Mutex
	recorded := 0
	var dropped uint64
	grew := make(chan struct{}, 1)
	cancel := be.log.Subscribe(func(b events.Batch) {
		n := 0
		for _, e := range b.Events {
			if e.Conn == server && e.Method == "notifications/message" && bytes.Contains(e.Raw, []byte(`"logger":"flood"`)) {
				n++
			}
		}
		mu.Lock()
		recorded += n
		dropped += b.Dropped
		mu.Unlock()
		select {
		case grew <- struct{}{}:
		default:
		}
	})
	defer cancel()

	fs.RSSBeforeMB, fs.HeapBeforeMB = settledMemory()
	fs.LiveBeforeMB = heapLiveMB()
	if path := os.Getenv("SPYGLASS_BENCH_HEAPPROFILE"); path != "" {
		if err := writeHeapProfile(path + ".before"); err != nil {
			return err
		}
	}
	resetPeakRSS()
	if path := os.Getenv("SPYGLASS_BENCH_CPUPROFILE"); path != "" {
		// where the UI thread's time goes during the flood (go tool pprof)
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if path := os.Getenv("SPYGLASS_BENCH_TRACE"); path != "" {
		// why the UI thread runs late: scheduling, blocking, GC (go tool trace)
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("execution trace: %w", err)
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return fmt.Errorf("execution trace: %w", err)
		}
		defer trace.Stop()
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	sampler := &delaySampler{do: fyne.Do}
	go sampler.run(ctx, tick)
	var heapPeak uint64
	go func() { // the heap's peak, read beside the kernel's VmHWM
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				h := heapInuse() // runtime/metrics: no stop of the world, unlike ReadMemStats
				mu.Lock()
				heapPeak = max(heapPeak, h)
				mu.Unlock()
			}
		}
	}()

	fs.Load1 = loadAverage()
	cpu0, uiCPU0 := processCPU(), mainThreadCPU()
	chunk := max(rate/10, 1)
	calls := seconds * 10
	start := time.Now()
	var floodErr error
	for i := 0; i < calls; i++ {
		if d := time.Until(start.Add(time.Duration(i) * 100 * time.Millisecond)); d > 0 {
			time.Sleep(d) // pacing the flood at its rate, not synchronisation
		}
		res, err := sess.CallTool(context.Background(), session.ToolCall{Name: "flood", Arguments: map[string]any{"count": chunk}}, nil)
		if err != nil {
			floodErr = fmt.Errorf("flood call %d: %w", i+1, err)
			break
		}
		n, err := floodSent(res)
		if err != nil {
			floodErr = fmt.Errorf("flood call %d: %w", i+1, err)
			break
		}
		fs.Sent += n
	}
	fs.ElapsedSeconds = time.Since(start).Seconds()
	// every answer came after its notifications; wait until the listener
	// has seen them (the bound only ends a run that is stuck)
	bound := time.After(2 * time.Minute)
	for {
		mu.Lock()
		done := recorded >= fs.Sent || dropped > 0
		mu.Unlock()
		if done {
			break
		}
		select {
		case <-grew:
		case <-bound:
			floodErr = fmt.Errorf("the log recorded fewer flood notifications than were sent after 2 minutes")
		}
		if floodErr != nil {
			break
		}
	}
	ui.Sync(func() {}) // the UI thread has run everything posted so far
	stop()
	fs.CPUSeconds = (processCPU() - cpu0).Seconds()
	fs.UIThreadCPUSeconds = (mainThreadCPU() - uiCPU0).Seconds()
	fs.CaughtUpSeconds = time.Since(start).Seconds()
	mu.Lock()
	fs.Recorded, fs.ListenerDropped = recorded, dropped
	fs.HeapPeakMB = float64(heapPeak) / (1 << 20)
	mu.Unlock()
	fs.RSSPeakMB = procStatusMB("VmHWM")
	rep.UIDelay = sampler.stats(tick)

	cleared, err := clearInspector(be, w)
	if err != nil {
		return err
	}
	fs.ClearedEvents = cleared
	fs.RSSClearedMB, fs.HeapClearMB = settledMemory()
	if settle := time.Duration(envInt("SPYGLASS_BENCH_SETTLE", 0)) * time.Second; settle > 0 {
		for end := time.Now().Add(settle); time.Now().Before(end); {
			ui.Sync(w.Repaint)
			time.Sleep(time.Second) // a repaint a second while Fyne's cache lifetime runs out, not synchronisation
		}
		fs.SettleSeconds = settle.Seconds()
		fs.RSSSettledMB, fs.HeapSettledMB = settledMemory()
		fs.LiveSettledMB = heapLiveMB()
	}
	if path := os.Getenv("SPYGLASS_BENCH_HEAPPROFILE"); path != "" {
		// what stays after Clear (go tool pprof -sample_index=inuse_space)
		if err := writeHeapProfile(path); err != nil {
			return err
		}
	}
	if floodErr == nil && fs.ClearedEvents == 0 {
		floodErr = fmt.Errorf("the inspector's Clear cleared no event, so the memory after Clear was not measured")
	}
	return floodErr
}

// warmUp has the window draw a flood of n notifications once and clears
// it, before the baseline: the first draw of the inspector's rows loads
// the font faces of their styles and fills Fyne's caches, which stay for
// the life of the window whatever it shows; measured from a window that
// had never drawn them, that one-time cost read as memory the flood kept.
func warmUp(be *guiBackend, w *ui.Window, frames *frameMarker, sess *session.Session, n int) error {
	if _, err := sess.CallTool(context.Background(), session.ToolCall{Name: "flood", Arguments: map[string]any{"count": n}}, nil); err != nil {
		return fmt.Errorf("warm-up flood: %w", err)
	}
	// its notifications were recorded before its answer; once the
	// inspector has taken them in, the next frame draws their rows
	if err := w.WaitInspectorEvents(uint64(n), 2*time.Minute); err != nil { // a hang bound
		return fmt.Errorf("warm-up: %w", err)
	}
	for range 2 { // the frame with the rows, and one after it
		var drawn <-chan struct{}
		ui.Sync(func() { drawn = frames.next() })
		select {
		case <-drawn:
		case <-time.After(2 * time.Minute): // a hang bound, not a measurement
			return fmt.Errorf("warm-up: the window drew no frame in 2 minutes")
		}
	}
	if _, err := clearInspector(be, w); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return nil
}

// clearInspector presses the inspector's Clear (ui.Window.ClearInspector)
// and waits until the log has dropped the events too: the window hands
// that to a goroutine (ui.EventClearer), and memory read before it ends
// still holds them. It returns how many events were cleared.
func clearInspector(be *guiBackend, w *ui.Window) (uint64, error) {
	logCleared := make(chan struct{}, 1)
	hook := func() {
		select {
		case logCleared <- struct{}{}:
		default:
		}
	}
	be.events.cleared.Store(&hook)
	defer be.events.cleared.Store(nil)
	var n uint64
	ui.Sync(func() { n = w.ClearInspector() })
	if n == 0 {
		return 0, nil
	}
	select {
	case <-logCleared:
	case <-time.After(2 * time.Minute): // a hang bound, not a measurement
		return n, fmt.Errorf("the log had not dropped the cleared events 2 minutes after the inspector's Clear")
	}
	return n, nil
}

// writeHeapProfile writes the heap profile of what is live now.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("heap profile: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	return nil
}

// floodSent reads the count from the flood tool's answer ("Sent N log
// notifications in …").
func floodSent(res *session.ToolResult) (int, error) {
	if res.Result.IsError || len(res.Result.Content) == 0 {
		return 0, fmt.Errorf("the flood tool failed: %s", res.Raw)
	}
	var n int
	if _, err := fmt.Sscanf(res.Result.Content[0].Text, "Sent %d ", &n); err != nil {
		return 0, fmt.Errorf("unexpected flood answer %q: %w", res.Result.Content[0].Text, err)
	}
	return n, nil
}

// delaySampler measures how late the UI thread runs posted callbacks.
type delaySampler struct {
	do     func(func()) // fyne.Do
	mu     sync.Mutex
	delays []time.Duration
}

// run posts one callback every tick until ctx ends; each records the
// time from posting to running.
func (s *delaySampler) run(ctx context.Context, tick time.Duration) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			posted := time.Now()
			s.do(func() {
				d := time.Since(posted)
				s.mu.Lock()
				s.delays = append(s.delays, d)
				s.mu.Unlock()
			})
		}
	}
}

// stats summarises the samples so far (nearest-rank percentiles).
func (s *delaySampler) stats(tick time.Duration) *delayStats {
	s.mu.Lock()
	ds := slices.Clone(s.delays)
	s.mu.Unlock()
	st := &delayStats{TickMs: benchMs(tick), Samples: len(ds)}
	if len(ds) == 0 {
		return st
	}
	slices.Sort(ds)
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(ds))+0.999999) - 1
		return ds[min(max(i, 0), len(ds)-1)]
	}
	st.P50Ms, st.P99Ms, st.MaxMs = benchMs(rank(0.50)), benchMs(rank(0.99)), benchMs(ds[len(ds)-1])
	return st
}

// benchMs is d in milliseconds.
func benchMs(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// writeBenchReport writes rep as indented JSON, atomically.
func writeBenchReport(path string, rep *benchReport) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("benchmark report: %w", err)
	}
	if err := catalog.WriteAtomic(path, append(data, '\n'), nil); err != nil {
		return fmt.Errorf("benchmark report: %w", err)
	}
	return nil
}

// settledMemory collects garbage, returns free pages to the OS (Go's and
// the C heap's), and reads the resident set and Go's in-use heap, in MB.
func settledMemory() (rss, heap float64) {
	runtime.GC()
	debug.FreeOSMemory()
	trimCHeap()
	return procStatusMB("VmRSS"), float64(heapInuse()) / (1 << 20)
}

// heapInuse is the bytes in in-use heap spans (MemStats.HeapInuse: live
// and not yet swept objects plus the free room in their spans), read
// through runtime/metrics, which does not stop the world.
func heapInuse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			n += x.Value.Uint64()
		}
	}
	return n
}

// heapLiveMB is the heap's live objects as the last collection marked
// them, in MB.
func heapLiveMB() float64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return float64(s[0].Value.Uint64()) / (1 << 20)
}

// resetPeakRSS resets the kernel's VmHWM to the current resident set.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// procStatusMB reads a kB field of /proc/self/status in MB (0 when it
// cannot).
func procStatusMB(field string) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if ok && name == field {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// processStart is when the kernel started this process: /proc/self/stat's
// starttime (clock ticks since boot, USER_HZ = 100 on Linux, so 10 ms
// resolution) against CLOCK_BOOTTIME now. Where that cannot be read it is
// now.
func processStart() time.Time {
	now := time.Now()
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return now
	}
	// the fields after the command name, which is in parentheses
	_, after, ok := bytes.Cut(stat, []byte(") "))
	fields := strings.Fields(string(after))
	if !ok || len(fields) < 20 {
		return now
	}
	ticks, err := strconv.ParseInt(fields[19], 10, 64) // field 22 of the whole line
	if err != nil {
		return now
	}
	var boot unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &boot); err != nil {
		return now
	}
	const userHZ = 100
	age := time.Duration(boot.Nano()) - time.Duration(ticks)*time.Second/userHZ
	return now.Add(-age)
}

// processCPU is the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// mainThreadCPU is the user and system CPU time of the process's main
// thread (/proc/self/task/PID/stat, in clock ticks of 10 ms), the thread
// the UI loop runs on; 0 when it cannot be read.
func mainThreadCPU() time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", os.Getpid()))
	if err != nil {
		return 0
	}
	cpu, err := statCPU(stat)
	if err != nil {
		return 0
	}
	return cpu
}

// statCPU is the user and system time of a /proc stat line. The command
// name in parentheses may hold anything, ") " and spaces included: the
// fields start after its last ')'.
func statCPU(stat []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("no command name in %q", stat)
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("%d fields after the command name, want 13 and more", len(f))
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // fields 14 and 15 of the whole line
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const userHZ = 100
	return time.Duration(utime+stime) * time.Second / userHZ, nil
}

// loadAverage is the machine's one-minute load average (0 when unknown).
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// envInt is the positive integer in the environment variable name, or def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
