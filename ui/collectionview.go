package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/collection"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// CollectionStore is what a backend offers for saved calls: appending a
// call of the log to a collection file, and running a collection
// against a connected server.
type CollectionStore interface {
	// DefaultCollection is the file a server's calls are saved to
	// unless the user picks another.
	DefaultCollection(server string) string
	// SaveCall appends the request seq of server (0: its last tools,
	// prompt or resource call) to the collection file at path,
	// expecting its recorded outcome, and returns what it saved.
	SaveCall(server string, seq uint64, path string) (label string, err error)
	// RunCollection runs the collection file at path against server
	// ("" for the collection's own).
	RunCollection(ctx context.Context, path, server string) (*collection.Report, error)
}

// collectionStore is the backend's CollectionStore, or nil with a toast
// saying this build has none.
func (w *Window) collectionStore() CollectionStore {
	c, ok := w.be.(CollectionStore)
	if !ok {
		w.toast("error", "This build cannot keep collections")
		return nil
	}
	return c
}

// onSaveLastCall is Tools → Save last call to collection…: the selected
// server's latest tool, prompt or resource call.
func (w *Window) onSaveLastCall() {
	if c := w.selectedCard(); c != nil {
		w.SaveToCollection(c.s.cfg.Name, 0)
	}
}

// SaveToCollection asks which collection file the request seq of server
// (0: its latest call) goes to, the server's default collection filled
// in, and appends it there expecting the outcome it had. Call it on the
// UI thread.
func (w *Window) SaveToCollection(server string, seq uint64) {
	st := w.collectionStore()
	if st == nil {
		return
	}
	path := esc.NewEntry()
	path.SetText(st.DefaultCollection(server))
	folder := esc.NewButtonWithIcon("Folder…", theme.FolderOpenIcon(), func() {
		d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				path.SetText(filepath.Join(u.Path(), filepath.Base(path.Text)))
			}
		}, w.win)
		d.Resize(fyne.NewSize(800, 560))
		esc.Show(d, w.win)
	})
	note := wrapLabel("The call is added to the end of this collection file (created when missing) and expects the result it had; a project folder keeps it under version control.")
	body := container.NewVBox(note, container.NewBorder(nil, nil, nil, folder, path))
	d := esc.NewCustomConfirm("Save to collection", "Save", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		p := strings.TrimSpace(path.Text)
		label, err := st.SaveCall(server, seq, p)
		if err != nil {
			w.toastErr("error", "Could not save the call", err)
			return
		}
		w.toast("ok", "Saved "+label+" to "+p)
	}, w.win)
	d.Resize(fyne.NewSize(640, 220))
	esc.Show(d, w.win)
}

// onRunCollectionDialog is File → Run collection…: a collection file is
// picked and run.
func (w *Window) onRunCollectionDialog() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			w.toastErr("error", "Could not open the file", err)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		w.RunCollection(path)
	}, w.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	if l, err := storage.ListerForURI(storage.NewFileURI(w.collectionDir())); err == nil {
		d.SetLocation(l)
	}
	d.Resize(fyne.NewSize(800, 560))
	esc.Show(d, w.win)
}

// collectionDir is the folder of the default collections.
func (w *Window) collectionDir() string {
	if st, ok := w.be.(CollectionStore); ok {
		return filepath.Dir(st.DefaultCollection("x"))
	}
	return ""
}

// RunCollection runs the collection file at path against the server it
// names, or the selected server when that one is not in the list, and
// shows the results as a checklist. Call it on the UI thread.
func (w *Window) RunCollection(path string) { w.runCollection(path) }

// runCollection is RunCollection, returning its view (nil when the
// backend has no collections).
func (w *Window) runCollection(path string) *collectionView {
	st := w.collectionStore()
	if st == nil {
		return nil
	}
	v := &collectionView{w: w, path: path}
	v.dlg = esc.NewCustom("Run "+filepath.Base(path), "Close", v.buildUI(), w.win)
	sz := w.win.Canvas().Size()
	v.dlg.Resize(fyne.NewSize(sz.Width*0.8, sz.Height*0.8))
	esc.Show(v.dlg, w.win)
	server := ""
	if w.selected != nil {
		server = w.selected.cfg.Name
	}
	named := collectionServer(path)
	if named != "" && w.server(named) != nil {
		server = named
	}
	v.status.SetText("Running against " + server + "…")
	go func() {
		rep, err := st.RunCollection(context.Background(), path, server)
		Do(func() { v.show(server, rep, err) })
	}()
	return v
}

// collectionServer is the catalog server a collection file names ("" for
// none, or a file that cannot be read: the run says why).
func collectionServer(path string) string {
	c, err := readCollectionFile(path)
	if err != nil || c.Server == nil {
		return ""
	}
	return c.Server.Name
}

// collectionView is a collection run's checklist: each call with each
// of its expectations passed or failed, a failure's differences one
// click away.
type collectionView struct {
	w      *Window
	path   string
	status *widget.Label
	full   *esc.Button // Show full error, while a run could not start
	rows   *fyne.Container
	dlg    dialog.Dialog
}

func (v *collectionView) buildUI() fyne.CanvasObject {
	v.status = widget.NewLabel("")
	v.status.TextStyle.Bold = true
	v.status.Wrapping = fyne.TextWrapWord
	v.full = esc.NewButton("Show full error", nil)
	v.full.Importance = widget.LowImportance
	v.full.Hide()
	v.rows = container.NewVBox()
	top := container.NewVBox(v.status, container.NewHBox(v.full))
	return container.NewBorder(top, nil, nil, nil, container.NewVScroll(v.rows))
}

// show puts the report's results in the checklist.
func (v *collectionView) show(server string, rep *collection.Report, err error) {
	if err != nil {
		v.showErr(err)
		return
	}
	failed := rep.Failed()
	if failed == 0 {
		all := "All " + plural(len(rep.Results), "call")
		if len(rep.Results) == 1 {
			all = "The call"
		}
		v.status.SetText(fmt.Sprintf("%s passed against %s.", all, server))
	} else {
		v.status.SetText(fmt.Sprintf("%d of %s failed against %s.", failed, plural(len(rep.Results), "call"), server))
	}
	v.rows.Objects = nil
	for i := range rep.Results {
		v.rows.Add(v.resultRow(&rep.Results[i]))
	}
	v.rows.Refresh()
}

// showErr words a run that could not start, cause first: a trace picked
// by mistake is named as one, a file that is no collection says so, and
// anything else (a server that cannot be reached) is worded as the
// window's other errors are. The chain is behind Show full error.
func (v *collectionView) showErr(err error) {
	name := filepath.Base(v.path)
	full := err.Error()
	var head string
	switch {
	case (errors.Is(err, collection.ErrInvalid) || errors.Is(err, collection.ErrNotCollection)) && isTraceFile(v.path):
		head = name + " is a recorded session (a trace), not a collection: open it with File → Open trace…, or send it again with File → Replay against…"
	case errors.Is(err, collection.ErrInvalid), errors.Is(err, collection.ErrNotCollection):
		head = name + " is not a collection Spyglass can run: a collection is the file that Save to collection… writes"
	case errors.Is(err, collection.ErrVersion):
		head = name + " has a collection version this Spyglass cannot read"
	default:
		if h, ok := v.w.be.(Humanizer); ok {
			err = h.Humanize(err)
		}
		head, full = plainError(err)
		head = "Could not run " + name + ": " + head
	}
	v.status.SetText(head)
	v.full.OnTapped = func() { showTextDialog("Run "+name, full, v.w.win) }
	v.full.Show()
}

// isTraceFile reports whether the file at path is a Spyglass trace.
func isTraceFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head struct {
		Format string `json:"format"`
	}
	return json.NewDecoder(f).Decode(&head) == nil && head.Format == events.TraceFormat
}

// resultRow is one call: its name and time, then one line per
// expectation, ✓ or ✗ with what was found instead.
func (v *collectionView) resultRow(r *collection.Result) fyne.CanvasObject {
	mark := "✓ "
	if !r.Passed() {
		mark = "✗ "
	}
	title := heading(mark + r.Call.Label())
	took := widget.NewLabel("")
	if r.Outcome.Duration > 0 {
		took.SetText(roundDiffDur(r.Outcome.Duration))
	}
	took.TextStyle.Monospace = true
	box := container.NewVBox(container.NewBorder(nil, nil, nil, took, title))
	failed := map[string][]collection.Failure{}
	var order []string
	for _, f := range r.Failures {
		if failed[f.Expectation] == nil {
			order = append(order, f.Expectation)
		}
		failed[f.Expectation] = append(failed[f.Expectation], f)
	}
	for _, name := range expectations(r.Call.Expect) {
		if fs := failed[name]; fs != nil {
			delete(failed, name)
			for _, f := range fs {
				box.Add(v.failureLine(r, f))
			}
			continue
		}
		l := widget.NewLabel("    ✓ " + name)
		l.Importance = widget.SuccessImportance
		box.Add(l)
	}
	for _, name := range order { // failures of no listed expectation (answer)
		for _, f := range failed[name] {
			box.Add(v.failureLine(r, f))
		}
	}
	return box
}

// failureLine is one failed expectation; one with differences opens
// them.
func (v *collectionView) failureLine(r *collection.Result, f collection.Failure) fyne.CanvasObject {
	l := widget.NewLabel("    ✗ " + f.Expectation + ": " + f.Message)
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	if len(f.Changes) == 0 {
		return l
	}
	var b strings.Builder
	for _, c := range f.Changes {
		b.WriteString(c.Describe(0) + "\n")
	}
	text := b.String()
	btn := esc.NewButton("Differences", func() {
		showTextDialog(r.Call.Label()+": "+f.Expectation+" differs (expected → got)", text, v.w.win)
	})
	btn.Importance = widget.LowImportance
	return container.NewBorder(nil, nil, nil, btn, l)
}

// expectations names what e expects, in the names core/collection's
// failures use ("answer" when it expects nothing).
func expectations(e *collection.Expect) []string {
	if e == nil {
		return []string{"answer"}
	}
	var out []string
	if len(e.Result) > 0 {
		out = append(out, "result")
	}
	for _, p := range e.Pointers {
		out = append(out, "pointer "+p.Pointer)
	}
	if len(e.Schema) > 0 {
		out = append(out, "schema")
	}
	if e.Error != nil {
		out = append(out, "error")
	}
	if e.IsError != nil {
		out = append(out, "isError")
	}
	if e.MaxDuration > 0 {
		out = append(out, "maxDuration")
	}
	if len(out) == 0 {
		out = append(out, "answer")
	}
	return out
}

// readCollectionFile reads a collection file.
func readCollectionFile(path string) (*collection.Collection, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return collection.Read(f)
}
