package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// Replayer is what a backend offers for Replay against…: a session's
// client→server requests sent again, in recorded order, to a server, as a
// session of its own, compared with the recorded answers.
type Replayer interface {
	// PlanReplay says what replaying the session of the entry from
	// would send.
	PlanReplay(from string) (ReplayPlan, error)
	// StartReplay adds the session entry the replay of from against the
	// server entry to goes to and returns its name and the run, which
	// connects, sends and returns the comparison (with an error when it
	// stopped part way, or nil when it could not connect).
	StartReplay(from, to string) (session string, run func(context.Context) (SessionDiffer, error), err error)
}

// ReplayPlan is what a replay would send.
type ReplayPlan struct {
	// Requests is how many requests it sends (the handshake aside).
	Requests int
	// Writes names the tools it calls that do not say they are
	// read-only: calling them again may change something.
	Writes []string
}

// replayView is a replay under way and then its comparison with the
// recording: every request pair, same or differing by JSON path (the
// diff view of File → Compare sessions…).
type replayView struct {
	w        *Window
	from, to string
	session  string
	status   *statusLine
	body     *fyne.Container
	diff     *sessionDiffView
	dlg      dialog.Dialog
}

// onReplayAgainst is File → Replay against…: the selected server's
// session (a recorded one, or a live one's record so far) is sent to a
// server picked from the list.
func (w *Window) onReplayAgainst() {
	if _, ok := w.be.(Replayer); !ok {
		w.toast("error", "This build cannot replay sessions")
		return
	}
	c := w.selectedCard()
	if c == nil {
		return
	}
	from := c.s.cfg.Name
	var targets []string
	for _, s := range w.servers {
		if s.cfg.Recorded == "" {
			targets = append(targets, s.cfg.Name)
		}
	}
	if len(targets) == 0 {
		w.toast("error", "Replaying needs a server to send to: add one first.")
		return
	}
	to := esc.NewSelect(targets, nil)
	to.SetSelected(targets[0])
	for _, s := range w.servers {
		// the server itself, or the one the recording talked to
		if s.cfg.Recorded == "" && (s.cfg.Name == from || s.cfg.Summary() == c.s.cfg.Summary()) {
			to.SetSelected(s.cfg.Name)
		}
	}
	note := wrapLabel("The session's requests are sent again in recorded order on a connection of their own; the server's questions are answered as recorded, and each answer is compared with the recorded one.")
	form := container.NewVBox(note, widget.NewForm(widget.NewFormItem("Send to", to)))
	d := esc.NewCustomConfirm("Replay "+from+" against…", "Replay", "Cancel", form, func(ok bool) {
		if ok {
			w.ReplaySession(from, to.Selected)
		}
	}, w.win)
	d.Resize(fyne.NewSize(520, 240))
	esc.Show(d, w.win)
}

// ReplaySession replays the session of the entry from against the server
// entry to, asking first when it would call tools that do not say they
// are read-only. Call it on the UI thread.
func (w *Window) ReplaySession(from, to string) { w.replaySession(from, to) }

// replaySession is ReplaySession.
func (w *Window) replaySession(from, to string) {
	r, ok := w.be.(Replayer)
	if !ok {
		w.toast("error", "This build cannot replay sessions")
		return
	}
	plan, err := r.PlanReplay(from)
	if err != nil {
		w.toastErr("error", "Cannot replay "+from, err)
		return
	}
	if len(plan.Writes) == 0 {
		w.startReplay(r, from, to)
		return
	}
	msg := wrapLabel(fmt.Sprintf("The recording calls tools that do not say they are read-only (no readOnlyHint): %s. Calling them again against %s may change something there.",
		strings.Join(plan.Writes, ", "), to))
	d := esc.NewCustomConfirm("Replay calls that may change something?", "Replay them", "Cancel", msg, func(ok bool) {
		if ok {
			w.startReplay(r, from, to)
		}
	}, w.win)
	d.Resize(fyne.NewSize(520, d.MinSize().Height))
	esc.Show(d, w.win)
}

// startReplay adds the replay's session entry, runs it, and shows its
// comparison with the recording once it is done.
func (w *Window) startReplay(r Replayer, from, to string) *replayView {
	name, run, err := r.StartReplay(from, to)
	if err != nil {
		w.toastErr("error", "Cannot replay "+from, err)
		return nil
	}
	w.reloadServers()
	v := &replayView{w: w, from: from, to: to, session: name}
	v.status = newStatusLine(w, "Replaying "+from+" against "+to+"… (its messages are in the inspector under "+name+")")
	v.body = container.NewStack()
	v.dlg = esc.NewCustom("Replay of "+from+" against "+to, "Close", container.NewBorder(v.status.obj, nil, nil, nil, v.body), w.win)
	sz := w.win.Canvas().Size()
	v.dlg.Resize(fyne.NewSize(sz.Width*0.9, sz.Height*0.88))
	esc.Show(v.dlg, w.win)
	// Closing the dialog stops the replay: nothing else shows its
	// comparison, and the requests left may call tools that write.
	ctx, cancel := context.WithCancel(context.Background())
	v.dlg.SetOnClosed(cancel)
	go func() {
		defer cancel()
		d, err := run(ctx)
		do(func() { v.done(d, err) })
	}()
	return v
}

// done shows the comparison (and why the replay stopped, when it did).
func (v *replayView) done(d SessionDiffer, err error) {
	switch {
	case d == nil:
		v.status.SetErr("The replay did not start", err)
		v.status.Importance = widget.DangerImportance
		v.status.Refresh()
		return
	case err != nil:
		v.status.SetErr("The replay stopped part way (the requests after it were not sent)", err)
		v.status.Importance = widget.DangerImportance
	default:
		v.status.SetText("Replayed " + v.from + " against " + v.to + " (A: the recording, B: " + v.session + ")")
	}
	v.status.Refresh()
	v.diff = &sessionDiffView{w: v.w, d: d, a: v.from, b: v.session}
	v.body.Objects = []fyne.CanvasObject{v.diff.buildUI()}
	v.body.Refresh()
}
