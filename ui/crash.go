package ui

import (
	"io"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// offerCrash tells the user, once, that the last run crashed, and offers
// to show its log or to report it.
func (w *Window) offerCrash() {
	if w.opts.PreviousCrash == "" {
		return
	}
	msg := widget.NewLabel("Spyglass quit unexpectedly the last time it ran. Its crash log was kept;\n" +
		"you can read it, or put it into a problem report to attach to a bug report.")
	var d *dialog.CustomDialog
	show := esc.NewButton("Show crash log", func() { d.Hide(); w.showCrashLog() })
	report := esc.NewButton("Report a problem…", func() { d.Hide(); w.onReportProblem() })
	report.Importance = widget.HighImportance
	d = esc.NewCustom("Spyglass crashed last time", "Dismiss",
		container.NewVBox(msg, container.NewHBox(show, report)), w.win)
	esc.Show(d, w.win)
}

// showCrashLog shows the last crash log, scrollable, with Copy.
func (w *Window) showCrashLog() {
	text := widget.NewLabel(w.opts.PreviousCrash)
	text.TextStyle.Monospace = true
	scroll := container.NewScroll(text)
	scroll.SetMinSize(fyne.NewSize(720, 420))
	copyBtn := esc.NewButton("Copy", func() {
		w.app.Clipboard().SetContent(w.opts.PreviousCrash)
		w.toast("ok", "Crash log copied")
	})
	esc.Show(esc.NewCustom("Crash log", "Close", container.NewBorder(nil, copyBtn, nil, nil, scroll), w.win), w.win)
}

// onReportProblem (Help → Report a problem…) saves a zip to attach to a
// bug report: the version, the system, the last crash log, and, if the
// user ticks it, the trace of the selected server's session.
func (w *Window) onReportProblem() {
	if w.opts.ReportProblem == nil {
		w.toast("error", "This build cannot write problem reports")
		return
	}
	withTrace := esc.NewCheck("Include the trace of this session (secrets masked)", nil)
	note := widget.NewLabel("The report holds Spyglass's version, your system, and the last crash log.\n" +
		"Nothing is sent anywhere: you choose where to save it and whom to give it to.")
	server := ""
	if w.selected != nil {
		server = w.selected.cfg.Name
	}
	d := esc.NewCustomConfirm("Report a problem", "Save report…", "Cancel",
		container.NewVBox(note, withTrace), func(ok bool) {
			if !ok {
				return
			}
			name := "spyglass-report-" + time.Now().Format("20060102-150405") + ".zip"
			include := withTrace.Checked
			w.saveFile(name, func(wr io.Writer) error {
				return w.opts.ReportProblem(wr, include, server)
			})
		}, w.win)
	esc.Show(d, w.win)
}
