package sessiondiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wI2L/jsondiff"

	"github.com/spyglass-mcp/spyglass/core/events"
)

var (
	errEmptyPath  = errors.New("an empty path would ignore the whole message")
	errNotPointer = errors.New(`write a JSON pointer such as /result/content/0/text, or **/name for a key at any depth`)
)

// Op is the kind of one difference.
type Op string

// The kinds of difference, from the first session (A) to the second (B).
const (
	Added   Op = "added"   // only B has a value at the path
	Removed Op = "removed" // only A has a value at the path
	Changed Op = "changed" // both have one, and they differ
)

// Change is one difference inside a message.
type Change struct {
	Op Op `json:"op"`
	// Path is the JSON pointer of the value inside the message (the
	// request, or the response): /params/arguments/message,
	// /result/content/0/text.
	Path string `json:"path"`
	// Old is A's value (not for Added), New is B's (not for Removed).
	Old json.RawMessage `json:"old,omitempty"`
	New json.RawMessage `json:"new,omitempty"`
}

// Exchange is one request of a session with its response.
type Exchange struct {
	// Seq is the request's sequence number in its session.
	Seq uint64 `json:"seq"`
	// Conn is the connection (server) the request went over.
	Conn string `json:"conn,omitempty"`
	// Dir is the request's direction: out (client → server) or in
	// (server → client).
	Dir    events.Direction `json:"dir"`
	Method string           `json:"method"`
	// Name is what the request is about, when it names something: the
	// tool, prompt or resource (for people reading a report).
	Name string `json:"name,omitempty"`
	// Request and Response are the messages' bytes; Response is nil when
	// none arrived.
	Request  json.RawMessage `json:"-"`
	Response json.RawMessage `json:"-"`
	// Outcome and Latency are the request's outcome in its session.
	Outcome events.OutcomeState `json:"outcome,omitempty"`
	Latency time.Duration       `json:"latencyNs,omitempty"`
}

// Label is "tools/call echo", "ping".
func (x *Exchange) Label() string {
	if x.Name != "" {
		return x.Method + " " + x.Name
	}
	return x.Method
}

// Exchanges returns the requests of a session (both directions, in
// order) with the responses paired to them.
func Exchanges(evs []events.Event) []Exchange {
	bySeq := make(map[uint64]int, len(evs))
	for i := range evs {
		bySeq[evs[i].Seq] = i
	}
	var out []Exchange
	for i := range evs {
		e := &evs[i]
		if e.Kind != events.KindMessage || e.Type != events.MsgRequest || len(e.Raw) == 0 {
			continue
		}
		x := Exchange{Seq: e.Seq, Conn: e.Conn, Dir: e.Dir, Method: e.Method, Request: e.Raw, Name: nameOf(e.Raw)}
		if e.Outcome != nil {
			x.Outcome, x.Latency = e.Outcome.State, e.Outcome.Latency
		}
		if j, ok := bySeq[e.Pair]; ok && e.Pair != 0 {
			x.Response = evs[j].Raw
		}
		out = append(out, x)
	}
	return out
}

// nameOf reads params.name or params.uri of a request.
func nameOf(raw json.RawMessage) string {
	var m struct {
		Params struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"params"`
	}
	_ = json.Unmarshal(raw, &m)
	if m.Params.Name != "" {
		return m.Params.Name
	}
	return m.Params.URI
}

// Options tune a comparison.
type Options struct {
	// Ignore lists the JSON pointer patterns left out of every message
	// (see ParseIgnore); nil means DefaultIgnore. To add to the defaults,
	// append to DefaultIgnore.
	Ignore []string
}

// Pair is one request of A lined up with one of B, or a request only one
// session has (the other side nil).
type Pair struct {
	A *Exchange `json:"a,omitempty"`
	B *Exchange `json:"b,omitempty"`
	// Request and Response list what differs in the two messages.
	Request  []Change `json:"request,omitempty"`
	Response []Change `json:"response,omitempty"`
}

// Differs reports whether the pair has content differences (or is a
// request only one session has).
func (p *Pair) Differs() bool {
	return p.A == nil || p.B == nil || len(p.Request) > 0 || len(p.Response) > 0
}

// Label names the pair's request.
func (p *Pair) Label() string {
	if p.A != nil {
		return p.A.Label()
	}
	return p.B.Label()
}

// Timing is the latency of one pair in both sessions, kept apart from
// content differences: two runs never take the same time.
type Timing struct {
	Label string        `json:"label"`
	A     time.Duration `json:"aNs"`
	B     time.Duration `json:"bNs"`
}

// Result is the comparison of two sessions.
type Result struct {
	// Pairs are every request in A's order, B's unmatched requests after
	// the A request they followed.
	Pairs []Pair
	// Timing has one entry per matched pair that has a latency on both
	// sides.
	Timing []Timing
	// Ignore is the ignore list used.
	Ignore []string
}

// Equal reports whether no pair differs in content.
func (r *Result) Equal() bool {
	for i := range r.Pairs {
		if r.Pairs[i].Differs() {
			return false
		}
	}
	return true
}

// Differing returns the pairs that differ.
func (r *Result) Differing() []Pair {
	var out []Pair
	for _, p := range r.Pairs {
		if p.Differs() {
			out = append(out, p)
		}
	}
	return out
}

// Sessions compares two sessions' events (see Compare).
func Sessions(a, b []events.Event, opts *Options) (*Result, error) {
	return Compare(Exchanges(a), Exchanges(b), opts)
}

// Compare lines up two sessions' requests and diffs each pair. Requests
// are matched per direction, first by method and parameters (after the
// ignore list) in order, then what is left by method alone in order, so
// that a call whose arguments changed is reported as that change. When
// either side holds several connections (a window's trace of several
// servers), requests are matched only within the connection of the same
// name; with one connection on each side, the names may differ (the same
// server over stdio and over HTTP).
func Compare(a, b []Exchange, opts *Options) (*Result, error) {
	patterns := DefaultIgnore
	if opts != nil && opts.Ignore != nil {
		patterns = opts.Ignore
	}
	ig, err := ParseIgnore(patterns)
	if err != nil {
		return nil, err
	}
	byConn := len(conns(a)) > 1 || len(conns(b)) > 1
	keyA, keyB := keys(a, ig, byConn), keys(b, ig, byConn)
	match := make([]int, len(a)) // index into b, or -1
	used := make([]bool, len(b))
	for i := range match {
		match[i] = -1
	}
	// Pass 1: same direction, method and params, in order.
	next := 0
	for i := range a {
		for j := next; j < len(b); j++ {
			if !used[j] && keyA[i] == keyB[j] {
				match[i], used[j], next = j, true, j+1
				break
			}
		}
	}
	// Pass 2: what is left, by direction and method, in order.
	for i := range a {
		if match[i] >= 0 {
			continue
		}
		for j := range b {
			if !used[j] && a[i].Dir == b[j].Dir && a[i].Method == b[j].Method && (!byConn || a[i].Conn == b[j].Conn) {
				match[i], used[j] = j, true
				break
			}
		}
	}
	res := &Result{Ignore: ig.Patterns()}
	nextB := 0
	flushB := func(upto int) {
		for ; nextB < upto; nextB++ {
			if !used[nextB] {
				res.Pairs = append(res.Pairs, Pair{B: &b[nextB]})
			}
		}
	}
	for i := range a {
		j := match[i]
		if j < 0 {
			res.Pairs = append(res.Pairs, Pair{A: &a[i]})
			continue
		}
		flushB(j)
		p := Pair{A: &a[i], B: &b[j]}
		if p.Request, err = Messages(a[i].Request, b[j].Request, ig); err != nil {
			return nil, fmt.Errorf("compare %s requests %d and %d: %w", a[i].Method, a[i].Seq, b[j].Seq, err)
		}
		if p.Response, err = Messages(a[i].Response, b[j].Response, ig); err != nil {
			return nil, fmt.Errorf("compare %s responses %d and %d: %w", a[i].Method, a[i].Seq, b[j].Seq, err)
		}
		if a[i].Latency > 0 && b[j].Latency > 0 {
			res.Timing = append(res.Timing, Timing{Label: p.Label(), A: a[i].Latency, B: b[j].Latency})
		}
		res.Pairs = append(res.Pairs, p)
	}
	flushB(len(b))
	return res, nil
}

// conns returns the connection names of exchanges.
func conns(xs []Exchange) map[string]bool {
	out := map[string]bool{}
	for _, x := range xs {
		out[x.Conn] = true
	}
	return out
}

// keys are the matching keys of exchanges: direction, method and the
// params after the ignore list, in a canonical form (and the connection,
// when byConn).
func keys(xs []Exchange, ig *Ignore, byConn bool) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		prefix := ""
		if byConn {
			b, _ := json.Marshal(x.Conn)
			prefix = string(b) + " "
		}
		v, err := Decode(x.Request)
		if err != nil {
			out[i] = prefix + string(x.Dir) + " " + x.Method + " " + string(x.Request)
			continue
		}
		var params any
		if m, ok := ig.prune(v, nil).(map[string]any); ok {
			params = m["params"]
		}
		b, _ := json.Marshal(params) // maps marshal with sorted keys
		out[i] = prefix + string(x.Dir) + " " + x.Method + " " + string(b)
	}
	return out
}

// Decode decodes a JSON value as the diff reads it: json.Numbers keep
// the form they travelled in; nothing (an empty raw) is nil.
func Decode(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep the form they travelled in
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Messages diffs two JSON messages (a request, a response, or any JSON
// value) after the ignore list: every difference by JSON path. A missing
// message (nil) differs from any present one as a whole. Messages that
// are not JSON are compared as bytes.
func Messages(a, b json.RawMessage, ig *Ignore) ([]Change, error) {
	va, errA := Decode(a)
	vb, errB := Decode(b)
	if errA != nil || errB != nil {
		if bytes.Equal(a, b) {
			return nil, nil
		}
		return []Change{{Op: Changed, Path: "", Old: quoteBytes(a), New: quoteBytes(b)}}, nil
	}
	switch {
	case a == nil && b == nil:
		return nil, nil
	case a == nil:
		return []Change{{Op: Added, Path: "", New: compact(b)}}, nil
	case b == nil:
		return []Change{{Op: Removed, Path: "", Old: compact(a)}}, nil
	}
	va, vb = ig.prune(va, nil), ig.prune(vb, nil)
	patch, err := jsondiff.CompareWithoutMarshal(va, vb, jsondiff.LCS())
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	out := make([]Change, 0, len(patch))
	for _, op := range patch {
		c := Change{Path: op.Path}
		switch op.Type {
		case jsondiff.OperationAdd:
			c.Op, c.New = Added, marshal(op.Value)
		case jsondiff.OperationRemove:
			c.Op, c.Old = Removed, marshal(op.OldValue)
		case jsondiff.OperationReplace:
			c.Op, c.Old, c.New = Changed, marshal(op.OldValue), marshal(op.Value)
		default: // move, copy and test are not produced without Factorize/Invertible
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

func marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}

func compact(raw json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return quoteBytes(raw)
	}
	return buf.Bytes()
}

func quoteBytes(b []byte) json.RawMessage {
	if b == nil {
		return nil
	}
	q, _ := json.Marshal(string(b))
	return q
}

// Describe is one line for a person: `changed /params/arguments/message:
// "hi" → "hello"`. Long values are shortened to about max bytes each
// (0: no limit).
func (c Change) Describe(max int) string {
	short := func(v json.RawMessage) string {
		s := string(v)
		if max > 0 && len(s) > max {
			s = strings.ToValidUTF8(s[:max], "") + "…"
		}
		return s
	}
	path := c.Path
	if path == "" {
		path = "(the whole message)"
	}
	switch c.Op {
	case Added:
		return fmt.Sprintf("added %s: %s", path, short(c.New))
	case Removed:
		return fmt.Sprintf("removed %s: %s", path, short(c.Old))
	}
	return fmt.Sprintf("changed %s: %s → %s", path, short(c.Old), short(c.New))
}
