// Package collection reads collections of saved calls (FORMAT.md): a
// named, ordered list of MCP requests with the server they go to, each
// with optional expectations — the result matches a recorded one (after
// an ignore list), a JSON pointer equals a value, the result validates
// against a schema (the tool's outputSchema by default), the outcome is
// a JSON-RPC error with a given code, the call takes less than a bound —
// and checks a call's outcome against them.
package collection
