package cmd

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// floodRecorded counts the demo flood's notifications the log holds.
func floodRecorded(l *events.Log) int {
	n := 0
	_, _ = l.Search(context.Background(), events.Query{Conn: "demo", Text: `"logger":"flood"`}, func(seqs []uint64) { n += len(seqs) })
	return n
}

// newestTitle is the title of the log's newest event of conn.
func newestTitle(l *events.Log, conn string) string {
	for e := range l.ScanBackward(conn) {
		return e.Title()
	}
	return ""
}

// TestGUIFloodClear: the demo server's flood into the real window (issue
// #17): every notification is recorded, the inspector follows to the
// newest event, and the inspector's Clear leaves the inspector's list, the
// Logs screen and the log itself without the server's events.
func TestGUIFloodClear(t *testing.T) {
	const n = 10000
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runFlood(n, true)
	h.waitFor("the flood's answer", func() bool { return h.hasText(fmt.Sprintf("Sent %d ", n)) })
	if got := floodRecorded(h.be.log); got != n {
		t.Fatalf("the log recorded %d of the %d flood notifications", got, n)
	}
	// the inspector follows: the newest event's row is on screen, in a
	// list of every event of the server
	var insp *widget.List
	h.waitFor("the newest event in the inspector", func() bool {
		newest := newestTitle(h.be.log, "demo")
		insp = nil
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.List); ok && l.Length() > n {
				insp = l
			}
		})
		return insp != nil && newest != "" && h.hasText(newest)
	})
	h.openTab("Logs")
	var logs *widget.List
	h.waitFor("the messages in the Logs screen", func() bool {
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.List); ok && l != insp && l.Length() >= 10000 {
				logs = l
			}
		})
		return logs != nil
	})

	h.tap("Clear")
	h.waitFor("nothing of the server left after Clear", func() bool {
		return insp.Length() == 0 && logs.Length() == 0 && h.be.log.Len() == 0
	})
	// the window keeps working: a call after Clear is recorded and shown
	h.openTab("Tools")
	h.setArgs(`{"count": 3, "kind": "log"}`)
	h.tap("Run")
	h.waitFor("the next flood", func() bool { return floodRecorded(h.be.log) == 3 && insp.Length() > 3 })
}
