package cmd

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProblemReport: the report zip holds report.txt with the version,
// the last crash log when there is one, and the trace only when asked.
func TestProblemReport(t *testing.T) {
	dir := t.TempDir()
	// a crashed run, then a start: the crash is kept for the report
	if err := os.WriteFile(filepath.Join(dir, "crash.log"), []byte("Spyglass x started\npanic: boom\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cl, prev := openCrashLog(dir, io.Discard)
	if !strings.Contains(prev, "panic: boom") {
		t.Fatalf("previous crash %q", prev)
	}
	read := func(trace func(io.Writer) error) map[string]string {
		var b bytes.Buffer
		if err := writeProblemReport(&b, dir, trace); err != nil {
			t.Fatal(err)
		}
		z, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range z.File {
			r, _ := f.Open()
			c, _ := io.ReadAll(r)
			got[f.Name] = string(c)
		}
		return got
	}
	got := read(nil)
	if !strings.HasPrefix(got["report.txt"], "Spyglass "+version+"\n") || got["crash.log"] != "Spyglass x started\npanic: boom\n" {
		t.Fatalf("report %q", got)
	}
	if _, ok := got["session.spyglass-trace"]; ok {
		t.Fatal("a trace in a report that did not ask for one")
	}
	got = read(func(w io.Writer) error { _, err := io.WriteString(w, "TRACE"); return err })
	if got["session.spyglass-trace"] != "TRACE" {
		t.Fatalf("report with trace %q", got)
	}
	// a clean exit leaves nothing to report next time
	cl.close()
	cl, prev = openCrashLog(dir, io.Discard)
	defer cl.close()
	if prev != "" {
		t.Fatalf("after a clean exit the next start reports %q", prev)
	}
}
