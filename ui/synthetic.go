package ui

import (
	"encoding/json"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
)

// withSyntheticPayload gives an event that is no message on the wire (a
// tool call attempt, `tool · …`) a payload to show: what the record
// holds about it, as the trace file names it (its outcome first; seq,
// time and server are in the details' header). Other events are
// returned as they are.
func withSyntheticPayload(e EventView) EventView {
	if len(e.Raw) > 0 || e.Kind != "tool" {
		return e
	}
	ev := e.Event
	rec := struct {
		ErrorClass     string           `json:"errorClass,omitempty"`
		OutcomeUnknown bool             `json:"outcomeUnknown,omitempty"`
		Tool           *events.ToolInfo `json:"tool,omitempty"`
		Lineage        *events.Lineage  `json:"lineage,omitempty"`
		RPC            *events.RPCInfo  `json:"rpc,omitempty"`
		Run            string           `json:"run,omitempty"`
		Text           string           `json:"text,omitempty"`
	}{ev.ErrorClass, ev.OutcomeUnknown, ev.Tool, ev.Lineage, ev.RPC, ev.Run, ev.Text}
	b, err := json.Marshal(rec)
	if err != nil {
		return e
	}
	e.Raw = b
	return e
}

// taskToolResult decodes a tasks/result answer as the tool result it
// carries (core/mcpresult, like every result), the exact JSON kept.
func taskToolResult(raw json.RawMessage) ToolResult {
	r := mcpresult.DecodeToolResult(raw)
	return ToolResult{Content: r.Content, StructuredContent: r.StructuredContent, IsError: r.IsError, Problems: r.Problems, Raw: raw}
}
