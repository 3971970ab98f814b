package cmd

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// crashLog keeps what the Go runtime prints when the app dies of a panic
// or a fatal error (debug.SetCrashOutput), in crash.log under the XDG state
// folder. A clean exit removes it; a file left with more than its first
// line is a crash, which the next start offers to show and moves to
// crash-previous.log for Help → Report a problem.
type crashLog struct {
	dir string
	f   *os.File
}

// maxCrashRead bounds how much of an old crash log is read back.
const maxCrashRead = 1 << 20

// crashTrigger, when set (by a build tagged crashtest), is called once the
// window is up: it lets a test crash the real app.
var crashTrigger func()

// openCrashLog starts this run's crash log in dir and returns the previous
// run's crash report ("" when it ended cleanly). Failing to write the log
// costs only the log: the app runs anyway, and says so on stderr.
func openCrashLog(dir string, stderr io.Writer) (*crashLog, string) {
	cl := &crashLog{dir: dir}
	prev := cl.previous()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintf(stderr, "spyglass: crashes will not be logged: %v\n", err)
		return cl, prev
	}
	f, err := os.OpenFile(filepath.Join(dir, "crash.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: crashes will not be logged: %v\n", err)
		return cl, prev
	}
	head := fmt.Sprintf("Spyglass %s (%s, %s/%s) started %s, pid %d\n",
		version, runtime.Version(), runtime.GOOS, runtime.GOARCH, time.Now().Format(time.RFC3339), os.Getpid())
	if _, err := io.WriteString(f, head); err == nil {
		err = debug.SetCrashOutput(f, debug.CrashOptions{})
		if err != nil {
			fmt.Fprintf(stderr, "spyglass: crashes will not be logged: %v\n", err)
		}
	}
	cl.f = f
	return cl, prev
}

// previous reads the last run's crash log: a crash when it holds more than
// its first line; it is then kept as crash-previous.log.
func (cl *crashLog) previous() string {
	name := filepath.Join(cl.dir, "crash.log")
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(f, maxCrashRead))
	f.Close()
	_, rest, _ := bytes.Cut(b, []byte("\n"))
	if len(bytes.TrimSpace(rest)) == 0 {
		return "" // the run was killed, or ended before this was cleaned
	}
	_ = os.Rename(name, filepath.Join(cl.dir, "crash-previous.log"))
	return string(b)
}

// close ends a clean run: nothing crashed, so nothing is kept.
func (cl *crashLog) close() {
	if cl.f == nil {
		return
	}
	_ = debug.SetCrashOutput(nil, debug.CrashOptions{})
	cl.f.Close()
	_ = os.Remove(cl.f.Name())
}

// lastCrash is the newest crash report kept in dir, or "".
func lastCrash(dir string) string {
	f, err := os.Open(filepath.Join(dir, "crash-previous.log"))
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxCrashRead))
	return string(b)
}

// writeProblemReport writes a zip a user can attach to a bug report:
// report.txt (the version, Go, the OS, the display), the last crash log
// when there is one, and, when trace is not nil, the session's trace
// (secrets masked as in every trace).
func writeProblemReport(w io.Writer, crashDir string, trace func(io.Writer) error) error {
	z := zip.NewWriter(w)
	var info strings.Builder
	fmt.Fprintf(&info, "Spyglass %s\n%s %s/%s\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		fmt.Fprintf(&info, "kernel %s", b)
	}
	for _, k := range []string{"XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "WAYLAND_DISPLAY", "DISPLAY", "LANG"} {
		if v := os.Getenv(k); v != "" {
			fmt.Fprintf(&info, "%s=%s\n", k, v)
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" || s.Key == "-tags" {
				fmt.Fprintf(&info, "%s=%s\n", s.Key, s.Value)
			}
		}
	}
	crash := lastCrash(crashDir)
	if crash == "" {
		info.WriteString("No crash log: Spyglass has not crashed since it was last reported.\n")
	}
	type part struct {
		name  string
		write func(io.Writer) error
	}
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	files := []part{{"report.txt", text(info.String())}}
	if crash != "" {
		files = append(files, part{"crash.log", text(crash)})
	}
	if trace != nil {
		files = append(files, part{"session.spyglass-trace", trace})
	}
	for _, f := range files {
		fw, err := z.Create(f.name)
		if err != nil {
			return err
		}
		if err := f.write(fw); err != nil {
			return fmt.Errorf("writing %s into the report: %w", f.name, err)
		}
	}
	return z.Close()
}
