package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// TestServerFormErrorsClearAndHoldStill: after an empty Save, "Give the
// server a name" and "needs a command" go as soon as the fields are
// filled, not at the next Save, and neither Save nor filling moves the
// fields below (their error lines and the summary keep their room, #12).
func TestServerFormErrorsClearAndHoldStill(t *testing.T) {
	b := newFakeBackend()
	w := newTestWindow(t, b, nil)
	Sync(func() {
		f := &serverForm{w: w}
		content := container.NewVBox(f.buildUI(ServerConfig{Transport: "stdio"}), f.errLblInit())
		win := test.NewWindow(content)
		t.Cleanup(win.Close)
		win.Resize(fyne.NewSize(660, 900))
		at := func() (fyne.Position, float32) {
			win.Resize(fyne.NewSize(660, 900)) // lay out now
			content.Refresh()
			return fyne.CurrentApp().Driver().AbsolutePositionForObject(f.args), content.MinSize().Height
		}
		pos0, h0 := at()
		if f.onSave() {
			t.Fatal("saved an empty form")
		}
		if l := f.errs["name"]; l.Hidden || !strings.Contains(l.Text, "Give the server a name") {
			t.Fatalf("name error %q hidden=%v", l.Text, l.Hidden)
		}
		if l := f.errs["command"]; l.Hidden || !strings.Contains(l.Text, "needs a command") {
			t.Fatalf("command error %q hidden=%v", l.Text, l.Hidden)
		}
		if pos, h := at(); pos != pos0 || h != h0 {
			t.Errorf("Save moved the form: Arguments at %v (was %v), the form %v high (was %v)", pos, pos0, h, h0)
		}
		test.Type(f.name, "mine")
		if l := f.errs["name"]; !l.Hidden {
			t.Errorf("the name is given and its error stays: %q", l.Text)
		}
		if l := f.errs["command"]; l.Hidden {
			t.Error("the command error went before the command was given")
		}
		test.Type(f.command, "npx")
		if l := f.errs["command"]; !l.Hidden {
			t.Errorf("the command is given and its error stays: %q", l.Text)
		}
		if f.errLbl.Text != "" {
			t.Errorf("the summary stays: %q", f.errLbl.Text)
		}
		if pos, h := at(); pos != pos0 || h != h0 {
			t.Errorf("filling the fields moved the form: Arguments at %v (was %v), the form %v high (was %v)", pos, pos0, h, h0)
		}
	})
}
