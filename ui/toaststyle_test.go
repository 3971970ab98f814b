package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestToastStyles: only a success wears the green check; a note is
// informational, a refusal a warning, a failure an error.
func TestToastStyles(t *testing.T) {
	test.NewTempApp(t)
	for _, tt := range []struct {
		level string
		icon  fyne.Resource
		color string
	}{
		{"ok", theme.ConfirmIcon(), "ok"},
		{"info", theme.InfoIcon(), "primary"},
		{"warning", theme.WarningIcon(), "warning"},
		{"error", theme.ErrorIcon(), "error"},
	} {
		ts := newToaster()
		ts.show(tt.level, "a message")
		var icon *widget.Icon
		var bg *canvas.Rectangle
		walkAll(ts.stack, func(o fyne.CanvasObject) {
			if i, ok := o.(*widget.Icon); ok && icon == nil {
				icon = i
			}
			if r, ok := o.(*canvas.Rectangle); ok && bg == nil && r.StrokeWidth > 0 {
				bg = r
			}
		})
		if icon == nil || icon.Resource.Name() != tt.icon.Name() {
			t.Errorf("%s toast: icon %v, want %s", tt.level, icon, tt.icon.Name())
		}
		if bg == nil || bg.StrokeColor != colorFor(tt.color) {
			t.Errorf("%s toast: outline %v, want the %s colour", tt.level, bg, tt.color)
		}
		for _, it := range append([]*toast(nil), ts.items...) {
			ts.remove(it)
		}
	}
}
