package esc

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// focusProbe is a focusable object that counts its focus changes.
type focusProbe struct {
	widget.Label
	focused bool
}

func (p *focusProbe) FocusGained()               { p.focused = true }
func (p *focusProbe) FocusLost()                 { p.focused = false }
func (p *focusProbe) TypedRune(rune)             {}
func (p *focusProbe) TypedKey(ev *fyne.KeyEvent) { passEsc(p, ev) }

// TestClosingDialogTakesTheFocus: a control that had the focus in a
// dialog is told it lost it when the dialog closes — by Esc, by its
// dismiss button or by its confirm button — so a control shown again
// elsewhere (a request's panel back inline) is not drawn focused.
func TestClosingDialogTakesTheFocus(t *testing.T) {
	for _, how := range []string{"esc", "dismiss", "confirm"} {
		t.Run(how, func(t *testing.T) {
			a := test.NewTempApp(t)
			win := a.NewWindow("w")
			win.SetContent(widget.NewLabel("behind"))
			win.Resize(fyne.NewSize(600, 400))
			probe := &focusProbe{}
			probe.ExtendBaseWidget(probe)
			probe.SetText("probe")
			d := NewCustomConfirm("t", "OK", "Cancel", container.NewVBox(probe), nil, win)
			Show(d, win)
			win.Canvas().Focus(probe)
			if !probe.focused {
				t.Fatal("the probe did not get the focus")
			}
			switch how {
			case "esc":
				if !Cancel(win.Canvas()) {
					t.Fatal("Esc found no dialog")
				}
			case "dismiss": // as Space on it would: the focus stays where it is
				d.dismiss.OnTapped()
			case "confirm":
				d.confirm.OnTapped()
			}
			if probe.focused {
				t.Errorf("after closing by %s, the control still believes it has the focus", how)
			}
		})
	}
}
