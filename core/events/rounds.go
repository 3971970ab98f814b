package events

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// RoundInfo places a message in a multi round-trip request (MRTR,
// protocol 2026-07-28): a request the server answered with
// resultType "input_required", sent again with the answers under a fresh
// JSON-RPC id, until a final result. Every round of one such conversation
// shares Conversation.
type RoundInfo struct {
	// Conversation identifies the round trip: the JSON-RPC id (JSON
	// text) of its first request, on the same connection.
	Conversation string `json:"conversation"`
	// N is the round, from 1: round 1 is the original request (which
	// carries no RoundInfo itself; its input_required result does).
	N int `json:"n"`
	// Abandoned is set on the local event that records a conversation
	// given up between rounds (the person cancelled the input, or the
	// call was cancelled while it waited for input).
	Abandoned bool `json:"abandoned,omitempty"`
}

// InputRequired reports whether raw, a JSON-RPC response or a result, is
// a result with resultType "input_required".
func InputRequired(raw []byte) bool {
	if !bytes.Contains(raw, []byte(`"input_required"`)) {
		return false
	}
	var r struct {
		ResultType string `json:"resultType"`
		Result     *struct {
			ResultType string `json:"resultType"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return false
	}
	return r.ResultType == "input_required" || r.Result != nil && r.Result.ResultType == "input_required"
}

// ConversationState says how far a round trip has come.
type ConversationState string

// The conversation states.
const (
	ConvWaiting   ConversationState = "waiting"   // a round is under way or waits for input
	ConvDone      ConversationState = "done"      // a final result (or error) arrived
	ConvAbandoned ConversationState = "abandoned" // given up between rounds
)

// Conversation is what a Rounds tracker knows of one round trip.
type Conversation struct {
	Conn string
	// ID is the first request's JSON-RPC id (RoundInfo.Conversation).
	ID string
	// Method is the request's method, e.g. "tools/call".
	Method string
	// Rounds is the number of rounds seen so far.
	Rounds int
	State  ConversationState
}

type convKey struct{ conn, id string }

// Rounds groups the events of multi round-trip requests into
// conversations, so a view can label each message "round 2/3" of one
// call. Feed it every event in order with Add; it keeps only the
// conversations, not the events. It is not safe for concurrent use.
type Rounds struct {
	convs map[convKey]*Conversation
}

// Add takes one event into account.
func (r *Rounds) Add(e *Event) {
	if e.Round == nil {
		return
	}
	if r.convs == nil {
		r.convs = map[convKey]*Conversation{}
	}
	k := convKey{e.Conn, e.Round.Conversation}
	c := r.convs[k]
	if c == nil {
		c = &Conversation{Conn: e.Conn, ID: e.Round.Conversation, Rounds: 1, State: ConvWaiting}
		r.convs[k] = c
	}
	if c.Method == "" && e.Method != "" {
		c.Method = e.Method
	}
	c.Rounds = max(c.Rounds, e.Round.N)
	switch {
	case e.Round.Abandoned:
		c.State = ConvAbandoned
	case e.Kind == KindMessage && e.Type == MsgRequest:
		c.State = ConvWaiting
	case e.Kind == KindMessage && e.Type == MsgError,
		e.Kind == KindMessage && e.Type == MsgResult && !InputRequired(e.Raw):
		if e.Round.N >= c.Rounds {
			c.State = ConvDone
		}
	}
}

// Of returns the conversation e belongs to and its round: events with a
// RoundInfo, and the first request of a conversation (which has none: it
// was sent before anyone knew it would take rounds).
func (r *Rounds) Of(e *Event) (Conversation, int, bool) {
	if r.convs == nil {
		return Conversation{}, 0, false
	}
	id, n := "", 0
	switch {
	case e.Round != nil:
		id, n = e.Round.Conversation, e.Round.N
	case e.Kind == KindMessage && e.Type == MsgRequest && e.Dir == DirOut:
		id, n = e.ID, 1
	default:
		return Conversation{}, 0, false
	}
	c := r.convs[convKey{e.Conn, id}]
	if c == nil {
		return Conversation{}, 0, false
	}
	return *c, n, true
}

// Label is the shared label of e's conversation: "round 2/3", with
// " · input cancelled" once it was abandoned; "" for an event of no
// conversation.
func (r *Rounds) Label(e *Event) string {
	c, n, ok := r.Of(e)
	if !ok {
		return ""
	}
	s := "round " + strconv.Itoa(n) + "/" + strconv.Itoa(c.Rounds)
	if e.Round != nil && e.Round.Abandoned {
		s = "abandoned at round " + strconv.Itoa(n) + "/" + strconv.Itoa(c.Rounds)
	}
	return s
}

// Describe says what the conversation of e is, for a details pane:
// "Round 2 of 3 of tools/call #4, a multi round-trip request (MRTR): …";
// "" for an event of no conversation.
func (r *Rounds) Describe(e *Event) string {
	c, n, ok := r.Of(e)
	if !ok {
		return ""
	}
	m := c.Method
	if m == "" {
		m = "request"
	}
	s := "Round " + strconv.Itoa(n) + " of " + strconv.Itoa(c.Rounds) + " of " + m + " #" + displayID(c.ID) +
		", a multi round-trip request (MRTR): the server asks for input, and each answer goes back in a new request with a fresh id"
	switch c.State {
	case ConvDone:
		s += "; the final result came in round " + strconv.Itoa(c.Rounds)
	case ConvAbandoned:
		s += "; abandoned at round " + strconv.Itoa(c.Rounds) + ", the input was cancelled"
	default:
		s += "; under way"
	}
	return s + "."
}

// Forget drops what the tracker knows of conn's conversations (for a view
// that clears a connection).
func (r *Rounds) Forget(conn string) {
	for k := range r.convs {
		if k.conn == conn {
			delete(r.convs, k)
		}
	}
}
