package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// link is one wire.Conn with what lives and dies with it.
type link struct {
	conn   wire.Conn
	done   chan struct{}
	ctx    context.Context // cancelled when the link ends: server request handlers
	cancel context.CancelFunc

	ready bool // the handshake is done; guarded by Session.mu

	mu     sync.Mutex
	closed bool
	err    error
	sreqs  map[string]*serverReq // server requests being answered, by id text
}

// serverReq is a request of the server being answered by a handler.
type serverReq struct {
	run       string
	cancel    context.CancelFunc
	cancelled bool // the server sent notifications/cancelled for it
}

func newLink(c wire.Conn) *link {
	ctx, cancel := context.WithCancel(context.Background())
	return &link{conn: c, done: make(chan struct{}), ctx: ctx, cancel: cancel, sreqs: make(map[string]*serverReq)}
}

// markClosed records the end of the link and runs then (under the link's
// lock, so that no message is recorded on the link after it); it reports
// whether this call was the first.
func (l *link) markClosed(err error, then func()) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.closed = true
	l.err = err
	close(l.done)
	if then != nil {
		then()
	}
	return true
}

func (l *link) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

func (l *link) closeErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *link) cancelServerRequests() { l.cancel() }

// call is one of our requests waiting for its answer.
type call struct {
	id      string          // id as JSON text
	rpc     *events.RPCInfo // the tool call attempt it belongs to, or nil
	round   *events.RoundInfo
	method  string
	run     string
	user    bool // a user operation (counts for relating server traffic by time)
	link    *link
	token   string // progress token as JSON text, "" if none
	start   time.Time
	resp    chan response
	state   callState // guarded by Session.mu
	timeout time.Duration
	timer   *time.Timer // nil without a timeout
	holds   int         // server requests of the same run being answered; guarded by Session.mu

	pmu      sync.Mutex
	progress chan Progress // nil when nobody listens
	pdone    bool
	pdropped uint64
}

type callState int

const (
	callWaiting callState = iota
	callAnswered
	callAbandoned
)

type response struct {
	result  json.RawMessage
	err     *RPCError
	lost    error // the wire says no answer will come
	invalid error // the answer is not JSON-RPC 2.0
}

// Reply is the request/response pair behind an operation's result.
type Reply struct {
	// Raw is the result exactly as the server sent it.
	Raw json.RawMessage
	// Method and ID (as JSON text) of our request.
	Method string
	ID     string
	// Run groups the events of the operation.
	Run string
	// Seq is the event sequence number of our request.
	Seq uint64
	// Duration is the time from sending the request to the answer.
	Duration time.Duration

	unsent bool // the conn never took the request: it cannot have run
	// abandoned: a multi round-trip request given up between rounds;
	// every request sent was answered "input required", none still runs
	abandoned bool
}

// CallOptions are per-request options; nil means defaults.
type CallOptions struct {
	// Meta is merged into params._meta, over Options.Metadata.
	Meta map[string]any
	// Progress, when set, asks for progress (a progressToken is attached)
	// and gets every progress notification of the request, in order, on a
	// goroutine of its own. A slow callback loses updates, never blocks.
	Progress func(Progress)
	// Header is sent as extra HTTP headers with this request (ignored by
	// stdio).
	Header http.Header
	// Timeout overrides Options.RequestTimeout (negative: none).
	Timeout time.Duration
	// Run joins an existing run (see [Session.NewRun]) instead of
	// starting a new one.
	Run string
	// Tool is the tool's listing (for CallTool): its input schema and
	// annotations place the call in its retry lineage. When nil, the
	// session uses the tool from its last ListTools.
	Tool *mcpresult.Tool

	rpc *events.RPCInfo // set by CallTool: the attempt's call id
	// round places a re-sent request in its multi round-trip request
	round *events.RoundInfo
}

// gaveUp is a request the session stopped waiting for.
type gaveUp struct {
	run   string
	rpc   *events.RPCInfo
	round *events.RoundInfo
}

// Progress is one notifications/progress for a request.
type Progress struct {
	Token    string  // the progress token as JSON text
	Progress float64 // progress so far
	Total    float64 // 0 when unknown
	Message  string
	// Dropped counts the updates lost before this one because the
	// callback was slow.
	Dropped uint64
	Time    time.Time
}

// Call sends any request with the given params (a JSON object, or nil)
// and returns the raw result. Options.Metadata (and CallOptions.Meta) are
// merged into params._meta when params is an object or nil.
func (s *Session) Call(ctx context.Context, method string, params json.RawMessage, opts *CallOptions) (*Reply, error) {
	if len(params) > 0 && !json.Valid(params) {
		return nil, fmt.Errorf("session: %s: params are not valid JSON", method)
	}
	return s.request(ctx, method, params, opts)
}

// request is an operation: connect if needed, then round trip.
func (s *Session) request(ctx context.Context, method string, params json.RawMessage, opts *CallOptions) (*Reply, error) {
	l, err := s.ensureLink(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("session: %s: %w", method, err)
	}
	rep, err := s.roundTrip(ctx, l, method, params, opts, true)
	if errors.Is(err, wire.ErrSessionExpired) {
		// The server forgot the HTTP session before reading the request:
		// initialize again and send it once more.
		s.dropLink(l)
		if l, err = s.ensureLink(ctx, false); err == nil {
			rep, err = s.roundTrip(ctx, l, method, params, opts, true)
		}
	}
	// The modern protocol's multi round-trip requests: the server answers
	// "input required" with requests for the handlers, and the request is
	// sent again with their answers.
	// Every round is recorded with the round trip's first id (the
	// conversation) and its number.
	first := ""
	for round := 0; err == nil && needsInput(rep.Raw); round++ {
		if round == maxInputRounds {
			err = ErrInputLoop
			break
		}
		if first == "" {
			first = rep.ID
		}
		o := CallOptions{}
		if opts != nil {
			o = *opts
		}
		ir := inputRound(method, params, first, round+1)
		if params, err = s.fulfilInput(ctx, rep, params, ir); err != nil {
			if errors.Is(err, ErrInputCancelled) && !errors.Is(err, context.Canceled) {
				err = fmt.Errorf("%w (%w)", err, context.Canceled)
			}
			s.abandonRounds(ir, rep.Run, o.rpc, err)
			rep.abandoned = true
			break
		}
		o.Run = rep.Run
		o.round = &events.RoundInfo{Conversation: first, N: round + 2}
		if l, err = s.ensureLink(ctx, false); err != nil {
			break
		}
		rep, err = s.roundTrip(ctx, l, method, params, &o, true)
	}
	if err != nil {
		return rep, fmt.Errorf("session: %s: %w", method, err)
	}
	return rep, nil
}

// roundTrip sends one request on l and waits for its answer.
func (s *Session) roundTrip(ctx context.Context, l *link, method string, params json.RawMessage, opts *CallOptions, user bool) (*Reply, error) {
	if opts == nil {
		opts = &CallOptions{}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.nextID++
	id := strconv.FormatInt(s.nextID, 10)
	run := opts.Run
	if run == "" {
		run = s.newRunLocked()
	}
	extra := s.metaLocked(opts.Meta, method)
	s.mu.Unlock()

	var token json.RawMessage
	if opts.Progress != nil {
		token = json.RawMessage(id)
	}
	params, tokenText, err := mergeMeta(params, extra, token)
	if err != nil {
		return nil, err
	}
	c := &call{id: id, rpc: opts.rpc, round: opts.round, method: method, run: run, user: user, link: l, token: tokenText, resp: make(chan response, 1)}
	c.timeout = opts.Timeout
	if c.timeout == 0 {
		c.timeout = s.opts.RequestTimeout
	}
	if opts.Progress != nil {
		c.progress = make(chan Progress, 256)
		go func(ch chan Progress, fn func(Progress)) {
			for p := range ch {
				fn(p)
			}
		}(c.progress, opts.Progress)
		defer c.stopProgress()
	}
	raw := buildRequest(id, method, params)

	s.mu.Lock()
	s.pending[id] = c
	if tokenText != "" {
		s.tokens[tokenText] = c
	}
	c.start = time.Now()
	if c.timeout > 0 {
		c.timer = time.NewTimer(c.timeout)
		defer c.timer.Stop()
	}
	s.mu.Unlock()

	rep := &Reply{Method: method, ID: id, Run: run}
	// The write runs on its own goroutine: an HTTP POST answered with a
	// plain JSON body only returns with the answer, and the timeout,
	// progress and cancellation must keep working meanwhile.
	var ok bool
	if rep.Seq, ok = s.recordOn(l, events.Event{Type: events.MsgRequest, ID: id, Method: method, Raw: raw, Run: run, RPC: c.rpc, Round: c.round}); !ok {
		s.abandon(c)
		return rep, &ClosedError{Method: method, Err: l.closeErr()}
	}
	sendCtx, stopSend := context.WithCancel(ctx)
	defer stopSend()
	sent := make(chan error, 1)
	so := &wire.SendOptions{Header: opts.Header, Hold: func() func() { return s.holdCall(c) }}
	go func() { sent <- l.conn.Send(sendCtx, raw, so) }()
	var timerC <-chan time.Time
	if c.timer != nil {
		timerC = c.timer.C
	}
	for {
		select {
		case r := <-c.resp:
			return s.finish(rep, c, r)
		case err := <-sent:
			sent = nil
			if err == nil || ctx.Err() != nil {
				continue // sent, or cancelled: the ctx case handles it
			}
			if !s.abandon(c) {
				return s.finish(rep, c, <-c.resp)
			}
			s.markUnsent(id)
			// Only a conn that never took the message proves it never
			// reached the server (an HTTP exchange that failed midway
			// may have been served).
			rep.unsent = errors.Is(err, wire.ErrClosed) || errors.Is(err, wire.ErrNotStarted) ||
				errors.Is(err, wire.ErrUnreachable) || errors.Is(err, syscall.EPIPE)
			if errors.Is(err, wire.ErrClosed) && !l.isClosed() {
				// The conn saw the end first (a stdio server that just
				// exited); its OnClose, with the reason, follows.
				t := time.NewTimer(time.Second)
				select {
				case <-l.done:
				case <-t.C:
				}
				t.Stop()
			}
			if l.isClosed() {
				return rep, &ClosedError{Method: method, Err: l.closeErr()}
			}
			if errors.Is(err, wire.ErrClosed) {
				return rep, &ClosedError{Method: method, Err: err}
			}
			var httpErr *wire.HTTPError
			if !rep.unsent && !errors.As(err, &httpErr) {
				// The exchange broke after the request left (an HTTP
				// connection dropped before the answer): no answer will
				// come on it.
				return rep, &LostError{Method: method, Err: err}
			}
			return rep, err
		case <-timerC:
			if !s.abandon(c) {
				return s.finish(rep, c, <-c.resp)
			}
			s.log.MarkTimedOut(s.conn, events.DirOut, id)
			// A write still under way (a stdio server that stopped
			// reading) ends now; a request it never finished needs no
			// cancel, which would only queue behind it.
			stopSend()
			if !s.notWritten(c, sent) {
				s.sendCancelled(l, c, "timed out")
			}
			abandonOnConn(l, id)
			return rep, &TimeoutError{Method: method, After: time.Since(c.start)}
		case <-ctx.Done():
			if !s.abandon(c) {
				return s.finish(rep, c, <-c.resp)
			}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				s.log.MarkTimedOut(s.conn, events.DirOut, id)
			} else {
				s.log.MarkCancelled(s.conn, events.DirOut, id)
			}
			reason := "cancelled"
			if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
				reason = cause.Error()
			} else if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				reason = "timed out"
			}
			if !s.notWritten(c, sent) {
				s.sendCancelled(l, c, reason)
			}
			abandonOnConn(l, id)
			return rep, ctx.Err()
		case <-l.done:
			if !s.abandon(c) {
				return s.finish(rep, c, <-c.resp)
			}
			return rep, &ClosedError{Method: method, Err: l.closeErr()}
		}
	}
}

// finish turns an answer into the operation's reply.
func (s *Session) finish(rep *Reply, c *call, r response) (*Reply, error) {
	rep.Duration = time.Since(c.start)
	if r.lost != nil {
		return rep, &LostError{Method: rep.Method, Err: r.lost}
	}
	if r.invalid != nil {
		return rep, r.invalid
	}
	if r.err != nil {
		return rep, r.err
	}
	rep.Raw = r.result
	return rep, nil
}

// abandon stops waiting for c; false means its answer is already on the
// way and must be taken.
func (s *Session) abandon(c *call) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch c.state {
	case callAnswered:
		return false
	case callWaiting:
		c.state = callAbandoned
		s.forgetLocked(c)
		const maxGaveUp = 4096
		if len(s.gaveUp) >= maxGaveUp {
			clear(s.gaveUp)
		}
		s.gaveUp[c.id] = gaveUp{run: c.run, rpc: c.rpc, round: c.round}
	}
	return true
}

// forgetLocked removes c from the tables. Call with s.mu held.
func (s *Session) forgetLocked(c *call) {
	if s.pending[c.id] == c {
		delete(s.pending, c.id)
	}
	if c.token != "" && s.tokens[c.token] == c {
		delete(s.tokens, c.token)
	}
}

// markUnsent tells the log that a request never reached the server, when
// the log can record that.
func (s *Session) markUnsent(id string) {
	if m, ok := s.log.(interface {
		MarkNoResponse(conn string, dir events.Direction, id string)
	}); ok {
		m.MarkNoResponse(s.conn, events.DirOut, id)
	}
}

// notWritten waits (briefly) for the write of c's request, whose context
// has ended, when it has not returned yet (sent is nil once it has), and
// reports whether the request never reached the server entirely. It
// records that as a warning.
func (s *Session) notWritten(c *call, sent <-chan error) bool {
	if sent == nil {
		return false
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	var err error
	select {
	case err = <-sent:
	case <-t.C:
		return false
	}
	if !errors.Is(err, wire.ErrNotSent) {
		return false
	}
	s.log.Append(events.Event{Conn: s.conn, Kind: events.KindWarning, Run: c.run, RPC: c.rpc,
		Text: fmt.Sprintf("request %s (%s) was not written completely: the server is not reading its input; no notifications/cancelled sent", c.id, c.method)})
	return true
}

// sendCancelled sends notifications/cancelled for c (never for
// initialize, which the protocol forbids cancelling). It is recorded once
// written; a cancel that could not be written (the server does not read)
// is recorded as a warning saying so.
func (s *Session) sendCancelled(l *link, c *call, reason string) {
	if c.method == "initialize" || l.isClosed() {
		return
	}
	params, _ := json.Marshal(struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason,omitempty"`
	}{json.RawMessage(c.id), reason})
	raw := buildNotification("notifications/cancelled", params)
	ctx, cancel := context.WithTimeout(context.Background(), cancelWriteWait)
	defer cancel()
	if err := s.write(ctx, l, raw, nil); err != nil {
		if !l.isClosed() {
			s.log.Append(events.Event{Conn: s.conn, Kind: events.KindWarning, Run: c.run, RPC: c.rpc,
				Text: fmt.Sprintf("notifications/cancelled for request %s (%s) not sent: %v", c.id, c.method, err)})
		}
		return
	}
	s.recordOn(l, events.Event{Type: events.MsgNotification, Method: "notifications/cancelled", Raw: raw, Run: c.run, RPC: c.rpc})
}

// cancelWriteWait bounds the write of a notifications/cancelled.
const cancelWriteWait = 5 * time.Second

// maxTasks bounds the task id → run table: past it the oldest task is
// forgotten (its later traffic is then related like any other).
const maxTasks = 4096

// rememberTaskLocked relates task id to run. Call with s.mu held.
func (s *Session) rememberTaskLocked(id, run string) {
	if _, ok := s.tasks[id]; !ok {
		for len(s.tasks) >= maxTasks && len(s.taskOrder) > 0 {
			delete(s.tasks, s.taskOrder[0])
			s.taskOrder[0] = ""
			s.taskOrder = s.taskOrder[1:]
		}
		s.taskOrder = append(s.taskOrder, id)
	}
	s.tasks[id] = run
}

// abandonOnConn tells l's conn, when it wants to know, that the session
// stopped waiting for the request with id (so that it can release the
// request's response stream after a short grace for a late reply).
func abandonOnConn(l *link, id string) {
	if a, ok := l.conn.(wire.Abandoner); ok {
		a.Abandon(id)
	}
}

// send records m (an outgoing message: Raw, Type, ID, Method, Run, RPC)
// and writes it.
func (s *Session) send(ctx context.Context, l *link, m events.Event, header http.Header) (uint64, error) {
	seq, ok := s.recordOn(l, m)
	if !ok {
		return 0, &ClosedError{Err: l.closeErr()}
	}
	return seq, s.write(ctx, l, m.Raw, header)
}

// recordOn appends m to the log as an outgoing message on l, unless l
// has ended: a request recorded after the log was told the connection
// closed would wait forever.
func (s *Session) recordOn(l *link, m events.Event) (uint64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, false
	}
	m.Conn, m.Kind, m.Dir = s.conn, events.KindMessage, events.DirOut
	return s.log.Append(m), true
}

// recordIn appends m, a request that came in on l, to the log, and
// reports whether l is still open. A request the wire had already read
// when l closed arrives after the log was told the connection closed:
// nobody will answer it, so it is marked NoResponse at once (it would
// wait forever) and is not served.
func (s *Session) recordIn(l *link, m events.Event) (uint64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	seq := s.log.Append(m)
	if l.closed {
		s.log.MarkNoResponse(m.Conn, events.DirIn, m.ID)
	}
	return seq, !l.closed
}

// write hands raw to the wire.
func (s *Session) write(ctx context.Context, l *link, raw []byte, header http.Header) error {
	var so *wire.SendOptions
	if header != nil {
		so = &wire.SendOptions{Header: header}
	}
	return l.conn.Send(ctx, raw, so)
}

// notify sends a notification on l.
func (s *Session) notify(ctx context.Context, l *link, method string, params json.RawMessage, run string, header http.Header) error {
	return s.notifyRPC(ctx, l, method, params, run, header, nil)
}

// notifyRPC sends a notification that belongs to a tool call attempt.
func (s *Session) notifyRPC(ctx context.Context, l *link, method string, params json.RawMessage, run string, header http.Header, rpc *events.RPCInfo) error {
	s.mu.Lock()
	extra := s.metaLocked(nil, method)
	s.mu.Unlock()
	if len(extra) > 0 && method != "notifications/initialized" && method != "notifications/cancelled" {
		var err error
		if params, _, err = mergeMeta(params, extra, nil); err != nil {
			return err
		}
	}
	_, err := s.send(ctx, l, events.Event{Type: events.MsgNotification, Method: method, Raw: buildNotification(method, params), Run: run, RPC: rpc}, header)
	if err != nil {
		return fmt.Errorf("session: %s: %w", method, err)
	}
	return nil
}

func buildNotification(method string, params json.RawMessage) []byte {
	b := make([]byte, 0, 48+len(method)+len(params))
	b = append(b, `{"jsonrpc":"2.0","method":`...)
	b = appendString(b, method)
	if len(params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

func buildRequest(id, method string, params json.RawMessage) []byte {
	b := make([]byte, 0, 48+len(method)+len(params))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"method":`...)
	b = appendString(b, method)
	if len(params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

func appendString(b []byte, s string) []byte {
	simple := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			simple = false
			break
		}
	}
	if simple {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// envelope is the shape of any JSON-RPC message. Its spans are windows
// on the message's own bytes, so that a 100 MB result is not copied to be
// read.
type envelope struct {
	JSONRPC span   `json:"jsonrpc"`
	ID      span   `json:"id"`
	Method  string `json:"method"`
	Params  span   `json:"params"`
	Result  span   `json:"result"`
	Error   span   `json:"error"`
}

// span is a JSON value kept as the bytes it was decoded from, like
// json.RawMessage but without a copy: json.Unmarshal hands UnmarshalJSON
// a sub-slice of its input, and a span keeps that slice. Decode into
// spans only from bytes that are never modified afterwards (a received
// message is immutable: the log keeps it); TestSpanAliasesInput holds
// encoding/json to this.
type span []byte

// UnmarshalJSON keeps b itself.
func (s *span) UnmarshalJSON(b []byte) error {
	*s = b[:len(b):len(b)]
	return nil
}

// onMessage handles the exact bytes of one incoming message (or batch).
// It never blocks on handlers or listeners.
func (s *Session) onMessage(l *link, raw []byte) {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) > 0 && t[0] == '[' {
		var batch []span
		if err := json.Unmarshal(t, &batch); err == nil {
			for _, m := range batch {
				s.onOne(l, m)
			}
			return
		}
	}
	s.onOne(l, raw)
}

func (s *Session) onOne(l *link, raw []byte) {
	now := time.Now()
	env, err := decodeEnvelope(raw)
	if err != nil {
		s.log.Append(events.Event{Time: now, Conn: s.conn, Kind: events.KindInvalid, Raw: raw, Text: "not a JSON-RPC message: " + err.Error()})
		return
	}
	id := bytes.TrimSpace(env.ID)
	hasID := len(id) > 0 && string(id) != "null"
	switch {
	case env.Method != "" && hasID:
		run, _ := s.relate(json.RawMessage(env.Params))
		seq, open := s.recordIn(l, events.Event{Time: now, Conn: s.conn, Kind: events.KindMessage, Dir: events.DirIn,
			Type: events.MsgRequest, ID: string(id), Method: env.Method, Raw: raw, Run: run})
		if open {
			s.serveRequest(l, string(id), env.Method, json.RawMessage(env.Params), raw, run, seq)
		}
	case env.Method != "":
		run, rel := s.relate(json.RawMessage(env.Params))
		seq := s.log.Append(events.Event{Time: now, Conn: s.conn, Kind: events.KindMessage, Dir: events.DirIn,
			Type: events.MsgNotification, Method: env.Method, Raw: raw, Run: run})
		s.onNotification(l, env.Method, json.RawMessage(env.Params), raw, run, seq, rel, now)
	case hasID || len(env.Result) > 0 || len(env.Error) > 0:
		key := string(id)
		s.mu.Lock()
		c := s.pending[key]
		run := ""
		var rpc *events.RPCInfo
		var round *events.RoundInfo
		if c != nil && c.state == callWaiting {
			c.state = callAnswered
			s.forgetLocked(c)
			run, rpc, round = c.run, c.rpc, c.round
			if c.method == "tools/call" && bytes.Contains(env.Result, []byte(`"taskId"`)) {
				// Relate the task's later traffic to this run before
				// anything else about it is read.
				var tr struct {
					Task *struct {
						TaskID string `json:"taskId"`
					} `json:"task"`
				}
				if json.Unmarshal(env.Result, &tr) == nil && tr.Task != nil && tr.Task.TaskID != "" {
					s.rememberTaskLocked(tr.Task.TaskID, run)
				}
			}
		} else {
			c = nil
			g := s.gaveUp[key]
			run, rpc, round = g.run, g.rpc, g.round
			delete(s.gaveUp, key)
		}
		s.mu.Unlock()
		if v := bytes.TrimSpace(env.JSONRPC); string(v) != `"2.0"` {
			// Not JSON-RPC 2.0: no answer to pair, or to take.
			if len(v) == 0 {
				v = []byte("missing")
			}
			why := fmt.Sprintf(`response to request %s has "jsonrpc" %s, not "2.0"`, key, v)
			s.log.Append(events.Event{Time: now, Conn: s.conn, Kind: events.KindInvalid, Raw: raw, Run: run, RPC: rpc, Text: why})
			if c != nil {
				s.markUnsent(key)
				c.resp <- response{invalid: fmt.Errorf("%w: %s", ErrInvalidMessage, why)}
			}
			return
		}
		r := response{result: json.RawMessage(env.Result)}
		typ := events.MsgResult
		if len(env.Error) > 0 && string(env.Error) != "null" {
			r.err = decodeRPCError(json.RawMessage(env.Error))
			typ = events.MsgError
		}
		if round == nil && typ == events.MsgResult && needsInput(json.RawMessage(env.Result)) {
			// The first round of a multi round-trip request: only its
			// result says so.
			round = &events.RoundInfo{Conversation: key, N: 1}
		}
		s.log.Append(events.Event{Time: now, Conn: s.conn, Kind: events.KindMessage, Dir: events.DirIn,
			Type: typ, ID: key, Raw: raw, Run: run, RPC: rpc, Round: round})
		if c == nil {
			return
		}
		c.resp <- r
	default:
		s.log.Append(events.Event{Time: now, Conn: s.conn, Kind: events.KindInvalid, Raw: raw, Text: "JSON-RPC message without method or id"})
	}
}

// onLost fails the request whose answer the wire says will never come
// (its HTTP response stream ended early), while the connection lives on.
func (s *Session) onLost(l *link, id string, err error) {
	s.mu.Lock()
	c := s.pending[id]
	if c == nil || c.link != l || c.state != callWaiting {
		s.mu.Unlock()
		return
	}
	c.state = callAnswered
	s.forgetLocked(c)
	s.mu.Unlock()
	s.markUnsent(id) // the log: no response
	c.resp <- response{lost: err}
}

func decodeRPCError(raw json.RawMessage) *RPCError {
	e := &RPCError{}
	if err := json.Unmarshal(raw, e); err != nil {
		var msg string
		if json.Unmarshal(raw, &msg) == nil {
			return &RPCError{Code: CodeInternalError, Message: msg}
		}
		return &RPCError{Code: CodeInternalError, Message: string(raw)}
	}
	return e
}

// related is what an incoming message says about the run it belongs to.
type related struct {
	token     string // progress token (JSON text)
	requestID string // notifications/cancelled: the request (JSON text)
	taskID    string
}

// relate finds the run an incoming request or notification belongs to:
// by progress token, by related task, by the request a cancellation
// names, or, when exactly one user operation is in flight, that one.
func (s *Session) relate(params json.RawMessage) (string, related) {
	rel := relatedOf(params)
	s.mu.Lock()
	defer s.mu.Unlock()
	if rel.token != "" {
		if c := s.tokens[rel.token]; c != nil {
			return c.run, rel
		}
	}
	if rel.taskID != "" {
		if run, ok := s.tasks[rel.taskID]; ok {
			return run, rel
		}
	}
	if rel.requestID != "" {
		if l := s.link; l != nil {
			l.mu.Lock()
			sr := l.sreqs[rel.requestID]
			l.mu.Unlock()
			if sr != nil {
				return sr.run, rel
			}
		}
	}
	run := ""
	n := 0
	for _, c := range s.pending {
		if c.user {
			n++
			run = c.run
		}
	}
	if n == 1 {
		return run, rel
	}
	return "", rel
}

// stopProgress ends the progress goroutine of c.
func (c *call) stopProgress() {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if !c.pdone {
		c.pdone = true
		close(c.progress)
	}
}

// deliverProgress hands p to c's progress callback without blocking.
func (c *call) deliverProgress(p Progress) {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if c.pdone || c.progress == nil {
		return
	}
	p.Dropped = c.pdropped
	select {
	case c.progress <- p:
		c.pdropped = 0
	default:
		c.pdropped++
	}
}

// holdRun pauses the timeouts of the requests in run while a server
// request of that run is being answered (of every operation in flight when
// the server request belongs to no run: any of them may be waiting for
// it); the returned func resumes them with a full timeout.
func (s *Session) holdRun(run string) func() {
	return s.hold(func(c *call) bool { return c.user && (run == "" || c.run == run) })
}

// holdCall pauses the timeout of one call while its own write waits for
// a person (an OAuth sign-in inside Send, see wire.SendOptions.Hold).
func (s *Session) holdCall(c *call) func() {
	return s.hold(func(p *call) bool { return p == c })
}

// hold pauses the timeouts of the pending calls that match and returns
// the function that resumes them with a full timeout (once, however often
// it is called).
func (s *Session) hold(match func(*call) bool) func() {
	s.mu.Lock()
	var held []*call
	for _, c := range s.pending {
		if c.timer != nil && c.state == callWaiting && match(c) {
			c.holds++
			c.timer.Stop()
			held = append(held, c)
		}
	}
	s.mu.Unlock()
	if len(held) == 0 {
		return func() {}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, c := range held {
				c.holds--
				if c.holds == 0 && c.state == callWaiting {
					c.timer.Reset(c.timeout)
				}
			}
		})
	}
}
