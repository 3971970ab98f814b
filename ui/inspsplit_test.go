package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// TestInspectorDetailSplit: at 1024×700 an event's details leave the
// payload room for several tree rows while the list keeps three, a split
// the user dragged is where details open next time, and the window
// remembers it.
func TestInspectorDetailSplit(t *testing.T) {
	w, b, _ := connected(t, nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1024, 700)) })
	sendPair(b)
	in := w.inspector
	if err := w.OpenEvent("result #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	Sync(func() {
		payload := in.detail.payload.Size().Height
		row := in.createRow().MinSize().Height
		t.Logf("split %v offset %.2f, payload %v, list %v, row %v", in.split.Size().Height, in.split.Offset, payload, in.list.Size().Height, row)
		if list := in.list.Size().Height; list < 3*row {
			t.Errorf("the list keeps %v px, less than three rows of %v", list, row)
		}
		if payload < 6*row {
			t.Errorf("the payload has %v px at 1024×700, under six rows' %v", payload, 6*row)
		}
		in.split.SetOffset(0.5) // the user drags
		in.closeDetail()
	})
	if err := w.OpenEvent("tools/call #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	Sync(func() {
		if in.split.Offset != 0.5 {
			t.Errorf("details opened at %.2f, not where the user left the split (0.50)", in.split.Offset)
		}
		if got := w.app.Preferences().Float(prefDetailOff); got != 0.5 {
			t.Errorf("the window remembers %.2f, not 0.50", got)
		}
	})
}

// TestInspectorDetailKeepsListRows: opening an event's details leaves the
// list a usable number of whole rows — five at 1280×800, three at
// 1024×700 — with the event open among them (the new-user walk found one
// row left at both sizes), and the details keep room for the payload
// (#12).
func TestInspectorDetailKeepsListRows(t *testing.T) {
	for _, c := range []struct {
		size fyne.Size
		rows int
	}{{fyne.NewSize(1280, 800), 5}, {fyne.NewSize(1024, 700), 3}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(c.size) })
		for i := range 30 { // more rows than fit, so the list scrolls
			b.ev.send(EventView{Seq: uint64(900 + i), Server: "fake", Kind: "message", Dir: "in", Type: "notification",
				Method: "notifications/progress", Title: "notifications/progress", Categories: []string{"rpc"}, Time: time.Now()})
		}
		sendPair(b)
		in := w.inspector
		if err := w.OpenEvent("tools/call #5", time.Minute); err != nil {
			t.Fatal(err)
		}
		Sync(func() {
			row := in.createRow().MinSize().Height + theme.Padding()
			whole := int((in.list.Size().Height + theme.Padding()) / row)
			t.Logf("%v: split %v, list %v (%d rows of %v), payload %v", c.size, in.split.Size().Height, in.list.Size().Height, whole, row, in.detail.payload.Size().Height)
			if whole < c.rows {
				t.Errorf("%v: with an event open the list shows %d whole rows, want at least %d", c.size, whole, c.rows)
			}
			if p := in.detail.payload.Size().Height; p < 4*row {
				t.Errorf("%v: the payload keeps %v px, under four rows' %v", c.size, p, 4*row)
			}
		})
	}
}
