package events

import (
	"encoding/json"
	"net/http"
	"time"
)

// Kind says what an event records.
type Kind string

// The kinds of event.
const (
	KindMessage Kind = "message" // one JSON-RPC message (request, response or notification), exact bytes in Raw
	KindStderr  Kind = "stderr"  // one line a stdio server wrote to stderr, in Text
	KindHTTP    Kind = "http"    // one HTTP exchange (see HTTP)
	KindState   Kind = "state"   // a connection state change; the new state in Text
	KindInvalid Kind = "invalid" // bytes that arrived but are not a JSON-RPC message (Raw and Text)
	KindWarning Kind = "warning" // something the user should know (Text)
	KindError   Kind = "error"   // an error that is not a JSON-RPC error response (Text)
	// KindTool records how one attempt of a tools/call ended: Tool,
	// Lineage, ErrorClass, OutcomeUnknown and RPC (its callId, shared by
	// the attempt's raw messages). Appended when the attempt ends.
	KindTool Kind = "tool"
)

// Direction says which way a message travelled.
type Direction string

// The directions. Events that are not messages have DirLocal.
const (
	DirOut   Direction = "out" // client (Spyglass) → server
	DirIn    Direction = "in"  // server → client
	DirLocal Direction = ""
)

// Category is one of the inspector's tabs; "All" is every category.
type Category string

// The categories.
const (
	CatLLM   Category = "llm"   // sampling traffic
	CatTools Category = "tools" // tools/* traffic
	CatRPC   Category = "rpc"   // raw JSON-RPC both ways, failed HTTP exchanges, unanswered requests
	CatLogs  Category = "logs"  // state changes, stderr, warnings, errors, notifications/message
)

// MessageType classifies a JSON-RPC message.
type MessageType string

// The JSON-RPC message types.
const (
	MsgRequest      MessageType = "request"
	MsgNotification MessageType = "notification"
	MsgResult       MessageType = "result"
	MsgError        MessageType = "error"
)

// HTTPInfo describes one HTTP exchange. Header values that carry secrets
// are already masked when the event is recorded.
type HTTPInfo struct {
	Method     string        `json:"method"`
	URL        string        `json:"url"`
	Status     int           `json:"status,omitempty"` // 0 when no response arrived
	ReqHeader  http.Header   `json:"requestHeader,omitempty"`
	RespHeader http.Header   `json:"responseHeader,omitempty"`
	Duration   time.Duration `json:"durationNs,omitempty"`
	Err        string        `json:"error,omitempty"` // transport error, if any
}

// Event is one thing that happened on a connection. Events are values:
// the log hands out copies.
type Event struct {
	// Seq is the sequence number the log gave the event (1, 2, 3, ...).
	Seq uint64 `json:"seq"`
	// Time is when it happened (set by the log on Append when zero).
	Time time.Time `json:"time"`
	// Conn names the connection (the catalog server name, or "ad-hoc").
	Conn string    `json:"conn,omitempty"`
	Kind Kind      `json:"kind"`
	Dir  Direction `json:"dir,omitempty"`

	// For messages: the type, the id as its raw JSON text (`5`, `"abc"`;
	// empty for notifications), and the method. A response's Method is
	// filled in by the log from the request it pairs with.
	Type   MessageType `json:"type,omitempty"`
	ID     string      `json:"id,omitempty"`
	Method string      `json:"method,omitempty"`

	// Raw holds the exact bytes: incoming messages as they arrived, never
	// re-marshalled. Size is len(Raw) before any truncation.
	Raw  json.RawMessage `json:"raw,omitempty"`
	Size int             `json:"size,omitempty"`
	// Text is a human-readable line: the stderr line, the state name, the
	// warning, an HTTP summary.
	Text string    `json:"text,omitempty"`
	HTTP *HTTPInfo `json:"http,omitempty"`
	// Summary is a KindError event's failure in a person's words, cause
	// first, as the window's server card says it ("Command not found:
	// …"); the event's title says it, Text keeps the whole chain. Empty
	// when whoever recorded it had no other words.
	Summary string `json:"summary,omitempty"`

	// Run groups every event of one user action (a tool call and the
	// sampling, elicitation, progress and logs it caused).
	Run string `json:"run,omitempty"`

	// Pair is the Seq of the paired request or response, 0 if none yet.
	Pair uint64 `json:"pair,omitempty"`
	// Outcome is set on request events (both directions). The log never
	// changes an Outcome in place: an update stores a new pointer, so a
	// copy handed out earlier keeps its value. Outcomes may be shared
	// between events: never modify one, replace the pointer.
	Outcome *Outcome `json:"outcome,omitempty"`

	// Unpaired marks a response whose id matched no open request (an
	// unknown id, or a second answer to the same request). It is kept.
	Unpaired bool `json:"unpaired,omitempty"`
	// Late marks a response that arrived after its request was cancelled
	// or timed out: the client had already stopped listening.
	Late bool `json:"late,omitempty"`

	// RPC links a raw message (a tools/call request, its response, its
	// notifications/cancelled) and the KindTool event of the same attempt.
	RPC *RPCInfo `json:"rpc,omitempty"`
	// Tool describes the tool call attempt of a KindTool event.
	Tool *ToolInfo `json:"tool,omitempty"`
	// Lineage is the retry lineage of a KindTool event's attempt.
	Lineage *Lineage `json:"lineage,omitempty"`
	// ErrorClass says why a KindTool event's attempt failed: timeout,
	// cancelled, transport, protocol, tool, declined or input; empty when
	// it succeeded.
	ErrorClass string `json:"errorClass,omitempty"`
	// OutcomeUnknown marks a failed attempt of a tool that may change
	// something whose work may have happened all the same.
	OutcomeUnknown bool `json:"outcomeUnknown,omitempty"`
	// Round places a message in a multi round-trip request (see
	// RoundInfo and Rounds).
	Round *RoundInfo `json:"round,omitempty"`
}

// RPCInfo ties raw messages to the tool call attempt they belong to.
type RPCInfo struct {
	// CallID identifies one attempt of a tool call.
	CallID string `json:"callId"`
}

// ToolInfo describes one attempt of a tool call (KindTool events).
type ToolInfo struct {
	// Name is the tool's name.
	Name string `json:"name"`
	// Status is "ok" or "failed".
	Status string `json:"status"`
	// ReadOnly and Idempotent are the tool's readOnlyHint and
	// idempotentHint when the attempt began.
	ReadOnly   bool `json:"readOnly,omitempty"`
	Idempotent bool `json:"idempotent,omitempty"`
	// MayHaveRunTwice: the attempt succeeded after an attempt whose
	// outcome is unknown (a warning).
	MayHaveRunTwice bool `json:"mayHaveRunTwice,omitempty"`
	// SameCallAgain: the attempt repeated a write that had succeeded or
	// was still running.
	SameCallAgain bool `json:"sameCallAgain,omitempty"`
	// RequestID (JSON text) and RequestSeq of the tools/call request;
	// empty when no request was sent.
	RequestID  string `json:"requestId,omitempty"`
	RequestSeq uint64 `json:"requestSeq,omitempty"`
	// Duration is how long the attempt took.
	Duration time.Duration `json:"durationNs,omitempty"`
}

// Lineage places an attempt in its retry lineage: attempts of the same
// call (same server, tool, input schema and normalized arguments) share
// an ID and a Fingerprint and are numbered 1, 2, 3...
type Lineage struct {
	ID          string `json:"id"`
	Attempt     int    `json:"attempt"`
	Fingerprint string `json:"fingerprint"`
}

// OutcomeState is what became of a request.
type OutcomeState string

// The outcome states, as the inspector's badges name them.
const (
	Waiting       OutcomeState = "waiting"
	OK            OutcomeState = "ok"
	Failed        OutcomeState = "error"          // a JSON-RPC error response
	TimedOut      OutcomeState = "timed_out"      // the client gave up waiting
	Cancelled     OutcomeState = "cancelled"      // notifications/cancelled was sent
	CancelledLate OutcomeState = "cancelled_late" // cancelled, and the reply came anyway
	NoResponse    OutcomeState = "no_response"    // the connection closed while it was open
)

// Outcome is what happened to a request.
type Outcome struct {
	State OutcomeState `json:"state"`
	// Latency is the time from request to response (or to the give-up).
	Latency time.Duration `json:"latencyNs,omitempty"`
	// ToolError: the request is a tools/call answered (OK) with a result
	// that says isError — the protocol worked, the tool failed.
	ToolError bool `json:"toolError,omitempty"`
}
