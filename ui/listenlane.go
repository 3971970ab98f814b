package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// listenLane is the inspector's lane of subscriptions/listen streams (the
// modern protocol's stream for notifications outside requests): one row
// per stream with what became of it — open, acknowledged, refused, closed
// by the server, closed by Spyglass, lost with the connection — and
// "reopened" on a stream that replaced one the server closed. It is a view
// over the record (events.ListenLane), hidden while the server shown has
// no stream.
type listenLane struct {
	in      *inspector
	obj     *widget.Accordion
	item    *widget.AccordionItem
	rows    *fyne.Container
	server  string
	cleared uint64
	last    uint64 // the newest event looked at
	streams []events.ListenStream
}

func newListenLane(in *inspector) *listenLane {
	l := &listenLane{in: in, rows: container.NewVBox()}
	l.item = widget.NewAccordionItem("Listen streams", l.rows)
	l.obj = widget.NewAccordion(l.item)
	l.obj.Hide()
	return l
}

// refresh reads the lane again when the server shown, its clear, or a
// listen-related event changed since the last time (UI thread).
func (l *listenLane) refresh() {
	in := l.in
	changed := in.server != l.server || in.cleared[in.server] != l.cleared
	// in.listen holds the listen-related events of each server, by Seq.
	seqs := in.listen[in.server]
	if n := len(seqs); n > 0 && seqs[n-1] > l.last {
		changed = changed || seqs[n-1] > in.cleared[in.server]
		l.last = seqs[n-1]
	}
	if !changed {
		return
	}
	l.server, l.cleared = in.server, in.cleared[in.server]
	var evs []events.Event
	for _, e := range in.eventsOf(seqs) {
		if in.counted(e) {
			evs = append(evs, e.Event)
		}
	}
	l.streams = events.ListenLane(evs, "")
	l.draw()
}

// listenRelated reports whether e can change a listen stream's state.
func listenRelated(e events.Event) bool {
	switch e.Method {
	case events.MethodListen, events.MethodListenAcknowledged, "notifications/cancelled",
		"notifications/tools/list_changed", "notifications/prompts/list_changed",
		"notifications/resources/list_changed", "notifications/resources/updated":
		return true
	}
	return e.Kind == events.KindState
}

func (l *listenLane) draw() {
	if len(l.streams) == 0 {
		l.obj.Hide()
		return
	}
	last := l.streams[len(l.streams)-1]
	l.item.Title = fmt.Sprintf("Listen streams · %d · now %s", len(l.streams), last.State)
	var objs []fyne.CanvasObject
	for _, s := range l.streams {
		objs = append(objs, l.row(s))
	}
	l.rows.Objects = objs
	l.rows.Refresh()
	l.obj.Refresh()
	l.obj.Show()
}

// row is one stream: its state badge, what it carried, and a tap that
// selects its request in the inspector.
func (l *listenLane) row(s events.ListenStream) fyne.CanvasObject {
	level := map[events.ListenState]string{
		events.ListenOpen: "primary", events.ListenAcknowledged: "ok", events.ListenRefused: "error",
		events.ListenServerClosed: "warning", events.ListenClientClosed: "", events.ListenLost: "warning",
	}[s.State]
	state := string(s.State)
	if s.State == events.ListenClientClosed {
		state = "closed by Spyglass"
	}
	b := newBadge(state, level)
	parts := []string{"#" + s.ID + " " + s.Opened.Local().Format("15:04:05")}
	if s.Reopened {
		parts = append(parts, "reopened")
	}
	if w := listenWhat(s); w != "" {
		parts = append(parts, w)
	}
	if len(s.Left) > 0 {
		parts = append(parts, "not taken: "+strings.Join(s.Left, ", "))
	}
	if s.Notifications > 0 {
		parts = append(parts, plural(s.Notifications, "notification"))
	}
	if s.Error != "" {
		parts = append(parts, s.Error)
	}
	lbl := widget.NewLabel(strings.Join(parts, " · "))
	lbl.SizeName = theme.SizeNameCaptionText
	lbl.Wrapping = fyne.TextWrapWord
	seq := s.Seq
	open := widget.NewButtonWithIcon("", arrowIcon(theme.IconNameNavigateNext), func() { l.in.onSelect(seq) })
	open.Importance = widget.LowImportance
	return container.NewBorder(nil, nil, container.NewCenter(b), open, lbl)
}

// listenWhat says what the server took ("tools, resources list_changed;
// 2 resources"), or what was asked before an acknowledgement.
func listenWhat(s events.ListenStream) string {
	raw := s.Took
	if len(raw) == 0 {
		raw = s.Asked
	}
	f := struct {
		Tools     bool     `json:"toolsListChanged"`
		Prompts   bool     `json:"promptsListChanged"`
		Resources bool     `json:"resourcesListChanged"`
		URIs      []string `json:"resourceSubscriptions"`
	}{}
	if err := json.Unmarshal(raw, &f); err != nil {
		return ""
	}
	var kinds []string
	for _, k := range []struct {
		on   bool
		name string
	}{{f.Tools, "tools"}, {f.Prompts, "prompts"}, {f.Resources, "resources"}} {
		if k.on {
			kinds = append(kinds, k.name)
		}
	}
	var out []string
	if len(kinds) > 0 {
		out = append(out, strings.Join(kinds, ", ")+" list_changed")
	}
	if n := len(f.URIs); n == 1 {
		out = append(out, f.URIs[0])
	} else if n > 1 {
		out = append(out, fmt.Sprintf("%d resources", n))
	}
	return strings.Join(out, "; ")
}
