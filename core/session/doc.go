// Package session is one live connection to an MCP server.
//
// A [Session] speaks JSON-RPC itself over a raw message pipe (a wire.Conn:
// stdio, Streamable HTTP or legacy SSE) and records every message it sends
// and receives, byte for byte, in an *events.Log. It owns everything the
// wire does not: request ids and the pairing of responses with their
// requests, request timeouts that reset when progress arrives,
// cancellation (notifications/cancelled on every transport), the
// initialize handshake (or server/discover for the 2026-07-28 protocol),
// the dispatch of the server's own requests (sampling, elicitation, roots,
// ping) to injected handlers, and the delivery of notifications.
//
// # Connections and state
//
// [New] takes a dial function that makes a fresh wire.Conn; nothing
// happens until [Session.Connect] or the first operation. The session
// moves through the [State]s disconnected, connecting, connected and
// failed (authorizing is reserved for OAuth) and tells listeners
// registered with [Session.OnState]. When the connection ends by itself
// (a stdio server that crashed, an HTTP stream that failed for good) every
// waiting request fails with an error matching [ErrNoResponse] and
// [ErrConnectionClosed], the state becomes disconnected, and the next
// operation dials again and re-initializes.
//
// # Operations and runs
//
// Every client→server operation ([Session.CallTool], [Session.ListTools],
// [Session.ReadResource], [Session.Call] for any raw method, ...) returns
// values decoded once by core/mcpresult (with the places that do not match
// the MCP schema as Problems, never an error) and, in [Reply], the exact
// JSON result the server sent. Each operation is a run: its request, its
// response and everything the server sends because of it (progress, log
// messages, sampling and elicitation requests and our answers) carry the
// same events.Event.Run, so a reader can group them. A run is related by
// progress token, by the io.modelcontextprotocol/related-task metadata of
// a task, or, when it is the only operation in flight, by time.
//
// # Server requests
//
// sampling/createMessage, elicitation/create and roots/list are answered
// by the [SamplingHandler], [ElicitationHandler] and [RootsProvider] given
// in [Options.Handlers]; ping is answered at once and anything else with
// "method not found". Each runs on its own goroutine without a time cap —
// a person may take minutes to answer — and while it runs, the timeouts of
// the requests in the same run are paused. Only the capabilities a handler
// exists for are advertised.
//
// # Notifications
//
// Every notification is delivered to the functions registered with
// [Session.OnNotification], each on its own goroutine through a bounded
// queue: a slow listener loses notifications (counted in
// [Notification.Dropped]) and never slows the connection.
//
// # Protocol generations
//
// The legacy era (the default, 2025-11-25, or any pinned older version)
// performs initialize, waits for its result and only then sends
// notifications/initialized. The modern era (2026-07-28) calls
// server/discover and puts the protocol version, client info and
// capabilities in every request's _meta; its multi round-trip "input
// required" results are answered by the same handlers and the request is
// sent again. Over Streamable HTTP the conn is told the modern version
// before server/discover, so every request carries the MCP-Protocol-Version,
// Mcp-Method and Mcp-Name headers the protocol requires. The auto era tries
// server/discover and falls back to initialize when the server answers it
// with a JSON-RPC error, an HTTP 4xx status (other than 401/403) or not at
// all. The modern protocol has no GET stream and no resources/subscribe:
// [Session.Listen] opens subscriptions/listen for a caller that manages
// its own, and the session keeps one open by itself for the resources
// subscribed to with [Session.SubscribeResource] and, with
// Options.ListChanged, the list_changed kinds the server offers —
// replaced whenever that set changes and reopened after a reconnect — so
// callers see the same notifications in both eras.
//
// # Extending
//
// The dial function is the seam for what wraps a connection: fault
// injection wraps the wire.Conn it returns; OAuth makes it add a token
// (a dial or Send error matching wire.ErrUnauthorized fails the connect
// with that error, and StateAuthorizing is reserved for the flow that
// then runs).
//
// # Retry lineage
//
// Every [Session.CallTool] is an attempt in a retry lineage (core/lineage):
// attempts with the same server, tool, input schema (from the last
// [Session.ListTools], or [CallOptions.Tool]) and normalized arguments
// share it. Each attempt gets an error class when it fails; a tool without
// readOnlyHint that times out, is cancelled or loses its connection after
// the request left fails with an error matching [ErrOutcomeUnknown]. The
// attempt is returned in [ToolResult.Attempt] and recorded as an
// events.KindTool event (lineage, errorClass, outcomeUnknown, rpc.callId)
// when it ends, with an events.KindWarning when it may have run twice; the
// raw messages of the attempt carry the same rpc.callId. [Session.Lineage]
// lists every attempt of a lineage.
package session
