package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TraceExt is the extension of Spyglass's trace files (its own MIME type,
// application/x-spyglass-trace).
const TraceExt = ".spyglass-trace"

// IsTrace reports whether a file named name that begins with head is a
// Spyglass trace: by its extension, or by its opening.
func IsTrace(name string, head []byte) bool {
	if strings.EqualFold(filepath.Ext(name), TraceExt) {
		return true
	}
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte(`{"format":"spyglass-trace"`))
}

// OpenTrace opens the trace file at path as recorded sessions: each of its
// servers becomes an entry of the server list marked recorded, the first
// is selected, and the inspector shows its messages. Call it on the UI
// thread.
func (w *Window) OpenTrace(path string) {
	if w.opts.OpenTrace == nil {
		w.toast("error", "This build cannot open traces")
		return
	}
	names, warning, err := w.opts.OpenTrace(path)
	if err != nil {
		w.toastErr("error", "Could not open "+filepath.Base(path), err)
		return
	}
	w.reloadServers()
	for _, n := range names {
		w.showRecorded(w.server(n))
	}
	if len(names) > 0 {
		if s := w.server(names[0]); s != nil {
			w.selectServer(s)
		}
	}
	if !w.inspOpen {
		w.ToggleInspector()
	}
	msg := "Opened " + filepath.Base(path) + " (recorded, read-only)"
	level := "ok"
	if warning != "" {
		msg, level = msg+": "+warning, "error"
	}
	w.toast(level, msg)
}

// onOpenTraceDialog is File → Open trace… (Ctrl+O).
func (w *Window) onOpenTraceDialog() {
	w.pickFile([]string{TraceExt, ".json"}, func(u fyne.URI) { w.OpenTrace(u.Path()) })
}

// pickFile lets the user choose a file with one of the endings exts in
// the file dialog and hands it to open; a file that cannot be opened is
// said in a toast, a cancelled dialog does nothing.
func (w *Window) pickFile(exts []string, open func(fyne.URI)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			w.toastErr("error", "Could not open the file", err)
			return
		}
		if r == nil {
			return // cancelled
		}
		u := r.URI()
		r.Close()
		open(u)
	}, w.win)
	d.SetFilter(storage.NewExtensionFileFilter(exts))
	d.Resize(fyne.NewSize(800, 560))
	esc.Show(d, w.win)
}

// RecordedOpener is what a backend offers for a recorded session's
// screens: a Conn over what the recording holds.
type RecordedOpener interface {
	// OpenRecorded returns the recorded session of the entry name.
	OpenRecorded(name string) (RecordedConn, error)
}

// RecordedConn is the Conn of a recorded session: its lists are the ones
// the server sent at the time, its reads and prompts answer as recorded,
// and it sends nothing anywhere.
type RecordedConn interface {
	Conn
	// RecordedAt is when the session was recorded.
	RecordedAt() time.Time
	// ToolCalls are the recorded calls of the tool name, in order.
	ToolCalls(name string) []RecordedCall
}

// RecordedCall is one recorded tools/call.
type RecordedCall struct {
	// Seq is the request's event.
	Seq       uint64
	Arguments json.RawMessage
	Result    ToolResult
	// Err is the JSON-RPC error the server answered with ("" when it
	// answered with a result).
	Err string
}

// showRecorded gives a recorded entry the screens of what its recording
// holds (Tools, Resources, Prompts as the server offered them), marked
// recorded and read-only. Without a backend that offers them the entry
// keeps its placeholder.
func (w *Window) showRecorded(s *server) {
	ro, ok := w.be.(RecordedOpener)
	if !ok || s == nil || s.cfg.Recorded == "" || s.screens != nil {
		return
	}
	c, err := ro.OpenRecorded(s.cfg.Name)
	if err != nil {
		w.toastErr("error", "Could not show what "+s.cfg.Name+" offered", err)
		return
	}
	s.conn = c
	s.state = StateView{State: StateConnected}
	s.screens = newServerScreens(s)
	s.refreshUI()
	s.screens.load()
}

// recordedConn is the screens' recorded session, or nil for a live one.
func (ss *serverScreens) recordedConn() RecordedConn {
	rc, _ := ss.s.conn.(RecordedConn)
	return rc
}

// recordedMark is the "Recorded <time> — read-only" line that replaces a
// recorded session's Disconnect button.
func (ss *serverScreens) recordedMark(rc RecordedConn) fyne.CanvasObject {
	l := widget.NewLabel("Recorded " + rc.RecordedAt().Local().Format("2006-01-02 15:04") + " — read-only")
	l.Importance = widget.WarningImportance
	w, name := ss.s.w, ss.s.cfg.Name
	re := widget.NewButtonWithIcon("Replay against…", theme.MediaReplayIcon(), func() {
		if s := w.server(name); s != nil {
			w.selectServer(s)
		}
		w.onReplayAgainst()
	})
	re.Importance = widget.LowImportance
	return container.NewHBox(l, re)
}

// showRecordedCalls is the Tools screen of a recorded session, once a
// tool is selected: Run is disabled and says why, the form holds the
// arguments of the recorded call chosen, and its recorded result is shown
// below it.
func (t *toolsScreen) showRecordedCalls(tool Tool) {
	rc := t.ss.recordedConn()
	if rc == nil {
		return
	}
	t.runBtn.Disable()
	t.refused.SetText("Recorded session, read-only: Run is off. Replay against… sends its calls to a live server.")
	t.refused.Show()
	calls := rc.ToolCalls(tool.Name)
	if len(calls) == 0 {
		t.result.Objects = []fyne.CanvasObject{heading("Recorded calls"), wrapLabel("The recording holds no call of " + tool.Name + ".")}
		t.result.Refresh()
		return
	}
	labels := make([]string, len(calls))
	for i, c := range calls {
		labels[i] = fmt.Sprintf("Call %d of %d (#%d) · %s", i+1, len(calls), c.Seq, oneLineJSON(c.Arguments, 80))
	}
	body := container.NewVBox()
	pick := widget.NewSelect(labels, nil)
	pick.OnChanged = func(l string) {
		i := slices.Index(labels, l)
		if i < 0 {
			return
		}
		c := calls[i]
		t.args = t.ss.s.w.newArgsEditor(tool.InputSchema, c.Arguments, t.onRun)
		t.argsBox.Objects = []fyne.CanvasObject{t.args.Object()}
		t.argsBox.Refresh()
		if c.Err != "" {
			e := wrapLabel(c.Err)
			e.Importance = widget.DangerImportance
			body.Objects = []fyne.CanvasObject{e}
		} else {
			body.Objects = t.ss.toolResultObjects(c.Result, c.Result.Duration, "recorded tools/call result")
		}
		body.Refresh()
		t.formObj.Refresh()
	}
	t.result.Objects = []fyne.CanvasObject{heading("Recorded calls"), pick, body}
	pick.SetSelected(labels[len(labels)-1])
	t.result.Refresh()
}

// oneLineJSON is raw on one line, cut to at most n runes.
func oneLineJSON(raw json.RawMessage, n int) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil || b.Len() == 0 {
		return "{}"
	}
	s := []rune(b.String())
	if len(s) > n {
		return string(s[:n-1]) + "…"
	}
	return string(s)
}
