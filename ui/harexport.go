package ui

import (
	"io"
	"strings"
)

// HARExporter is what a backend offers for File → Export HAR…: the HTTP
// exchanges with an http or sse server as a HAR 1.2 file.
type HARExporter interface {
	ExportHAR(server string, w io.Writer) error
}

// harLabel is the File menu's item.
const harLabel = "Export HAR…"

// harUnavailable says why the selected server's exchanges cannot be
// exported as HAR ("" when they can).
func (w *Window) harUnavailable() string {
	s := w.selected
	switch {
	case s == nil:
		return "select a server"
	case s.cfg.Recorded != "":
		return "a recorded session keeps messages, not HTTP"
	case s.cfg.Transport == "" || s.cfg.Transport == "stdio":
		return "stdio servers have no HTTP"
	}
	return ""
}

// updateHARItem enables File → Export HAR… for an http or sse server,
// and otherwise says in its label why it is off.
func (w *Window) updateHARItem() {
	if w.harItem == nil {
		return
	}
	why := w.harUnavailable()
	label := harLabel
	if why != "" {
		label += " (" + why + ")"
	}
	if w.harItem.Label == label && w.harItem.Disabled == (why != "") {
		return
	}
	w.harItem.Label, w.harItem.Disabled = label, why != ""
	if m := w.win.MainMenu(); m != nil {
		m.Refresh()
	}
}

// onExportHAR is File → Export HAR…: the selected server's HTTP
// exchanges, saved where the user chooses.
func (w *Window) onExportHAR() {
	x, ok := w.be.(HARExporter)
	if why := w.harUnavailable(); !ok || why != "" {
		if !ok {
			why = "this build cannot export HAR"
		}
		w.toast("error", "Cannot export HAR: "+why+".")
		return
	}
	name := w.selected.cfg.Name
	file := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>| `, r) {
			return '-'
		}
		return r
	}, name) + ".har"
	w.saveFile(file, func(wr io.Writer) error { return x.ExportHAR(name, wr) })
}
