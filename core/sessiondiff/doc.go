// Package sessiondiff compares two recorded sessions (event lists from a
// live log or a trace file): it lines up their requests by method and
// parameters in order and reports, for each pair, what differs in the
// request and in the response by JSON path (added, removed, changed),
// with timing differences kept apart from content differences. Volatile
// fields (message ids, progress tokens, session ids, timestamps) are
// ignored by an editable list of JSON pointer patterns.
//
// The JSON diff itself is github.com/wI2L/jsondiff (RFC 6902 patches);
// this package only chooses what to compare with what.
package sessiondiff
