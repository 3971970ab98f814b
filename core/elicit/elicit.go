// Package elicit holds the automatic answers to a server's
// elicitation/create requests used where no person is asked: the --cli
// client's policies and the conformance client. The desktop window asks
// the user through a form instead.
package elicit

import (
	"encoding/json"
	"fmt"
)

// Policy names an automatic answer.
type Policy string

// The policies.
const (
	Decline  Policy = "decline"  // answer {"action":"decline"} (the default)
	Cancel   Policy = "cancel"   // answer {"action":"cancel"}
	Defaults Policy = "defaults" // accept a form request with the schema's default values
)

// Request is the part of elicitation/create params a policy reads.
type Request struct {
	Mode            string          `json:"mode,omitempty"` // "form" (default) or "url"
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
}

// Answer builds the elicitation result for params under the policy. A URL
// request is never accepted automatically (nobody can visit the page):
// Defaults declines it.
func Answer(p Policy, params json.RawMessage) (json.RawMessage, error) {
	var r Request
	if err := json.Unmarshal(params, &r); err != nil {
		return nil, fmt.Errorf("elicit: malformed elicitation/create params: %w", err)
	}
	switch {
	case p == Cancel:
		return json.RawMessage(`{"action":"cancel"}`), nil
	case p == Defaults && r.Mode != "url":
		content, err := DefaultValues(r.RequestedSchema)
		if err != nil {
			return nil, err
		}
		return json.Marshal(map[string]any{"action": "accept", "content": content})
	}
	return json.RawMessage(`{"action":"decline"}`), nil
}

// DefaultValues returns the default of every property of a flat
// elicitation schema that declares one, exactly as written in the schema.
func DefaultValues(schema json.RawMessage) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if len(schema) == 0 {
		return out, nil
	}
	var s struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("elicit: malformed requestedSchema: %w", err)
	}
	for name, p := range s.Properties {
		if len(p.Default) > 0 {
			out[name] = p.Default
		}
	}
	return out, nil
}
