// Package redact is Spyglass's one secret policy: which names carry a
// secret value (environment variables, HTTP headers, URL query
// parameters, command-line flags) and what a masked value looks like.
//
// Every output that could show a secret uses it: the recorder's
// wire.Redactor (events, traces, --verbose), the trace's connection
// targets, `servers list` and `servers show`, and the window's server
// cards. A name is judged by its words ("DB_PWD", "apiKey" and
// "X-Api-Key" all have a secret word), so "passthrough" or a
// "session_count" stays visible while "session" and "sessionid" do not.
package redact
