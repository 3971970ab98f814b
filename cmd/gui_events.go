package cmd

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui"
)

// guiEvents adapts the event log to ui.EventSource.
type guiEvents struct {
	log *events.Log
	b   *guiBackend
	// cleared, when set (the benchmark mode), is called once a
	// ClearEvents has finished.
	cleared atomic.Pointer[func()]
}

// Subscribe implements ui.EventSource.
func (g *guiEvents) Subscribe(fn func(ui.EventBatch)) func() {
	return g.log.Subscribe(func(b events.Batch) {
		out := ui.EventBatch{Dropped: b.Dropped}
		for _, e := range b.Events {
			out.Events = append(out.Events, toEventView(e))
		}
		for _, e := range b.Updated {
			out.Updated = append(out.Updated, toEventView(e))
		}
		fn(out)
	})
}

// SubscribeWhere implements ui.FilteredSource: only the events keep
// keeps are made into views.
func (g *guiEvents) SubscribeWhere(keep func(*events.Event) bool, fn func(ui.EventBatch)) func() {
	return g.log.Subscribe(func(b events.Batch) {
		out := ui.EventBatch{Dropped: b.Dropped}
		for i := range b.Events {
			if keep(&b.Events[i]) {
				out.Events = append(out.Events, toEventView(b.Events[i]))
			}
		}
		for i := range b.Updated {
			if keep(&b.Updated[i]) {
				out.Updated = append(out.Updated, toEventView(b.Updated[i]))
			}
		}
		if len(out.Events) > 0 || len(out.Updated) > 0 || out.Dropped > 0 {
			fn(out)
		}
	})
}

// After implements ui.EventSource.
func (g *guiEvents) After(seq uint64, max int) ([]ui.EventView, error) {
	evs, err := g.log.After(seq, max)
	out := make([]ui.EventView, 0, len(evs))
	for _, e := range evs {
		out = append(out, toEventView(e))
	}
	return out, err
}

// Get implements ui.EventSource.
func (g *guiEvents) Get(seq uint64) (ui.EventView, bool) {
	e, ok := g.log.Get(seq)
	if !ok {
		return ui.EventView{}, false
	}
	return toEventView(e), true
}

// Search implements ui.EventSource with core's search, which reads
// sealed and spilled events without decoding them.
func (g *guiEvents) Search(ctx context.Context, q ui.EventQuery, found func([]uint64)) (uint64, error) {
	return g.log.Search(ctx, events.Query{Text: q.Text, Conn: q.Server, Category: events.Category(q.Category), After: q.After}, found)
}

// ClearEvents implements ui.EventClearer: the log drops the server's
// events up to upTo and keeps every other one, and the server's newer
// ones, so an event arriving while the window clears is never lost; the
// server's HAR recorder drops what it holds of the same traffic.
func (g *guiEvents) ClearEvents(server string, upTo uint64) bool {
	g.log.ClearConn(server, upTo)
	if g.b != nil {
		g.b.forgetHAR(server)
	}
	if f := g.cleared.Load(); f != nil {
		(*f)()
	}
	return true
}

// SetEventMemory implements the window's memory setting (Settings →
// Event log memory…): the log's bound.
func (g *guiEvents) SetEventMemory(bytes int64) { g.log.SetMaxBytes(bytes) }

// WriteTrace writes the trace file of one server (every server when
// server is "").
func (g *guiEvents) WriteTrace(w io.Writer, server string) error {
	meta := events.TraceMeta{App: "spyglass", Created: time.Now()}
	if server != "" {
		meta.Conns = []events.ConnInfo{{Conn: server}}
	}
	return g.log.WriteTraceOf(w, meta, server)
}

// toEventView converts an event for the inspector.
func toEventView(e events.Event) ui.EventView {
	v := ui.EventView{
		Seq: e.Seq, Time: e.Time, Server: e.Conn, Kind: string(e.Kind), Dir: string(e.Dir),
		Type: string(e.Type), ID: e.ID, Method: e.Method, Badge: e.Badge(),
		Raw: e.Raw, Text: e.Text, Run: e.Run, Pair: e.Pair, Size: e.Size, Event: e,
	}
	if e.Kind == events.KindHTTP && e.HTTP != nil && v.Text == "" {
		v.Text = fmt.Sprintf("%s %s → %d %s", e.HTTP.Method, e.HTTP.URL, e.HTTP.Status, e.HTTP.Err)
	}
	for _, c := range e.Categories() {
		v.Categories = append(v.Categories, string(c))
	}
	if o := e.Outcome; o != nil {
		v.Latency = o.Latency
		switch {
		case o.State == events.OK && o.ToolError:
			v.BadgeLevel = "error" // answered, and the tool says it failed
		case o.State == events.OK:
			v.BadgeLevel = "ok"
		case o.State == events.Failed || o.State == events.TimedOut || o.State == events.NoResponse:
			v.BadgeLevel = "error"
		case o.State == events.Cancelled || o.State == events.CancelledLate:
			v.BadgeLevel = "warning"
		}
	}
	switch {
	case e.Kind == events.KindTool && (e.ErrorClass == "cancelled" || e.ErrorClass == "declined"):
		v.BadgeLevel = "warning"
	case e.Kind == events.KindTool && e.ErrorClass != "":
		v.BadgeLevel = "error" // the attempt failed, the tool's own isError included
	case e.Kind == events.KindTool && e.Tool != nil && e.Tool.Status == "ok":
		v.BadgeLevel = "ok"
	case e.ToolError():
		v.BadgeLevel = "error" // a result, but the tool says it failed (isError)
	}
	if e.Kind == events.KindTool {
		a := &ui.AttemptView{ErrorClass: e.ErrorClass, OutcomeUnknown: e.OutcomeUnknown}
		if e.Lineage != nil {
			a.Lineage, a.Attempt = e.Lineage.ID, e.Lineage.Attempt
		}
		if e.Tool != nil {
			a.MayHaveRunTwice, a.SameCallAgain = e.Tool.MayHaveRunTwice, e.Tool.SameCallAgain
			a.Idempotent = e.Tool.Idempotent && !e.Tool.ReadOnly
		}
		v.Attempt = a
	}
	return v
}
