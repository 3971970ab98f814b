package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestInspectorStackedPairHasRoom: at 1280×800 and 1024×700 the
// inspector's detail pane is narrower than pairSideBySide, so the request
// and the response stack as an accordion: the side of the event chosen
// is open with five rows and more, the other keeps its head line and its
// chevron opens it (halved, each tree got two and a half rows): the
// side's name, Raw, Expand all and Copy share one line, the meta and the
// actions one line — the actions named icons
// when narrow, every one of them there — and the list keeps five rows at
// 1280×800 and three at 1024×700, the event shown among them. The trees
// had four rows a side while the list kept one or two, which the
// new-user walk read as the list gone; a tree scrolls, and the divider
// the user drags is where details open next time (#12).
func TestInspectorStackedPairHasRoom(t *testing.T) {
	for _, c := range []struct {
		size fyne.Size
		rows float32 // the list keeps at least these
	}{{fyne.NewSize(1280, 800), 5}, {fyne.NewSize(1024, 700), 3}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(c.size) })
		// rows above the pair, so that the list scrolls to its end and
		// shrinks under that scroll when the details open
		for i := range 20 {
			b.ev.send(EventView{Seq: uint64(900 + i), Server: "fake", Kind: "message", Dir: "in", Type: "notification",
				Method: "notifications/progress", Title: "notifications/progress", Categories: []string{"rpc"}, Time: time.Now()})
		}
		sendPair(b)
		in := w.inspector
		for _, ev := range []string{"result #5", "tools/call #5"} {
			if err := w.OpenEvent(ev, time.Minute); err != nil {
				t.Fatal(err)
			}
			Sync(func() {
				d := in.detail
				if d.payload.Size().Width >= pairSideBySide {
					t.Fatalf("%v: the detail pane is %v px wide; this test wants the stacked pair", c.size, d.payload.Size().Width)
				}
				row := in.createRow().MinSize().Height
				if l := in.list.Size().Height; l < c.rows*row {
					t.Errorf("%v: the list keeps %v px, less than %v rows of %v", c.size, l, c.rows, row)
				}
				drv := fyne.CurrentApp().Driver()
				top := drv.AbsolutePositionForObject(in.list).Y
				shown := false
				walkVisible(in.list, func(o fyne.CanvasObject) {
					if l, ok := o.(*rowText); ok && strings.HasPrefix(l.text, ev) {
						y := drv.AbsolutePositionForObject(l).Y
						shown = shown || y >= top-1 && y+l.Size().Height <= top+in.list.Size().Height+1
					}
				})
				if !shown {
					t.Errorf("%v: the list does not show %s, the event open", c.size, ev)
				}
				pair := d.payload.Objects[0].(*fyne.Container)
				open := 1 // the response of "result #5"
				if ev == "tools/call #5" {
					open = 0
				}
				for flip := range 2 {
					for i, p := range pair.Objects {
						tree := p.(*fyne.Container).Objects[0] // Border: the tree, then its head line
						head := p.(*fyne.Container).Objects[1].(*fyne.Container)
						line := head.Objects[0].(*fyne.Container) // the side's name, Raw, Expand all, Copy
						name := line.Objects[0].(*widget.Label)
						if need := fyne.MeasureText(name.Text, theme.TextSize(), name.TextStyle).Width + 2*theme.InnerPadding(); name.Size().Width < need || !name.Visible() {
							t.Errorf("%v: side %d's name %q has %v px, under the %v it needs (cut)", c.size, i, name.Text, name.Size().Width, need)
						}
						h := tree.Size().Height
						switch {
						case i == open && h < 5*row:
							t.Errorf("%v, %s (flipped %d): the open side %d's tree has %v px, under five rows' %v (pane %v)", c.size, ev, flip, i, h, 5*row, p.Size())
						case i != open && h > 1:
							t.Errorf("%v, %s (flipped %d): the closed side %d's tree takes %v px; it keeps its head line alone", c.size, ev, flip, i, h)
						}
					}
					// the closed side's chevron opens it
					chev := pair.Objects[1-open].(*fyne.Container).Objects[1].(*fyne.Container).Objects[1].(*fyne.Container).Objects[0].(*chevron)
					if !chev.Visible() || chev.name != []string{"Show the request", "Show the response"}[1-open] {
						t.Fatalf("%v: the closed side's chevron is hidden or misnamed (%q)", c.size, chev.name)
					}
					test.Tap(chev)
					open = 1 - open
				}
				if h := d.actions.Size().Height; h > row+4 {
					t.Errorf("%v: the meta and actions take %v px, more than one line", c.size, h)
				}
				var acts []string
				walkVisible(d.actions, func(o fyne.CanvasObject) {
					if b, ok := o.(*widget.Button); ok {
						acts = append(acts, b.Text+IconButtonName(b))
					}
				})
				if got := strings.Join(acts, ","); got != "Replay,Edit and replay" {
					t.Errorf("%v, %s: the actions shown are %q, want Replay and Edit and replay, named", c.size, ev, got)
				}
			})
		}
	}
}
