package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// sideControls is where a payload side's controls are on the screen
// and what its name says, as a user sees them.
func sideControls(t *testing.T, d *eventDetail) (string, map[string]fyne.CanvasObject) {
	t.Helper()
	drv := fyne.CurrentApp().Driver()
	var b strings.Builder
	objs := map[string]fyne.CanvasObject{}
	place := func(what string, o fyne.CanvasObject) {
		objs[what] = o
		fmt.Fprintf(&b, "%s at %v size %v\n", what, drv.AbsolutePositionForObject(o), o.Size())
	}
	for i, p := range d.payload.Objects[0].(*fyne.Container).Objects {
		side := []string{"request", "response"}[i]
		line := p.(*fyne.Container).Objects[1].(*fyne.Container).Objects[0].(*fyne.Container) // the side's name, Raw, Expand all, Copy (beside its chevron)
		name := line.Objects[0].(*widget.Label)
		fmt.Fprintf(&b, "%s named %q at %v size %v\n", side, name.Text, drv.AbsolutePositionForObject(name), name.Size())
		walkVisible(line.Objects[1], func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *esc.Check:
				place(side+" "+x.Text, x)
			case *widget.Button:
				switch name := x.Text + IconButtonName(x); name {
				case "Expand all":
					place(side+" Expand all", x)
				case "":
					place(side+" Copy", x)
				}
			}
		})
	}
	return b.String(), objs
}

// tapAt taps o where a user clicks it, in its middle, hit-tested as a
// real click is, and lays the window out again as the real driver does
// on its next frame (the test driver does not when a child's minimum
// changes).
func tapAt(w *Window, o fyne.CanvasObject) {
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Add(fyne.NewPos(o.Size().Width/2, o.Size().Height/2))
	test.TapCanvas(w.win.Canvas(), pos)
	w.win.Content().Refresh()
}

// TestInspectorPayloadLineHoldsStill: on each side of an event's
// payload, Raw, Expand all and Copy stay where they are, and the side's
// name stays the same, whatever is ticked or copied. Ticking Raw hid
// Expand all, so Raw moved right under the cursor and the name grew to
// "Request · id 13 · 7.6s"; Copy turned into "Copied", which pushed Raw
// left and cut the name to "Reque…": the user's next click on Raw missed
// (#12).
func TestInspectorPayloadLineHoldsStill(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(size) })
		sendPair(b)
		if err := w.OpenEvent("tools/call #5", time.Minute); err != nil {
			t.Fatal(err)
		}
		d := w.inspector.detail
		var before string
		var objs map[string]fyne.CanvasObject
		Sync(func() {
			w.win.Content().Refresh()
			before, objs = sideControls(t, d)
		})
		for _, side := range []string{"request", "response"} {
			for _, tap := range []string{"Raw", "Copy", "Raw", "Copy"} {
				what := side + " " + tap
				Sync(func() {
					o := objs[what]
					if o == nil {
						t.Fatalf("%v: no %s on the line:\n%s", size, what, before)
					}
					was := fyne.CurrentApp().Clipboard().Content()
					chk := objs[side+" Raw"].(*esc.Check)
					ticked := chk.Checked
					tapAt(w, o)
					switch tap {
					case "Raw":
						if chk.Checked == ticked {
							t.Fatalf("%v: tapping %s did not change it", size, what)
						}
					case "Copy":
						if fyne.CurrentApp().Clipboard().Content() == was && was != "" && !ticked {
							t.Errorf("%v: tapping %s copied nothing new", size, what)
						}
					}
					if after, _ := sideControls(t, d); after != before {
						t.Errorf("%v: after tapping %s (Raw ticked %v) the payload's lines moved:\nbefore\n%s\nafter\n%s", size, what, chk.Checked, before, after)
					}
				})
			}
		}
	}
}

// TestInspectorDetailCopyHoldsStill: the Copy in an event detail's head
// says it copied without changing its width: "Copied" was wider, so the
// badge and Copy moved left under the cursor and the title lost room
// (#12).
func TestInspectorDetailCopyHoldsStill(t *testing.T) {
	w, b, _ := connected(t, nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1024, 700)) })
	sendPair(b)
	if err := w.OpenEvent("tools/call #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	d := w.inspector.detail
	Sync(func() {
		w.win.Content().Refresh()
		var cp *widget.Button
		var head fyne.CanvasObject
		walkVisible(d.obj, func(o fyne.CanvasObject) {
			if x, ok := o.(*widget.Button); ok && x.Text == "Copy" && cp == nil {
				cp = x
			}
		})
		if cp == nil {
			t.Fatal("no Copy in the detail's head")
		}
		head = d.obj.(*fyne.Container).Objects[0].(*fyne.Container).Objects[0]
		drv := fyne.CurrentApp().Driver()
		where := func() string {
			var s strings.Builder
			walkVisible(head, func(o fyne.CanvasObject) {
				switch x := o.(type) {
				case *widget.Button, *widget.Label, *badge:
					fmt.Fprintf(&s, "%T at %v size %v\n", x, drv.AbsolutePositionForObject(o), o.Size())
				}
			})
			return s.String()
		}
		before := where()
		tapAt(w, cp)
		if got := fyne.CurrentApp().Clipboard().Content(); !strings.Contains(got, `"tools/call"`) {
			t.Errorf("Copy put %q on the clipboard, want the request", got)
		}
		if after := where(); after != before {
			t.Errorf("after Copy the detail's head moved:\nbefore\n%s\nafter\n%s", before, after)
		}
	})
}
