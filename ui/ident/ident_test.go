package ident

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/spyglass-mcp/spyglass/ui/fit"
)

// TestURLBreaksAfterSeparators: a URL too long for its line breaks only
// after a separator ("spyglass-" then "demo/", not "spyglass-d" then
// "emo/"), loses and adds nothing, keeps its host in the primary colour
// across a break, and asks for no more width than a short part.
func TestURLBreaksAfterSeparators(t *testing.T) {
	test.NewTempApp(t)
	const u = "https://example.com/spyglass-demo/consent?elicitation=7154ff1c7d946612"
	x := New(u)
	x.Plain, x.Monospace = true, true
	x.SetStrong("example.com")
	w := test.NewTempWindow(t, x)
	for _, width := range []float32{200, 260, 420} { // each wider than its longest part
		w.Resize(fyne.NewSize(width, 400))
		x.Resize(fyne.NewSize(width, x.MinSize().Height))
		lines := x.Lines()
		if strings.Join(lines, "") != u {
			t.Fatalf("at %v the lines %q are not the URL", width, lines)
		}
		for _, l := range lines[:len(lines)-1] {
			if !strings.ContainsAny(l[len(l)-1:], fit.IdentSeparators) {
				t.Errorf("at %v a line ends inside a word: %q (all: %q)", width, l, lines)
			}
		}
		var host string
		for _, o := range test.WidgetRenderer(x).Objects() {
			if tx := o.(*canvas.Text); tx.Color == theme.Color(theme.ColorNamePrimary) {
				host += tx.Text
			}
		}
		if host != "example.com" {
			t.Errorf("at %v the host drawn in the primary colour is %q", width, host)
		}
	}
	if m := x.MinSize().Width; m > x.Measure(strings.Repeat("m", 16))+2*theme.InnerPadding() {
		t.Errorf("the URL asks for %v wide", m)
	}
}
