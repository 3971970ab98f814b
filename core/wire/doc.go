// Package wire provides raw JSON-RPC message pipes to MCP servers: a
// spawned process over stdio ([Stdio]), the Streamable HTTP transport of
// the 2025-11-25 specification ([StreamableHTTP]) and the legacy HTTP+SSE
// transport of 2024-11-05 ([SSE]).
//
// A [Conn] delivers the exact bytes of every incoming JSON-RPC message to
// its [Handler], as they arrived, never re-marshalled; it does not look at
// ids or methods beyond what the transport needs. Pairing, timeouts and
// the recording of the messages themselves belong to core/session.
//
// What only the wire can see is recorded here, through a [Recorder] (an
// *events.Log): every stderr line of a stdio server (events.KindStderr),
// every HTTP exchange with secrets masked (events.KindHTTP, written by the
// [Tap] round tripper when the response headers arrive), bytes that are
// not a JSON object or array (events.KindInvalid: Raw holds the exact
// bytes, Text the reason and their first bytes), the exit of a stdio
// process (events.KindState, "process exited: …" when it exited by
// itself, "process stopped: …" after Close; the session records the
// failure an exit causes as its error) and streams that could not be
// resumed (events.KindWarning).
//
// Stdio: the process runs in its own process group; messages are
// newline-delimited and may be of any size. Close closes stdin, waits
// StopWait (500 ms), sends SIGTERM to the group, waits again, then
// SIGKILL. A process that exits by itself ends the connection at once with
// an [*ExitError] carrying its status and the tail of its stderr.
//
// Streamable HTTP: Send POSTs one message and returns once the server
// accepted it; the answer (a JSON body or an SSE stream, possibly with
// server→client requests before the response) is delivered through
// OnMessage. The Mcp-Session-Id of the initialize response is sent
// afterwards, SetProtocolVersion sets MCP-Protocol-Version, the GET stream
// is opened after notifications/initialized (405 or 404: none), dropped
// streams are resumed with Last-Event-ID after the server's retry delay,
// and Close deletes the session. With a modern protocol version (see
// [IsModern]; SetProtocolVersion before the first request) the transport
// is stateless: every POST carries MCP-Protocol-Version, Mcp-Method and,
// for tools/call, prompts/get and resources/read (subscribe,
// unsubscribe), Mcp-Name (Base64-wrapped when not plain ASCII); no session
// id, GET stream, resumption or DELETE. A JSON-RPC error that answers the
// request but comes with an HTTP error status (the modern protocol maps
// error codes to statuses) is delivered as the answer, not returned as an
// [*HTTPError] (401 and 403 excepted). A response stream that ends before
// the response and cannot be resumed is reported to [Handler].OnLost
// (matching [ErrResponseLost]), so the request fails at once instead of
// waiting for its timeout.
//
// Errors: [*StartError] ([ErrCommandNotFound]), [*ExitError],
// [*HTTPError] (matching [ErrUnauthorized] for 401/403 and
// [ErrSessionExpired] for 404 with a session), [ErrUnreachable],
// [ErrClosed], [ErrNotStarted], [ErrNoEndpoint], [ErrForeignEndpoint], [ErrStreamEnded],
// [ErrResponseLost]. Faults can be injected with package fault.
//
// [Redactor] masks secrets in an event before it is stored: headers and
// URL parameters that core/redact's policy names secret, bearer tokens,
// OAuth token fields and explicitly registered secret strings; pass its
// Redact method as the log's redaction hook.
package wire
