package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// handshake lists the requests a session sends by itself when it
// connects: a replay does not send them again, but compares them.
var handshake = []string{"initialize", "server/discover"}

// streams lists the long-lived requests the session opens and keeps by
// itself (the modern era's subscriptions/listen, for subscriptions and
// list changes): a replay neither sends nor compares them, since sending
// one would wait for as long as the stream stays open.
var streams = []string{"subscriptions/listen"}

// Step is one request to send again.
type Step struct {
	// Method and Params are the request's, as recorded.
	Method string
	Params json.RawMessage
	// Recorded is the request and its recorded response.
	Recorded sessiondiff.Exchange
	// AnsweredBefore is how many of the server's requests the recorded
	// session had answered before it sent this one (roots/list right
	// after the handshake, say): Run waits, up to Plan.Grace, until the
	// new session has answered as many.
	AnsweredBefore int
}

// Plan is what a replay of one trace does.
type Plan struct {
	// Steps are the client→server requests to send, in recorded order
	// (the handshake is left to the session).
	Steps []Step
	// Writes names the tools the steps call that do not say they are
	// read-only (no readOnlyHint in the recorded tools/list, nor on the
	// recorded attempt): calling them again may change something.
	Writes []string
	// Recorded are every client→server exchange of the trace, the
	// handshake included: what the new session is compared with.
	Recorded []sessiondiff.Exchange
	// Answers answers the server's requests with the recorded answers.
	Answers *Answers
	// Conns names the connections the recorded requests went over, in
	// order of appearance: a replay is of one of them (see NewConn).
	Conns []string
	// Grace bounds how long Run waits for the server to ask what it
	// asked at that point of the recording (DefaultGrace when 0).
	Grace time.Duration
}

// DefaultGrace is how long Run waits, before a step, for server requests
// the recording had answered by then (server-everything asks for roots
// about 350 ms after the handshake).
const DefaultGrace = 2 * time.Second

// New plans the replay of a session's events (of one connection: the
// trace of a --cli run, or one server's events in the window). Conns
// says whether the events hold more than one.
func New(evs []events.Event) *Plan {
	p := &Plan{Answers: newAnswers(evs)}
	for _, e := range evs {
		if e.Kind == events.KindMessage && e.Dir == events.DirOut && e.Type == events.MsgRequest && !slices.Contains(p.Conns, e.Conn) {
			p.Conns = append(p.Conns, e.Conn)
		}
	}
	readOnly := map[string]bool{}
	for _, e := range evs {
		if e.Kind == events.KindTool && e.Tool != nil && e.Tool.ReadOnly {
			readOnly[e.Tool.Name] = true
		}
	}
	for _, x := range sessiondiff.Exchanges(evs) {
		if x.Dir != events.DirOut || slices.Contains(streams, x.Method) {
			continue
		}
		p.Recorded = append(p.Recorded, x)
		if x.Method == "tools/list" {
			for name, ro := range toolHints(x.Response) {
				readOnly[name] = readOnly[name] || ro
			}
		}
		if slices.Contains(handshake, x.Method) {
			continue
		}
		var m struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(x.Request, &m)
		p.Steps = append(p.Steps, Step{Method: x.Method, Params: m.Params, Recorded: x, AnsweredBefore: answeredBefore(evs, x.Seq)})
	}
	for _, s := range p.Steps {
		if s.Method == "tools/call" && !readOnly[s.Recorded.Name] && !slices.Contains(p.Writes, s.Recorded.Name) {
			p.Writes = append(p.Writes, s.Recorded.Name)
		}
	}
	return p
}

// NewConn plans the replay of one connection's events.
func NewConn(evs []events.Event, conn string) *Plan {
	var own []events.Event
	for _, e := range evs {
		if e.Conn == conn {
			own = append(own, e)
		}
	}
	return New(own)
}

// answeredBefore counts the answers to server requests recorded before
// the event seq.
func answeredBefore(evs []events.Event, seq uint64) int {
	n := 0
	for _, e := range evs {
		if e.Seq >= seq {
			break
		}
		if e.Kind == events.KindMessage && e.Dir == events.DirOut && (e.Type == events.MsgResult || e.Type == events.MsgError) {
			n++
		}
	}
	return n
}

// toolHints reads each tool's readOnlyHint from a tools/list response.
func toolHints(resp json.RawMessage) map[string]bool {
	var m struct {
		Result struct {
			Tools []struct {
				Name        string `json:"name"`
				Annotations struct {
					ReadOnly *bool `json:"readOnlyHint"`
				} `json:"annotations"`
			} `json:"tools"`
		} `json:"result"`
	}
	_ = json.Unmarshal(resp, &m)
	out := map[string]bool{}
	for _, t := range m.Result.Tools {
		out[t.Name] = t.Annotations.ReadOnly != nil && *t.Annotations.ReadOnly
	}
	return out
}

// Caller sends one request; *session.Session is one.
type Caller interface {
	Call(ctx context.Context, method string, params json.RawMessage, opts *session.CallOptions) (*session.Reply, error)
}

// ErrStopped is returned by Run when the connection failed part way: the
// steps after it were not sent.
var ErrStopped = errors.New("replay stopped")

// Run sends every step in order. A JSON-RPC error from the server is a
// response like any other (compared later); a failure to reach the
// server stops the replay with an error wrapping ErrStopped and the
// cause. sent says how many steps were sent.
func (p *Plan) Run(ctx context.Context, c Caller) (sent int, err error) {
	grace := p.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	for i, s := range p.Steps {
		p.Answers.wait(ctx, s.AnsweredBefore, grace)
		_, err := c.Call(ctx, s.Method, s.Params, nil)
		var rpc *session.RPCError
		if err != nil && !errors.As(err, &rpc) {
			return i, fmt.Errorf("%w at request %d of %d (%s): %w", ErrStopped, i+1, len(p.Steps), s.Recorded.Label(), err)
		}
	}
	return len(p.Steps), nil
}

// Compare compares the new session's client→server exchanges with the
// recorded ones.
func (p *Plan) Compare(newEvents []events.Event, opts *sessiondiff.Options) (*sessiondiff.Result, error) {
	var out []sessiondiff.Exchange
	for _, x := range sessiondiff.Exchanges(newEvents) {
		if x.Dir == events.DirOut && !slices.Contains(streams, x.Method) {
			out = append(out, x)
		}
	}
	return sessiondiff.Compare(p.Recorded, out, opts)
}

// Answers answers a server's requests with the answers a trace recorded,
// per method in recorded order. A request beyond what was recorded is
// answered with an error that says so. It implements
// session.SamplingHandler, session.ElicitationHandler and
// session.RootsProvider.
type Answers struct {
	mu    sync.Mutex
	queue map[string][]json.RawMessage // method → recorded responses (whole messages)
	// Missing counts requests that found no recorded answer.
	missing int
	// served counts the requests answered; changed is closed (and
	// replaced) on every answer.
	served  int
	changed chan struct{}
}

// wait returns once n requests were answered, after grace, or when ctx
// ends.
func (a *Answers) wait(ctx context.Context, n int, grace time.Duration) {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for {
		a.mu.Lock()
		served, changed := a.served, a.changed
		a.mu.Unlock()
		if served >= n {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func newAnswers(evs []events.Event) *Answers {
	a := &Answers{queue: map[string][]json.RawMessage{}, changed: make(chan struct{})}
	for _, x := range sessiondiff.Exchanges(evs) {
		if x.Dir == events.DirIn && x.Response != nil {
			a.queue[x.Method] = append(a.queue[x.Method], x.Response)
		}
	}
	return a
}

// Missing is how many server requests found no recorded answer.
func (a *Answers) Missing() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.missing
}

// next returns the next recorded result for method, or the recorded
// error as an *session.RPCError.
func (a *Answers) next(method string, into any) error {
	a.mu.Lock()
	a.served++
	close(a.changed)
	a.changed = make(chan struct{})
	q := a.queue[method]
	if len(q) == 0 {
		a.missing++
		a.mu.Unlock()
		return &session.RPCError{Code: session.CodeInternalError, Message: "replay: the trace holds no more answers to " + method}
	}
	a.queue[method] = q[1:]
	a.mu.Unlock()
	var m struct {
		Result json.RawMessage   `json:"result"`
		Error  *session.RPCError `json:"error"`
	}
	if err := json.Unmarshal(q[0], &m); err != nil {
		return fmt.Errorf("replay: recorded answer to %s: %w", method, err)
	}
	if m.Error != nil {
		return m.Error
	}
	if err := json.Unmarshal(m.Result, into); err != nil {
		return fmt.Errorf("replay: recorded answer to %s: %w", method, err)
	}
	return nil
}

// CreateMessage answers sampling/createMessage as recorded.
func (a *Answers) CreateMessage(context.Context, *session.SamplingRequest) (*mcp.CreateMessageResult, error) {
	var r mcp.CreateMessageResult
	if err := a.next("sampling/createMessage", &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Elicit answers elicitation/create as recorded.
func (a *Answers) Elicit(context.Context, *session.ElicitationRequest) (*mcp.ElicitationResult, error) {
	var r mcp.ElicitationResult
	if err := a.next("elicitation/create", &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// ListRoots answers roots/list as recorded.
func (a *Answers) ListRoots(context.Context, *session.ServerRequest) ([]mcp.Root, error) {
	var r mcp.ListRootsResult
	if err := a.next("roots/list", &r); err != nil {
		return nil, err
	}
	return r.Roots, nil
}

// Capabilities returns the client capabilities the recorded session
// advertised — in its initialize request, or (modern era) in the _meta of
// its server/discover — so that the replay offers the server the same (a
// server may offer other tools to another client); nil when the trace has
// no handshake.
func (p *Plan) Capabilities() *session.Capabilities {
	for _, x := range p.Recorded {
		var m struct {
			Params struct {
				Capabilities json.RawMessage            `json:"capabilities"`
				Meta         map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(x.Request, &m) != nil {
			continue
		}
		switch x.Method {
		case "initialize":
			return capsOf(m.Params.Capabilities)
		case "server/discover":
			return capsOf(m.Params.Meta["io.modelcontextprotocol/clientCapabilities"])
		}
	}
	return nil
}

// capsOf reads a ClientCapabilities object.
func capsOf(raw json.RawMessage) *session.Capabilities {
	var c struct {
		Roots    json.RawMessage `json:"roots"`
		Sampling *struct {
			Tools   json.RawMessage `json:"tools"`
			Context json.RawMessage `json:"context"`
		} `json:"sampling"`
		Elicitation *struct {
			Form json.RawMessage `json:"form"`
			URL  json.RawMessage `json:"url"`
		} `json:"elicitation"`
		Tasks        json.RawMessage            `json:"tasks"`
		Experimental map[string]json.RawMessage `json:"experimental"`
	}
	if len(raw) > 0 && json.Unmarshal(raw, &c) != nil {
		return nil
	}
	caps := &session.Capabilities{Roots: c.Roots != nil, Tasks: c.Tasks != nil, Experimental: c.Experimental}
	if c.Sampling != nil {
		caps.Sampling, caps.SamplingTools, caps.SamplingContext = true, c.Sampling.Tools != nil, c.Sampling.Context != nil
	}
	if e := c.Elicitation; e != nil {
		caps.ElicitationForm = e.Form != nil || e.URL == nil // {} is form mode
		caps.ElicitationURL = e.URL != nil
	}
	return caps
}
