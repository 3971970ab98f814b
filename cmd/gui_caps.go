package cmd

import (
	"encoding/json"

	"github.com/spyglass-mcp/spyglass/ui"
)

// offers reports whether the server advertised the capability at path
// ("prompts"; "tasks", "list"). Before the handshake it says yes, so the
// engine's own error (not connected) is what the caller sees.
func (c *guiConn) offers(path ...string) bool {
	in := c.s.Info()
	if in == nil {
		return true
	}
	raw := in.Capabilities
	for _, p := range path {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return false
		}
		r, ok := m[p]
		if !ok || string(r) == "null" {
			return false
		}
		raw = r
	}
	return true
}

// notOffered is the error for a request the window does not send because
// the server did not advertise what it needs: what names it for a person
// ("prompts"), path is the capability.
func (c *guiConn) notOffered(what string, path ...string) error {
	if c.offers(path...) {
		return nil
	}
	return &ui.NotOfferedError{Server: c.name, What: what}
}
