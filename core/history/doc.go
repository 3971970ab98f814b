// Package history keeps the Advanced JSON-RPC Tester's request history
// (DefaultDir) and the window's History of the calls a person made
// (CallsDir): per server, newest first, bounded, in one JSON file per
// server under the user's XDG data folder, so that they survive restarts. Secrets are masked
// by core/redact's policy before anything is written: the values of secret
// headers and of secret-named members of the params (at any depth), and the
// secret parts of URLs inside them. A call of the History also keeps the
// server's own requests it triggered (Entry.Nested: sampling, elicitation,
// roots, with their times relative to the call and their answers in
// short), at most MaxNested per call and MaxWords characters a summary,
// masked the same way; files written before them read as calls without.
package history
