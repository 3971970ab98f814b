package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestInspectorStackedPairHasRoom: at 1280×800 the inspector's detail
// pane is narrower than pairSideBySide, so the request and the response
// stack; each tree still gets four rows and more (it got about one under
// its heading, its Tree/Raw bar and a two-line actions row): the side's
// name, Tree/Raw, Expand all and Copy share one line, the actions one
// line, and the list keeps two rows (#12).
func TestInspectorStackedPairHasRoom(t *testing.T) {
	w, b, _ := connected(t, nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1280, 800)) })
	sendPair(b)
	in := w.inspector
	if err := w.OpenEvent("result #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	Sync(func() {
		d := in.detail
		if d.payload.Size().Width >= pairSideBySide {
			t.Fatalf("the detail pane is %v px wide at 1280×800; this test wants the stacked pair", d.payload.Size().Width)
		}
		row := in.createRow().MinSize().Height
		if l := in.list.Size().Height; l < 2*row {
			t.Errorf("the list keeps %v px, less than two rows of %v", l, row)
		}
		pair := d.payload.Objects[0].(*fyne.Container)
		for i, p := range pair.Objects {
			tree := p.(*fyne.Container).Objects[0]                   // Border: the tree, then its head line
			line := p.(*fyne.Container).Objects[1].(*fyne.Container) // the side's name, Tree/Raw, Expand all, Copy
			name := line.Objects[0].(*widget.Label)
			if need := fyne.MeasureText(name.Text, theme.TextSize(), name.TextStyle).Width + 2*theme.InnerPadding(); name.Size().Width < need {
				t.Errorf("side %d's name %q has %v px, under the %v it needs (cut)", i, name.Text, name.Size().Width, need)
			}
			if h := tree.Size().Height; h < 4*row {
				t.Errorf("side %d's tree has %v px, under four rows' %v (pane %v)", i, h, 4*row, p.Size())
			}
		}
		if h := d.actions.Size().Height; h > row+4 {
			t.Errorf("the actions take %v px, more than one line", h)
		}
	})
}
