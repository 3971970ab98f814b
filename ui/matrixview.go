package ui

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// ProtocolMatrixer is what a backend offers for the protocol matrix: one
// call sent again under each protocol version, the results compared.
type ProtocolMatrixer interface {
	// RunMatrix sends the request seq of server (0: its latest tool,
	// prompt or resource call) on a fresh connection pinned to each
	// protocol version and compares each result with the one before.
	RunMatrix(ctx context.Context, server string, seq uint64) (*Matrix, error)
}

// Matrix is one call's results under several protocol versions.
type Matrix struct {
	// Label names the call ("tools/call echo").
	Label string
	Cells []MatrixCell
}

// MatrixCell is the call under one pinned protocol version.
type MatrixCell struct {
	// Version is the version asked for; Negotiated the one the server
	// agreed to ("" when the connection failed).
	Version, Negotiated string
	// Err says why there is no result.
	Err string
	// Against is the version this result is compared with (the one
	// before it that answered; "" for the first); Changes are the
	// differences from that one's result.
	Against string
	Changes []sessiondiff.Change
	// Duration is the call's round trip.
	Duration time.Duration
}

// onProtocolMatrix is Tools → Protocol matrix of last call…
func (w *Window) onProtocolMatrix() {
	if c := w.selectedCard(); c != nil {
		w.ProtocolMatrix(c.s.cfg.Name, 0)
	}
}

// ProtocolMatrix runs the request seq of server (0: its latest call)
// under every protocol version and shows the results one under the
// other, each compared with the version before it. Call it on the UI
// thread.
func (w *Window) ProtocolMatrix(server string, seq uint64) { w.protocolMatrix(server, seq) }

// matrixView is the protocol matrix's dialog.
type matrixView struct {
	status *statusLine
	rows   *fyne.Container
}

func (w *Window) protocolMatrix(server string, seq uint64) *matrixView {
	pm, ok := w.be.(ProtocolMatrixer)
	if !ok {
		w.toast("error", "This build has no protocol matrix")
		return nil
	}
	v := &matrixView{status: newStatusLine(w, "Running "+server+"'s latest call under each protocol version…"), rows: container.NewVBox()}
	d := esc.NewCustom("Protocol matrix · "+server, "Close", container.NewBorder(v.status.obj, nil, nil, nil, container.NewVScroll(v.rows)), w.win)
	sz := w.win.Canvas().Size()
	d.Resize(fyne.NewSize(sz.Width*0.8, sz.Height*0.8))
	esc.Show(d, w.win)
	go func() {
		m, err := pm.RunMatrix(context.Background(), server, seq)
		Do(func() { v.show(m, err) })
	}()
	return v
}

func (v *matrixView) show(m *Matrix, err error) {
	if err != nil {
		v.status.SetErr("Could not run the matrix", err)
		return
	}
	var changes []string
	for _, c := range m.Cells {
		if len(c.Changes) > 0 {
			changes = append(changes, c.Against+" → "+c.Version)
		}
	}
	if len(changes) == 0 {
		v.status.SetText(m.Label + ": the same result under every version that answered.")
	} else {
		v.status.SetText(m.Label + ": the result changes at " + strings.Join(changes, ", ") + ".")
	}
	v.rows.Objects = nil
	for _, c := range m.Cells {
		head := c.Version
		if c.Negotiated != "" && c.Negotiated != c.Version {
			head += " (the server chose " + c.Negotiated + ")"
		}
		var what string
		switch {
		case c.Err != "":
			what = "✗ " + c.Err
		case c.Against == "":
			what = "the first result"
		case len(c.Changes) == 0:
			what = "= the same result as " + c.Against
		default:
			what = "≠ " + plural(len(c.Changes), "difference") + " from " + c.Against
		}
		t := widget.NewLabel("")
		if c.Duration > 0 {
			t.SetText(roundDiffDur(c.Duration))
		}
		t.TextStyle.Monospace = true
		title := heading(head)
		lbl := widget.NewLabel(what)
		lbl.Wrapping = fyne.TextWrapWord
		box := container.NewVBox(container.NewBorder(nil, nil, nil, t, title), lbl)
		for _, ch := range c.Changes {
			l := widget.NewLabel("    " + ch.Describe(diffValueSize))
			l.TextStyle.Monospace = true
			l.Wrapping = fyne.TextWrapBreak
			box.Add(l)
		}
		v.rows.Add(box)
	}
	v.rows.Refresh()
}
