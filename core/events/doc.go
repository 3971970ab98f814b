// Package events is Spyglass's single record of what happened on a
// connection: an append-only, bounded log of events (JSON-RPC messages in
// both directions with their exact bytes, stderr lines, HTTP exchanges,
// state changes, invalid input, warnings and errors, and the end of each
// tool call attempt with its retry lineage) with sequence numbers.
//
// The Log pairs every request with its response by (Conn, ID) in both
// directions and keeps each request's Outcome: waiting, ok with latency,
// error, timed out, cancelled, cancelled with a late reply, no response.
// The session says each message's Type, ID and Method as it appends it
// (it has decoded them anyway); only a message appended without them (a
// test, a trace) is decoded here. Append takes ownership of Raw (it is not
// copied) and never blocks on a listener. The ring is bounded by count
// (Options.Capacity) and by the bytes it holds (Options.MaxBytes, 256 MB
// by default); past either the oldest events are dropped and counted.
//
// Readers: Get and After (which reports evicted history with ErrDropped)
// for random access and catching up; Subscribe for batches delivered on a
// goroutine of the listener's own about every BatchInterval; Run and
// Waterfall for the "This run" view; Stats for the header counters since
// Clear (Stats.Add counts any events the same way, as the inspector does
// per connection); Attempts and AttemptsOf for the "Attempts" view of a
// retry lineage (KindTool events: Lineage, ErrorClass, OutcomeUnknown, and
// the RPC.CallID that the attempt's raw messages share). Events carry
// their inspector Categories, a Title, a Badge, and can be searched with
// Match.
//
// WriteTrace and ReadTrace save and load a session as a JSON trace file,
// described in TRACE.md and by TraceSchema (trace.schema.json); an Event
// marshals to JSON in the same form. DecodeTrace also gives the format
// version, and reads a damaged trace as far as it is valid, saying where
// it stops (TraceError).
// Secrets are masked by Options.Redact before an event is stored, so no
// reader or trace can see them.
package events
