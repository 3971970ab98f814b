package lineage

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// ErrorClass says why an attempt failed.
type ErrorClass string

// The error classes. The zero value means the attempt did not fail.
const (
	ClassNone ErrorClass = ""
	// ClassTimeout: the client stopped waiting; the server may still have
	// done the work.
	ClassTimeout ErrorClass = "timeout"
	// ClassCancelled: the call was stopped (the user pressed Stop).
	ClassCancelled ErrorClass = "cancelled"
	// ClassTransport: the connection broke (the server crashed or
	// disconnected, an HTTP or network error).
	ClassTransport ErrorClass = "transport"
	// ClassProtocol: the server answered with a JSON-RPC error (or a
	// result that is not a tool result).
	ClassProtocol ErrorClass = "protocol"
	// ClassTool: the tool ran and reported an error (isError).
	ClassTool ErrorClass = "tool"
	// ClassDeclined: the user declined the call in an approval prompt.
	ClassDeclined ErrorClass = "declined"
	// ClassInput: the arguments did not match the schema (nothing sent).
	ClassInput ErrorClass = "input"
)

// Hints are the tool annotations that decide how repeats are judged.
type Hints struct {
	// ReadOnly is readOnlyHint: the tool changes nothing.
	ReadOnly bool
	// Idempotent is idempotentHint: repeating it has no extra effect
	// (meaningful only when ReadOnly is false).
	Idempotent bool
}

// Status is where an attempt stands.
type Status string

// The statuses.
const (
	Running   Status = "running"
	Succeeded Status = "ok"
	Failed    Status = "failed"
)

// Attempt is one attempt of a tool call.
type Attempt struct {
	// Lineage is the id of the lineage the attempt belongs to; N its
	// number in it (1, 2, 3, ...).
	Lineage string
	N       int
	// Fingerprint is the lineage's fingerprint (see Fingerprint).
	Fingerprint string
	// Conn and Tool name the server and the tool.
	Conn, Tool string
	// Hints are the tool's annotations when the attempt began.
	Hints Hints
	// CallID identifies the attempt in the event log (rpc.callId).
	CallID string
	// RequestID (JSON text) and Seq (event sequence number) of the
	// tools/call request; empty when none was sent.
	RequestID string
	Seq       uint64
	// Run is the event run of the attempt.
	Run string
	// Start is when it began; Duration how long it took (0 while
	// running).
	Start    time.Time
	Duration time.Duration
	Status   Status
	// Class is why it failed (ClassNone unless Status is Failed).
	Class ErrorClass
	// OutcomeUnknown: the call may have done its work although it failed
	// (see OutcomeUnknown).
	OutcomeUnknown bool
	// SameCallAgain: a plain repeat of a write that succeeded or was
	// still running when this attempt began.
	SameCallAgain bool
	// MayHaveRunTwice: this attempt succeeded after an attempt whose
	// outcome is unknown; both may have written.
	MayHaveRunTwice bool
}

// Label is the attempt's name in a tool card: "" for a first attempt,
// "attempt 2", "attempt 3", ..., with " (idempotent)" for an idempotent
// tool that is not read-only.
func (a Attempt) Label() string {
	if a.N <= 1 {
		return ""
	}
	l := "attempt " + strconv.Itoa(a.N)
	if a.Hints.Idempotent && !a.Hints.ReadOnly {
		l += " (idempotent)"
	}
	return l
}

// Warning reports whether the attempt deserves a warning: it may have run
// twice, or repeats a write that succeeded or is running.
func (a Attempt) Warning() bool { return a.MayHaveRunTwice || a.SameCallAgain }

// Fingerprint returns the fingerprint of a call: a hex SHA-256 of the
// server, the tool, the normalized input schema and the normalized
// arguments. Normalization decodes JSON and encodes it again with object
// keys sorted and no white space; numbers keep their text; null, empty
// and absent arguments are the same ({}). JSON that does not decode is
// used as it is.
func Fingerprint(conn, tool string, inputSchema, args json.RawMessage) string {
	h := sha256.New()
	write := func(b []byte) {
		var n [8]byte
		l := len(b)
		for i := range n {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write(b)
	}
	write([]byte(conn))
	write([]byte(tool))
	write(Normalize(inputSchema))
	a := Normalize(args)
	if len(a) == 0 || string(a) == "null" {
		a = []byte("{}")
	}
	write(a)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Normalize returns raw with object keys sorted and white space removed
// (numbers keep their text); raw itself when it is not valid JSON.
func Normalize(raw json.RawMessage) []byte {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return t
	}
	// encoding/json writes object keys sorted, json.Numbers as their text
	// and no white space.
	b, err := json.Marshal(v)
	if err != nil {
		return t
	}
	return b
}

// OutcomeUnknown reports whether a failed attempt may have done its work:
// the tool may change something (not read-only), the request was sent,
// and the client stopped waiting (timeout), stopped the call (cancelled)
// or lost the connection (transport). An idempotent tool's outcome is
// unknown all the same.
func OutcomeUnknown(h Hints, class ErrorClass, sent bool) bool {
	if h.ReadOnly || !sent {
		return false
	}
	switch class {
	case ClassTimeout, ClassCancelled, ClassTransport:
		return true
	}
	return false
}

// Options configure a Tracker. The zero value is usable.
type Options struct {
	// Window ends a lineage: an attempt that begins more than Window after
	// the last attempt of its lineage ended starts a new lineage. Zero
	// means lineages never end.
	Window time.Duration
	// MaxLineages bounds how many lineages are kept (the oldest are
	// forgotten first); DefaultMaxLineages when 0.
	MaxLineages int
	// Now returns the current time (time.Now when nil); for tests.
	Now func() time.Time
}

// DefaultMaxLineages is the number of lineages a Tracker keeps by
// default.
const DefaultMaxLineages = 10000

// Tracker groups attempts into lineages and judges them. It is safe for
// concurrent use.
type Tracker struct {
	opts Options

	mu     sync.Mutex
	next   int
	byFP   map[string]*line // the open lineage of each fingerprint
	byID   map[string]*line
	order  []string // lineage ids, oldest first
	byCall map[string]*line
}

// line is one lineage. Its judgement needs only counts over all its
// attempts, so a tool called a million times with the same arguments costs
// the same per call as one called twice; attempts keeps the most recent
// ones (every running one included) for the Attempts view.
type line struct {
	id       string
	fp       string
	attempts []Attempt
	last     time.Time // when the last attempt began or ended

	total     int // attempts ever begun
	running   int // attempts still running
	succeeded int // attempts that succeeded
	unknown   int // attempts whose outcome is unknown
}

// MaxKeptAttempts is how many attempts of one lineage a Tracker keeps for
// Attempts (the oldest finished ones are forgotten first; numbering and
// judgement still count every attempt).
const MaxKeptAttempts = 256

// NewTracker returns an empty tracker. opts may be nil.
func NewTracker(opts *Options) *Tracker {
	t := &Tracker{byFP: map[string]*line{}, byID: map[string]*line{}, byCall: map[string]*line{}}
	if opts != nil {
		t.opts = *opts
	}
	if t.opts.MaxLineages <= 0 {
		t.opts.MaxLineages = DefaultMaxLineages
	}
	if t.opts.Now == nil {
		t.opts.Now = time.Now
	}
	return t
}

// Begin starts an attempt of the call with fingerprint fp and returns it
// with its lineage, number and SameCallAgain flag. callID must be unique
// per attempt; End and Update find the attempt by it.
func (t *Tracker) Begin(fp, callID, conn, tool string, h Hints, run string) Attempt {
	now := t.opts.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.byFP[fp]
	if l != nil && t.opts.Window > 0 && now.Sub(l.last) > t.opts.Window && l.running == 0 {
		l = nil
	}
	if l == nil {
		t.next++
		l = &line{id: "L" + strconv.Itoa(t.next), fp: fp}
		t.byFP[fp] = l
		t.byID[l.id] = l
		t.order = append(t.order, l.id)
		t.evictLocked()
	}
	a := Attempt{
		Lineage: l.id, N: l.total + 1, Fingerprint: fp, Conn: conn, Tool: tool, Hints: h,
		CallID: callID, Run: run, Start: now, Status: Running,
	}
	// Judge, from counts: a write repeated while an earlier attempt
	// succeeded or still runs.
	a.SameCallAgain = !h.ReadOnly && !h.Idempotent && l.running+l.succeeded > 0
	l.total++
	l.running++
	l.attempts = append(l.attempts, a)
	l.trim()
	l.last = now
	t.byCall[callID] = l
	return a
}

// Result is how an attempt ended.
type Result struct {
	// Class is why it failed; ClassNone when it succeeded.
	Class ErrorClass
	// Sent reports whether the request reached the wire (an attempt that
	// failed before it was sent cannot have run).
	Sent bool
	// RequestID, Seq and Duration describe the request, when known.
	RequestID string
	Seq       uint64
	Duration  time.Duration
}

// End records how the attempt with callID ended and returns it judged
// (Status, Class, OutcomeUnknown, MayHaveRunTwice). ok is false when the
// attempt is unknown (forgotten, or ended before).
func (t *Tracker) End(callID string, r Result) (a Attempt, ok bool) {
	now := t.opts.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.byCall[callID]
	if l == nil {
		return Attempt{}, false
	}
	delete(t.byCall, callID)
	i := l.index(callID)
	if i < 0 {
		return Attempt{}, false
	}
	a = l.attempts[i]
	a.Status = Succeeded
	if r.Class != ClassNone {
		a.Status = Failed
	}
	a.Class = r.Class
	if r.RequestID != "" {
		a.RequestID, a.Seq = r.RequestID, r.Seq
	}
	a.Duration = r.Duration
	if a.Duration == 0 {
		a.Duration = now.Sub(a.Start)
	}
	a.OutcomeUnknown = OutcomeUnknown(a.Hints, a.Class, r.Sent)
	// Judge, from counts: a write that succeeded after another attempt
	// of the lineage left its outcome unknown.
	a.MayHaveRunTwice = a.Status == Succeeded && !a.Hints.ReadOnly && !a.Hints.Idempotent && l.unknown > 0
	l.running--
	if a.Status == Succeeded {
		l.succeeded++
	}
	if a.OutcomeUnknown {
		l.unknown++
	}
	l.attempts[i] = a
	l.last = now
	return a, true
}

// Attempts returns the most recent MaxKeptAttempts attempts of a lineage,
// in order; nil for an unknown lineage. Attempt.N still counts every
// attempt ever begun.
func (t *Tracker) Attempts(lineageID string) []Attempt {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.byID[lineageID]
	if l == nil {
		return nil
	}
	kept := l.attempts
	if len(kept) > MaxKeptAttempts {
		kept = kept[len(kept)-MaxKeptAttempts:]
	}
	return append([]Attempt(nil), kept...)
}

// Lineage returns the id of the lineage an attempt (by call id) belongs
// to, while it runs.
func (t *Tracker) Lineage(callID string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l := t.byCall[callID]; l != nil {
		return l.id, true
	}
	return "", false
}

func (t *Tracker) evictLocked() {
	for len(t.order) > t.opts.MaxLineages {
		id := t.order[0]
		t.order = t.order[1:]
		l := t.byID[id]
		delete(t.byID, id)
		if t.byFP[l.fp] == l {
			delete(t.byFP, l.fp)
		}
		for _, a := range l.attempts {
			if t.byCall[a.CallID] == l {
				delete(t.byCall, a.CallID)
			}
		}
	}
}

func (l *line) index(callID string) int {
	for i := len(l.attempts) - 1; i >= 0; i-- {
		if l.attempts[i].CallID == callID {
			return i
		}
	}
	return -1
}

// trim forgets the oldest finished attempts beyond MaxKeptAttempts, once
// twice as many have piled up (so its cost is spread over many attempts).
func (l *line) trim() {
	if len(l.attempts) < 2*MaxKeptAttempts {
		return
	}
	kept := l.attempts[:0]
	extra := len(l.attempts) - MaxKeptAttempts
	for _, a := range l.attempts {
		if extra > 0 && a.Status != Running {
			extra--
			continue
		}
		kept = append(kept, a)
	}
	clear(l.attempts[len(kept):])
	l.attempts = kept
}
