// Package mcpresult decodes MCP results once, for every view: tools,
// content blocks, resources and read results, prompts and prompt results,
// tasks, and a tool's structuredContent checked against its outputSchema.
//
// A decoder never fails a whole result because of one part it cannot
// model: an unknown content kind (say {"type":"video"}) is kept with its
// exact JSON, and every place that does not match the MCP schema is
// returned as a [Problem] beside what could be decoded. The command line
// prints the result as sent and the problems beside it; the window shows
// what it can and says what it could not.
package mcpresult
