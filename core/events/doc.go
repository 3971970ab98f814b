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
// copied) and never blocks on a listener.
//
// Retention: the newest 4096–5120 events are held as they are; older ones
// are sealed in chunks of 1024, compressed with snappy (titles, texts and
// payloads in one block, the other fields in a compact binary block), with
// an index of 5 bytes per event (connection, categories) for Search's
// filters. The memory the log holds is bounded by Options.MaxBytes (256
// MB by default): beyond it the oldest chunks are spilled to a file under
// $XDG_CACHE_HOME/spyglass/spill (0600 in a 0700 folder; unlinked as soon
// as it is open on Unix, so it goes with the process however it ends;
// Close removes it elsewhere, and stale files of dead processes are
// removed by the next one) and read back when Get, After or Events ask
// for them. When the spill folder cannot be written, or Options.NoSpill
// is set, the oldest events are dropped and counted instead, and one
// KindWarning event says why. Options.Capacity (5,000,000 by default)
// bounds the events kept in all, memory and disk; past it the oldest are
// dropped. A million events of a recorded server-everything session fit
// in about 180 MB without spilling. Requests that are sealed still pair:
// their new Pair and Outcome are kept beside the chunk.
//
// Readers: Get and After (which reports evicted history with ErrDropped)
// for random access and catching up (sealed events are decoded outside
// the lock, the last chunks kept in a 16 MB cache); Search for the
// inspector's list and search box (a query over titles and payloads with
// connection, tab and clear filters, found in the compressed chunks
// without decoding them, hits streamed in batches, stopped by ctx);
// Subscribe for batches delivered on a
// goroutine of the listener's own about every BatchInterval; Run and
// Waterfall for the "This run" view; Stats for the header counters since
// Clear (Stats.Add counts any events the same way, as the inspector does
// per connection); Attempts and AttemptsOf for the "Attempts" view of a
// retry lineage (KindTool events: Lineage, ErrorClass, OutcomeUnknown, and
// the RPC.CallID that the attempt's raw messages share). Events carry
// their inspector Categories, a Title, a Badge, and can be searched with
// Match.
//
// WriteTrace and ReadTrace save and load a session as a JSON trace file
// (Log.WriteTrace and Log.WriteTraceOf read the log a page at a time),
// described in TRACE.md and by TraceSchema (trace.schema.json); an Event
// marshals to JSON in the same form. DecodeTrace also gives the format
// version, and reads a damaged trace as far as it is valid, saying where
// it stops (TraceError).
// Secrets are masked by Options.Redact before an event is stored, so no
// reader or trace can see them.
package events
