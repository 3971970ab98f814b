// Package events is Spyglass's single record of what happened on a
// connection: an append-only, bounded log of events (JSON-RPC messages in
// both directions with their exact bytes, stderr lines, HTTP exchanges,
// state changes, invalid input, warnings and errors, and the end of each
// tool call attempt with its retry lineage) with sequence numbers.
//
// The Log pairs every request with its response by (Conn, ID) in both
// directions and keeps each request's Outcome: waiting, ok with latency,
// error, timed out, cancelled, cancelled with a late reply, no response.
// Type, ID and Method are derived from a message's Raw bytes by scanning
// only its top-level keys, so big payloads cost no decoding. Append takes
// ownership of Raw (it is not copied) and never blocks on a listener.
//
// Readers: Get and After (which reports evicted history with ErrDropped)
// for random access and catching up; Subscribe for batches delivered on a
// goroutine of the listener's own about every BatchInterval; Run and
// Waterfall for the "This run" view; Stats for the header counters since
// Clear; Attempts and AttemptsOf for the "Attempts" view of a retry
// lineage (KindTool events: Lineage, ErrorClass, OutcomeUnknown, and the
// RPC.CallID that the attempt's raw messages share). Events carry their
// inspector Categories, a Title, a Badge, and can be searched with Match.
//
// WriteTrace and ReadTrace save and load a session as a JSON trace file,
// described in TRACE.md; an Event marshals to JSON in the same form.
// Secrets are masked by Options.Redact before an event is stored, so no
// reader or trace can see them.
package events
