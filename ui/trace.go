package ui

import (
	"bytes"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

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
		w.toast("error", "Could not open "+filepath.Base(path)+": "+err.Error())
		return
	}
	w.reloadServers()
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
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			w.toast("error", "Could not open the file: "+err.Error())
			return
		}
		if r == nil {
			return // cancelled
		}
		path := r.URI().Path()
		r.Close()
		w.OpenTrace(path)
	}, w.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{TraceExt, ".json"}))
	d.Resize(fyne.NewSize(800, 560))
	esc.Attach(d, w.win)
	d.Show()
}
