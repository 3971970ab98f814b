package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// rowTitle is one way to word an event row's title and the width below
// which it is not shown: the whole text where a part of it must not be
// cut ("tools/call #7" is not "tools/call #…"), less where only free
// text after the method may go (a log line), 0 where the title is free
// text throughout (stderr, state) and is cut as before.
type rowTitle struct {
	text string
	keep float32
}

// eventRow lays out one row of the inspector's list: the direction, the
// title, the badge and the time. The method is what tells rows apart, so
// it gets its room first: where the title does not fit beside the badge
// and the time (the inspector at 1024×700 cut "tools/call #7" to
// "tools/c…"), the time goes first (the details show it): on every row
// while the inspector is narrow, else on a row whose title needs its
// room. Then the title drops its id and its "result" word for the method
// alone, then the badge goes (the title's colour still says failed);
// only a method wider than the whole row is cut.
type eventRow struct {
	titles []rowTitle // longest first
}

// rowTry is one way to fill a row: a title, with or without the badge
// and the time beside it.
type rowTry struct {
	t           rowTitle
	badge, time bool
}

// rowTitles are the words of e's row title, longest first: the title the
// list shows (round is the "round 2/3" of a multi round-trip request),
// then for a JSON-RPC message shorter ones that keep the method whole.
func rowTitles(e EventView, round string) []rowTitle {
	full := e.Heading()
	if round != "" {
		full = round + " · " + full
	}
	if e.Kind != "message" || e.Method == "" {
		return []rowTitle{{text: full}}
	}
	if e.Method == "notifications/message" { // the log line after it may be cut
		return []rowTitle{{text: full, keep: rowTextWidth(e.Method + " · …")}}
	}
	var out []rowTitle
	add := func(s string) {
		if len(out) == 0 || out[len(out)-1].text != s {
			out = append(out, rowTitle{text: s, keep: rowTextWidth(s)})
		}
	}
	add(full)
	switch e.Type {
	case "request":
		if round != "" {
			add(round + " · " + e.Method)
		}
	case "result", "error":
		if round != "" {
			add(round + " · " + e.Type + " · " + e.Method)
		}
		add(e.Type + " · " + e.Method)
	}
	add(e.Method)
	return out
}

// timeColumnRoom is the room beside a row's direction the list needs to
// show the time on its rows: the time, the longest method of every
// session's handshake whole and a duration's badge.
func timeColumnRoom(timeWidth float32) float32 {
	pad := theme.Padding()
	badge := fyne.MeasureText("999ms", theme.CaptionTextSize(), fyne.TextStyle{}).Width + 10 // as badgeRenderer
	return rowTextWidth("notifications/initialized") + pad + badge + pad + timeWidth
}

// rowTextWidth is how wide a row's title label is with s whole.
func rowTextWidth(s string) float32 {
	return fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding()
}

// rowParts are a row's objects: title, direction, badge, time.
func rowParts(objs []fyne.CanvasObject) (title, dir *widget.Label, b *badge, tm *widget.Label) {
	return objs[0].(*widget.Label), objs[1].(*widget.Label), objs[2].(*badge), objs[3].(*widget.Label)
}

// MinSize implements fyne.Layout: the direction and a cut title wide, so
// that a row never widens the inspector.
func (r *eventRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	title, dir, b, tm := rowParts(objs)
	d, t := dir.MinSize(), title.MinSize()
	h := max(d.Height, t.Height, b.MinSize().Height, tm.MinSize().Height)
	return fyne.NewSize(d.Width+theme.Padding()+t.Width, h)
}

// Layout implements fyne.Layout.
func (r *eventRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	title, dir, b, tm := rowParts(objs)
	pad := theme.Padding()
	d := dir.MinSize()
	dir.Move(fyne.NewPos(0, (size.Height-d.Height)/2))
	dir.Resize(fyne.NewSize(d.Width, size.Height))
	x := d.Width + pad
	room := size.Width - x
	bw := b.MinSize().Width
	tw := tm.MinSize().Width
	titles := r.titles
	if len(titles) == 0 {
		titles = []rowTitle{{text: title.Text}}
	}
	// the title and what stands beside it, most first; the time is a
	// column of every row or of none (rows with and without it, one
	// after the other, read as ragged)
	var tries []rowTry
	if room >= timeColumnRoom(tw) {
		tries = append(tries, rowTry{titles[0], true, true})
	}
	for _, t := range titles {
		tries = append(tries, rowTry{t, true, false})
	}
	for _, t := range titles {
		tries = append(tries, rowTry{t, false, false})
	}
	pick := tries[len(tries)-1] // nothing fits: the method alone, cut
	for _, try := range tries {
		need := try.t.keep
		if try.badge && bw > 0 {
			need += pad + bw
		}
		if try.time {
			need += pad + tw
		}
		if need <= room {
			pick = try
			break
		}
	}
	setText(title, pick.t.text)
	right := size.Width
	setVisible(tm, pick.time)
	if pick.time {
		right -= tw
		tm.Move(fyne.NewPos(right, 0))
		tm.Resize(fyne.NewSize(tw, size.Height))
		right -= pad
	}
	setVisible(b, pick.badge && bw > 0)
	if pick.badge && bw > 0 {
		bs := b.MinSize()
		right -= bs.Width
		b.Move(fyne.NewPos(right, (size.Height-bs.Height)/2))
		b.Resize(bs)
		right -= pad
	}
	title.Move(fyne.NewPos(x, 0))
	title.Resize(fyne.NewSize(max(right-x, 0), size.Height))
}
