package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

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
