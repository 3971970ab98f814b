package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/redact"
	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// historyScreen is the History of one server: every call a person made,
// newest first, with the server's own requests it triggered nested under
// it, each with [Replay] and [Edit and replay]. It is a view over the
// window's event log (EventSource), never a store of its own: a call is
// its request event, and what nests under it shares its run.
type historyScreen struct {
	ss      *serverScreens
	calls   []*historyCall // oldest first; drawn newest first
	bySeq   map[uint64]*EventView
	byRun   map[string]*historyCall
	box     *fyne.Container
	replay  *widget.Label // the last replay's outcome
	empty   *widget.Label
	lastSeq uint64
	// stored are the calls of this session already kept in the
	// CallStore (by request Seq); first maps a replay's request to the
	// first run it repeats; differs holds the paths where a replay's
	// result differs from its first run's.
	stored  map[uint64]bool
	first   map[uint64]uint64
	differs map[uint64][]string
	// pastNewest is the time of the newest stored call: calls up to it
	// are stored already (a reconnect in the same window sees them again
	// in the log).
	pastNewest time.Time
	// later redraws at most once per redrawInterval; rows are the rows
	// drawn last, by call, kept while their text stays the same (a batch
	// relays out only the rows that changed); redraws counts the redraws
	// (tests).
	later   *coalescer
	started time.Time // when the screen was made: calls stored later are this session's
	rows    map[*historyCall]historyRow
	redraws int
	// view is the screen's content, told when its tab shows it again;
	// callOf finds the call of a request or nested Seq; dirty holds the
	// calls whose row may read otherwise since it was drawn (only their
	// text is made again); stale is set when a redraw was left undone
	// because the screen was not shown (#17: ten calls a second redrew
	// every row of a hidden History).
	view   *shownView
	callOf map[uint64]*historyCall
	dirty  map[*historyCall]bool
	stale  bool
}

// shownView holds a screen's content and is told when its tab shows it
// (AppTabs calls Show on the selected content each time it lays out).
type shownView struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onShow  func()
}

func newShownView(content fyne.CanvasObject, onShow func()) *shownView {
	v := &shownView{content: content, onShow: onShow}
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer draws the content.
func (v *shownView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.content) }

// Show shows the view and tells its screen.
func (v *shownView) Show() {
	v.BaseWidget.Show()
	v.onShow()
}

// historyRow is a call's row as drawn and the text it was drawn from.
type historyRow struct {
	key string
	obj fyne.CanvasObject
}

// historyCall is one person's request and the server requests of its
// run, or (past set) a call of an earlier session read from the
// CallStore, of which only the request and its outcome are known.
type historyCall struct {
	req    EventView
	nested []EventView
	past   *HistoryEntry
	title  string // the method and the tool, prompt or resource it names
	// kept: a call of this session read back from the CallStore after
	// the inspector's Clear (not badged as of an earlier session)
	kept bool
}

// CallStore keeps the calls a person made (tools/call, prompts/get,
// resources/read, raw requests), per server, across restarts, with
// secrets masked and a bounded count; the History shows them after a
// restart marked as from an earlier session. A Backend that does not
// implement it keeps the History for the window's life only.
type CallStore interface {
	// Calls returns the server's stored calls, newest first.
	Calls(server string) ([]HistoryEntry, error)
	// AddCall stores one call once its outcome is known.
	AddCall(server string, e HistoryEntry) error
}

// serverRequests are the server's own requests that nest under a call.
var serverRequests = map[string]bool{"sampling/createMessage": true, "elicitation/create": true, "roots/list": true}

// personMethod reports whether an outgoing request is one a person makes
// (tools/call, prompts/get, resources/read, a raw request of the tester),
// not one the window sends by itself (handshake, lists, pings,
// completions as one types).
func personMethod(m string) bool {
	switch m {
	case "initialize", "server/discover", "ping", "completion/complete", "logging/setLevel":
		return false
	}
	return !strings.HasSuffix(m, "/list")
}

func (h *historyScreen) buildUI() fyne.CanvasObject {
	h.bySeq = map[uint64]*EventView{}
	h.byRun = map[string]*historyCall{}
	h.stored, h.first, h.differs = map[uint64]bool{}, map[uint64]uint64{}, map[uint64][]string{}
	h.rows = map[*historyCall]historyRow{}
	h.callOf, h.dirty = map[uint64]*historyCall{}, map[*historyCall]bool{}
	h.later = newCoalescer(h.redraw)
	h.started = time.Now()
	h.loadPast()
	h.box = container.NewVBox()
	h.replay = widget.NewLabel("")
	h.replay.Wrapping = fyne.TextWrapWord
	h.replay.Hide()
	h.empty = widget.NewLabel("No calls yet: what you run in Tools, Prompts, Resources or the JSON-RPC Tester shows here, newest first.")
	h.empty.Wrapping = fyne.TextWrapWord
	if src := h.ss.s.w.be.Events(); src != nil {
		name := h.ss.s.cfg.Name
		onBatch := func(b EventBatch) {
			// sorted out on the log's goroutine: a batch with nothing of a
			// call of this server (a flood of notifications) costs the UI
			// thread nothing
			if b, ok := historyBatch(name, b); ok {
				do(func() { h.onBatch(b) })
			}
		}
		var cancel func()
		if fs, ok := src.(FilteredSource); ok {
			// only this server's requests are made into views at all
			cancel = fs.SubscribeWhere(func(e *events.Event) bool {
				return e.Conn == name && e.Kind == events.KindMessage && e.Type == events.MsgRequest
			}, onBatch)
		} else {
			cancel = src.Subscribe(onBatch)
		}
		go func() { <-h.ss.ctx.Done(); cancel() }()
		h.load(src)
	}
	h.view = newShownView(container.NewBorder(container.NewVBox(h.replay, h.empty), nil, nil, nil, container.NewVScroll(h.box)), h.onShown)
	return h.view
}

// onShown redraws what changed while the screen was not shown.
func (h *historyScreen) onShown() {
	if h.stale {
		h.later.request()
	}
}

// shown reports whether the History is on screen: its tab is the
// selected one of the selected server.
func (h *historyScreen) shown() bool {
	if h.view != nil && !h.view.Visible() {
		return false
	}
	if t := h.ss.tabs; t != nil && (t.Selected() == nil || t.Selected().Content != h.view) {
		return false
	}
	return h.ss.s.w.selected == h.ss.s
}

// load reads what the log already holds (the screen may open late).
func (h *historyScreen) load(src EventSource) {
	for {
		evs, err := src.After(h.lastSeq, 500)
		if err != nil || len(evs) == 0 {
			break
		}
		h.add(evs)
	}
	h.redraw()
}

// FilteredSource is an EventSource that makes views only of the events a
// listener keeps: a screen that shows a few kinds of events pays nothing
// for a flood of others.
type FilteredSource interface {
	// SubscribeWhere is Subscribe with the new and updated events that
	// keep (called on the log's goroutine) rejects left out; a batch left
	// empty is not delivered.
	SubscribeWhere(keep func(*events.Event) bool, fn func(EventBatch)) (cancel func())
}

// historyBatch keeps the events of a batch that may be of a call of
// server or change one (any goroutine); false when none is.
func historyBatch(server string, b EventBatch) (EventBatch, bool) {
	var out EventBatch
	for _, e := range b.Events {
		if historyEvent(server, e) {
			out.Events = append(out.Events, e)
		}
	}
	for _, u := range b.Updated {
		if u.Server == server && u.Kind == "message" && u.Type == "request" {
			out.Updated = append(out.Updated, u)
		}
	}
	return out, len(out.Events) > 0 || len(out.Updated) > 0
}

// historyEvent reports whether e may be a call of server (a person's
// request) or a server request nested under one.
func historyEvent(server string, e EventView) bool {
	if e.Server != server || e.Kind != "message" || e.Type != "request" {
		return false
	}
	switch e.Dir {
	case "out":
		return personMethod(e.Method)
	case "in":
		return serverRequests[e.Method] && e.Run != ""
	}
	return false
}

func (h *historyScreen) onBatch(b EventBatch) {
	if h.ss.ctx.Err() != nil {
		return
	}
	changed := h.add(b.Events)
	for _, u := range b.Updated {
		if e, ok := h.bySeq[u.Seq]; ok {
			*e = u
			h.dirty[h.callOf[u.Seq]] = true
			changed = true
		}
	}
	if changed {
		h.storeSettled()
		h.later.request()
	}
}

// release forgets the calls of this session the screen holds (the
// inspector's Clear): the History shows what the CallStore keeps, as
// after a restart.
func (h *historyScreen) release() {
	if h.bySeq == nil {
		return
	}
	h.calls = nil
	clear(h.bySeq)
	clear(h.byRun)
	clear(h.rows)
	clear(h.callOf)
	clear(h.dirty)
	clear(h.first)
	clear(h.differs)
	h.loadPast()
	for _, c := range h.calls {
		c.kept = c.req.Time.After(h.started)
	}
	h.redraw()
}

// callStore is the backend's CallStore, or nil.
func (h *historyScreen) callStore() CallStore {
	cs, _ := h.ss.s.w.be.(CallStore)
	return cs
}

// loadPast puts the stored calls of earlier sessions first (oldest
// first, like the rest).
func (h *historyScreen) loadPast() {
	cs := h.callStore()
	if cs == nil {
		return
	}
	entries, err := cs.Calls(h.ss.s.cfg.Name)
	if err != nil {
		h.ss.s.w.toastErr("error", "The History of earlier sessions could not be read", err)
	}
	if len(entries) > 0 {
		h.pastNewest = entries[0].Time
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": e.Method, "params": json.RawMessage(orNull(string(e.Params)))})
		h.calls = append(h.calls, &historyCall{past: &e, req: EventView{Time: e.Time, Method: e.Method, Raw: raw, Server: h.ss.s.cfg.Name}})
	}
}

// dropPast removes the stored call that e is (the log still holds the
// calls of an earlier connection of this window).
func (h *historyScreen) dropPast(e EventView) {
	for i, c := range h.calls {
		if c.past != nil && c.past.Method == e.Method && c.past.Time.Equal(e.Time) {
			h.calls = append(h.calls[:i], h.calls[i+1:]...)
			return
		}
	}
}

// storeSettled keeps the calls of this session whose outcome is known in
// the CallStore (once each).
func (h *historyScreen) storeSettled() {
	cs := h.callStore()
	if cs == nil {
		return
	}
	for _, c := range h.calls {
		o := c.req.Event.Outcome
		if c.past != nil || h.stored[c.req.Seq] || o == nil || o.State == events.Waiting || !c.req.Time.After(h.pastNewest) {
			continue
		}
		h.stored[c.req.Seq] = true
		method, params := historyRequest(c.req)
		status := strings.ReplaceAll(string(o.State), "_", " ")
		if o.State == events.OK && h.toolFailed(c.req) {
			status = events.ClassWords("tool") // answered, and the tool says it failed
		}
		e := HistoryEntry{Time: c.req.Time, Method: method, Params: params, Status: status, Duration: o.Latency,
			Nested: h.nestedOf(c)}
		server, w := h.ss.s.cfg.Name, h.ss.s.w
		w.saveInBackground(func() {
			if err := cs.AddCall(server, e); err != nil {
				do(func() { w.toastErr("warning", "Could not save the History", err) })
			}
		})
	}
}

// add takes the events of this server that the History shows and
// reports whether it took any.
func (h *historyScreen) add(evs []EventView) bool {
	took := false
	for _, e := range evs {
		if e.Seq <= h.lastSeq {
			continue
		}
		h.lastSeq = e.Seq
		if e.Server != h.ss.s.cfg.Name || e.Kind != "message" || e.Type != "request" {
			continue
		}
		switch {
		case e.Dir == "out" && personMethod(e.Method):
			took = true
			c := &historyCall{req: e, title: callTitle(e)}
			h.dropPast(e)
			h.calls = append(h.calls, c)
			h.bySeq[e.Seq] = &c.req
			h.callOf[e.Seq] = c
			if e.Run != "" {
				h.byRun[e.Run] = c
			}
		case e.Dir == "in" && serverRequests[e.Method] && h.byRun[e.Run] != nil && e.Run != "":
			took = true
			c := h.byRun[e.Run]
			c.nested = append(c.nested, e)
			h.callOf[e.Seq] = c
			h.dirty[c] = true
			h.bySeq[e.Seq] = &c.nested[len(c.nested)-1]
			for i := range c.nested { // the append may have moved them
				h.bySeq[c.nested[i].Seq] = &c.nested[i]
			}
		}
	}
	return took
}

// callTitle is a call's method and the tool, prompt or resource it names.
func callTitle(e EventView) string {
	if name := paramName(e.Raw); name != "" {
		return e.Method + " " + name
	}
	return e.Method
}

// redraw draws the calls newest first while the screen is shown (else
// it is left until the tab shows it again): the text of a row is made
// again only for the calls that changed since, and a row only when its
// text did. The rows kept are not refreshed — a container's Refresh
// refreshes every child and has the painter drop every text it drew.
func (h *historyScreen) redraw() {
	if h.ss.ctx.Err() != nil {
		return
	}
	h.later.pending = false // a redraw asked for before is done now
	h.storeSettled()
	if !h.shown() {
		h.stale = true
		return
	}
	h.stale = false
	h.redraws++
	if len(h.calls) > 0 {
		h.empty.Hide()
	} else {
		h.empty.Show()
	}
	objs := make([]fyne.CanvasObject, 0, len(h.calls))
	var fresh []fyne.CanvasObject
	for i := len(h.calls) - 1; i >= 0; i-- {
		c := h.calls[i]
		r, ok := h.rows[c]
		if !ok || h.dirty[c] {
			head, chain := h.rowText(c)
			key := head + "\x00" + strings.Join(h.differs[c.req.Seq], ",") + "\x00" + strings.Join(chain, "\n")
			if !ok || r.key != key {
				r = historyRow{key: key, obj: h.row(c, head, chain)}
				h.rows[c] = r
				fresh = append(fresh, r.obj)
			}
		}
		objs = append(objs, r.obj)
	}
	clear(h.dirty)
	if len(h.rows) > len(objs) { // calls gone (an earlier session's, met again in the log)
		for c := range h.rows {
			if !slices.Contains(h.calls, c) {
				delete(h.rows, c)
			}
		}
	}
	if slices.Equal(objs, h.box.Objects) {
		return
	}
	h.box.Objects = objs
	h.box.Layout.Layout(objs, h.box.Size()) // a taller box is laid out again by its scroll
	cv := fyne.CurrentApp().Driver().CanvasForObject(h.box)
	if cv == nil || len(fresh) == 0 {
		h.box.Refresh()
		return
	}
	for _, o := range fresh {
		cv.Refresh(o) // new: nothing drawn to drop; the frame is due
	}
}

// historyStatus is a request's outcome badge as the inspector shows it
// (its round trip included), or "waiting".
func historyStatus(e EventView) string {
	if e.Badge == "" {
		return "waiting"
	}
	return e.Badge
}

// rowText is the text of a call's row: its head line and its chain.
func (h *historyScreen) rowText(c *historyCall) (string, []string) {
	title := c.title
	if title == "" {
		title = callTitle(c.req)
	}
	status, _ := h.outcome(c)
	return fmt.Sprintf("%s  %s  · %s", c.req.Time.Local().Format("15:04:05"), title, status), h.chain(c)
}

// outcome is a call's outcome in words and the importance its row's
// line is drawn with, by the rule the inspector's rows follow
// (rowImportance): red for a call that failed — a JSON-RPC error, no
// answer, a time-out, or a tools/call answered with isError: true, which
// reads "tool error" (the words of core/events' ClassWords) — where it
// looked like a success.
func (h *historyScreen) outcome(c *historyCall) (string, widget.Importance) {
	if p := c.past; p != nil {
		status := p.Status
		if p.Duration > 0 {
			status += " " + latency(p.Duration)
		}
		level := "error"
		switch {
		case p.Status == "ok" || p.Status == "":
			level = ""
		case strings.HasPrefix(p.Status, "cancelled"):
			level = "warning"
		}
		return status, rowImportance(EventView{BadgeLevel: level})
	}
	e := c.req
	status := historyStatus(e)
	if h.toolFailed(e) {
		status = events.ClassWords("tool") + " · " + status
		e.BadgeLevel = "error"
	}
	return status, rowImportance(e)
}

// toolFailed reports whether a tools/call was answered with a result
// that says isError: true (its result's inspector row is red for it).
func (h *historyScreen) toolFailed(req EventView) bool {
	if req.Method != "tools/call" || req.Pair == 0 {
		return false
	}
	src := h.ss.s.w.be.Events()
	if src == nil {
		return false
	}
	resp, ok := src.Get(req.Pair)
	return ok && resp.Type == "result" && (resp.IsError() || resp.Event.ToolError())
}

// row draws a call with the text rowText gave.
func (h *historyScreen) row(c *historyCall, text string, chain []string) fyne.CanvasObject {
	head := widget.NewLabel(text)
	head.Truncation = fyne.TextTruncateEllipsis
	_, head.Importance = h.outcome(c)
	replay := widget.NewButtonWithIcon("Replay", theme.MediaReplayIcon(), func() { h.onReplay(c.req) })
	edit := widget.NewButtonWithIcon("Edit and replay", theme.DocumentCreateIcon(), func() { h.onEditReplay(c.req) })
	left := container.NewHBox()
	if c.past != nil && !c.kept {
		left.Add(container.NewCenter(newBadge("earlier session", "")))
	}
	if paths, ok := h.differs[c.req.Seq]; ok && c.past == nil {
		if len(paths) > 0 {
			left.Add(container.NewCenter(newBadge("differs from the first run", "warning")))
		} else {
			left.Add(container.NewCenter(newBadge("same as the first run", "ok")))
		}
	}
	box := container.NewVBox(container.NewBorder(nil, nil, left, container.NewHBox(replay, edit), head))
	if paths := h.differs[c.req.Seq]; len(paths) > 0 {
		l := widget.NewLabel("    Differs at " + strings.Join(paths, ", "))
		l.Importance = widget.WarningImportance
		l.Truncation = fyne.TextTruncateEllipsis
		box.Add(l)
	}
	for _, line := range chain {
		l := widget.NewLabel(line)
		l.Truncation = fyne.TextTruncateEllipsis
		box.Add(l)
	}
	return box
}

// chain is the server's own requests of a call's run as the seed's
// History drawing shows them: each with its time relative to the call,
// a sampling request marked "with tools" or "continuation", its answer
// summarised ("toolUse – get_weather(Paris), get_weather(London)", or the
// text), and the server's tool execution between two sampling rounds. A
// call of an earlier session shows the chain it kept.
func (h *historyScreen) chain(c *historyCall) []string {
	if c.past != nil {
		return chainLines(c.past.Nested)
	}
	return chainLines(h.nestedOf(c))
}

// NestedRequest is one of the server's own requests during a call
// (sampling, elicitation, roots) as the History's chain shows it; a
// CallStore keeps them with the call, so the chain of an earlier session
// looks as it did.
type NestedRequest struct {
	After         time.Duration // from the call's request to this one
	Method        string
	WithTools     bool // a sampling request that offers tools
	Continuation  bool // a sampling request whose messages carry tool results
	Status        string
	Summary       string   // the answer in short, "" when none came
	ToolUses      []string // the tool calls a sampling answer asked for
	AnsweredAfter time.Duration
}

// nestedOf reads the chain of a call of this session from the log.
func (h *historyScreen) nestedOf(c *historyCall) []NestedRequest {
	src := h.ss.s.w.be.Events()
	out := make([]NestedRequest, 0, len(c.nested))
	for _, n := range c.nested {
		r := NestedRequest{After: n.Time.Sub(c.req.Time), Method: n.Method, Status: historyStatus(n)}
		if n.Method == "sampling/createMessage" {
			r.WithTools, r.Continuation = samplingKind(n.Raw)
		}
		if src != nil && n.Pair != 0 {
			if resp, ok := src.Get(n.Pair); ok {
				r.Summary, r.ToolUses = answerSummary(n.Method, resp.Raw)
				r.AnsweredAfter = resp.Time.Sub(c.req.Time)
			}
		}
		out = append(out, r)
	}
	return out
}

// chainLines words a chain, one line each.
func chainLines(ns []NestedRequest) []string {
	var out []string
	var lastUse []string // the tool calls of the previous sampling answer
	var lastAnswer time.Duration
	for _, n := range ns {
		if n.Method == "sampling/createMessage" && len(lastUse) > 0 && lastAnswer > 0 {
			out = append(out, fmt.Sprintf("    ↳ +%s  tool execution: %s", latency(lastAnswer), toolsRun(lastUse)))
		}
		label := n.Method
		switch {
		case n.Continuation:
			label += " (continuation)"
		case n.WithTools:
			label += " (with tools)"
		}
		out = append(out, fmt.Sprintf("    ↳ +%s  %s  · %s", latency(n.After), label, n.Status))
		if n.Summary != "" {
			out = append(out, "        Response: "+n.Summary)
		}
		lastUse, lastAnswer = n.ToolUses, n.AnsweredAfter
	}
	return out
}

// toolsRun words the tools a sampling answer asked for: "get_weather ×2,
// get_time".
func toolsRun(uses []string) string {
	var names []string
	count := map[string]int{}
	for _, u := range uses {
		name, _, _ := strings.Cut(u, "(")
		if count[name] == 0 {
			names = append(names, name)
		}
		count[name]++
	}
	for i, n := range names {
		if count[n] > 1 {
			names[i] = fmt.Sprintf("%s ×%d", n, count[n])
		}
	}
	return strings.Join(names, ", ")
}

// samplingKind reads a sampling request: does it offer tools, and is it a
// continuation (its messages carry tool results)?
func samplingKind(raw json.RawMessage) (withTools, continuation bool) {
	var msg struct {
		Params struct {
			Tools    []json.RawMessage `json:"tools"`
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &msg) != nil {
		return false, false
	}
	for _, m := range msg.Params.Messages {
		for _, b := range contentList(m.Content) {
			if b.Type == "tool_result" {
				continuation = true
			}
		}
	}
	return len(msg.Params.Tools) > 0, continuation
}

// contentBlock is the part of a sampling content block the History reads.
type contentBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// contentList reads a content member that is one block or a list.
func contentList(raw json.RawMessage) []contentBlock {
	var list []contentBlock
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var one contentBlock
	if json.Unmarshal(raw, &one) == nil && one.Type != "" {
		return []contentBlock{one}
	}
	return nil
}

// answerSummary words the client's answer to a server request: for
// sampling, "toolUse – get_weather(Paris), get_weather(London)" or the
// quoted text, and the tool calls asked for; for elicitation, the action;
// for roots, how many.
func answerSummary(method string, raw json.RawMessage) (string, []string) {
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &msg) != nil {
		return "", nil
	}
	if msg.Error != nil {
		return "error – " + msg.Error.Message, nil
	}
	switch method {
	case "sampling/createMessage":
		var r struct {
			Content    json.RawMessage `json:"content"`
			StopReason string          `json:"stopReason"`
		}
		_ = json.Unmarshal(msg.Result, &r)
		var uses, texts []string
		for _, b := range contentList(r.Content) {
			switch b.Type {
			case "tool_use":
				uses = append(uses, b.Name+"("+firstArg(b.Input)+")")
			case "text":
				texts = append(texts, b.Text)
			}
		}
		if len(uses) > 0 {
			reason := r.StopReason
			if reason == "" {
				reason = "toolUse"
			}
			return reason + " – " + strings.Join(uses, ", "), uses
		}
		if len(texts) > 0 {
			t := strings.Join(texts, " ")
			if len([]rune(t)) > 200 {
				t = string([]rune(t)[:199]) + "…"
			}
			return strconv.Quote(t), nil
		}
	case "elicitation/create":
		var r struct {
			Action string `json:"action"`
		}
		_ = json.Unmarshal(msg.Result, &r)
		if r.Action != "" {
			return r.Action, nil
		}
	case "roots/list":
		var r struct {
			Roots []json.RawMessage `json:"roots"`
		}
		_ = json.Unmarshal(msg.Result, &r)
		return fmt.Sprintf("%d root(s)", len(r.Roots)), nil
	}
	return "", nil
}

// firstArg is a tool call's arguments in short: the only value when there
// is one ("Paris"), else the compact JSON.
func firstArg(input json.RawMessage) string {
	var obj map[string]any
	if json.Unmarshal(input, &obj) == nil && len(obj) == 0 {
		return ""
	}
	if json.Unmarshal(input, &obj) == nil && len(obj) == 1 {
		for k, v := range obj {
			if redact.Name(k) {
				return redact.Mask // kept across restarts: never a secret
			}
			if s, ok := v.(string); ok {
				return s
			}
			b, _ := json.Marshal(v)
			return string(b)
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, input) != nil {
		return ""
	}
	return b.String()
}

// request is the method and params of a recorded request, without the
// progressToken of the original run (a replay asks for its own).
func historyRequest(e EventView) (string, json.RawMessage) {
	var msg struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal(e.Raw, &msg) != nil || msg.Params == nil {
		return e.Method, nil
	}
	if m, ok := msg.Params["_meta"]; ok {
		var meta map[string]json.RawMessage
		if json.Unmarshal(m, &meta) == nil {
			delete(meta, "progressToken")
			if len(meta) == 0 {
				delete(msg.Params, "_meta")
			} else {
				msg.Params["_meta"], _ = json.Marshal(meta)
			}
		}
	}
	p, _ := json.Marshal(msg.Params)
	return e.Method, p
}

// paramName is the tool, prompt or resource a request names ("" if none).
func paramName(raw json.RawMessage) string {
	var msg struct {
		Params struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"params"`
	}
	_ = json.Unmarshal(raw, &msg)
	if msg.Params.Name != "" {
		return msg.Params.Name
	}
	return msg.Params.URI
}

// onReplay sends the same request again (same method and params; the
// session gives it a fresh id) and shows what came back, and whether its
// result differs from the first run's.
func (h *historyScreen) onReplay(e EventView) {
	rc, ok := h.ss.conn().(RawConn)
	if !ok {
		h.ss.s.w.toast("error", "This connection cannot replay requests.")
		return
	}
	method, params := historyRequest(e)
	first := e.Seq
	if f, ok := h.first[e.Seq]; ok {
		first = f
	}
	var firstResult json.RawMessage
	if src := h.ss.s.w.be.Events(); src != nil && first != 0 {
		if fe, ok := src.Get(first); ok && fe.Pair != 0 {
			if resp, ok := src.Get(fe.Pair); ok {
				firstResult = resultMember(resp.Raw)
			}
		}
	}
	h.replay.SetText("Replaying " + method + "…")
	h.replay.Show()
	go func() {
		ctx, cancel := context.WithTimeout(h.ss.ctx, opTimeout)
		defer cancel()
		rep, err := rc.SendRaw(ctx, RawRequest{Method: method, Params: params}, nil, nil)
		do(func() {
			if h.ss.ctx.Err() != nil {
				return
			}
			text := replayText(method, rep, err)
			if err == nil && rep.Error == nil && firstResult != nil && rep.Seq != 0 {
				paths := diffPaths(firstResult, rep.Result)
				h.first[rep.Seq] = first
				h.differs[rep.Seq] = paths
				h.dirty[h.callOf[rep.Seq]] = true
				if len(paths) > 0 {
					text = "Differs from the first run at " + strings.Join(paths, ", ") + ". " + text
				} else {
					text = "Same result as the first run. " + text
				}
				h.redraw()
			}
			h.replay.SetText(text)
		})
	}()
}

// resultMember is the result of a recorded response ("" when it is an
// error or not JSON).
func resultMember(raw json.RawMessage) json.RawMessage {
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(raw, &msg) != nil {
		return nil
	}
	return msg.Result
}

// replayText says how a replay ended: the result, the error, or why no
// answer came.
func replayText(method string, rep RawReply, err error) string {
	switch {
	case err != nil:
		return fmt.Sprintf("The replay of %s got no answer: %v", method, err)
	case rep.Error != nil:
		return fmt.Sprintf("The replay of %s failed: %s (code %d)", method, rep.Error.Message, rep.Error.Code)
	}
	var buf bytes.Buffer
	if json.Compact(&buf, rep.Result) != nil {
		buf.Reset()
		buf.Write(rep.Result)
	}
	return fmt.Sprintf("Replay of %s (%s): %s", method, latency(rep.Duration), buf.String())
}

// onEditReplay opens the request to edit before sending it again: a
// tools/call in the Tools form, pre-filled with its arguments; anything
// else in the JSON-RPC Tester.
func (h *historyScreen) onEditReplay(e EventView) {
	method, params := historyRequest(e)
	if method == "tools/call" && h.editInTools(params) {
		return
	}
	var p any = map[string]any{}
	if params != nil {
		_ = json.Unmarshal(params, &p)
	}
	b, _ := json.MarshalIndent(map[string]any{"jsonrpc": "2.0", "method": method, "params": p}, "", "  ")
	h.ss.tester.editor.SetText(string(b))
	h.ss.selectTab("Experimental")
	h.ss.exp.scroll.ScrollToOffset(fyne.NewPos(0, h.ss.tester.obj.Position().Y))
}

// editInTools selects the tool of a tools/call's params in the Tools
// screen with its arguments in the form; false when the server lists no
// such tool (then the tester takes it).
func (h *historyScreen) editInTools(params json.RawMessage) bool {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(params, &p) != nil || p.Name == "" {
		return false
	}
	t := h.ss.tools
	var tool *Tool
	for i := range t.all {
		if t.all[i].Name == p.Name {
			tool = &t.all[i]
		}
	}
	if tool == nil {
		return false
	}
	args := p.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	h.ss.selectTab("Tools")
	if t.search.Text != "" {
		t.search.SetText("") // the tool must be in the list to be selected
	}
	t.saveArgs()
	t.lastArgs[tool.Name] = args
	t.selected = nil // the form is made again, with these arguments
	for i, x := range t.shown {
		if x.Name == tool.Name {
			t.list.Select(i)
			t.list.ScrollTo(i)
		}
	}
	if t.selected == nil {
		t.onSelect(*tool)
	}
	return true
}

// selectTab opens the server's screen tab named text.
func (ss *serverScreens) selectTab(text string) {
	for _, it := range ss.tabs.Items {
		if it.Text == text {
			ss.tabs.Select(it)
		}
	}
}

// replayable is the outgoing request a details pane offers to replay:
// the event itself, or for a response its request (req); nil for
// anything else (the server's own requests, the handshake).
func replayable(e EventView, req *EventView) *EventView {
	if req == nil || req.Kind != "message" || req.Dir != "out" || req.Type != "request" {
		return nil
	}
	if req.Method == "initialize" || req.Method == "server/discover" {
		return nil
	}
	return req
}

// onReplay replays (or, edit, opens to edit) the request of the event
// shown in the details: through the server's History, which shows the
// replay's result and whether it differs from the first run.
func (in *inspector) onReplay(e EventView, edit bool) {
	var req *EventView
	if e.Type == "request" {
		req = &e
	} else if p, ok := in.event(e.Pair); ok && e.Pair != 0 {
		req = &p
	}
	req = replayable(e, req)
	if req == nil {
		return
	}
	s := in.w.server(req.Server)
	if s == nil || s.screens == nil || s.screens.conn() == nil {
		in.w.toast("error", "Connect to "+req.Server+" to replay its requests.")
		return
	}
	if in.w.selected != s {
		in.w.selectServer(s)
	}
	if edit {
		s.screens.history.onEditReplay(*req)
		return
	}
	s.screens.selectTab("History")
	s.screens.history.onReplay(*req)
}

// SetRequestOpener gives the inspector the way to open a pending server
// request (sampling, elicitation) in its dialog: the request queue's
// OpenModal. A server request's row then offers View Details. UI thread.
func (w *Window) SetRequestOpener(open func(server, id string) bool) {
	w.inspector.openRequest = open
}

// queued reports whether e is a server request that waits in the request
// queue while unanswered.
func queued(e EventView) bool {
	return e.Kind == "message" && e.Dir == "in" && e.Type == "request" &&
		(e.Method == "elicitation/create" || e.Method == "sampling/createMessage")
}

// onOpenRequest opens the server request e in its dialog, or says why it
// cannot be.
func (in *inspector) onOpenRequest(e EventView) {
	if in.openRequest == nil || !queued(e) {
		return
	}
	if !in.openRequest(e.Server, e.ID) {
		in.showAnswered(e)
	}
}

// showAnswered opens a server request that no longer waits read-only:
// the request and the answer sent (or why there was none), from the log.
func (in *inspector) showAnswered(e EventView) {
	var resp *EventView
	if p, ok := in.event(e.Pair); ok {
		resp = &p
	}
	what := "Sampling"
	if e.Method == "elicitation/create" {
		what = "Elicitation"
	}
	note := wrapLabel("This request no longer waits for an answer: it was answered, cancelled, or its connection ended. What was asked and what was sent back:")
	body := container.NewGridWithRows(2, pane("Request", &e, ""), pane("Response", resp, missingResponse(e.Badge)))
	d := esc.NewCustom("Server Request: "+what+" (closed)", "Close", container.NewBorder(note, nil, nil, nil, body), in.w.win)
	size := in.w.win.Canvas().Size()
	d.Resize(fyne.NewSize(fyne.Min(720, size.Width*0.95), fyne.Min(640, size.Height*0.95)))
	esc.Show(d, in.w.win)
}
