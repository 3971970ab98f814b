//go:build screenshots

package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Screenshot helpers for the History, Attempts and tester shots (see
// automate.go).

// SetTheme switches the window to "light" or "dark" (View › Theme).
func (w *Window) SetTheme(name string) { Sync(func() { w.setTheme(name) }) }

// WaitHistory waits until the selected server's History shows a line
// containing s.
func (w *Window) WaitHistory(s string, timeout time.Duration) error {
	return poll(timeout, "the History to show "+s, func() bool {
		if w.selected == nil || w.selected.screens == nil {
			return false
		}
		found := false
		h := w.selected.screens.history
		for _, c := range h.calls {
			for _, line := range h.chain(c) {
				if strings.Contains(line, s) {
					found = true
				}
			}
		}
		return found
	})
}

// SendTester sends text (a JSON-RPC request) from the selected server's
// tester and waits for its answer; the Experimental screen is scrolled to
// the tester's request editor, with the response below it.
func (w *Window) SendTester(text string, timeout time.Duration) error {
	var t *testerScreen
	Sync(func() {
		if w.selected != nil && w.selected.screens != nil {
			t = w.selected.screens.tester
		}
	})
	if t == nil {
		return fmt.Errorf("no connected server selected")
	}
	if err := w.ShowScreen("Experimental"); err != nil {
		return err
	}
	Sync(func() {
		t.editor.SetText(text)
		t.onSend()
	})
	err := poll(timeout, "the tester's answer", func() bool { return t.running == nil && t.response.Text != "" })
	Sync(func() { // the method template row, the coloured editor and the response below it
		y := t.obj.Position().Y + t.jsonEd.Position().Y - t.template.MinSize().Height - 2*theme.Padding()
		t.ss.exp.scroll.ScrollToOffset(fyne.NewPos(0, max(0, y)))
	})
	return err
}
