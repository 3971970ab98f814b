package ui

import (
	"fmt"
	"time"
)

// Repaint has the window draw its content again, as a blinking cursor or
// a moving pointer does: Fyne frees the renderers and canvas objects its
// caches hold past their lifetime only when it draws a frame. UI thread
// only.
func (w *Window) Repaint() {
	w.win.Canvas().Refresh(w.win.Content())
}

// ClearInspector does what the inspector's Clear button does for the
// server it shows — that server's events so far leave the list, the
// counters and the log — and returns how many events it cleared (the
// events the counters counted; 0 when no server is shown or it had none).
// The benchmark mode measures memory after Clear through it: the button
// itself may be drawn as a word or as an icon (headrow.go), so looking it
// up by its text found nothing. UI thread only.
func (w *Window) ClearInspector() uint64 {
	in := w.inspector
	if in.server == "" {
		return 0
	}
	n := in.stats.Events
	in.onClear()
	return n
}

// WaitInspectorEvents waits until the inspector's counters count at least
// n events of the server it shows, for at most timeout: the events the
// log recorded reach the window in coalesced batches. The benchmark mode
// waits on it before it measures the window that shows them. Not on the
// UI thread.
func (w *Window) WaitInspectorEvents(n uint64, timeout time.Duration) error {
	return poll(timeout, fmt.Sprintf("the inspector to count %d events", n), func() bool {
		return w.inspector.stats.Events >= n
	})
}
