package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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
}

// historyCall is one person's request and the server requests of its run.
type historyCall struct {
	req    EventView
	nested []EventView
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
	h.box = container.NewVBox()
	h.replay = widget.NewLabel("")
	h.replay.Wrapping = fyne.TextWrapWord
	h.replay.Hide()
	h.empty = widget.NewLabel("No calls yet: what you run in Tools, Prompts, Resources or the JSON-RPC Tester shows here, newest first.")
	h.empty.Wrapping = fyne.TextWrapWord
	if src := h.ss.s.w.be.Events(); src != nil {
		cancel := src.Subscribe(func(b EventBatch) { do(func() { h.onBatch(b) }) })
		go func() { <-h.ss.ctx.Done(); cancel() }()
		h.load(src)
	}
	return container.NewBorder(container.NewVBox(h.replay, h.empty), nil, nil, nil, container.NewVScroll(h.box))
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

func (h *historyScreen) onBatch(b EventBatch) {
	if h.ss.ctx.Err() != nil {
		return
	}
	h.add(b.Events)
	for _, u := range b.Updated {
		if e, ok := h.bySeq[u.Seq]; ok {
			*e = u
		}
	}
	h.redraw()
}

// add takes the events of this server that the History shows.
func (h *historyScreen) add(evs []EventView) {
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
			c := &historyCall{req: e}
			h.calls = append(h.calls, c)
			h.bySeq[e.Seq] = &c.req
			if e.Run != "" {
				h.byRun[e.Run] = c
			}
		case e.Dir == "in" && serverRequests[e.Method] && h.byRun[e.Run] != nil && e.Run != "":
			c := h.byRun[e.Run]
			c.nested = append(c.nested, e)
			h.bySeq[e.Seq] = &c.nested[len(c.nested)-1]
			for i := range c.nested { // the append may have moved them
				h.bySeq[c.nested[i].Seq] = &c.nested[i]
			}
		}
	}
}

func (h *historyScreen) redraw() {
	h.empty.Hidden = len(h.calls) > 0
	objs := make([]fyne.CanvasObject, 0, len(h.calls))
	for i := len(h.calls) - 1; i >= 0; i-- {
		objs = append(objs, h.row(h.calls[i]))
	}
	h.box.Objects = objs
	h.box.Refresh()
	h.empty.Refresh()
}

// historyStatus is a request's outcome badge as the inspector shows it
// (its round trip included), or "waiting".
func historyStatus(e EventView) string {
	if e.Badge == "" {
		return "waiting"
	}
	return e.Badge
}

func (h *historyScreen) row(c *historyCall) fyne.CanvasObject {
	title := c.req.Method
	if name := paramName(c.req.Raw); name != "" {
		title += " " + name
	}
	head := widget.NewLabel(fmt.Sprintf("%s  %s  · %s", c.req.Time.Format("15:04:05"), title, historyStatus(c.req)))
	head.Truncation = fyne.TextTruncateEllipsis
	replay := widget.NewButtonWithIcon("Replay", theme.MediaReplayIcon(), func() { h.onReplay(c.req) })
	edit := widget.NewButtonWithIcon("Edit and replay", theme.DocumentCreateIcon(), func() { h.onEditReplay(c.req) })
	box := container.NewVBox(container.NewBorder(nil, nil, nil, container.NewHBox(replay, edit), head))
	for _, n := range c.nested {
		l := widget.NewLabel(fmt.Sprintf("    ↳ +%s  %s  · %s", latency(n.Time.Sub(c.req.Time)), n.Method, historyStatus(n)))
		l.Truncation = fyne.TextTruncateEllipsis
		box.Add(l)
	}
	return box
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
// session gives it a fresh id) and shows what came back.
func (h *historyScreen) onReplay(e EventView) {
	rc, ok := h.ss.conn().(RawConn)
	if !ok {
		h.ss.s.w.toast("error", "This connection cannot replay requests.")
		return
	}
	method, params := historyRequest(e)
	h.replay.SetText("Replaying " + method + "…")
	h.replay.Show()
	go func() {
		ctx, cancel := context.WithTimeout(h.ss.ctx, opTimeout)
		defer cancel()
		rep, err := rc.SendRaw(ctx, RawRequest{Method: method, Params: params}, nil, nil)
		do(func() {
			if h.ss.ctx.Err() == nil {
				h.replay.SetText(replayText(method, rep, err))
			}
		})
	}()
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

// onEditReplay opens the request in the JSON-RPC Tester, pre-filled.
func (h *historyScreen) onEditReplay(e EventView) {
	method, params := historyRequest(e)
	var p any = map[string]any{}
	if params != nil {
		_ = json.Unmarshal(params, &p)
	}
	b, _ := json.MarshalIndent(map[string]any{"jsonrpc": "2.0", "method": method, "params": p}, "", "  ")
	h.ss.tester.editor.SetText(string(b))
	for _, it := range h.ss.tabs.Items {
		if it.Text == "Experimental" {
			h.ss.tabs.Select(it)
		}
	}
	h.ss.exp.scroll.ScrollToOffset(fyne.NewPos(0, h.ss.tester.obj.Position().Y))
}
