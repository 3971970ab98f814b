package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// sendPair sends a tools/call request (Seq 1001) and its result (1002)
// to the fake server's inspector.
func sendPair(b *fakeBackend) {
	now := time.Now()
	b.ev.send(
		EventView{Seq: 1001, Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "5", Method: "tools/call",
			Title: "tools/call #5", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1002, Time: now, Badge: "12ms",
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"needle"}}}`)},
		EventView{Seq: 1002, Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "5", Method: "tools/call",
			Title: "result #5 · tools/call", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1001, Time: now,
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a"}],"isError":false}}`)},
	)
}

// paneSide is one side of the shown pair: its line (name, Raw, Expand
// all, Copy), its name label and its tree; open is false for the side a
// stacked pair keeps to its line.
type paneSide struct {
	line *fyne.Container
	name *widget.Label
	tree *widget.Tree
	open bool
}

func pairSides(t *testing.T, d *eventDetail) []paneSide {
	t.Helper()
	pair := d.payload.Objects[0].(*fyne.Container)
	var out []paneSide
	for _, p := range pair.Objects {
		var s paneSide
		s.line = p.(*fyne.Container).Objects[1].(*fyne.Container).Objects[0].(*fyne.Container) // beside its chevron
		s.name = s.line.Objects[0].(*widget.Label)
		s.open = p.(*fyne.Container).Objects[0].Size().Height > 1
		walkVisible(p, func(o fyne.CanvasObject) {
			if tr, ok := o.(*widget.Tree); ok {
				s.tree = tr
			}
		})
		if s.tree == nil {
			t.Fatalf("no tree shown under %q", s.name.Text)
		}
		out = append(out, s)
	}
	return out
}

// TestInspectorPayloadTreeStartsUnderItsName: each side's first node
// (jsonrpc: "2.0") is drawn right under the side's name line. The tree's
// own Tree/Raw bar moved onto that line, but the tree was still laid out
// in its Border with the bar on top, which kept the bar's row: a blank
// row above the first node, so the real window showed about two rows of
// a stacked pair where the tree's box measured 4.4 (#12).
func TestInspectorPayloadTreeStartsUnderItsName(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(size) })
		sendPair(b)
		if err := w.OpenEvent("result #5", time.Minute); err != nil {
			t.Fatal(err)
		}
		Sync(func() {
			drv := fyne.CurrentApp().Driver()
			row := w.inspector.createRow().MinSize().Height
			opened := 0
			for _, s := range pairSides(t, w.inspector.detail) {
				if !s.open {
					continue // a stacked pair's other side: its line alone
				}
				opened++
				lineEnd := drv.AbsolutePositionForObject(s.line).Y + s.line.Size().Height
				top := drv.AbsolutePositionForObject(s.tree).Y
				if gap := top - lineEnd; gap > theme.Padding() {
					t.Errorf("%v: %q's tree starts %v px below its line (a blank row), want at most the padding %v", size, s.name.Text, gap, theme.Padding())
				}
				var first *widget.Label
				walkVisible(s.tree, func(o fyne.CanvasObject) {
					if l, ok := o.(*widget.Label); ok && l.Text == `jsonrpc: "2.0"` {
						first = l
					}
				})
				if first == nil {
					t.Fatalf("%v: %q's first node is not drawn", size, s.name.Text)
				}
				if y := drv.AbsolutePositionForObject(first).Y - top; y > row/2 {
					t.Errorf("%v: %q's first node is %v px into its tree, want it the first row", size, s.name.Text, y)
				}
				// five rows: the list keeps five (three at 1024×700)
				// above the details (TestInspectorDetailKeepsListRows)
				if s.tree.Size().Height < 5*row {
					t.Errorf("%v: %q's tree has %v px, under five rows' %v", size, s.name.Text, s.tree.Size().Height, 5*row)
				}
			}
			if opened != 1 {
				t.Errorf("%v: %d sides open, want the stacked pair's one", size, opened)
			}
		})
	}
}

// TestInspectorNarrowPaneNames: in a detail pane about 320 px wide and in
// the ~250 px one of 1024×700, each side's name is whole — shortened to
// "Request · id 5" or "Request" rather than cut to "Request · i…" beside
// Raw, Expand all and Copy — and the widest pane shows it all (#12).
func TestInspectorNarrowPaneNames(t *testing.T) {
	w, b, _ := connected(t, nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1024, 700)) })
	sendPair(b)
	if err := w.OpenEvent("result #5", time.Minute); err != nil {
		t.Fatal(err)
	}
	in := w.inspector
	for _, want := range []struct {
		win  fyne.Size
		pane float32 // about this wide (0: the window's own split)
		name string  // the request's name shows at least this
	}{
		{fyne.NewSize(1024, 700), 0, "Request"},
		{fyne.NewSize(1024, 700), 320, "Request · id 5"},
		{fyne.NewSize(1920, 1080), 900, "Request · id 5 · 12ms"},
	} {
		Sync(func() { w.win.Resize(want.win) })
		Sync(func() {
			if want.pane > 0 {
				body := w.split.Size().Width
				w.split.SetOffset(float64(1 - (want.pane+20)/body))
			}
		})
		Sync(func() {
			pane := in.detail.payload.Size().Width
			if want.pane > 0 && (pane < want.pane-30 || pane > want.pane+30) {
				t.Fatalf("the detail pane is %v px wide, want about %v", pane, want.pane)
			}
			for i, s := range pairSides(t, in.detail) {
				need := fyne.MeasureText(s.name.Text, theme.TextSize(), s.name.TextStyle).Width + 2*theme.InnerPadding()
				if s.name.Size().Width < need {
					t.Errorf("pane %v px: side %d's name %q has %v px, under the %v it needs (cut)", pane, i, s.name.Text, s.name.Size().Width, need)
				}
				prefix := []string{"Request", "Response"}[i]
				if !strings.HasPrefix(s.name.Text, prefix) {
					t.Errorf("pane %v px: side %d is named %q, not %s…", pane, i, s.name.Text, prefix)
				}
				if i == 0 && !strings.HasPrefix(s.name.Text, want.name) {
					t.Errorf("pane %v px: the request is named %q, want %q at least", pane, s.name.Text, want.name)
				}
				var acts []string
				walkVisible(s.line.Objects[1], func(o fyne.CanvasObject) {
					switch x := o.(type) {
					case *esc.Check:
						acts = append(acts, x.Text)
					case *widget.Button:
						acts = append(acts, x.Text+IconButtonName(x))
					}
				})
				if got := strings.Join(acts, ","); got != "Raw,Expand all," && got != "Raw,Expand all" {
					t.Errorf("pane %v px: side %d's line offers %q, want Raw, Expand all and Copy", pane, i, got)
				}
			}
		})
	}
}

// TestInspectorHoldsStillWhenDetailsOpen: at 1024×700 the inspector is
// as wide with an event's details open as before, at the window's split
// and dragged to its narrowest: its width is the user's split, not the
// details' minimum (it widened from ~262 to ~300 px, the payload's line
// asking for Tree/Raw and Expand all with their words) (#12).
func TestInspectorHoldsStillWhenDetailsOpen(t *testing.T) {
	for _, narrowest := range []bool{false, true} {
		w, b, _ := connected(t, nil)
		in := w.inspector
		Sync(func() { w.win.Resize(fyne.NewSize(1024, 700)) })
		sendPair(b)
		if narrowest {
			Sync(func() { w.split.SetOffset(1) }) // as far right as the inspector's minimum lets it
		}
		var width float32
		var off float64
		Sync(func() { width, off = in.obj.Size().Width, w.split.Offset })
		for _, ev := range []string{"result #5", "tools/call #5"} {
			if err := w.OpenEvent(ev, time.Minute); err != nil {
				t.Fatal(err)
			}
			// the real driver lays a container out again when a child's
			// minimum changed (EnsureMinSize on every frame), the test
			// driver does not: lay the window's split out as the real one
			// would
			Sync(func() { w.split.Refresh() })
			Sync(func() {
				if !in.detail.obj.Visible() {
					t.Fatalf("%s: the details are not open", ev)
				}
				if got := in.obj.Size().Width; got != width || w.split.Offset != off {
					t.Errorf("narrowest %v, %s: the inspector is %v px wide (offset %.3f) with its details open, %v (%.3f) before",
						narrowest, ev, got, w.split.Offset, width, off)
				}
				if got := in.detail.obj.Size().Width; got > width {
					t.Errorf("narrowest %v, %s: the details are %v px wide in a %v px inspector", narrowest, ev, got, width)
				}
			})
		}
		if narrowest {
			Sync(func() {
				if width > 300 {
					t.Errorf("the narrowest inspector is %v px at 1024×700", width)
				}
			})
		}
	}
}
