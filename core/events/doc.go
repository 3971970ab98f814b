// Package events is Spyglass's single record of what happened on a
// connection: an append-only, bounded log of events (JSON-RPC messages in
// both directions with their exact bytes, stderr lines, HTTP exchanges,
// state changes, invalid input, warnings and errors) with sequence numbers.
//
// The Log pairs every request with its response by id in both directions
// and keeps each request's Outcome (waiting, ok with latency, error, timed
// out, cancelled, cancelled with a late reply, no response). Listeners get
// batches on their own goroutine; a slow listener never slows the writer,
// and a late reader catches up with After, which says when history was
// dropped (ErrDropped). Events carry their inspector Categories, a Title,
// and a search (Match). WriteTrace and ReadTrace save and load a session
// as a JSON trace file, described in TRACE.md.
//
// Secrets are masked by Options.Redact before an event is stored, so no
// reader or trace can see them.
package events
