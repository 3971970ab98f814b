package wire

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// vmHWM is the process's peak resident set in bytes since the last
// reset (resetHWM), from /proc/self/status.
func vmHWM(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// resetHWM sets the peak resident set to the current one.
func resetHWM(t *testing.T) {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
}

// A 48 MB stdio line costs about its own size at the peak: its fragments
// wait in a stage whose chunks go back to the system as they are moved
// into the line, instead of all of them beside the whole line (#17: a
// 50 MB tool result's line was briefly 2x). Measured as the process's
// peak resident set, which counts both. Under the race detector, whose
// shadow memory grows with every write, only TestSSEHugeEventOneCopy's
// bound on Go's heap holds (it runs there; this one in a plain go test).
func TestReadLinePeakIsOneLine(t *testing.T) {
	if raceOn {
		t.Skip("the race detector's shadow memory makes the resident set no measure of the line")
	}
	const n = 48 << 20
	src := strings.Repeat("y", n) + "\n"
	// the source is resident before the measurement starts
	touch := 0
	for i := 0; i < len(src); i += 4096 {
		touch += int(src[i])
	}
	// no collection during the read: the heap grows by what is allocated
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	debug.FreeOSMemory()
	rss := func() int {
		data, err := os.ReadFile("/proc/self/statm")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(data))
		pages, _ := strconv.Atoi(f[1])
		return pages * os.Getpagesize()
	}
	resetHWM(t)
	before := rss()
	line, err := readLine(bufio.NewReaderSize(strings.NewReader(src), 64<<10), DefaultMaxMessageSize)
	peak := vmHWM(t)
	if err != nil || string(line) != src {
		t.Fatalf("line of %d bytes, err %v", len(line), err)
	}
	if got, limit := peak-before, n+n/4; got > limit {
		t.Fatalf("reading a %d MB line raised the peak resident set by %d MB, want at most %d MB (the line once)", n>>20, got>>20, limit>>20)
	}
	runtime.KeepAlive(touch)
}
