package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// middleName shows a name whole where it fits, else its head and its tail
// around "…" (server names differ at either end: filesystem-…-demo). With
// the pointer over a cut name, the name is drawn in the caption size in
// the same place (the row keeps its height), whole where that fits: a
// popup would swallow the click that selects the card.
type middleName struct {
	widget.BaseWidget
	label   *widget.Label
	full    string
	size    fyne.ThemeSizeName // the label's own size
	hovered bool
	height  float32 // the row's height at the label's own size

	// the runes at the head and at the tail of full that a sibling's
	// name has too (filesystem-default beside everything-default): a cut
	// spends its room on the rest, which tells the names apart
	sharedHead, sharedTail int
}

var _ desktop.Hoverable = (*middleName)(nil)

// newMiddleName fits label's text (its style and size kept) to the width
// it gets.
func newMiddleName(label *widget.Label) *middleName {
	label.Truncation = fyne.TextTruncateClip
	m := &middleName{label: label, full: label.Text, size: label.SizeName}
	m.ExtendBaseWidget(m)
	return m
}

// SetFull sets the whole name.
func (m *middleName) SetFull(s string) {
	if s == m.full {
		return
	}
	m.full = s
	m.fit(m.Size().Width)
}

// SetSiblings tells the name which names are shown beside it (its own
// among them or not), so that a cut keeps what tells them apart.
func (m *middleName) SetSiblings(names []string) {
	head, tail := sharedEnds(m.full, names)
	if head == m.sharedHead && tail == m.sharedTail {
		return
	}
	m.sharedHead, m.sharedTail = head, tail
	m.fit(m.Size().Width)
}

// CreateRenderer implements fyne.Widget.
func (m *middleName) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.New(&middleLayout{m: m}, m.label))
}

// cut reports whether the name is shown shortened.
func (m *middleName) cut() bool { return m.label.Text != m.full }

func (m *middleName) measure(s string) float32 {
	size := theme.TextSize()
	if m.label.SizeName != "" {
		size = theme.Size(m.label.SizeName)
	}
	return fyne.MeasureText(s, size, m.label.TextStyle).Width
}

func (m *middleName) fit(width float32) {
	text := distinctFit(m.full, m.sharedHead, m.sharedTail, width-2*theme.InnerPadding(), m.measure)
	if text != m.label.Text {
		m.label.SetText(text)
	}
}

// MouseIn implements desktop.Hoverable.
func (m *middleName) MouseIn(*desktop.MouseEvent) {
	if !m.cut() {
		return
	}
	m.hovered = true
	m.label.SizeName = theme.SizeNameCaptionText
	m.fit(m.Size().Width)
	m.label.Refresh()
}

// MouseMoved implements desktop.Hoverable.
func (m *middleName) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable.
func (m *middleName) MouseOut() {
	if !m.hovered {
		return
	}
	m.hovered = false
	m.label.SizeName = m.size
	m.fit(m.Size().Width)
	m.label.Refresh()
}

// middleLayout gives the label the whole width and fits the name to it.
type middleLayout struct{ m *middleName }

// MinSize implements fyne.Layout: room for a few characters and "…".
func (l *middleLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	if !l.m.hovered {
		l.m.height = l.m.label.MinSize().Height
	}
	return fyne.NewSize(l.m.measure("Mm…m")+2*theme.InnerPadding(), l.m.height)
}

// Layout implements fyne.Layout.
func (l *middleLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.m.fit(size.Width)
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// middleFit returns s, or the longest head and tail of s around "…" that
// measure at most width together (the head gets the extra rune).
func middleFit(s string, width float32, measure func(string) float32) string {
	return distinctFit(s, 0, 0, width, measure)
}

// distinctFit is middleFit for a name whose first sharedHead and last
// sharedTail runes other names shown beside it have too. Of the cuts that
// keep as many runes, it takes one that shows the most of the rest. Of
// those, with only the tail shared it keeps the most head, with only the
// head shared the most tail ("filesystem-serv…" beside "everything-serv…",
// where an even split read "filesyst…default", and a cut that showed the
// shared tail's end read as "filesystem…fault"); else the one nearest an
// even split.
func distinctFit(s string, sharedHead, sharedTail int, width float32, measure func(string) float32) string {
	if width <= 0 || measure(s) <= width {
		return s
	}
	r := []rune(s)
	from, to := sharedHead, len(r)-sharedTail // the runes that differ
	if from >= to {                           // the name is another's head or tail: nothing to favour
		from, to = 0, len(r)
	}
	overlap := func(a, b int) int { return max(0, min(b, to)-max(a, from)) }
	cut := func(keep int) string {
		aim := (keep + 1) / 2 // the head an even split keeps
		switch {
		case from == 0 && to < len(r):
			aim = keep
		case from > 0 && to == len(r):
			aim = 0
		}
		best, bestShown, bestOff := aim, -1, len(r)
		for head := 0; head <= keep; head++ {
			shown := overlap(0, head) + overlap(len(r)-(keep-head), len(r))
			off := head - aim
			if off < 0 {
				off = -off
			}
			if shown > bestShown || shown == bestShown && off < bestOff {
				best, bestShown, bestOff = head, shown, off
			}
		}
		return string(r[:best]) + "…" + string(r[len(r)-(keep-best):])
	}
	lo, hi := 0, len(r)-1 // the most runes to keep
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if measure(cut(mid)) <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return cut(lo)
}

// sharedEnds returns how many runes at its head and at its tail name has in
// common with one of the others (name itself among them is skipped). Fewer
// than three are taken for chance (slack and sentry) and count as none.
func sharedEnds(name string, others []string) (head, tail int) {
	r := []rune(name)
	for _, o := range others {
		if o == name {
			continue
		}
		q := []rune(o)
		h := 0
		for h < len(r) && h < len(q) && r[h] == q[h] {
			h++
		}
		t := 0
		for t < len(r) && t < len(q) && r[len(r)-1-t] == q[len(q)-1-t] {
			t++
		}
		head, tail = max(head, h), max(tail, t)
	}
	if head < 3 {
		head = 0
	}
	if tail < 3 {
		tail = 0
	}
	return head, tail
}
