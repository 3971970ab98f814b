package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
)

// spillCache points the XDG cache folder, where the event log spills, at
// a folder of the test's own and returns the spill folder in it.
func spillCache(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Cleanup(xdg.Reload) // after the variable is restored (cleanups run last first)
	t.Setenv("XDG_CACHE_HOME", dir)
	xdg.Reload()
	return filepath.Join(dir, "spyglass", "spill")
}

// spillFiles are the spill files under dir that this process holds open
// or that are still in the folder. On Linux a spill file leaves its
// folder as soon as it is open, so the open descriptor is what stays
// until the log is closed.
func spillFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		if p, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(p, dir+string(filepath.Separator)) {
			out = append(out, "open: "+p)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		out = append(out, "in the folder: "+e.Name())
	}
	return out
}

// TestCLIExitClosesSpill: a --cli run whose log spilled (the demo's flood
// under a 1 MB event memory) leaves no spill file behind when it ends,
// open or in the folder — the log is closed on the way out, after the
// trace is written from it.
func TestCLIExitClosesSpill(t *testing.T) {
	dir := isolateCLI(t)
	spill := spillCache(t)
	url := demotest.URL(t, nil)
	trace := filepath.Join(dir, "run.trace.json")
	inv, err := ParseArgs([]string{"--cli", "--method", "tools/call", "--tool-name", "flood",
		"--tool-args-json", `{"count": 20000, "kind": "log"}`, "--trace", trace, url})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	r := &cliRun{inv: inv, stdout: &out, stderr: &errb}
	var log *events.Log
	r.configure = func(*session.Options) {
		log = r.log
		log.SetMaxBytes(1 << 20)
	}
	if code := r.start(); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if log == nil {
		t.Fatal("the run never configured its session")
	}
	if ret := log.Retention(); ret.Spilled == 0 {
		t.Fatalf("the run's log never spilled: %+v", ret)
	}
	if fi, err := os.Stat(trace); err != nil || fi.Size() == 0 {
		t.Fatalf("no trace written before the log closed: %v", err)
	}
	if left := spillFiles(t, spill); len(left) > 0 {
		t.Errorf("the CLI's spill file outlived the run: %v", left)
	}
}

// TestGUIExitClosesSpill: after the window's log has spilled (the demo's
// flood under a 1 MB event memory, the window's own setting), ending the
// window as runGUI does removes the spill file.
func TestGUIExitClosesSpill(t *testing.T) {
	spill := spillCache(t)
	h := newGUIHarness(t)
	h.be.events.SetEventMemory(1 << 20)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runFlood(20000, false)
	h.waitFor("the log spilled", func() bool { return h.be.log.Retention().Spilled > 0 })
	if len(spillFiles(t, spill)) == 0 {
		t.Fatal("the log spilled, but no spill file is open: the test cannot tell")
	}
	h.exit()
	if left := spillFiles(t, spill); len(left) > 0 {
		t.Errorf("the window's spill file outlived it: %v", left)
	}
}
