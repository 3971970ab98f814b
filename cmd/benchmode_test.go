//go:build linux

package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestDelaySampler: the sampler posts one callback a tick and records
// each one's delay; under synctest's clock a callback run at once is late
// by exactly nothing, and nothing is negative.
func TestDelaySampler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &delaySampler{do: func(f func()) { go f() }}
		ctx, stop := context.WithCancel(context.Background())
		go s.run(ctx, 10*time.Millisecond)
		time.Sleep(time.Second + 5*time.Millisecond)
		stop()
		synctest.Wait()
		st := s.stats(10 * time.Millisecond)
		if st.Samples != 100 {
			t.Errorf("samples = %d, want 100 (one a tick for 1 s)", st.Samples)
		}
		if st.P50Ms != 0 || st.P99Ms != 0 || st.MaxMs != 0 || st.TickMs != 10 {
			t.Errorf("stats = %+v, want zero delays and a 10 ms tick", st)
		}
	})
}

// TestDelayStatsRanks: nearest-rank percentiles over known delays.
func TestDelayStatsRanks(t *testing.T) {
	s := &delaySampler{}
	for i := 100; i >= 1; i-- { // out of order on purpose
		s.delays = append(s.delays, time.Duration(i)*time.Millisecond)
	}
	st := s.stats(time.Millisecond)
	if st.Samples != 100 || st.P50Ms != 50 || st.P99Ms != 99 || st.MaxMs != 100 {
		t.Errorf("stats = %+v, want 100 samples, p50 50, p99 99, max 100", st)
	}
	if empty := (&delaySampler{}).stats(time.Millisecond); empty.Samples != 0 || empty.MaxMs != 0 {
		t.Errorf("no samples: %+v", empty)
	}
}

// TestBenchReportFile: with the Fyne test app's UI thread, the sampler
// reports every posted callback, none negative, and the report file the
// benchmark mode writes is valid JSON with the figures in it.
func TestBenchReportFile(t *testing.T) {
	test.NewTempApp(t)
	const want = 50
	var mu sync.Mutex
	ran := 0
	enough := make(chan struct{})
	s := &delaySampler{do: func(f func()) {
		fyne.Do(func() {
			f()
			mu.Lock()
			ran++
			if ran == want {
				close(enough)
			}
			mu.Unlock()
		})
	}}
	ctx, stop := context.WithCancel(context.Background())
	go s.run(ctx, time.Millisecond)
	select {
	case <-enough:
	case <-time.After(time.Minute): // a hang bound only
		t.Fatal("the UI thread ran fewer than 50 callbacks in a minute")
	}
	stop()
	s.mu.Lock()
	for i, d := range s.delays {
		if d < 0 {
			t.Errorf("sample %d is negative: %s", i, d)
		}
	}
	s.mu.Unlock()

	rep := &benchReport{Mode: "ui-latency", Server: "demo", ProcessStartUnixNano: processStart().UnixNano(),
		UIDelay: s.stats(time.Millisecond), Flood: &floodStats{Sent: 10, Recorded: 10, RSSBeforeMB: procStatusMB("VmRSS")}}
	path := filepath.Join(t.TempDir(), "bench.json")
	if err := writeBenchReport(path, rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("not valid JSON:\n%s", data)
	}
	var got struct {
		Start   int64 `json:"process_start_unix_ns"`
		UIDelay struct {
			Samples             int
			P50, P99, Max, Tick float64
		} `json:"ui_delay"`
		Flood struct {
			Sent, Recorded int
			RSS            float64 `json:"rss_before_mb"`
		} `json:"flood"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.UIDelay.Samples < want {
		t.Errorf("the file has %d samples, want at least %d", got.UIDelay.Samples, want)
	}
	if got.Flood.Sent != 10 || got.Flood.Recorded != 10 || got.Flood.RSS <= 0 {
		t.Errorf("flood figures = %+v, want sent = recorded = 10 and a resident set", got.Flood)
	}
	if start := time.Unix(0, got.Start); got.Start <= 0 || start.After(time.Now()) {
		t.Errorf("process start %s: want a time before the report was read", start)
	}
}

// TestFirstFrameHook: the marker put over the window's content is drawn
// with the first frame, and the hook fires once it has been; asked for
// the next frame, it fires again once another is drawn.
func TestFirstFrameHook(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("content"))
	var painted <-chan struct{}
	var frames *frameMarker
	fyne.DoAndWait(func() { painted, frames = firstFrameHook(w) })
	select {
	case <-painted:
		t.Fatal("the hook fired before anything was drawn")
	default:
	}
	fyne.DoAndWait(func() { w.Canvas().Capture() }) // draws a frame
	select {
	case <-painted:
	case <-time.After(time.Minute): // a hang bound only
		t.Fatal("drawing a frame did not fire the hook")
	}
	var next <-chan struct{}
	fyne.DoAndWait(func() { next = frames.next() })
	select {
	case <-next:
		t.Fatal("the next frame's hook fired before it was drawn")
	default:
	}
	fyne.DoAndWait(func() { w.Canvas().Capture() })
	select {
	case <-next:
	case <-time.After(time.Minute): // a hang bound only
		t.Fatal("drawing the next frame did not fire its hook")
	}
}

// TestArmExit: a benchmark app that has not ended quitBound after Quit
// ends with exit(0), its goroutines on stderr; stopped in time, nothing
// happens. Under synctest's clock, no waiting.
func TestArmExit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var out strings.Builder
		code := -1
		seen := func() (int, string) { mu.Lock(); defer mu.Unlock(); return code, out.String() }
		armExit(quitBound, writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) }),
			func(c int) { mu.Lock(); code = c; mu.Unlock() })
		time.Sleep(quitBound - time.Millisecond)
		synctest.Wait()
		if c, o := seen(); c != -1 || o != "" {
			t.Fatalf("ended before the bound: code %d, %q", c, o)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if c, o := seen(); c != 0 || !strings.Contains(o, "had not ended 30s after Quit") || !strings.Contains(o, "goroutine ") {
			t.Errorf("after the bound: code %d, stderr %q", c, o)
		}

		var ended atomic.Bool
		stop := armExit(quitBound, io.Discard, func(int) { ended.Store(true) })
		stop.Stop() // the process ended first
		time.Sleep(2 * quitBound)
		synctest.Wait()
		if ended.Load() {
			t.Error("a stopped bound still ended the process")
		}
	})
}

// writerFunc is an io.Writer of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestMainThreadCPU: the UI thread's CPU time is read from its stat line
// (a command name holding ") " and spaces too), and is part of the
// process's.
func TestMainThreadCPU(t *testing.T) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	main, err := statCPU(stat)
	if err != nil {
		t.Fatalf("the main thread's stat line %q: %v", stat, err)
	}
	if all := processCPU(); main > all+10*time.Millisecond { // 10 ms: the kernel's ticks
		t.Errorf("main thread %s, process %s", main, all)
	}
	if got := mainThreadCPU(); got < main {
		t.Errorf("mainThreadCPU %s, less than the %s read before", got, main)
	}
	line := []byte("4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0 1 1 1")
	if cpu, err := statCPU(line); err != nil || cpu != 3250*time.Millisecond {
		t.Errorf("statCPU of a name with \") \" = %s, %v; want 3.25s", cpu, err)
	}
	for _, bad := range []string{"", "4242 no name", "4242 (x) S 1 2"} {
		if _, err := statCPU([]byte(bad)); err == nil {
			t.Errorf("statCPU(%q): no error", bad)
		}
	}
}
