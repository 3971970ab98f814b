package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/spyglass-mcp/spyglass/core/history"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/ui"
)

// SendRaw implements ui.RawConn: any method through the session, which
// gives the id, records the request and pairs the answer. Notifications
// of the request's run reach notify.
func (c *guiConn) SendRaw(ctx context.Context, req ui.RawRequest, progress func(ui.Progress), notify func(ui.Notification)) (ui.RawReply, error) {
	run := c.s.NewRun()
	opts := &session.CallOptions{Run: run}
	if len(req.Header) > 0 {
		opts.Header = http.Header{}
		for k, v := range req.Header {
			opts.Header.Set(k, v)
		}
	}
	if req.Progress || hasProgressToken(req.Params) {
		opts.Progress = func(p session.Progress) {
			if progress != nil {
				progress(ui.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
			}
		}
	}
	if notify != nil {
		stop := c.s.OnNotification(func(n session.Notification) {
			if n.Run == run && n.Method != session.MethodProgress {
				notify(ui.Notification{Method: n.Method, Params: n.Params, Time: n.Time})
			}
		})
		defer stop()
	}
	rep, err := c.s.Call(ctx, req.Method, req.Params, opts)
	var out ui.RawReply
	if rep != nil {
		out = ui.RawReply{ID: rep.ID, Seq: rep.Seq, Duration: rep.Duration, Result: rep.Raw}
	}
	var re *session.RPCError
	if errors.As(err, &re) {
		out.Error = &ui.RawError{Code: re.Code, Message: re.Message, Data: re.Data}
		return out, nil
	}
	if err != nil {
		return out, humanize(err)
	}
	return out, nil
}

// hasProgressToken reports whether params._meta carries a progressToken
// of the user's own, whose progress the tester then shows.
func hasProgressToken(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	_, ok := p.Meta["progressToken"]
	return ok
}

// ClientExperimental implements ui.TesterStore.
func (b *guiBackend) ClientExperimental(server string) json.RawMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o, ok := b.override[server]; ok {
		return o.ExperimentalCapabilities
	}
	s, _ := b.cat.Get(server)
	return s.ExperimentalCapabilities
}

// SetClientExperimental implements ui.TesterStore: the catalog's
// experimentalCapabilities of the server, advertised on the next connect.
func (b *guiBackend) SetClientExperimental(server string, caps json.RawMessage) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o, ok := b.override[server]; ok {
		o.ExperimentalCapabilities = caps
		b.override[server] = o
	}
	if b.roWhy != "" {
		if _, ok := b.override[server]; ok {
			return nil // kept for this run of the window
		}
		return errors.New(b.roWhy)
	}
	s, ok := b.cat.Get(server)
	if !ok {
		return errors.New("no server named " + server + " in the catalog")
	}
	s.ExperimentalCapabilities = caps
	if err := b.cat.Put(server, s); err != nil {
		return err
	}
	return b.saveLocked()
}

// testerHistory is the tester's history store: one file per server under
// the XDG data folder, secrets masked by name and by the redactor's known
// values.
func (b *guiBackend) testerHistory() *history.Store {
	return history.New(b.testerDir, &history.Options{Mask: b.red.JSON})
}

// History implements ui.TesterStore.
func (b *guiBackend) History(server string) ([]ui.HistoryEntry, error) {
	hs, err := b.testerHistory().List(server)
	out := make([]ui.HistoryEntry, len(hs))
	for i, h := range hs {
		out[i] = ui.HistoryEntry{Time: h.Time, Method: h.Method, Params: h.Params, Header: h.Headers,
			Progress: h.Progress, Status: h.Status, Code: h.Code, Duration: h.Duration}
	}
	return out, err
}

// AddHistory implements ui.TesterStore.
func (b *guiBackend) AddHistory(server string, e ui.HistoryEntry) error {
	return b.testerHistory().Add(server, history.Entry{Time: e.Time, Method: e.Method, Params: e.Params,
		Headers: e.Header, Progress: e.Progress, Status: e.Status, Code: e.Code, Duration: e.Duration})
}

// callHistory keeps the window's History across restarts: the calls a
// person made, one file per server under the XDG data folder, secrets
// masked like the tester's, at most history.DefaultMax per server.
func (b *guiBackend) callHistory() *history.Store {
	return history.New(b.callsDir, &history.Options{Mask: b.red.JSON})
}

// Calls implements ui.CallStore.
func (b *guiBackend) Calls(server string) ([]ui.HistoryEntry, error) {
	hs, err := b.callHistory().List(server)
	out := make([]ui.HistoryEntry, len(hs))
	for i, h := range hs {
		out[i] = ui.HistoryEntry{Time: h.Time, Method: h.Method, Params: h.Params, Status: h.Status, Code: h.Code, Duration: h.Duration}
		for _, n := range h.Nested {
			out[i].Nested = append(out[i].Nested, ui.NestedRequest{After: n.After, Method: n.Method, WithTools: n.WithTools,
				Continuation: n.Continuation, Status: n.Status, Summary: n.Summary, ToolUses: n.ToolUses, AnsweredAfter: n.AnsweredAfter})
		}
	}
	return out, err
}

// AddCall implements ui.CallStore: the call with the server's own
// requests it triggered (core/history bounds and masks them).
func (b *guiBackend) AddCall(server string, e ui.HistoryEntry) error {
	he := history.Entry{Time: e.Time, Method: e.Method, Params: e.Params, Status: e.Status, Code: e.Code, Duration: e.Duration}
	for _, n := range e.Nested {
		he.Nested = append(he.Nested, history.Nested{After: n.After, Method: n.Method, WithTools: n.WithTools,
			Continuation: n.Continuation, Status: n.Status, Summary: n.Summary, ToolUses: n.ToolUses, AnsweredAfter: n.AnsweredAfter})
	}
	return b.callHistory().Add(server, he)
}
