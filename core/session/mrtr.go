package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// maxInputRounds bounds the multi round-trip retries of one request.
const maxInputRounds = 10

// inputRequired is the part of a modern result that asks for input.
type inputRequired struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  *string                    `json:"requestState"`
}

// needsInput reports whether a result is "input required" (protocol
// 2026-07-28 multi round-trip requests).
func needsInput(raw json.RawMessage) bool {
	if !bytes.Contains(raw, []byte(`"input_required"`)) {
		return false
	}
	var r inputRequired
	return json.Unmarshal(raw, &r) == nil && r.ResultType == "input_required"
}

// fulfilInput answers every input request of rep with the handlers (as if
// the server had sent them as requests) and returns params for the retry:
// the original ones with inputResponses and requestState.
func (s *Session) fulfilInput(ctx context.Context, rep *Reply, params json.RawMessage) (json.RawMessage, error) {
	var r inputRequired
	if err := json.Unmarshal(rep.Raw, &r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	responses := make(map[string]json.RawMessage, len(r.InputRequests))
	for key, raw := range r.InputRequests {
		var in struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, fmt.Errorf("input request %q: %w: %w", key, ErrDecode, err)
		}
		req := &ServerRequest{Conn: s.conn, InputKey: key, Method: in.Method, Run: rep.Run, Params: in.Params}
		res, err := s.dispatch(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): %w", key, in.Method, err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			return nil, fmt.Errorf("input request %q: %w", key, err)
		}
		responses[key] = b
	}
	obj := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(params); len(t) > 0 && string(t) != "null" {
		if err := json.Unmarshal(t, &obj); err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
	}
	b, err := json.Marshal(responses)
	if err != nil {
		return nil, err
	}
	obj["inputResponses"] = b
	delete(obj, "requestState")
	if r.RequestState != nil {
		obj["requestState"], _ = json.Marshal(*r.RequestState)
	}
	return json.Marshal(obj)
}
