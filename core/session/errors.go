package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Errors callers branch on. Operations wrap them with the method.
var (
	// ErrClosed is returned by operations after Close (until Connect).
	ErrClosed = errors.New("session: closed")
	// ErrConnectionClosed is matched by the error of a request whose
	// connection ended while it waited (see [ClosedError]).
	ErrConnectionClosed = errors.New("session: connection closed")
	// ErrNoResponse is matched by the error of a request that will never
	// get an answer because its connection ended (see [ClosedError]).
	ErrNoResponse = errors.New("session: no response")
	// ErrTimeout is matched by the error of a request the session gave up
	// waiting for (see [TimeoutError]).
	ErrTimeout = errors.New("session: request timed out")
	// ErrDecode is wrapped when a result cannot be read at all (a list page
	// or handshake result that is not an object); the raw result is still
	// returned in the Reply. A result of the right kind that does not match
	// the MCP schema is decoded anyway, with its mcpresult.Problems.
	ErrDecode = errors.New("session: unexpected result")
	// ErrUnsupportedVersion is wrapped when the server does not speak the
	// pinned protocol version (server/discover).
	ErrUnsupportedVersion = errors.New("session: protocol version not supported by the server")
	// ErrCursorLoop is wrapped when a server repeats a pagination cursor.
	ErrCursorLoop = errors.New("session: pagination cursor repeated")
	// ErrTooManyPages is wrapped when a list goes on for more than
	// 10000 pages (each with a new cursor).
	ErrTooManyPages = fmt.Errorf("session: more than %d pages", maxPages)
	// ErrInputLoop is returned when a server keeps asking for input
	// (multi round-trip requests) more than a few times.
	ErrInputLoop = errors.New("session: the server keeps asking for input")
	// ErrInputCancelled is what a handler returns (wrapped) to abandon
	// the request an input request of a multi round-trip request belongs
	// to: the request is not sent again, and its error matches both
	// ErrInputCancelled and context.Canceled (a tool call's attempt ends
	// "cancelled").
	ErrInputCancelled = errors.New("session: the input was cancelled, and the request with it")
	// ErrInvalidMessage is wrapped when the answer to a request is not a
	// JSON-RPC 2.0 response (its "jsonrpc" member is not "2.0"); the
	// answer is recorded as invalid.
	ErrInvalidMessage = errors.New("session: invalid JSON-RPC response")
	// ErrInvalidToolHeaders is wrapped when a tool is not called because
	// its input schema declares x-mcp-header parameters the 2026-07-28
	// protocol forbids (empty, duplicate, not a header token, on a
	// non-primitive type): clients must exclude such tools. See
	// Tool.HeaderError.
	ErrInvalidToolHeaders = errors.New("session: the tool declares invalid x-mcp-header parameters")
	// ErrNoHandler is wrapped by the JSON-RPC error answered to a server
	// request nobody can answer.
	ErrNoHandler = errors.New("session: no handler")
)

// RPCError is a JSON-RPC error response, with any code, kept as sent.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Well-known JSON-RPC and MCP error codes.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeRequestCancelled = -32800
	// CodeURLElicitationRequired is MCP's "URL elicitation required".
	CodeURLElicitationRequired = -32042
	// CodeUnsupportedVersion is the 2026-07-28 "unsupported protocol
	// version" error; its data lists the versions the server supports.
	CodeUnsupportedVersion = -32022
	// CodeUserRejected is what a client answers when the user declined a
	// sampling request.
	CodeUserRejected = -1
)

// Error describes the JSON-RPC error.
func (e *RPCError) Error() string {
	return fmt.Sprintf("session: JSON-RPC error %d: %s", e.Code, e.Message)
}

// isRPCError reports whether err wraps an *RPCError and stores it.
func isRPCError(err error, target **RPCError) bool { return errors.As(err, target) }

// LegacyServerError is returned by Connect when the modern protocol was
// asked for (a 2026-07-28 version or EraModern) and the server refused
// server/discover the way a server that speaks only the initialize
// handshake does: a JSON-RPC error, an HTTP 4xx, no answer, or a version
// list without a modern one. It matches ErrLegacyServer. The refusal is
// in Refusal and deliberately not unwrapped: the cause to act on is the
// protocol choice, not the HTTP status or JSON-RPC error it produced.
type LegacyServerError struct {
	Version string // the version asked for
	Refusal error
}

// ErrLegacyServer is matched by a [LegacyServerError].
var ErrLegacyServer = errors.New("session: the server does not speak the modern protocol")

// Error describes the refusal.
func (e *LegacyServerError) Error() string {
	return fmt.Sprintf("session: server/discover for protocol %s refused (a server that speaks only the legacy initialize handshake?): %v", e.Version, e.Refusal)
}

// Is matches ErrLegacyServer.
func (e *LegacyServerError) Is(target error) bool { return target == ErrLegacyServer }

// ClosedError is returned to a request whose connection ended before the
// answer came. It matches ErrNoResponse and ErrConnectionClosed; Unwrap
// gives the reason the connection ended (for stdio a *wire.ExitError), nil
// when it was closed on purpose.
type ClosedError struct {
	Method string
	Err    error
}

// Error says that no answer will come, and why.
func (e *ClosedError) Error() string {
	m := "no response: connection closed"
	if e.Err != nil {
		m += ": " + e.Err.Error()
	}
	return m
}

// Is matches ErrNoResponse and ErrConnectionClosed.
func (e *ClosedError) Is(target error) bool {
	return target == ErrNoResponse || target == ErrConnectionClosed
}

// Unwrap returns why the connection ended.
func (e *ClosedError) Unwrap() error { return e.Err }

// LostError is returned to a request whose answer the transport lost
// while the connection lives on: a Streamable HTTP response stream that
// ended before the response and could not be resumed (Unwrap gives
// wire.ErrResponseLost), or an HTTP exchange that broke after the request
// was sent (Unwrap gives the transport error). It matches ErrNoResponse.
type LostError struct {
	Method string
	Err    error
}

// Error says that no answer will come, and why.
func (e *LostError) Error() string { return "no response: " + e.Err.Error() }

// Is matches ErrNoResponse.
func (e *LostError) Is(target error) bool { return target == ErrNoResponse }

// Unwrap returns the wire's reason.
func (e *LostError) Unwrap() error { return e.Err }

// TimeoutError is returned to a request the session gave up waiting for,
// after notifications/cancelled was sent. It matches ErrTimeout.
type TimeoutError struct {
	Method string
	// After is how long the request waited in total.
	After time.Duration
}

// Error says how long the request waited.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("timed out after %s", e.After.Round(time.Millisecond))
}

// Is matches ErrTimeout.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }
