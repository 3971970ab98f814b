package esc

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestAccordionHeaders: a section opens and closes from its header, by a
// tap or by Space once Tab put the focus on it, grows the accordion when
// open, and Esc from a focused header cancels the dialog it is in.
func TestAccordionHeaders(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("behind"))
	w.Resize(fyne.NewSize(600, 500))
	a := NewAccordion(widget.NewAccordionItem("Protocol", widget.NewLabel("protocol body")),
		widget.NewAccordionItem("Advanced", widget.NewLabel("advanced body")))
	a.MultiOpen = true
	d := NewCustom("Edit", "Close", container.NewVBox(a), w)
	Show(d, w)
	c := w.Canvas()
	closed := a.MinSize().Height

	test.FocusNext(c)
	h, ok := c.Focused().(*Button)
	if !ok || h.Text != "Protocol" {
		t.Fatalf("Tab focused %T, want the Protocol header", c.Focused())
	}
	press(c, fyne.KeySpace)
	if !a.Items[0].Open || !a.Items[0].Detail.Visible() {
		t.Fatalf("Space on the focused header did not open its section")
	}
	if a.MinSize().Height <= closed {
		t.Errorf("the accordion did not grow with a section open (%v ≤ %v)", a.MinSize().Height, closed)
	}
	test.Tap(h)
	if a.Items[0].Open || a.Items[0].Detail.Visible() {
		t.Fatalf("a tap on the open header did not close its section")
	}
	press(c, fyne.KeyEscape)
	if Open(c) != 0 || c.Overlays().Top() != nil {
		t.Fatalf("Esc from a focused header left the dialog open")
	}
}
