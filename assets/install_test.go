package assets_test

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/internal/testwait"
	"github.com/spyglass-mcp/spyglass/internal/xvfb"
)

const appID = "io.github.spyglass_mcp.spyglass"

// need fails the test when a program the Makefile installs is missing:
// `make test` installs them (APT_TEST), so a missing one is a broken setup.
func need(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			t.Fatalf("%s is missing: run `make deps-test` (it installs the desktop tools the install test uses)", n)
		}
	}
}

func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	// A program that leaves a child behind holding the output (dex starts
	// the app and exits) must not keep the test waiting for the pipe.
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// build builds the real binary for this test, with the build tags given.
func build(t *testing.T, tags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "spyglass")
	cmd := exec.Command("go", "build", "-tags", strings.Join(tags, ","), "-o", bin, ".")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestInstall installs Spyglass for a fresh user with `make install-files`
// (what `make install` runs after building), checks every installed file
// with the desktop's own validators, starts the installed desktop entry the
// way a menu does (dex) under Xvfb and sees the window, checks that a trace
// file is recognised as Spyglass's and opens with it, and uninstalls.
func TestInstall(t *testing.T) {
	need(t, "make", "desktop-file-validate", "appstreamcli", "update-mime-database", "xdg-mime", "xdg-open", "dex")
	bin := build(t)
	home := t.TempDir()
	// a runtime folder of its own: no other window takes the start over
	env := []string{"HOME=" + home, "XDG_DATA_HOME=", "XDG_CONFIG_HOME=", "XDG_DATA_DIRS=/usr/share", "XDG_RUNTIME_DIR=" + t.TempDir()}
	run(t, env, "make", "-C", "..", "--no-print-directory", "install-files", "BIN="+bin)

	prefix := filepath.Join(home, ".local")
	share := filepath.Join(prefix, "share")
	desktop := filepath.Join(share, "applications", appID+".desktop")
	metainfo := filepath.Join(share, "metainfo", appID+".metainfo.xml")
	run(t, nil, "desktop-file-validate", desktop)
	run(t, nil, "appstreamcli", "validate", "--no-net", metainfo)
	entry, err := os.ReadFile(desktop)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Exec=" + filepath.Join(prefix, "bin", "spyglass") + " %F\n"; !bytes.Contains(entry, []byte(want)) {
		t.Fatalf("the desktop entry does not start the installed binary (want %q):\n%s", want, entry)
	}
	for _, size := range []int{16, 24, 32, 48, 64, 128, 256, 512} {
		name := filepath.Join(share, "icons", "hicolor", fmt.Sprintf("%dx%d", size, size), "apps", appID+".png")
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != size || cfg.Height != size {
			t.Fatalf("%s: %dx%d, %v; want a %dx%d PNG", name, cfg.Width, cfg.Height, err, size, size)
		}
	}

	// A trace is recognised by its extension, and Spyglass opens it.
	trace := filepath.Join(t.TempDir(), "session.spyglass-trace")
	if err := os.WriteFile(trace, []byte(`{"format":"spyglass-trace","formatVersion":1,"meta":{}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(run(t, env, "xdg-mime", "query", "filetype", trace)); got != "application/x-spyglass-trace" {
		t.Fatalf("a .spyglass-trace file is %q, want application/x-spyglass-trace", got)
	}
	if got := strings.TrimSpace(run(t, env, "xdg-mime", "query", "default", "application/x-spyglass-trace")); got != appID+".desktop" {
		t.Fatalf("traces open with %q, want %s.desktop", got, appID)
	}

	// The menu's way of starting it: the installed entry, under a display.
	display := xvfb.Start(t, 1280, 800)
	xenv := append(env, "DISPLAY="+display, "LANG=en_US.UTF-8")
	launch := exec.Command("dex", desktop)
	launch.Env = append(os.Environ(), xenv...)
	logf, err := os.Create(filepath.Join(t.TempDir(), "app.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	launch.Stdout, launch.Stderr = logf, logf
	if err := launch.Run(); err != nil {
		t.Fatalf("dex %s: %v", desktop, err)
	}
	installed := filepath.Join(prefix, "bin", "spyglass")
	pid := installedWindow(t, xenv, installed, "")
	if pid == "" {
		out, _ := os.ReadFile(logf.Name())
		t.Fatalf("no window from the installed entry; its output:\n%s", out)
	}
	run(t, nil, "kill", pid)

	// Double-clicking a trace: xdg-open starts Spyglass on the file (and,
	// without a desktop environment, waits for it to exit).
	opener := exec.Command("xdg-open", trace)
	opener.Env = append(os.Environ(), xenv...)
	opener.Stdout, opener.Stderr = logf, logf
	opener.WaitDelay = 5 * time.Second
	if err := opener.Start(); err != nil {
		t.Fatalf("xdg-open %s: %v", trace, err)
	}
	t.Cleanup(func() { opener.Process.Kill(); opener.Wait() })
	pid = installedWindow(t, xenv, installed, trace)
	if pid == "" {
		out, _ := os.ReadFile(logf.Name())
		t.Fatalf("xdg-open did not open the trace in Spyglass; output:\n%s", out)
	}
	run(t, nil, "kill", pid)
	opener.Wait()

	run(t, env, "make", "-C", "..", "--no-print-directory", "uninstall")
	for _, f := range []string{desktop, metainfo, filepath.Join(prefix, "bin", "spyglass"),
		filepath.Join(share, "mime", "packages", appID+"-trace.xml"),
		filepath.Join(share, "icons", "hicolor", "256x256", "apps", appID+".png")} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("uninstall left %s", f)
		}
	}
	if got := strings.TrimSpace(run(t, env, "xdg-mime", "query", "filetype", trace)); got == "application/x-spyglass-trace" {
		t.Errorf("after uninstall a trace is still %s", got)
	}
}

// TestCrashLogKept crashes the real app (a build tagged crashtest panics
// when SPYGLASS_TEST_CRASH is set) and finds the panic in the crash log
// under the XDG state folder; the next start keeps it for the report and
// starts a fresh log, which a clean exit removes.
func TestCrashLogKept(t *testing.T) {
	bin := build(t, "crashtest")
	home, runtime := t.TempDir(), t.TempDir()
	display := xvfb.Start(t, 1280, 800)
	start := func(extra ...string) *exec.Cmd {
		c := exec.Command(bin)
		c.Env = append(os.Environ(), append([]string{"HOME=" + home, "DISPLAY=" + display, "LANG=en_US.UTF-8",
			"XDG_STATE_HOME=", "XDG_CONFIG_HOME=", "XDG_DATA_HOME=", "XDG_CACHE_HOME=", "XDG_RUNTIME_DIR=" + runtime}, extra...)...)
		c.Stdout, c.Stderr = io.Discard, io.Discard
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := start("SPYGLASS_TEST_CRASH=on purpose")
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the app exited cleanly; it was to crash")
		}
	case <-time.After(2 * time.Minute):
		c.Process.Kill()
		t.Fatal("the app did not crash")
	}
	dir := filepath.Join(home, ".local", "state", "spyglass")
	b, err := os.ReadFile(filepath.Join(dir, "crash.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("Spyglass ")) || !bytes.Contains(b, []byte("panic: spyglass test crash: on purpose")) || !bytes.Contains(b, []byte("goroutine ")) {
		t.Fatalf("crash.log does not hold the panic:\n%s", b)
	}

	// The next start keeps the crash for the report and logs afresh.
	c = start()
	if !testwait.Within(2*time.Minute, func() bool {
		prev, err := os.ReadFile(filepath.Join(dir, "crash-previous.log"))
		cur, _ := os.ReadFile(filepath.Join(dir, "crash.log"))
		return err == nil && bytes.Equal(prev, b) && bytes.Count(cur, []byte("\n")) == 1
	}) {
		t.Fatal("the next start did not keep the crash as crash-previous.log beside a fresh crash.log")
	}
	c.Process.Signal(os.Interrupt)
	c.Wait()
}

// TestSecondInstance: a second start while a window is open hands its
// command line (here an ad-hoc server) to that window and exits 0, and the
// open window connects the server; after the first is killed, its stale
// socket is replaced by the next start.
func TestSecondInstance(t *testing.T) {
	bin := build(t)
	home := t.TempDir()
	runtime := t.TempDir()
	display := xvfb.Start(t, 1280, 800)
	env := append(os.Environ(), "HOME="+home, "DISPLAY="+display, "LANG=en_US.UTF-8", "XDG_RUNTIME_DIR="+runtime,
		"XDG_STATE_HOME=", "XDG_CONFIG_HOME=", "XDG_DATA_HOME=", "XDG_CACHE_HOME=")
	sock := filepath.Join(runtime, "spyglass", "app.sock")
	start := func() *exec.Cmd {
		c := exec.Command(bin)
		c.Env = env
		c.Stdout, c.Stderr = io.Discard, io.Discard
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	answering := func() bool {
		rep, err := appsock.Send(sock, appsock.Message{Kind: "ping"}, 5*time.Second)
		return err == nil && rep.Declined != ""
	}
	first := start()
	if !testwait.Within(2*time.Minute, answering) {
		t.Fatal("the first window never listened on " + sock)
	}

	second := exec.Command(bin, "--", bin, "--demo-server")
	second.Env = env
	out, err := second.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "handed to the Spyglass window already open") {
		t.Fatalf("the second start: %v\n%s", err, out)
	}
	// The first window connects the handed-over server: the demo server
	// runs as its child.
	if !testwait.Within(time.Minute, func() bool { return childRuns(first.Process.Pid, "--demo-server") }) {
		t.Fatal("the open window did not start the handed-over server")
	}

	first.Process.Kill()
	first.Wait()
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("a killed window's socket is gone (%v); this test needs it stale", err)
	}
	start()
	if !testwait.Within(2*time.Minute, answering) {
		t.Fatal("the next start did not replace the stale socket")
	}
}

// childRuns reports whether a child process of pid has arg in its command line.
func childRuns(pid int, arg string) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		rest := stat[bytes.LastIndexByte(stat, ')')+1:]
		var state string
		var ppid int
		if _, err := fmt.Sscan(string(rest), &state, &ppid); err != nil || ppid != pid {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if bytes.Contains(cmdline, []byte(arg)) {
			return true
		}
	}
	return false
}

// installedWindow waits for a window of the installed binary whose command
// line holds arg ("" for any) and returns its process id, or "" when none
// came. Another test's window may share a display number with ours: whose
// window it is is checked.
func installedWindow(t *testing.T, xenv []string, installed, arg string) string {
	t.Helper()
	var pid string
	// A cold start of a GL program on a busy two-core machine is slow.
	testwait.Within(2*time.Minute, func() bool {
		out, _ := exec.Command("env", append(xenv, "xdotool", "search", "--name", "^Spyglass$")...).Output()
		for _, win := range strings.Fields(string(out)) {
			p, err := exec.Command("env", append(xenv, "xdotool", "getwindowpid", win)...).Output()
			if err != nil {
				continue
			}
			id := strings.TrimSpace(string(p))
			exe, _ := os.Readlink("/proc/" + id + "/exe")
			cmdline, _ := os.ReadFile("/proc/" + id + "/cmdline")
			if exe == installed && (arg == "" || bytes.Contains(cmdline, []byte(arg))) {
				pid = id
				return true
			}
		}
		return false
	})
	return pid
}
