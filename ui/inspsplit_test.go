package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

// TestInspectorDetailSplit: at 1024×700 an event's details leave the
// payload room for several tree rows (the list keeps the event shown: with
// two rows a stacked pair kept three a side), a split the
// user dragged is where details open next time, and the window
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
		if list := in.list.Size().Height; list < row {
			t.Errorf("the list keeps %v px, less than the row of %v shown", list, row)
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
