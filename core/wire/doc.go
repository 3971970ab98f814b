// Package wire provides raw JSON-RPC message pipes to MCP servers: a
// spawned process over stdio ([Stdio]), the Streamable HTTP transport of
// the 2025-11-25 specification ([StreamableHTTP]) and the legacy HTTP+SSE
// transport of 2024-11-05 ([SSE]).
//
// A [Conn] delivers the exact bytes of every incoming JSON-RPC message to
// its [Handler], as they arrived, never re-marshalled; it does not look at
// ids or methods. Pairing, timeouts and the recording of the messages
// themselves belong to core/session.
//
// What only the wire can see is recorded here, through a [Recorder] (an
// *events.Log): every stderr line of a stdio server (events.KindStderr),
// every HTTP exchange with secrets masked (events.KindHTTP, written by the
// [Tap] round tripper), bytes that are not a JSON object or array
// (events.KindInvalid) and the exit of a stdio process (events.KindState
// or events.KindError).
//
// [Redactor] masks secrets (Authorization headers, bearer tokens, cookies,
// API keys and explicitly registered secret strings) in an event before it
// is stored; pass its Redact method as the log's redaction hook.
package wire
