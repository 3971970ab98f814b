package ui

import (
	"io"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TestCrashOffered: after a crash, the window says so once it opens and
// shows the log on request.
func TestCrashOffered(t *testing.T) {
	opts := &Options{PreviousCrash: "Spyglass 1.2.3 started\npanic: boom\n\ngoroutine 7 [running]:\n"}
	w := newTestWindow(t, newFakeBackend("a"), opts)
	top := func() string {
		o := w.win.Canvas().Overlays().Top()
		if o == nil {
			return ""
		}
		return texts(o)
	}
	waitFor(t, "the crash offer", func() bool { return strings.Contains(top(), "Spyglass quit unexpectedly the last time it ran") })
	Sync(func() { tapButton(t, w.win.Canvas().Overlays().Top(), "Show crash log") })
	waitFor(t, "the crash log", func() bool { return strings.Contains(top(), "panic: boom") })
}

// TestNoCrashNoOffer: a clean last run opens on the window, no dialog.
func TestNoCrashNoOffer(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("a"), nil)
	var o fyne.CanvasObject
	Sync(func() { o = w.win.Canvas().Overlays().Top() })
	if o != nil {
		t.Fatalf("a dialog at start after a clean run: %s", texts(o))
	}
}

// TestReportProblem: Help → Report a problem saves what ReportProblem
// writes, with the session's trace only when the user ticked it.
func TestReportProblem(t *testing.T) {
	dir := t.TempDir()
	saver := &fakeSaver{}
	opts := saveOptions(dir, saver)
	type call struct {
		trace  bool
		server string
	}
	var calls []call
	opts.ReportProblem = func(wr io.Writer, withTrace bool, server string) error {
		calls = append(calls, call{withTrace, server})
		_, err := io.WriteString(wr, "REPORT")
		return err
	}
	w := newTestWindow(t, newFakeBackend("a"), opts)
	for _, tick := range []bool{false, true} {
		Sync(func() { menuItem(t, w, "Help", "Report a problem…").Action() })
		waitFor(t, "the report dialog", func() bool {
			o := w.win.Canvas().Overlays().Top()
			return o != nil && strings.Contains(texts(o), "Include the trace of this session")
		})
		Sync(func() {
			o := w.win.Canvas().Overlays().Top()
			if tick {
				walkVisible(o, func(c fyne.CanvasObject) {
					if ch, ok := c.(*esc.Check); ok && strings.HasPrefix(ch.Text, "Include the trace") {
						ch.SetChecked(true)
					}
				})
			}
			tapButton(t, o, "Save report…")
		})
	}
	waitFor(t, "two reports saved", func() bool { return len(saver.paths) == 2 })
	if len(calls) != 2 || calls[0].trace || !calls[1].trace || calls[1].server != "a" {
		t.Fatalf("reports written as %+v, want without then with the trace of a", calls)
	}
	if !strings.HasPrefix(saver.paths[0][len(dir)+1:], "spyglass-report-") || !strings.HasSuffix(saver.paths[0], ".zip") || saver.data[0] != "REPORT" {
		t.Errorf("saved %q as %q", saver.paths[0], saver.data[0])
	}
}
