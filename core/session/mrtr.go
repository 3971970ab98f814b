package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spyglass-mcp/spyglass/core/events"
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
func (s *Session) fulfilInput(ctx context.Context, rep *Reply, params json.RawMessage, round *InputRound) (json.RawMessage, error) {
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
		req := &ServerRequest{Conn: s.conn, InputKey: key, Method: in.Method, Run: rep.Run, Params: in.Params, Round: round}
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

// inputRound describes round n of the round trip whose first request had
// id first: method and the name its params give.
func inputRound(method string, params json.RawMessage, first string, n int) *InputRound {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(params, &p)
	name := p.Name
	if name == "" {
		name = p.URI
	}
	return &InputRound{Method: method, Name: name, N: n, Conversation: first}
}

// abandonRounds records that the round trip of r was given up after its
// round r.N asked for input: why says how.
func (s *Session) abandonRounds(r *InputRound, run string, rpc *events.RPCInfo, err error) {
	what := r.Method
	if r.Name != "" {
		what += " " + r.Name
	}
	why := "the input failed: " + err.Error()
	if errors.Is(err, ErrInputCancelled) || errors.Is(err, context.Canceled) {
		why = "the input was cancelled"
	}
	s.log.Append(events.Event{Conn: s.conn, Kind: events.KindWarning, Method: r.Method, Run: run, RPC: rpc,
		Round: &events.RoundInfo{Conversation: r.Conversation, N: r.N, Abandoned: true},
		Text:  fmt.Sprintf("%s abandoned at round %d of its multi round-trip request: %s", what, r.N, why)})
}
