package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// rowTitle is one way to word an event row's title and the width below
// which it is not shown: the whole text where a part of it must not be
// cut ("tools/call #7" is not "tools/call #…"), less where only free
// text after the method may go (a log line), 0 where the title is free
// text throughout (stderr, state) and is cut as before.
type rowTitle struct {
	text string
	keep float32
	// method, when set, is the part of text that may be cut: text is
	// head + method + tail, and where it does not fit the method is cut
	// in its middle around "…" while the rest (the id, "result") stays
	// whole; keep is then the width with a few runes of the method.
	method, head, tail string
}

// rowMethodKeep is how many runes of a method a cut title keeps at
// least before the row gives up its badge ("res…ist").
const rowMethodKeep = 6

// fit is the title's text for a label width wide: the text, or with the
// method cut in its middle so that the rest fits whole.
func (t rowTitle) fit(width float32) string {
	if t.method == "" || rowTextWidth(t.text) <= width {
		return t.text
	}
	measure := func(s string) float32 { return fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width }
	room := width - rowTextWidth(t.head+t.tail)
	if room <= measure("…") {
		return t.head + "…" + t.tail
	}
	return t.head + middleFit(t.method, room, measure) + t.tail
}

// eventRow lays out one row of the inspector's list: the direction, the
// title, the badge and the time. The method and the id are what tell
// rows apart, so they get their room first: where the title does not fit
// beside the badge and the time (the inspector at 1024×700 cut
// "tools/call #7" to "tools/c…"), the time goes first (the details show
// it): on every row while the inspector is narrow, else on a row whose
// title needs its room. Then the method is cut in its middle, the id and
// the "result" word kept ("result #6 · resources/t…es/list": a row that
// lost its "#6" could no longer be matched with its request by eye), then
// the badge goes (the title's colour still says failed).
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
// then for a JSON-RPC message the same words with the method cut, and
// without the round.
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
	out := []rowTitle{{text: full, keep: rowTextWidth(full)}}
	i := strings.LastIndex(full, e.Method)
	if i < 0 {
		return out
	}
	cut := func(head, tail string) rowTitle {
		least := e.Method
		if r := []rune(e.Method); len(r) > rowMethodKeep+1 {
			least = string(r[:rowMethodKeep/2]) + "…" + string(r[len(r)-rowMethodKeep/2:])
		}
		return rowTitle{text: head + e.Method + tail, keep: rowTextWidth(head + least + tail), method: e.Method, head: head, tail: tail}
	}
	head, tail := full[:i], full[i+len(e.Method):]
	out = append(out, cut(head, tail))
	if round != "" && strings.HasPrefix(head, round+" · ") {
		out = append(out, cut(strings.TrimPrefix(head, round+" · "), tail))
	}
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
func rowParts(objs []fyne.CanvasObject) (title, dir *rowText, b *badge, tm *rowText) {
	return objs[0].(*rowText), objs[1].(*rowText), objs[2].(*badge), objs[3].(*rowText)
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
		titles = []rowTitle{{text: title.text}}
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
	pick := tries[len(tries)-1] // nothing fits: the method cut to what fits
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
		if !pick.time {
			// a margin at the end, as the time's own padding gives it
			// (flush with the row, the chip's edge was under the list's
			// scroll bar and the window's edge); the title's own padding
			// is the gap before it
			right -= pad
		}
		bs := b.MinSize()
		right -= bs.Width
		b.Move(fyne.NewPos(right, (size.Height-bs.Height)/2))
		b.Resize(bs)
		if pick.time {
			right -= pad
		}
	}
	title.Move(fyne.NewPos(x, 0))
	title.Resize(fyne.NewSize(max(right-x, 0), size.Height))
	title.SetText(pick.t.fit(max(right-x, 0)))
}
