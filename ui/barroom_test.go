package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TestSuggestionChipsClearTheScrollBar: the suggestion chips' sideways
// scroll has the bar's height below the chips, so the bar Fyne draws
// over its content no longer covers them (#12, seen under Xvfb on the
// prompt's language chips).
func TestSuggestionChipsClearTheScrollBar(t *testing.T) {
	_, _, ss := connected(t, nil)
	Sync(func() { ss.resources.list.Select(2) })
	r := ss.resources
	waitFor(t, "lang suggestions", func() bool {
		return strings.Contains(texts(r.vars), "Suggestions for lang") && strings.Contains(texts(r.vars), "[fr]")
	})
	Sync(func() {
		var sc *container.Scroll
		walkVisible(r.params.suggBox, func(o fyne.CanvasObject) {
			if s, ok := o.(*container.Scroll); ok && sc == nil {
				sc = s
			}
		})
		if sc == nil {
			t.Fatal("no scroll around the chips")
		}
		chip := widget.NewButton("fr", nil).MinSize().Height
		if h := sc.Content.MinSize().Height; h < chip+theme.ScrollBarSize() {
			t.Errorf("the chips' scroll content is %v tall: the %v px bar covers %v px chips", h, theme.ScrollBarSize(), chip)
		}
	})
}

// TestServerFormEntriesClearTheScrollBar: the server form's fields end
// a scroll bar's width before the dialog's edge, not under its bar.
func TestServerFormEntriesClearTheScrollBar(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("fake"), nil)
	Sync(func() {
		w.win.Resize(fyne.NewSize(1024, 700))
		showServerForm(w, "", ServerConfig{Transport: "stdio"})
		top := w.win.Canvas().Overlays().Top()
		var sc *container.Scroll
		walkVisible(top, func(o fyne.CanvasObject) {
			if s, ok := o.(*container.Scroll); ok && sc == nil && s.Direction == container.ScrollVerticalOnly {
				sc = s
			}
		})
		if sc == nil {
			t.Fatal("no scroll in the server form")
		}
		var widest float32
		walkVisible(sc.Content, func(o fyne.CanvasObject) {
			if e, ok := o.(*esc.Entry); ok {
				pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(e).Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(sc))
				widest = fyne.Max(widest, pos.X+e.Size().Width)
			}
		})
		if edge := sc.Size().Width - theme.ScrollBarSize(); widest == 0 || widest > edge {
			t.Errorf("an entry ends at %v, past %v where the scroll bar starts", widest, edge)
		}
	})
}
