// Package replay plays a recorded session again: it takes the
// client→server requests of a trace in their recorded order, answers the
// server's own requests (sampling, elicitation, roots) with the answers
// the trace holds, and compares the new responses with the recorded ones
// through core/sessiondiff. It never sends a request that was not
// recorded, and it names the tool calls that may change something (no
// readOnlyHint) so that a person agrees first. Notifications and the
// long-lived subscriptions/listen streams the session keeps by itself are
// not sent again.
package replay
