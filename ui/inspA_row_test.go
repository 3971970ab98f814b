package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// TestInspectorRowsKeepTheMethod: an event row gives its method the room
// first. At 1024×700 the badge and the time beside the title cut
// "tools/call #7" to "tools/c…"; now the time gives way first, then the
// id and the "result" word, then the badge, so every row's title label
// is as wide as its whole text and that text holds the whole method; at
// 1280×800 a short row keeps its time (#12).
func TestInspectorRowsKeepTheMethod(t *testing.T) {
	methods := []string{"tools/call", "resources/templates/list", "notifications/initialized", "ping"}
	for _, size := range []fyne.Size{{Width: 1024, Height: 700}, {Width: 1280, Height: 800}} {
		w, b, _ := connected(t, nil)
		Sync(func() { w.win.Resize(size) })
		in := w.inspector
		b.ev.send(
			EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "17", Method: "tools/call", Title: "tools/call #17", Badge: "1.25s", Categories: []string{"tools", "rpc"}},
			EventView{Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "17", Method: "tools/call", Title: "result #17 · tools/call", Categories: []string{"tools", "rpc"}},
			EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "18", Method: "resources/templates/list", Title: "resources/templates/list #18", Badge: "7ms", Categories: []string{"rpc"}},
			EventView{Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "18", Method: "resources/templates/list", Title: "result #18 · resources/templates/list", Categories: []string{"rpc"}},
			EventView{Server: "fake", Kind: "message", Dir: "out", Type: "notification", Method: "notifications/initialized", Title: "notifications/initialized", Categories: []string{"rpc"}},
			EventView{Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "19", Method: "ping", Title: "ping #19", Badge: "1ms", Categories: []string{"rpc"}},
		)
		listDrawn(t, in)
		waitFor(t, "the rows sent", func() bool {
			titles := in.shownTitles()
			return !in.searching && len(titles) > 0 && titles[len(titles)-1] == "ping #19"
		})
		Sync(func() {
			seen := map[string]bool{}
			walkVisible(in.list, func(o fyne.CanvasObject) {
				l, ok := o.(*rowText)
				if !ok || !l.cut {
					return
				}
				method := ""
				for _, m := range methods {
					if strings.Contains(l.text, m) && len(m) > len(method) {
						method = m
					}
				}
				if method == "" {
					return // an event of the connection, not one sent here
				}
				seen[l.text] = true
				need := fyne.MeasureText(l.text, theme.TextSize(), l.TextStyle()).Width + 2*theme.InnerPadding()
				if l.Size().Width < need {
					t.Errorf("%v: the row %q has %v px, under the %v its whole text needs: the method %q is cut", size, l.text, l.Size().Width, need, method)
				}
			})
			// a chip at the row's end keeps a margin, as the time does:
			// flush, its edge was under the scroll bar and the window's
			walkVisible(in.list, func(o fyne.CanvasObject) {
				c, ok := o.(*fyne.Container)
				if !ok {
					return
				}
				if _, ok := c.Layout.(*eventRow); !ok {
					return
				}
				_, _, b, tm := rowParts(c.Objects)
				if b.Visible() && !tm.Visible() {
					if end := b.Position().X + b.Size().Width; end > c.Size().Width-theme.Padding() {
						t.Errorf("%v: a row's chip %q ends at %v of %v px, with no margin", size, b.text, end, c.Size().Width)
					}
				}
			})
			for _, m := range methods {
				found := false
				for s := range seen {
					found = found || strings.Contains(s, m)
				}
				if !found {
					t.Errorf("%v: no row on screen names %s (rows: %v)", size, m, seen)
				}
			}
			if size.Width == 1280 {
				if tm := rowOfTitle(in, "ping #19"); tm == nil || !tm.Visible() {
					t.Errorf("%v: the row ping #19 has room for its time but does not show it", size)
				}
			}
		})
	}
}

// rowOfTitle is the time label of the row on screen titled title (nil if
// there is none).
func rowOfTitle(in *inspector, title string) *rowText {
	var tm *rowText
	walkVisible(in.list, func(o fyne.CanvasObject) {
		if c, ok := o.(*fyne.Container); ok {
			if _, ok := c.Layout.(*eventRow); ok && c.Objects[0].(*rowText).text == title {
				tm = c.Objects[3].(*rowText)
			}
		}
	})
	return tm
}

// TestRowTitlesKeepTheMethod: the shorter words of a row's title keep
// its id and its "result" word and cut the method ([…] below is the part
// that may be cut), the round of a multi round-trip request while they
// can (#12).
func TestRowTitlesKeepTheMethod(t *testing.T) {
	for _, c := range []struct {
		e     EventView
		round string
		want  []string
	}{
		{EventView{Kind: "message", Type: "request", Method: "tools/call", Title: "tools/call #7"}, "", []string{"tools/call #7", "[tools/call] #7"}},
		{EventView{Kind: "message", Type: "result", Method: "tools/call", Title: "result #7 · tools/call"}, "", []string{"result #7 · tools/call", "result #7 · [tools/call]"}},
		{EventView{Kind: "message", Type: "request", Method: "tools/call", Title: "tools/call #7"}, "round 2/3", []string{"round 2/3 · tools/call #7", "round 2/3 · [tools/call] #7", "[tools/call] #7"}},
		{EventView{Kind: "message", Type: "notification", Method: "notifications/initialized", Title: "notifications/initialized"}, "", []string{"notifications/initialized", "[notifications/initialized]"}},
		{EventView{Kind: "stderr", Title: "stderr · hello"}, "", []string{"stderr · hello"}},
	} {
		var got []string
		for _, r := range rowTitles(c.e, c.round) {
			s := r.text
			if r.method != "" {
				s = r.head + "[" + r.method + "]" + r.tail
			}
			got = append(got, s)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("rowTitles(%q, %q) = %q, want %q", c.e.Title, c.round, got, c.want)
		}
	}
}
