// Package fault injects faults into a wire.Conn, to test servers and
// Spyglass's own handling of a bad connection.
//
// [Wrap] decorates a conn with a [Spec]: rules that delay, drop,
// duplicate, corrupt or reorder messages in either direction, cut the
// connection after N messages, answer a request with an injected JSON-RPC
// error instead of sending it, deliver a response late, or give a
// response an id nobody asked for. A rule can be limited to one method (a
// response counts as its request's method) and to its first N matches.
//
// Every fault injected is recorded as an events.KindWarning event whose
// Text starts with "fault injected:" and names it, so the inspector shows
// what was done to the connection.
//
// A spec also has a string form, for a command-line flag: rules separated
// by commas, each kind=arg:arg...
//
//	drop=out:tools/call        drop every tools/call request
//	drop=in:tools/call:*1      drop the first tools/call response
//	delay=in:200ms             deliver every incoming message 200ms late
//	delay=out:tools/list:1s    hold tools/list requests for a second
//	dup=in:tools/call          deliver tools/call responses twice
//	corrupt=in:tools/list      truncate tools/list responses (invalid JSON)
//	reorder=in                 swap each incoming message with the next
//	cut=5                      cut the connection after 5 messages
//	cut=out:3                  ... after 3 outgoing messages
//	error=tools/call:-32001    answer tools/call with a JSON-RPC error
//	late=tools/call:2s         deliver tools/call responses 2s late
//	unknown-id=tools/call      give tools/call responses an unknown id
//
// Directions are in (server → client), out (client → server) and both
// (the default). A trailing *N limits a rule to its first N matches,
// counted over every connection an [Injector] wraps (so "cut=3:*1" cuts
// one connection and the one dialed after it works); Cut counts the
// messages of each connection. Use [Injector.Dial] to wrap a session's
// dial function; a wrapped HTTP conn still takes SetProtocolVersion.
//
// [Conn.Pass] applies the same rules to one message at a time for a
// carrier that moves each message in an exchange of its own rather than
// through the inner conn (the HTTP tap in core/tap): it says what the
// rules did with the message ([Verdict]) and hands what is left of it to
// a forward function of the caller's.
package fault
