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
		if l := f.errs["name"]; l.Text != "" {
			t.Errorf("the name is given and its error stays: %q", l.Text)
		}
		if l := f.errs["command"]; l.Hidden {
			t.Error("the command error went before the command was given")
		}
		test.Type(f.command, "npx")
		if l := f.errs["command"]; l.Text != "" {
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

// TestServerFormProtocolHoldsStill: in the Protocol section, request
// metadata checked as it is typed, and a timeout that Save refused and
// the user then fixed, move no field below them (#12: the metadata's
// error pushed Advanced down as it was typed, and a fixed field's line
// closed under the pointer).
func TestServerFormProtocolHoldsStill(t *testing.T) {
	b := newFakeBackend()
	w := newTestWindow(t, b, nil)
	Sync(func() {
		f := &serverForm{w: w}
		content := container.NewVBox(f.buildUI(ServerConfig{Transport: "stdio", Name: "x", Command: "node"}), f.errLblInit())
		win := test.NewWindow(content)
		t.Cleanup(win.Close)
		for i := range f.acc.Items {
			f.acc.Open(i)
		}
		height := func() float32 {
			win.Resize(fyne.NewSize(660, 2400)) // lay out now
			content.Refresh()
			return content.MinSize().Height
		}
		h0 := height()
		test.Type(f.metadata, `{"a": `)
		if l := f.errs["metadata"]; l.Hidden || l.Text == "" {
			t.Fatalf("no error for half-typed metadata: %q", l.Text)
		}
		if h := height(); h != h0 {
			t.Errorf("an error at the request metadata moved the form: %v high, was %v", h, h0)
		}
		f.metadata.SetText("")
		f.connTO.SetText("abc")
		if f.onSave() {
			t.Fatal("saved a connection timeout of abc")
		}
		h1 := height()
		f.connTO.SetText("30s")
		if l := f.errs["connectionTimeout"]; l.Text != "" {
			t.Errorf("the fixed timeout keeps its error %q", l.Text)
		}
		if h := height(); h != h1 {
			t.Errorf("fixing the timeout moved the form: %v high, was %v", h, h1)
		}
	})
}
