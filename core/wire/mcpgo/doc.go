// Package mcpgo puts Spyglass's transports (core/wire: stdio, Streamable
// HTTP, legacy SSE, and decorators such as fault injection) behind
// mark3labs/mcp-go's client transport interface, so that mcp-go's own
// client runs over them.
//
// It lives apart from core/wire because mcp-go's transport package
// imports mcp-go's server package (and with it a JSON Schema compiler
// that does real work at program start); core/wire itself stays free of
// both.
package mcpgo
