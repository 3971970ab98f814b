// Package tap puts Spyglass between an MCP host (Claude Desktop, Cursor,
// an agent framework) and a server, passing every byte through unchanged
// while it records what each side sent into a core/events log, the way a
// session records its own traffic: the messages' exact bytes, pairing and
// outcomes, stderr lines, HTTP exchanges with secrets masked.
//
// [RunStdio] starts the server (core/wire's process handling) and copies
// the host's stdin to the server and the server's stdout and stderr back;
// a [Splitter] beside each copy cuts the copied bytes into messages for
// the log without touching them. With a fault spec, messages go through
// core/wire/fault in the middle instead.
//
// [Proxy] is the HTTP tap: a reverse proxy (net/http/httputil) for
// Streamable HTTP and legacy SSE that forwards requests, event streams and
// headers unchanged and records the exchanges and the messages they carry.
//
// [Record] is a tap's record: the log and its trace file, saved whole at
// the end or, for a FIFO or a device, streamed while it grows
// ([TraceStream]). [StartFeed] offers the events live to a running window
// over core/appsock. [Install] and [Uninstall] rewrite a client's config
// entry so that the client launches its server through the tap.
//
// Recording never holds up the traffic: the log never blocks its writer,
// and a trace that cannot be written is reported, not waited for.
package tap
