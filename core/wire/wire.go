package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/tidwall/gjson"
)

// Conn is one raw JSON-RPC message pipe to a server.
type Conn interface {
	// Start connects (or spawns the server) and begins delivering
	// incoming messages to h.
	Start(ctx context.Context, h Handler) error
	// Send sends one JSON-RPC message, exactly the bytes given.
	Send(ctx context.Context, msg []byte, opts *SendOptions) error
	// Close stops the connection gracefully. It is safe to call more than
	// once and before Start.
	Close() error
}

// Abandoner is implemented by conns that hold something open per request
// (the Streamable HTTP response stream of a POST). Abandon(id) tells them
// the caller stopped waiting for the request with JSON-RPC id (its JSON
// text, e.g. "5"): it timed out or was cancelled. The conn may keep the
// request's resources for a short, bounded grace so that a late answer is
// still delivered, then releases them. Unknown ids are ignored. Decorators
// of a Conn should forward it.
type Abandoner interface {
	Abandon(id string)
}

// Handler receives what arrives on a Conn.
type Handler struct {
	// OnMessage gets the exact bytes of each incoming JSON-RPC message
	// (a JSON object or a batch array). Calls are sequential per stream;
	// the callee owns the slice. It must not block long.
	OnMessage func(raw []byte)
	// OnClose is called once when the connection ends: nil after Close,
	// an *ExitError when a stdio server exited by itself, another error
	// when an HTTP connection failed for good.
	OnClose func(err error)
	// OnLost, when set, is told that the answer to the request with id
	// (its JSON text) can no longer arrive although the connection lives
	// on: its Streamable HTTP response stream ended before the response
	// and could not be resumed. err matches ErrResponseLost. It is called
	// in order with OnMessage, never concurrently.
	OnLost func(id string, err error)
}

// SendOptions are per-message options of Send.
type SendOptions struct {
	// Header holds extra HTTP headers for this message's POST. Stdio
	// ignores it.
	Header http.Header
	// Hold, when set, pauses the sender's timeout for this message and
	// returns the function that resumes it (with a full timeout). A Conn
	// or a decorator that has to wait for a person inside Send — an OAuth
	// sign-in in the browser — calls it (through HoldOf) so that the
	// request does not time out meanwhile.
	Hold func() (resume func())
}

// HoldOf pauses the sender's timeout through opts.Hold and returns the
// function that resumes it; without a Hold both are no-ops.
func HoldOf(opts *SendOptions) (resume func()) {
	if opts == nil || opts.Hold == nil {
		return func() {}
	}
	if r := opts.Hold(); r != nil {
		return r
	}
	return func() {}
}

// Recorder stores events; *events.Log satisfies it.
type Recorder interface {
	Append(e events.Event) uint64
}

// Errors callers branch on.
var (
	// ErrNotStarted is returned by Send before Start succeeded.
	ErrNotStarted = errors.New("wire: connection not started")
	// ErrClosed is returned by Send and Start after the connection ended.
	// It matches os.ErrClosed as well.
	ErrClosed = fmt.Errorf("wire: connection closed: %w", os.ErrClosed)
	// ErrAlreadyStarted is returned by a second Start.
	ErrAlreadyStarted = errors.New("wire: connection already started")
	// ErrCommandNotFound is matched by the *StartError of a stdio command
	// that does not exist.
	ErrCommandNotFound = errors.New("wire: command not found")
	// ErrUnauthorized is wrapped by an *HTTPError with status 401, or 403
	// with a WWW-Authenticate challenge.
	ErrUnauthorized = errors.New("wire: unauthorized")
	// ErrSessionExpired is wrapped by an *HTTPError with status 404 for a
	// request that carried an Mcp-Session-Id: the server forgot the
	// session and the client must initialize again.
	ErrSessionExpired = errors.New("wire: session expired")
	// ErrResponseLost is passed to Handler.OnLost.
	ErrResponseLost = errors.New("wire: response stream ended before the response")
	// ErrNotSent is matched by a Send error when the message did not
	// reach the server entirely: its context ended while the write waited
	// or was under way (a stdio server that stopped reading its input).
	ErrNotSent = errors.New("wire: message not written")
	// ErrBadBody is matched by the Send error of a request whose HTTP
	// success response carries a body that is not a JSON-RPC message (an
	// HTML page, truncated JSON) or is larger than MaxMessageSize: no
	// answer will come.
	ErrBadBody = errors.New("wire: response body is not a JSON-RPC message")
	// ErrNoEndpoint is returned by SSE.Start when the stream ended or the
	// context expired before the server sent its endpoint event.
	ErrNoEndpoint = errors.New("wire: no endpoint event")
)

// StartError is returned by Stdio.Start when the process cannot be
// started. errors.Is(err, ErrCommandNotFound) tells a missing command.
type StartError struct {
	Command string // the command as configured
	Err     error  // the underlying error

	notFound bool
}

// Error describes the failure.
// Error describes the failure.
func (e *StartError) Error() string { return "wire: start " + e.Command + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *StartError) Unwrap() error { return e.Err }

// Is matches ErrCommandNotFound for a command that does not exist.
func (e *StartError) Is(target error) bool {
	if target != ErrCommandNotFound {
		return false
	}
	return e.notFound
}

// ExitError reports how a stdio server process ended.
type ExitError struct {
	// Code is the exit status, or -1 when the process was killed by a
	// signal.
	Code int
	// Signal is the signal that killed the process, 0 if none.
	Signal syscall.Signal
	// Stderr holds the last lines the process wrote to stderr (at most
	// 20 lines, 4 KiB), which usually say why it stopped.
	Stderr string
}

// Error describes how the process ended.
func (e *ExitError) Error() string {
	if e.Signal != 0 {
		return "wire: server killed by signal: " + e.Signal.String()
	}
	return fmt.Sprintf("wire: server exited with status %d", e.Code)
}

// HTTPError is an HTTP response that was not a success. Status 401 and 403
// match ErrUnauthorized (the WWW-Authenticate header is in Header), 404 on
// a request carrying a session id matches ErrSessionExpired.
type HTTPError struct {
	Method string      // the request method (POST, GET, DELETE)
	URL    string      // the request URL
	Status int         // the response status code
	Header http.Header // the response headers (WWW-Authenticate for 401)
	// Body is the start of the response body (at most 64 KiB).
	Body []byte
	// SessionID is the Mcp-Session-Id the request carried, if any.
	SessionID string
}

// Error names the request and the status.
func (e *HTTPError) Error() string {
	return fmt.Sprintf("wire: %s %s: HTTP %d %s", e.Method, e.URL, e.Status, http.StatusText(e.Status))
}

// Is matches ErrUnauthorized for 401, and for 403 with a WWW-Authenticate
// challenge (a plain 403, say from a proxy or a firewall, is an HTTP
// error like any other), and ErrSessionExpired for 404 with a session id.
func (e *HTTPError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden && len(e.WWWAuthenticate()) > 0
	case ErrSessionExpired:
		return e.Status == http.StatusNotFound && e.SessionID != ""
	}
	return false
}

// WWWAuthenticate returns the WWW-Authenticate challenges of the response.
func (e *HTTPError) WWWAuthenticate() []string { return e.Header.Values("WWW-Authenticate") }

// IsMessage reports whether b (surrounding white space allowed) is a JSON
// object or array: something a Conn hands to OnMessage.
func IsMessage(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	return gjson.ValidBytes(t) // as encoding/json's Valid (FuzzDecodeEnvelope), at a fraction of its cost
}

// recorder wraps an optional Recorder with the connection name.
type recorder struct {
	rec  Recorder
	conn string
}

func (r recorder) add(e events.Event) {
	if r.rec == nil {
		return
	}
	e.Conn = r.conn
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	r.rec.Append(e)
}

// invalid records bytes that arrived but are not a JSON-RPC message: Raw
// holds them exactly (a trace writes them as rawText or rawBase64), Text
// says why, with their first bytes.
func (r recorder) invalid(b []byte, why string) {
	if r.rec == nil {
		return
	}
	const head = 200
	text := b[:min(len(b), head)]
	r.add(events.Event{Kind: events.KindInvalid, Raw: append(json.RawMessage(nil), b...),
		Text: why + ": " + strings.ToValidUTF8(string(text), "\uFFFD")})
}
