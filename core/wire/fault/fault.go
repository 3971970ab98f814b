package fault

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Kind is a kind of fault.
type Kind string

// The kinds of fault.
const (
	// Delay holds each matching message for Rule.Delay.
	Delay Kind = "delay"
	// Drop never sends (out) or delivers (in) a matching message.
	Drop Kind = "drop"
	// Duplicate sends or delivers a matching message twice.
	Duplicate Kind = "dup"
	// Corrupt truncates a matching message to half its length (invalid
	// JSON).
	Corrupt Kind = "corrupt"
	// Reorder holds a matching message until the next message in the same
	// direction has passed (or ReorderWait has elapsed).
	Reorder Kind = "reorder"
	// Cut closes the connection once Rule.After messages (in Rule.Dir)
	// have passed; the session sees the connection end with an error
	// matching ErrInjected.
	Cut Kind = "cut"
	// Error answers a matching outgoing request with a JSON-RPC error
	// (Rule.Code, Rule.Message) instead of sending it.
	Error Kind = "error"
	// Late delivers the responses to matching requests Rule.Delay late,
	// while other messages keep flowing.
	Late Kind = "late"
	// UnknownID gives the responses to matching requests an id that no
	// request has.
	UnknownID Kind = "unknown-id"
)

// Direction says which way a rule applies.
type Direction string

// The directions.
const (
	Both Direction = "both"
	In   Direction = "in"  // server → client
	Out  Direction = "out" // client → server
)

// Rule is one fault.
type Rule struct {
	Kind Kind
	// Dir is the direction it applies to (Both when empty). Error, Late
	// and UnknownID always act on requests going out and their answers.
	Dir Direction
	// Method limits the rule to messages of this method; a response
	// counts as the method of the request it answers. Empty: every
	// message.
	Method string
	// Delay is the wait of Delay and Late.
	Delay time.Duration
	// After is the number of messages after which Cut cuts.
	After int
	// Code and Message are the injected JSON-RPC error (Error); -32000
	// and "injected fault" when zero.
	Code    int
	Message string
	// Count limits the rule to its first Count matches (0: every one).
	Count int
}

// Spec is a set of rules.
type Spec struct {
	Rules []Rule
}

// ErrInjected is matched by the errors the injector causes (the cut of a
// connection).
var ErrInjected = errors.New("fault: injected")

// ErrSpec is wrapped by Parse errors.
var ErrSpec = errors.New("fault: bad spec")

// ReorderWait bounds how long Reorder holds a message when no other
// message follows.
const ReorderWait = 500 * time.Millisecond

// Parse reads the string form of a spec (see the package documentation).
// The empty string is the empty spec.
func Parse(s string) (Spec, error) {
	var spec Spec
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, err := parseRule(part)
		if err != nil {
			return Spec{}, err
		}
		spec.Rules = append(spec.Rules, r)
	}
	return spec, nil
}

func parseRule(part string) (Rule, error) {
	kind, arg, _ := strings.Cut(part, "=")
	r := Rule{Kind: Kind(strings.TrimSpace(kind))}
	bad := func(why string) (Rule, error) {
		return Rule{}, fmt.Errorf("%w: %q: %s", ErrSpec, part, why)
	}
	var args []string
	if arg != "" {
		args = strings.Split(arg, ":")
	}
	if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "*") {
		c, err := strconv.Atoi(args[n-1][1:])
		if err != nil || c < 1 {
			return bad("count must be *N with N ≥ 1")
		}
		r.Count = c
		args = args[:n-1]
	}
	if len(args) > 0 {
		switch Direction(args[0]) {
		case In, Out, Both:
			r.Dir = Direction(args[0])
			args = args[1:]
		}
	}
	switch r.Kind {
	case Drop, Duplicate, Corrupt, Reorder:
		if len(args) > 1 {
			return bad("want [in|out|both][:method]")
		}
	case Delay, Late:
		if len(args) == 0 {
			return bad("missing duration")
		}
		d, err := time.ParseDuration(args[len(args)-1])
		if err != nil || d < 0 {
			return bad("bad duration")
		}
		r.Delay = d
		args = args[:len(args)-1]
		if len(args) > 1 {
			return bad("want [dir:][method:]duration")
		}
	case Cut:
		if len(args) != 1 {
			return bad("want cut=[dir:]N")
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 {
			return bad("N must be a number ≥ 0")
		}
		r.After = n
		args = nil
	case Error:
		if len(args) == 2 {
			c, err := strconv.Atoi(args[1])
			if err != nil {
				return bad("bad error code")
			}
			r.Code = c
			args = args[:1]
		}
		if len(args) > 1 {
			return bad("want error=[method][:code]")
		}
	case UnknownID:
		if len(args) > 1 {
			return bad("want unknown-id=[method]")
		}
	default:
		return bad("unknown fault kind")
	}
	if len(args) == 1 {
		r.Method = args[0]
	}
	return r, nil
}

// String writes the spec in the form Parse reads.
func (s Spec) String() string {
	parts := make([]string, 0, len(s.Rules))
	for _, r := range s.Rules {
		parts = append(parts, r.String())
	}
	return strings.Join(parts, ",")
}

// String writes the rule in the form Parse reads.
func (r Rule) String() string {
	var args []string
	if r.Dir != "" && r.Dir != Both && r.Kind != Error && r.Kind != Late && r.Kind != UnknownID {
		args = append(args, string(r.Dir))
	}
	if r.Kind == Cut {
		args = append(args, strconv.Itoa(r.After))
	} else if r.Method != "" || r.Kind == Error && r.Code != 0 {
		args = append(args, r.Method)
	}
	switch r.Kind {
	case Delay, Late:
		args = append(args, r.Delay.String())
	case Error:
		if r.Code != 0 {
			args = append(args, strconv.Itoa(r.Code))
		}
	}
	if r.Count > 0 {
		args = append(args, "*"+strconv.Itoa(r.Count))
	}
	if len(args) == 0 {
		return string(r.Kind)
	}
	return string(r.Kind) + "=" + strings.Join(args, ":")
}

// Injector makes faulty conns from one spec. A rule's *N count spans
// every conn it wraps (so that "cut=3:*1" cuts one connection, and the
// one dialed after it works); message counts (for Cut) are per conn. It
// is safe for concurrent use.
type Injector struct {
	spec Spec
	rec  wire.Recorder

	mu   sync.Mutex
	used []int // matches so far, per rule
}

// New returns an injector of spec's faults that records each fault into
// rec (which may be nil).
func New(spec Spec, rec wire.Recorder) *Injector {
	return &Injector{spec: spec, rec: rec, used: make([]int, len(spec.Rules))}
}

// Spec returns the injector's spec.
func (in *Injector) Spec() Spec { return in.spec }

// Conn is a wire.Conn with faults injected. It is safe for concurrent use.
type Conn struct {
	inner wire.Conn
	inj   *Injector
	spec  Spec
	rec   wire.Recorder
	name  string

	mu       sync.Mutex
	h        wire.Handler
	passed   map[Direction]int // messages that passed, per direction (and Both)
	methods  map[string]string // request id (dir+id) → method, to match responses
	held     map[Direction]*heldMsg
	closed   bool
	cutErr   error
	ctx      context.Context
	cancel   context.CancelFunc
	queue    [][]byte // injected answers waiting for delivery, in order
	draining bool     // a goroutine is delivering queue

	deliverMu sync.Mutex // serializes OnMessage calls
	closeOnce sync.Once
}

type heldMsg struct {
	msg   []byte
	timer *time.Timer
	flush func([]byte)
}

// Wrap returns c with the faults of spec injected; each fault is recorded
// into rec (which may be nil) as a warning on connection conn. It is
// New(spec, rec).Wrap(c, conn): counts are not shared with other conns.
func Wrap(c wire.Conn, spec Spec, rec wire.Recorder, conn string) *Conn {
	return New(spec, rec).Wrap(c, conn)
}

// Dial wraps a session's dial function: every conn it makes gets the
// injector's faults, recorded on connection conn.
func (in *Injector) Dial(dial func(ctx context.Context) (wire.Conn, error), conn string) func(ctx context.Context) (wire.Conn, error) {
	return func(ctx context.Context) (wire.Conn, error) {
		c, err := dial(ctx)
		if err != nil {
			return nil, err
		}
		return in.Wrap(c, conn), nil
	}
}

// Wrap returns c with the injector's faults; conn names the connection in
// the recorded warnings. Use it in a session's dial function.
func (in *Injector) Wrap(c wire.Conn, conn string) *Conn {
	ctx, cancel := context.WithCancel(context.Background())
	return &Conn{
		inner: c, inj: in, spec: in.spec, rec: in.rec, name: conn,
		passed:  map[Direction]int{},
		methods: map[string]string{}, held: map[Direction]*heldMsg{},
		ctx: ctx, cancel: cancel,
	}
}

var _ wire.Conn = (*Conn)(nil)

// Start starts the inner conn, delivering what arrives through the
// faults.
func (c *Conn) Start(ctx context.Context, h wire.Handler) error {
	c.mu.Lock()
	c.h = h
	c.mu.Unlock()
	return c.inner.Start(ctx, wire.Handler{OnMessage: c.onIn, OnClose: c.onClose, OnLost: c.onLost})
}

// SetProtocolVersion passes the version to the inner conn when it takes
// one (HTTP).
func (c *Conn) SetProtocolVersion(v string) {
	if p, ok := c.inner.(interface{ SetProtocolVersion(string) }); ok {
		p.SetProtocolVersion(v)
	}
}

// Abandon passes on that the caller stopped waiting for the request with
// id, when the inner conn wants to know (see [wire.Abandoner]).
func (c *Conn) Abandon(id string) {
	if a, ok := c.inner.(wire.Abandoner); ok {
		a.Abandon(id)
	}
}

// Close closes the inner conn and drops whatever is held back.
func (c *Conn) Close() error {
	c.cancel()
	return c.inner.Close()
}

// peeked is what the injector knows about a message.
type peeked struct {
	method   string // its method, or for a response its request's method
	id       string // JSON text of the id ("" for notifications)
	request  bool
	response bool
}

func (c *Conn) peek(msg []byte, dir Direction) peeked {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return peeked{}
	}
	p := peeked{method: m.Method, id: string(bytes.TrimSpace(m.ID))}
	if p.id == "null" {
		p.id = ""
	}
	switch {
	case m.Method != "" && p.id != "":
		p.request = true
		c.mu.Lock()
		if len(c.methods) > 10000 {
			clear(c.methods)
		}
		c.methods[string(dir)+p.id] = m.Method
		c.mu.Unlock()
	case m.Method == "" && p.id != "":
		p.response = true
		other := In
		if dir == In {
			other = Out
		}
		c.mu.Lock()
		p.method = c.methods[string(other)+p.id]
		c.mu.Unlock()
	}
	return p
}

// match returns the rules of the given kinds that apply to a message and
// counts the match. Call without c.mu.
func (c *Conn) match(p peeked, dir Direction, kinds ...Kind) []Rule {
	c.inj.mu.Lock()
	defer c.inj.mu.Unlock()
	var out []Rule
	for i, r := range c.spec.Rules {
		ok := false
		for _, k := range kinds {
			ok = ok || r.Kind == k
		}
		if !ok {
			continue
		}
		switch r.Kind {
		case Error:
			if dir != Out || !p.request {
				continue
			}
		case Late, UnknownID:
			if dir != In || !p.response {
				continue
			}
		default:
			if r.Dir != "" && r.Dir != Both && r.Dir != dir {
				continue
			}
		}
		if r.Method != "" && r.Method != p.method {
			continue
		}
		if r.Count > 0 && c.inj.used[i] >= r.Count {
			continue
		}
		c.inj.used[i]++
		out = append(out, r)
	}
	return out
}

func (c *Conn) warn(r Rule, dir Direction, p peeked, what string) {
	if c.rec == nil {
		return
	}
	text := "fault injected: " + what
	if p.method != "" {
		text += " · " + p.method
	}
	if p.id != "" {
		text += " #" + p.id
	}
	text += " (" + string(dir) + "; rule " + r.String() + ")"
	c.rec.Append(events.Event{Time: time.Now(), Conn: c.name, Kind: events.KindWarning, Text: text})
}

// Send sends msg through the faults.
func (c *Conn) Send(ctx context.Context, msg []byte, opts *wire.SendOptions) error {
	c.mu.Lock()
	closed, cutErr := c.closed, c.cutErr
	c.mu.Unlock()
	if closed {
		if cutErr != nil {
			return fmt.Errorf("%w: %w", wire.ErrClosed, cutErr)
		}
		return wire.ErrClosed
	}
	p := c.peek(msg, Out)
	// match applies Error rules to requests only (a notification has no
	// id to answer); the first matching rule gives the error.
	if rs := c.match(p, Out, Error); len(rs) > 0 {
		c.warn(rs[0], Out, p, "JSON-RPC error instead of sending")
		c.deliverLater(errorAnswer(rs[0], p))
		return nil
	}
	return c.pass(ctx, Out, p, msg, func(b []byte) error { return c.inner.Send(ctx, b, opts) }, nil)
}

// errorAnswer is the JSON-RPC error an Error rule answers request p with.
func errorAnswer(r Rule, p peeked) []byte {
	code, text := r.Code, r.Message
	if code == 0 {
		code = -32000
	}
	if text == "" {
		text = "injected fault"
	}
	e, _ := json.Marshal(struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, text})
	return []byte(`{"jsonrpc":"2.0","id":` + p.id + `,"error":` + string(e) + `}`)
}

// Verdict says what the faults did with a message given to Pass.
type Verdict int

// The verdicts.
const (
	// Forwarded: handed on (twice or more for dup, changed by corrupt or
	// unknown-id, after the wait of delay or late).
	Forwarded Verdict = iota
	// Dropped: not handed on.
	Dropped
	// Held: held back by reorder; forward is called later, on another
	// goroutine, once the next message in the same direction has passed
	// (or after ReorderWait).
	Held
	// Answered: an outgoing request that an error rule answers instead
	// of sending; Pass returns the answer.
	Answered
)

// Pass applies the faults to one message travelling in dir (In or Out),
// for a carrier that moves each message in an exchange of its own (the
// HTTP tap, where a request body goes up in one POST and its answer comes
// back in that POST's response) rather than through the inner conn: what
// is left of msg is handed to forward, which may be called more than
// once (dup) or later (reorder). Error rules answer outgoing requests
// (the answer is returned with Answered); late waits before forwarding.
// The faults are counted and recorded as on the Conn's own traffic, and
// a cut closes the inner conn. On a closed Conn it returns Dropped and an
// error matching wire.ErrClosed.
func (c *Conn) Pass(ctx context.Context, dir Direction, msg []byte, forward func([]byte) error) (Verdict, []byte, error) {
	c.mu.Lock()
	closed, cutErr := c.closed, c.cutErr
	c.mu.Unlock()
	if closed {
		if cutErr != nil {
			return Dropped, nil, fmt.Errorf("%w: %w", wire.ErrClosed, cutErr)
		}
		return Dropped, nil, wire.ErrClosed
	}
	p := c.peek(msg, dir)
	if dir == Out {
		if rs := c.match(p, Out, Error); len(rs) > 0 {
			c.warn(rs[0], Out, p, "JSON-RPC error instead of sending")
			return Answered, errorAnswer(rs[0], p), nil
		}
	} else {
		for _, r := range c.match(p, In, UnknownID) {
			c.warn(r, In, p, "response id replaced by an unknown one")
			msg = replaceID(msg, `"spyglass-fault-unknown-`+strconv.FormatInt(time.Now().UnixNano(), 36)+`"`)
		}
		for _, r := range c.match(p, In, Late) {
			c.warn(r, In, p, "response held "+r.Delay.String())
			if err := c.wait(ctx, r.Delay); err != nil {
				return Dropped, nil, err
			}
		}
	}
	v := Forwarded
	err := c.pass(ctx, dir, p, msg, forward, &v)
	return v, nil, err
}

// wait waits d, or until ctx ends or the conn closes.
func (c *Conn) wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return wire.ErrClosed
	}
}

// onIn handles a message from the inner conn.
func (c *Conn) onIn(msg []byte) {
	p := c.peek(msg, In)
	for _, r := range c.match(p, In, UnknownID) {
		c.warn(r, In, p, "response id replaced by an unknown one")
		msg = replaceID(msg, `"spyglass-fault-unknown-`+strconv.FormatInt(time.Now().UnixNano(), 36)+`"`)
	}
	for _, r := range c.match(p, In, Late) {
		c.warn(r, In, p, "response held "+r.Delay.String())
		go func(b []byte, d time.Duration) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				c.deliver(b)
				_ = c.count(In)
			case <-c.ctx.Done():
			}
		}(msg, r.Delay)
		return
	}
	_ = c.pass(c.ctx, In, p, msg, func(b []byte) error { c.deliver(b); return nil }, nil)
}

// pass applies the per-message faults (drop, delay, corrupt, duplicate,
// reorder) and the cut, then hands msg on with forward. v, when not nil,
// is set to Dropped or Held when the message was.
func (c *Conn) pass(ctx context.Context, dir Direction, p peeked, msg []byte, forward func([]byte) error, v *Verdict) error {
	if rs := c.match(p, dir, Drop); len(rs) > 0 {
		c.warn(rs[0], dir, p, "dropped")
		if v != nil {
			*v = Dropped
		}
		return c.count(dir)
	}
	for _, r := range c.match(p, dir, Delay) {
		c.warn(r, dir, p, "delayed "+r.Delay.String())
		t := time.NewTimer(r.Delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-c.ctx.Done():
			t.Stop()
			return wire.ErrClosed
		}
	}
	for _, r := range c.match(p, dir, Corrupt) {
		c.warn(r, dir, p, "corrupted")
		msg = append([]byte(nil), msg[:len(msg)/2]...)
	}
	copies := 1
	for _, r := range c.match(p, dir, Duplicate) {
		c.warn(r, dir, p, "duplicated")
		copies++
	}
	if rs := c.match(p, dir, Reorder); len(rs) > 0 {
		c.warn(rs[0], dir, p, "held back to swap with the next message")
		if v != nil {
			*v = Held
		}
		c.hold(dir, msg, forward)
		return c.count(dir)
	}
	// A cut after this message is decided before it goes: its answer,
	// which may come back while it is being sent, is never delivered.
	cut := c.decide(dir)
	for i := 0; i < copies; i++ {
		if err := forward(msg); err != nil {
			if cut != nil {
				c.cutNow(*cut, dir)
			}
			return err
		}
	}
	c.release(dir)
	if cut != nil {
		c.cutNow(*cut, dir)
	}
	return nil
}

// hold keeps msg until the next message in dir passed, or ReorderWait.
func (c *Conn) hold(dir Direction, msg []byte, forward func([]byte) error) {
	c.release(dir) // one held message at a time
	h := &heldMsg{msg: msg, flush: func(b []byte) { _ = forward(b) }}
	c.mu.Lock()
	c.held[dir] = h
	h.timer = time.AfterFunc(ReorderWait, func() { c.release(dir) })
	c.mu.Unlock()
}

// release hands on the message held in dir, if any.
func (c *Conn) release(dir Direction) {
	c.mu.Lock()
	h := c.held[dir]
	delete(c.held, dir)
	c.mu.Unlock()
	if h != nil {
		h.timer.Stop()
		h.flush(h.msg)
	}
}

// count counts a message that passed in dir and cuts the connection when
// a Cut rule says so.
func (c *Conn) count(dir Direction) error {
	if cut := c.decide(dir); cut != nil {
		c.cutNow(*cut, dir)
	}
	return nil
}

// decide counts a message passing in dir and returns the Cut rule it
// reaches, if any, marking the conn closed at once: nothing more is
// delivered from then on (cutNow closes the inner conn).
func (c *Conn) decide(dir Direction) *Rule {
	c.mu.Lock()
	c.passed[dir]++
	c.passed[Both]++
	var cut *Rule
	for i, r := range c.spec.Rules {
		if r.Kind != Cut || c.closed {
			continue
		}
		d := r.Dir
		if d == "" {
			d = Both
		}
		if d != Both && d != dir {
			continue
		}
		if c.passed[d] >= r.After && c.inj.take(i) {
			cut = &c.spec.Rules[i]
			break
		}
	}
	if cut == nil {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.cutErr = fmt.Errorf("%w: connection cut after %d messages", ErrInjected, cut.After)
	c.mu.Unlock()
	return cut
}

// cutNow records the cut that decide made and closes the inner conn.
func (c *Conn) cutNow(cut Rule, dir Direction) {
	c.mu.Lock()
	err := c.cutErr
	c.mu.Unlock()
	c.warn(cut, dir, peeked{}, fmt.Sprintf("connection cut after %d messages", cut.After))
	go func() {
		c.cancel()
		_ = c.inner.Close()
		c.finish(err)
	}()
}

// take counts a match of rule i unless its count is used up.
func (in *Injector) take(i int) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if r := in.spec.Rules[i]; r.Count > 0 && in.used[i] >= r.Count {
		return false
	}
	in.used[i]++
	return true
}

// deliverLater delivers b after the messages queued before it, on
// another goroutine (Send may be called from within OnMessage).
func (c *Conn) deliverLater(b []byte) {
	c.mu.Lock()
	c.queue = append(c.queue, b)
	start := !c.draining
	c.draining = true
	c.mu.Unlock()
	if !start {
		return
	}
	go func() {
		for {
			c.mu.Lock()
			if len(c.queue) == 0 {
				c.draining = false
				c.queue = nil
				c.mu.Unlock()
				return
			}
			b := c.queue[0]
			c.queue[0] = nil
			c.queue = c.queue[1:]
			c.mu.Unlock()
			c.deliver(b)
		}
	}()
}

// deliver hands one message to the handler; calls never overlap.
func (c *Conn) deliver(b []byte) {
	c.deliverMu.Lock()
	defer c.deliverMu.Unlock()
	c.mu.Lock()
	h, done := c.h, c.closed
	c.mu.Unlock()
	if done || h.OnMessage == nil {
		return
	}
	h.OnMessage(b)
}

// onLost passes on the inner conn's news of a lost answer, in order with
// the messages.
func (c *Conn) onLost(id string, err error) {
	c.deliverMu.Lock()
	defer c.deliverMu.Unlock()
	c.mu.Lock()
	h, done := c.h, c.closed
	c.mu.Unlock()
	if !done && h.OnLost != nil {
		h.OnLost(id, err)
	}
}

func (c *Conn) onClose(err error) {
	c.mu.Lock()
	if c.cutErr != nil {
		err = c.cutErr
	}
	c.mu.Unlock()
	c.finish(err)
}

// finish calls the handler's OnClose once, after the last delivery.
func (c *Conn) finish(err error) {
	c.closeOnce.Do(func() {
		c.cancel()
		c.deliverMu.Lock()
		c.mu.Lock()
		c.closed = true
		h := c.h
		c.mu.Unlock()
		c.deliverMu.Unlock()
		if h.OnClose != nil {
			h.OnClose(err)
		}
	})
}

// replaceID returns msg with its top-level id replaced by id (JSON text).
func replaceID(msg []byte, id string) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(msg, &obj) != nil {
		return msg
	}
	obj["id"] = json.RawMessage(id)
	b, err := json.Marshal(obj)
	if err != nil {
		return msg
	}
	return b
}
