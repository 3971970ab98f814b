package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
)

// The methods in this file drive the window the way a user would, from any
// goroutine except the UI thread; the window tests use them, and so does
// the screenshot script (automate.go, built with -tags screenshots).

// poll runs cond under the window's lock until it holds or timeout passes.
func poll(timeout time.Duration, what string, cond func() bool) error {
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		Sync(func() { ok = cond() })
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// ShowScreen opens a screen tab of the selected server ("Tools", ...).
func (w *Window) ShowScreen(tab string) error {
	var err error
	Sync(func() { err = w.ShowScreenNow(tab) })
	return err
}

// ShowScreenNow is ShowScreen on the UI thread.
func (w *Window) ShowScreenNow(tab string) error {
	if w.selected == nil || w.selected.screens == nil {
		return fmt.Errorf("no connected server selected")
	}
	for i, it := range w.selected.screens.tabs.Items {
		if it.Text == tab {
			w.selected.screens.tabs.SelectIndex(i)
			return nil
		}
	}
	return fmt.Errorf("no screen %q", tab)
}

// OpenEvent opens, in the inspector, the newest event of the selected
// server whose title starts with prefix.
func (w *Window) OpenEvent(prefix string, timeout time.Duration) error {
	return poll(timeout, "an event "+prefix, func() bool { return w.selectEvent(prefix, strings.HasPrefix) })
}

// SelectEvent opens, in the inspector, the newest event listed whose
// title is title, as a click on its row does, and reports whether one is
// listed. UI thread.
func (w *Window) SelectEvent(title string) bool {
	return w.selectEvent(title, func(heading, title string) bool { return heading == title })
}

// selectEvent selects the newest row whose event's title matches.
func (w *Window) selectEvent(title string, match func(heading, title string) bool) bool {
	in := w.inspector
	for i := in.rows() - 1; i >= 0; i-- {
		e, _ := in.event(in.rowSeq(i))
		if match(e.Heading(), title) {
			in.list.Select(i)
			in.list.ScrollTo(i)
			return true
		}
	}
	return false
}

// Drop handles URIs as if dropped on the window (UI thread): config files
// are imported, folders become roots of the selected server.
func (w *Window) Drop(uris []fyne.URI) { w.onDropped(fyne.NewPos(0, 0), uris) }
