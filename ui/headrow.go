package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// headRow is a panel's header: a title at the start and a row of
// actions at the end. When the actions with their words do not fit
// beside the title, the same actions are shown as icons only, and when
// even those do not fit, the title goes. Its minimum width is the icons'
// alone, so a split's divider — not the header's words — decides how
// wide the panel is (at 1024×700 the inspector's "Inspector · Pause ·
// Clear · Trace" took ~330 px and left the screens ~430).
type headRow struct{}

// newHeadRow lays out title, full (the actions with words) and icons
// (the same actions, icons only) with headRow.
func newHeadRow(title, full, icons fyne.CanvasObject) *fyne.Container {
	return container.New(headRow{}, title, full, icons)
}

// MinSize implements fyne.Layout: the icons' row.
func (headRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := objs[2].MinSize()
	s.Height = max(s.Height, objs[0].MinSize().Height, objs[1].MinSize().Height)
	return s
}

// placeActions shows the actions with words (full) when they fit beside
// lead of the row's width, else as icons, at the row's right end, and
// returns the width they take. The header row and the detail's facts line
// share it.
func placeActions(full, icons fyne.CanvasObject, lead float32, size fyne.Size) float32 {
	acts, hide := full, icons
	if lead+full.MinSize().Width > size.Width {
		acts, hide = icons, full
	}
	setVisible(hide, false)
	setVisible(acts, true)
	aw := acts.MinSize().Width
	acts.Move(fyne.NewPos(size.Width-aw, 0))
	acts.Resize(fyne.NewSize(aw, size.Height))
	return aw
}

// Layout implements fyne.Layout.
func (headRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	title, full, icons := objs[0], objs[1], objs[2]
	pad := theme.Padding()
	tw := title.MinSize().Width
	aw := placeActions(full, icons, tw+pad, size)
	setVisible(title, tw+pad+aw <= size.Width)
	title.Move(fyne.NewPos(0, 0))
	title.Resize(fyne.NewSize(max(size.Width-aw-pad, 0), size.Height))
}

// controlsRow is a row that starts with a control that always shows (a
// server card's toggle with its state's word), then a line of text, and
// ends with actions: with their words where they fit beside the control,
// else as icons (placeActions). The text takes what is left and goes
// when nothing is. Its minimum width is the control's beside the icons,
// so a card that shows Cancel while it connects does not widen the list
// and move its divider (#12).
type controlsRow struct{}

// newControlsRow lays out lead, text, full (the actions with words) and
// icons (the same actions, icons only) with controlsRow.
func newControlsRow(lead, text, full, icons fyne.CanvasObject) *fyne.Container {
	return container.New(controlsRow{}, lead, text, full, icons)
}

// MinSize implements fyne.Layout.
func (controlsRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	lead, icons := objs[0].MinSize(), objs[3].MinSize()
	h := max(lead.Height, objs[1].MinSize().Height, tallest(objs[2]), tallest(objs[3]))
	return fyne.NewSize(lead.Width+theme.Padding()+icons.Width, h)
}

// tallest is the height of o's tallest object, shown or not, so that a
// row's height does not change when an action in it comes and goes.
func tallest(o fyne.CanvasObject) float32 {
	c, ok := o.(*fyne.Container)
	if !ok {
		return o.MinSize().Height
	}
	var h float32
	for _, x := range c.Objects {
		h = max(h, x.MinSize().Height)
	}
	return h
}

// Layout implements fyne.Layout.
func (controlsRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	lead, text := objs[0], objs[1]
	pad := theme.Padding()
	lw := lead.MinSize().Width
	lead.Move(fyne.NewPos(0, 0))
	lead.Resize(fyne.NewSize(lw, size.Height))
	aw := placeActions(objs[2], objs[3], lw+pad, size)
	x := lw + pad
	tw := size.Width - aw - pad - x
	if aw == 0 {
		tw = size.Width - x
	}
	setVisible(text, tw >= text.MinSize().Width)
	text.Move(fyne.NewPos(x, 0))
	text.Resize(fyne.NewSize(max(tw, 0), size.Height))
}

// setVisible shows or hides o, touching it only when that changes.
func setVisible(o fyne.CanvasObject, v bool) {
	if o.Visible() == v {
		return
	}
	if v {
		o.Show()
	} else {
		o.Hide()
	}
}

// actionPair is one header action drawn twice for headRow: with its
// word and as an icon only; both run the same function.
type actionPair struct{ full, icon *widget.Button }

func newActionPair(label string, icon fyne.Resource, f func()) actionPair {
	p := actionPair{widget.NewButtonWithIcon(label, icon, f), widget.NewButtonWithIcon("", icon, f)}
	iconNames[p.icon] = label
	p.full.Importance = widget.LowImportance
	p.icon.Importance = widget.LowImportance
	return p
}

// forget drops the icon's word from iconNames, for an action whose
// buttons are gone (a removed server's card): the map would keep them,
// and through their functions what they act on.
func (p actionPair) forget() { delete(iconNames, p.icon) }

// show shows or hides the action in both forms.
func (p actionPair) show(v bool) {
	setVisible(p.full, v)
	setVisible(p.icon, v)
}

// set changes the action's word and icon in both forms.
func (p actionPair) set(label string, icon fyne.Resource) {
	iconNames[p.icon] = label
	p.full.SetText(label)
	p.full.SetIcon(icon)
	p.icon.SetIcon(icon)
}

// iconNames holds the word of each icon-only action button (UI thread
// only): Fyne 2.7 has neither tooltips nor accessible names, so this is
// where tests and tools find which action an icon is.
var iconNames = map[*widget.Button]string{}

// IconButtonName is the word of an icon-only action button ("Pause",
// "Clear", "Trace", "Replay"…), or "" for any other button. UI thread only.
func IconButtonName(b *widget.Button) string { return iconNames[b] }

// nameRow is a payload side's line: its name, then Raw, Expand all and
// Copy at the end. When the name does not fit whole beside them, it
// gives way to a shorter one ("Request · id 3 · 12ms", then "Request · id
// 3"), then Expand all loses its word (an icon twin is shown), then the
// name is the shortest ("Request"): the name tells the two stacked sides
// apart, the badge, the word Expand all and the id (all in the detail's
// head too) do not. Its minimum is the shortest name beside the icons,
// so the pane's words never widen the inspector. A third object, when a
// stacked pair adds one (its tap area), is laid over the name.
type nameRow struct {
	name       *widget.Label
	names      []string       // longest first
	full, icon *widget.Button // Expand all with its word, and its icon twin
}

// newNameRow lays out name and acts (an HBox holding full and icon);
// names are the name's forms, longest first.
func newNameRow(name *widget.Label, names []string, acts *fyne.Container, full, icon *widget.Button) *fyne.Container {
	return container.New(&nameRow{name, names, full, icon}, name, acts)
}

// textWidth is how wide the name label must be to show s whole.
func (r *nameRow) textWidth(s string) float32 {
	return fyne.MeasureText(s, theme.TextSize(), r.name.TextStyle).Width + 2*theme.InnerPadding()
}

// MinSize implements fyne.Layout: the shortest name beside the actions
// with Expand all as an icon.
func (r *nameRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	a := objs[1].MinSize()
	if r.full.Visible() {
		a.Width += r.icon.MinSize().Width - r.full.MinSize().Width
	}
	return fyne.NewSize(a.Width+theme.Padding()+r.textWidth(r.names[len(r.names)-1]), max(a.Height, objs[0].MinSize().Height))
}

// Layout implements fyne.Layout.
func (r *nameRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	name, acts := objs[0], objs[1]
	pad := theme.Padding()
	aw := acts.MinSize().Width
	if r.full.Visible() || r.icon.Visible() { // the tree shows Expand all (not for a huge document)
		if r.icon.Visible() {
			aw += r.full.MinSize().Width - r.icon.MinSize().Width
		}
		// the word stays while a name with the id fits beside it (all
		// names but the shortest): the badge goes first, then the word,
		// so the two stacked sides mostly look the same
		word := false
		for _, n := range r.names[:max(1, len(r.names)-1)] {
			word = word || r.textWidth(n)+pad+aw <= size.Width
		}
		setVisible(r.full, word)
		setVisible(r.icon, !word)
		aw = acts.MinSize().Width
	}
	text := r.names[len(r.names)-1]
	for _, n := range r.names {
		if r.textWidth(n)+pad+aw <= size.Width {
			text = n
			break
		}
	}
	setText(r.name, text)
	acts.Move(fyne.NewPos(size.Width-aw, 0))
	acts.Resize(fyne.NewSize(aw, size.Height))
	name.Move(fyne.NewPos(0, 0))
	name.Resize(fyne.NewSize(max(size.Width-aw-pad, 0), size.Height))
	for _, o := range objs[2:] { // over the name, not over the actions
		o.Move(name.Position())
		o.Resize(name.Size())
	}
}

// metaRow is the event detail's line under its title: the event's facts
// (one line, cut with an ellipsis when narrow) at the start and its
// actions at the end, with their words when those fit beside the whole
// facts, else as icons. The facts on two lines and the actions on a line
// of their own took ~90 px at 1024×700 and left a stacked request and
// response two rows each.
type metaRow struct{ meta *widget.Label }

// newMetaRow lays out meta, full (the actions with words) and icons (the
// same actions, icons only) with metaRow.
func newMetaRow(meta *widget.Label, full, icons fyne.CanvasObject) *fyne.Container {
	return container.New(&metaRow{meta}, meta, full, icons)
}

// MinSize implements fyne.Layout: the icons beside the shortest facts,
// as tall as the taller of the two.
func (r *metaRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m, a := objs[0].MinSize(), objs[2].MinSize()
	return fyne.NewSize(m.Width+theme.Padding()+a.Width, max(m.Height, a.Height, objs[1].MinSize().Height))
}

// Layout implements fyne.Layout.
func (r *metaRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	meta, full, icons := objs[0], objs[1], objs[2]
	pad := theme.Padding()
	tw := fyne.MeasureText(r.meta.Text, theme.Size(r.meta.SizeName), r.meta.TextStyle).Width + 2*theme.InnerPadding()
	aw := placeActions(full, icons, tw+pad, size)
	if aw > 0 {
		aw += pad
	}
	mh := meta.MinSize().Height
	meta.Move(fyne.NewPos(0, (size.Height-mh)/2))
	meta.Resize(fyne.NewSize(max(size.Width-aw, 0), mh))
}

// detailColumn stacks the event detail's head lines and its tabs with no
// gap between them (each line's own inner padding is space enough) and
// gives the last object, the tabs, the height left: VBox's and Border's
// gaps took 8 px a stacked pair's trees needed at 1024×700.
type detailColumn struct{}

// MinSize implements fyne.Layout: the visible objects' heights, summed.
func (detailColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if o.Visible() {
			m := o.MinSize()
			s = fyne.NewSize(max(s.Width, m.Width), s.Height+m.Height)
		}
	}
	return s
}

// Layout implements fyne.Layout.
func (detailColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var y float32
	for i, o := range objs {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		if i == len(objs)-1 {
			h = max(size.Height-y, h)
		}
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}
