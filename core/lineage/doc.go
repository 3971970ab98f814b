// Package lineage tells attempts of the same tool call apart from new
// calls, and says what a repeat means.
//
// Attempts share a lineage when they have the same [Fingerprint]: a hash
// of the server, the tool, the tool's input schema and the normalized
// arguments (object key order and insignificant white space do not
// matter; a changed schema starts a new lineage).
//
// Each failed attempt gets an [ErrorClass]. For a tool that may change
// something (no readOnlyHint), a timeout, a cancellation or a transport
// failure of a request that was sent leaves the outcome unknown: the
// write may have happened. A later attempt of the same lineage that
// succeeds after such an attempt "may have run twice" (a warning). A
// plain repeat of a write that succeeded, or is still running, is the
// "same call again". Read-only tools are never flagged (their repeats are
// just "attempt 2", "attempt 3"); tools marked idempotentHint show
// "attempt 2 (idempotent)", still report an unknown outcome after a
// timeout, but a successful retry is not flagged.
//
// [OutcomeUnknown] is a pure function; a [Tracker] judges repeats from
// counts over each lineage as attempts begin and end, and keeps every
// lineage for the inspector's Attempts view. It is safe for concurrent use
// and knows nothing of JSON-RPC: core/session feeds it.
package lineage
