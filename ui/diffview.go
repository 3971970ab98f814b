package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// SessionDiffer is what a backend offers for File → Compare sessions…:
// the comparison of two server entries' sessions (recorded or live) as
// the log holds them, with the ignore list given (nil: the defaults).
type SessionDiffer interface {
	DiffSessions(a, b string, ignore []string) (*sessiondiff.Result, error)
}

// diffValueSize bounds each value a change line shows.
const diffValueSize = 120

// sessionDiffView is the comparison of two sessions: every request pair in
// order with its differences by JSON path, the timing in a column of
// its own, and the ignore list, editable, the comparison made again on
// each change.
type sessionDiffView struct {
	w      *Window
	d      SessionDiffer
	a, b   string
	ignore *esc.Entry
	status *statusLine
	rows   *fyne.Container
	dlg    dialog.Dialog
}

// onCompareSessions is File → Compare sessions…: two entries of the
// server list (recorded or live) are picked and compared.
func (w *Window) onCompareSessions() {
	if _, ok := w.be.(SessionDiffer); !ok {
		w.toast("error", "This build cannot compare sessions")
		return
	}
	var names []string
	for _, s := range w.servers {
		names = append(names, s.cfg.Name)
	}
	if len(names) < 2 {
		w.toast("error", "Comparing needs two sessions: open a trace or connect a second server first.")
		return
	}
	a, b := esc.NewSelect(names, nil), esc.NewSelect(names, nil)
	a.SetSelected(names[0])
	b.SetSelected(names[1])
	if w.selected != nil {
		a.SetSelected(w.selected.cfg.Name)
		if b.Selected == a.Selected {
			b.SetSelected(names[0])
		}
	}
	form := widget.NewForm(widget.NewFormItem("A", a), widget.NewFormItem("B", b))
	d := esc.NewCustomConfirm("Compare sessions", "Compare", "Cancel", form, func(ok bool) {
		if ok {
			w.CompareSessions(a.Selected, b.Selected)
		}
	}, w.win)
	d.Resize(fyne.NewSize(480, 200))
	esc.Show(d, w.win)
}

// CompareSessions opens the comparison of the sessions of the server
// entries a and b. Call it on the UI thread.
func (w *Window) CompareSessions(a, b string) { w.compareSessions(a, b) }

// compareSessions is CompareSessions, returning its view (nil when the
// backend cannot compare).
func (w *Window) compareSessions(a, b string) *sessionDiffView {
	d, ok := w.be.(SessionDiffer)
	if !ok {
		w.toast("error", "This build cannot compare sessions")
		return nil
	}
	v := &sessionDiffView{w: w, d: d, a: a, b: b}
	v.dlg = esc.NewCustom("Compare "+a+" (A) with "+b+" (B)", "Close", v.buildUI(), w.win)
	sz := w.win.Canvas().Size()
	v.dlg.Resize(fyne.NewSize(sz.Width*0.9, sz.Height*0.88))
	esc.Show(v.dlg, w.win)
	return v
}

func (v *sessionDiffView) buildUI() fyne.CanvasObject {
	v.status = newStatusLine(v.w, "")
	v.rows = container.NewVBox()
	v.ignore = esc.NewMultiLineEntry()
	v.ignore.SetText(strings.Join(sessiondiff.DefaultIgnore, "\n"))
	v.ignore.TextStyle.Monospace = true
	v.ignore.SetMinRowsVisible(4)
	v.ignore.OnChanged = func(string) { v.onIgnoreChanged() }
	reset := esc.NewButton("Defaults", func() { v.ignore.SetText(strings.Join(sessiondiff.DefaultIgnore, "\n")) })
	help := widget.NewLabel("Ignored paths, one JSON pointer per line (* is one key, ** any number); the comparison follows each edit.")
	help.Wrapping = fyne.TextWrapWord
	side := container.NewBorder(help, container.NewHBox(reset), nil, nil, v.ignore)
	v.refresh()
	// both ways: a change line wraps at spaces only, and one whose single
	// word is wider than the pane widens the rows, which then scroll
	// sideways
	list := container.NewBorder(v.status.obj, nil, nil, nil, container.NewScroll(v.rows))
	split := container.NewHSplit(list, side)
	split.Offset = 0.72
	return split
}

// patterns is the ignore list as typed: one pattern a line, blank lines
// left out.
func (v *sessionDiffView) patterns() []string {
	out := []string{}
	for _, l := range strings.Split(v.ignore.Text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func (v *sessionDiffView) onIgnoreChanged() { v.refresh() }

// refresh compares the two sessions again with the ignore list as it is.
func (v *sessionDiffView) refresh() {
	patterns := v.patterns()
	if _, err := sessiondiff.ParseIgnore(patterns); err != nil {
		v.status.SetErr("Fix the ignore list (the last comparison is shown)", err)
		return
	}
	res, err := v.d.DiffSessions(v.a, v.b, patterns)
	if err != nil {
		v.status.SetErr("Cannot compare the sessions", err)
		return
	}
	diffs := len(res.Differing())
	switch {
	case len(res.Pairs) == 0:
		v.status.SetText("No requests in either session yet.")
	case diffs == 0:
		verb := "match"
		if len(res.Pairs) == 1 {
			verb = "matches"
		}
		v.status.SetText(fmt.Sprintf("No differences: %s %s (timing aside).", plural(len(res.Pairs), "request"), verb))
	default:
		v.status.SetText(fmt.Sprintf("%d of %s differ.", diffs, plural(len(res.Pairs), "request")))
	}
	v.rows.Objects = nil
	for i := range res.Pairs {
		v.rows.Objects = append(v.rows.Objects, v.pairRow(&res.Pairs[i]))
	}
	v.rows.Refresh()
}

// pairRow is one request pair: what it is and on which side, its timing
// at the right, and below it each difference by JSON path.
func (v *sessionDiffView) pairRow(p *sessiondiff.Pair) fyne.CanvasObject {
	var head, timing string
	switch {
	case p.B == nil:
		head = fmt.Sprintf("only in A · %s (#%d)", p.Label(), p.A.Seq)
	case p.A == nil:
		head = fmt.Sprintf("only in B · %s (#%d)", p.Label(), p.B.Seq)
	default:
		mark := "same"
		if p.Differs() {
			mark = "differs"
		}
		head = fmt.Sprintf("%s · %s (A #%d, B #%d)", mark, p.Label(), p.A.Seq, p.B.Seq)
		if p.A.Latency > 0 && p.B.Latency > 0 {
			timing = roundDiffDur(p.A.Latency) + " → " + roundDiffDur(p.B.Latency)
		}
	}
	title := widget.NewLabel(head)
	title.Truncation = fyne.TextTruncateEllipsis
	title.TextStyle.Bold = p.Differs()
	t := widget.NewLabel(timing)
	t.TextStyle.Monospace = true
	box := container.NewVBox(container.NewBorder(nil, nil, nil, t, title))
	add := func(side string, cs []sessiondiff.Change) {
		for _, c := range cs {
			box.Add(container.NewPadded(diffLine(side + " " + c.Describe(diffValueSize))))
		}
	}
	add("request ", p.Request)
	add("response", p.Response)
	return box
}

// diffLine is one change line in monospace: it wraps at spaces only, and
// asks for the width of its longest word, so that a value ("tuesday", a
// URL, compact JSON) is never broken inside (Fyne's break wrapping cut
// "tues day"; its word wrapping still cuts a word wider than the line).
func diffLine(text string) fyne.CanvasObject {
	l := widget.NewLabel(text)
	l.TextStyle.Monospace = true
	l.Wrapping = fyne.TextWrapWord
	widest := float32(0)
	for _, word := range strings.Fields(text) {
		widest = max(widest, fyne.MeasureText(word, theme.TextSize(), l.TextStyle).Width)
	}
	return container.New(&minWidthLayout{width: widest + 2*theme.InnerPadding() + 1}, l)
}

// minWidthLayout gives its objects the whole space and asks for at least
// width.
type minWidthLayout struct{ width float32 }

// MinSize is the objects' minimum, at least width wide.
func (m *minWidthLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	out := fyne.NewSize(m.width, 0)
	for _, o := range objects {
		out = out.Max(o.MinSize())
	}
	return out
}

// Layout gives each object the whole size.
func (m *minWidthLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// roundDiffDur shows a latency to a tenth of a millisecond (to 10 ms
// above a second).
func roundDiffDur(d time.Duration) string {
	if d >= time.Second {
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(100 * time.Microsecond).String()
}
