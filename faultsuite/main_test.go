//go:build unix

// Package faultsuite runs hostile MCP servers (stdio scripts in testdata,
// HTTP servers in the tests) through the spyglass CLI and through the
// engine (core/session), and checks that nothing hangs, nothing is left
// running, every request ends with an outcome, the trace is valid JSON
// and UTF-8, and memory stays bounded. It is the regression net of issue
// #11.
package faultsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/spyglass-mcp/spyglass/internal/testwait"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// bin is the spyglass binary built once by TestMain.
var bin string

// measureEnv, when set, makes the test binary the wrapper measureRSS: it
// runs its arguments and writes the command's peak RSS to the file the
// variable names.
const measureEnv = "FAULTSUITE_MEASURE_RSS"

func TestMain(m *testing.M) {
	if file := os.Getenv(measureEnv); file != "" {
		os.Exit(measureRSS(file, os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "faultsuite")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "spyglass")
	// Built from the module root (the parent of this folder); the cgo
	// build of Fyne is cached after the first time.
	build := exec.Command("go", "build", "-o", bin, "github.com/spyglass-mcp/spyglass")
	build.Dir = ".."
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "faultsuite: building spyglass failed:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// measureRSS runs args with this process's stdio and writes the peak
// resident memory of that process (bytes) to file; it returns its exit
// code. The CLI is measured through this small wrapper because Linux
// carries a process's peak RSS across exec: a CLI started straight from
// the test process would report the test process's own peak (hundreds of
// MB under -race) as its own.
func measureRSS(file string, args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // dies with the wrapper (a hang the suite kills)
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "faultsuite wrapper:", err)
		return 125
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		_ = os.WriteFile(file, []byte(strconv.FormatInt(int64(ru.Maxrss)*1024, 10)), 0o600) // kilobytes on Linux
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}

// hangBound is how long a CLI run or an engine operation may take before
// the suite calls it a hang. It is a hang detector, not a timing
// assertion: every case is expected to end within its --timeout.
const hangBound = 120 * time.Second

// cliResult is how one CLI run ended.
type cliResult struct {
	code           int
	stdout, stderr string
	maxRSS         int64 // peak resident memory of the spyglass process, bytes
	trace          string
}

// runCLI runs spyglass --cli with args (a --trace is added) in an
// isolated environment plus env, and fails the test when it does not
// exit within hangBound.
func runCLI(t *testing.T, env []string, args ...string) cliResult {
	t.Helper()
	dir := t.TempDir()
	res := cliResult{trace: filepath.Join(dir, "trace.json")}
	full := append([]string{"--cli", "--trace", res.trace}, args...)
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	rssFile := filepath.Join(dir, "maxrss")
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{bin}, full...)...)
	cmd.Env = append(os.Environ(), measureEnv+"="+rssFile,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"SPYGLASS_CATALOG="+filepath.Join(dir, "mcp.json"),
		"DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(dir, "no-bus"),
		"BROWSER=/bin/false",
	)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res.stdout, res.stderr = stdout.String(), stderr.String()
	if ctx.Err() != nil {
		t.Fatalf("spyglass %s did not exit within %v (a hang)\nstderr:\n%s", strings.Join(args, " "), hangBound, tail(res.stderr))
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running spyglass: %v", err)
	}
	res.code = cmd.ProcessState.ExitCode()
	if b, err := os.ReadFile(rssFile); err == nil {
		res.maxRSS, _ = strconv.ParseInt(string(b), 10, 64)
	} else {
		t.Errorf("the wrapper measured no peak memory: %v", err)
	}
	return res
}

// tail returns the end of a long output for a failure message.
func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

// checkTraceFile reads the trace the CLI wrote and checks it.
func checkTraceFile(t *testing.T, path string) []events.Event {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no trace written: %v", err)
	}
	return checkTrace(t, b)
}

// checkTrace checks that a trace is valid UTF-8 and valid JSON, that
// events.ReadTrace reads it, and that no request in it is still waiting.
// It returns the events.
func checkTrace(t *testing.T, b []byte) []events.Event {
	t.Helper()
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		t.Errorf("trace is not valid UTF-8 (first bad byte at %d: %q)", i, b[max(0, i-60):min(len(b), i+20)])
	}
	if !json.Valid(b) {
		t.Fatalf("trace is not valid JSON")
	}
	_, evs, err := events.ReadTrace(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("events.ReadTrace: %v", err)
	}
	for _, e := range evs {
		if e.Kind != events.KindMessage || e.Type != events.MsgRequest {
			continue
		}
		switch {
		case e.Outcome == nil:
			t.Errorf("request %s %s (seq %d, dir %s) has no outcome", e.ID, e.Method, e.Seq, e.Dir)
		case e.Outcome.State == events.Waiting:
			t.Errorf("request %s %s (seq %d, dir %s) is still waiting after the run ended", e.ID, e.Method, e.Seq, e.Dir)
		}
	}
	return evs
}

// outcomeOf returns the outcome state of the first request with method
// sent by the client ("" when there is none).
func outcomeOf(evs []events.Event, method string) events.OutcomeState {
	for _, e := range evs {
		if e.Kind == events.KindMessage && e.Type == events.MsgRequest && e.Dir == events.DirOut && e.Method == method && e.Outcome != nil {
			return e.Outcome.State
		}
	}
	return ""
}

// pids reads the PIDs a hostile server wrote to its file.
func pids(t *testing.T, file string) []int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the server wrote no PID file: %v", err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("PID file %s: %v", file, err)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		t.Fatalf("the server wrote no PID to %s", file)
	}
	return out
}

// checkGone checks that every process in the PID file has ended: kill(pid,
// 0) fails with ESRCH, or the process is a zombie (it ended, its parent
// has not reaped it yet). A process that was just signalled may need a
// moment to die, so it is given a generous bound (a hang detector).
func checkGone(t *testing.T, file string) {
	t.Helper()
	for _, pid := range pids(t, file) {
		if !eventually(func() bool { return gone(pid) }) {
			t.Errorf("process %d (%s) is still running after the client ended", pid, cmdline(pid))
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) S ...: the state follows the last ')'.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// eventually reports whether cond came to hold in time.
var eventually = testwait.Eventually
