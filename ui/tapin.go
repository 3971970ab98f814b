package ui

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// Tapper is implemented by a Backend that can have an MCP client (Claude
// Desktop, Cursor, Claude Code, VS Code) reach one of its servers through
// Spyglass's tap.
type Tapper interface {
	// PlanTap prepares the change of the client config file at path that
	// has the client launch (stdio) or reach (HTTP) server through the
	// tap (with undo: directly again). Its errors are words for people.
	PlanTap(path, server string, undo bool) (TapPlan, error)
}

// TapPlan is a prepared change of a client's config file.
type TapPlan struct {
	// Diff is the change as a unified diff; Apply writes it; Done is a
	// sentence for the user once it is written.
	Diff  string
	Apply func() error
	Done  string
	// Run, when set, is the command that must be running for the client
	// to reach the server: an HTTP server's tap, which a client cannot
	// start itself.
	Run string
}

// onTapIn is the card menu's "Tap this server in…".
func (c *serverCard) onTapIn() { c.s.w.showTapIn(c.s.cfg.Name) }

// showTapIn asks for a client's config file, shows the change that makes
// the client launch the server through the tap, and writes it when the
// user says so; the toast that confirms it offers Undo.
func (w *Window) showTapIn(name string) {
	t, ok := w.be.(Tapper)
	if !ok {
		return
	}
	intro := widget.NewLabel("The client will reach " + name + " through Spyglass's tap: every byte passes\n" +
		"through unchanged, and each session is recorded. The file's original is kept beside it.")
	path := esc.NewEntry()
	path.SetPlaceHolder("The client's config file, e.g. ~/.config/Claude/claude_desktop_config.json")
	diff := widget.NewLabel("")
	diff.TextStyle.Monospace = true
	scroll := container.NewScroll(diff)
	scroll.SetMinSize(fyne.NewSize(680, 180))
	status := widget.NewLabel("")
	status.Wrapping = fyne.TextWrapWord
	// the diff's box and two lines of the message are there from the
	// start: the dialog does not grow and move Write the change when
	// they fill in (#12)
	lines := canvas.NewRectangle(color.Transparent)
	lines.SetMinSize(fyne.NewSize(0, 2*fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height+2*theme.InnerPadding()))
	write := esc.NewButton("Write the change", nil)
	write.Importance = widget.HighImportance
	write.Disable()

	var plan TapPlan
	show := esc.NewButton("Show the change", func() {
		p, err := t.PlanTap(expandHome(path.Text), name, false)
		if err != nil {
			status.SetText(plainHeadline(err))
			diff.SetText("")
			write.Disable()
			return
		}
		diff.SetText(strings.TrimRight(p.Diff, "\n"))
		status.SetText("Nothing is written until you choose Write the change.")
		plan = p
		write.Enable()
	})
	path.OnChanged = func(string) { write.Disable() } // a new file needs a new look
	path.OnSubmitted = func(string) { show.OnTapped() }
	browse := esc.NewButton("Browse…", func() {
		d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			path.SetText(r.URI().Path())
			r.Close()
			show.OnTapped()
		}, w.win)
		d.Resize(fyne.NewSize(800, 560))
		esc.Show(d, w.win)
	})

	var dlg *dialog.CustomDialog
	write.OnTapped = func() {
		file := expandHome(path.Text)
		if err := plan.Apply(); err != nil {
			status.SetText(plainHeadline(err))
			return
		}
		dlg.Hide()
		confirm := func() {
			w.toasts.showAction("ok", name+" now goes through the tap in "+filepath.Base(file)+"; restart the client", "Undo", undoLife, func() {
				p, err := t.PlanTap(file, name, true)
				if err == nil {
					err = p.Apply()
				}
				if err != nil {
					w.toastErr("error", "Could not undo", err)
					return
				}
				w.toast("ok", name+" no longer goes through the tap in "+filepath.Base(file)+"; restart the client")
			})
		}
		if plan.Run != "" {
			w.showTapRun(name, plan.Run, confirm) // the Undo toast once it is read, not behind it
			return
		}
		confirm()
	}
	body := container.NewVBox(intro, container.NewBorder(nil, nil, nil, browse, path),
		container.NewHBox(show), scroll, container.NewStack(lines, status), container.NewHBox(write))
	dlg = esc.NewCustom("Tap "+name+" in a client", "Cancel", body, w.win)
	esc.Show(dlg, w.win)
}

// showTapRun says what must run for the client to reach an HTTP server
// through the tap, with the command to copy; closed is called when the
// dialog closes.
func (w *Window) showTapRun(name, run string, closed func()) {
	intro := widget.NewLabel("A client cannot start an HTTP tap itself: until this command runs, the client " +
		"cannot reach " + name + ". Run it in a terminal and keep it running while you use the client; " +
		"it records each session.")
	intro.Wrapping = fyne.TextWrapWord
	cmd := widget.NewLabel(run)
	cmd.TextStyle.Monospace = true
	cmd.Wrapping = fyne.TextWrapBreak
	cmd.Selectable = true
	body := container.NewVBox(intro, cmd, container.NewHBox(copyButton("Copy the command", func() string { return run })))
	d := esc.NewCustom("Keep the tap for "+name+" running", "Close", body, w.win)
	d.SetOnClosed(closed)
	d.Resize(fyne.NewSize(min(720, w.win.Canvas().Size().Width-40), 0))
	esc.Show(d, w.win)
}

// expandHome turns a leading ~/ into the home folder.
func expandHome(p string) string {
	p = strings.TrimSpace(p)
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
