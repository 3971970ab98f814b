// Package xvfb starts, for a test, a private X server (Xvfb) that the real
// Spyglass window can open on. `make test` installs Xvfb and xdotool, so a
// missing one fails the test with what to run.
package xvfb

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/internal/testwait"
)

// Start starts an Xvfb screen of width×height, stopped when the test ends,
// and returns its display (":N") once a client can open it. Xvfb picks a
// free display number itself (-displayfd), so tests running at the same
// time never share one, and never resets (-noreset): by default it
// restarts itself whenever its last client leaves, and a window opening
// during that moment fails with "Failed to open display".
func Start(t testing.TB, width, height int) string {
	t.Helper()
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: run `make deps-test` (it installs what the window tests need)", tool)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", width, height), "-nolisten", "tcp", "-noreset")
	x.ExtraFiles = []*os.File{w}
	var xOut bytes.Buffer
	x.Stderr = &xOut
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		// SIGTERM, not a kill: Xvfb then removes its socket and lock file
		// (a killed one leaves /tmp/.X11-unix/XN, and a later Xvfb on that
		// number starts but its clients cannot open the display)
		_ = x.Process.Signal(syscall.SIGTERM)
		_ = x.Wait()
	})
	line := make([]byte, 32)
	n, err := r.Read(line)
	if err != nil || n == 0 {
		t.Fatalf("Xvfb did not start: %v\n%s", err, xOut.String())
	}
	display := ":" + strings.TrimSpace(string(line[:n]))
	// Xvfb names its display a moment before clients can open it.
	var last []byte
	if !testwait.Within(time.Minute, func() bool {
		c := exec.Command("xdotool", "getdisplaygeometry")
		c.Env = append(os.Environ(), "DISPLAY="+display)
		var err error
		last, err = c.CombinedOutput()
		return err == nil
	}) {
		t.Fatalf("Xvfb's display %s does not open: %s\n%s", display, last, xOut.String())
	}
	return display
}
