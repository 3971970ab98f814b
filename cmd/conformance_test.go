package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/session"
)

func TestConformanceArguments(t *testing.T) {
	raw := json.RawMessage(`{"name":"add_numbers","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"},"mode":{"type":"string","enum":["x","y"]},"opt":{"type":"string"}},"required":["a","b","mode"]}}`)
	got, _ := json.Marshal(conformanceArguments(raw))
	if string(got) != `{"a":2,"b":3,"mode":"x"}` {
		t.Errorf("arguments = %s", got)
	}
}

func TestDefaultsElicitor(t *testing.T) {
	res, err := defaultsElicitor{}.Elicit(t.Context(), elicitationRequest(t,
		`{"message":"m","requestedSchema":{"type":"object","properties":{"age":{"type":"integer","default":30},"name":{"type":"string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"action":"accept"`) || !strings.Contains(string(b), `"content":{"age":30}`) {
		t.Errorf("form answer = %s", b)
	}
	res, err = defaultsElicitor{}.Elicit(t.Context(), elicitationRequest(t, `{"mode":"url","message":"m","url":"https://example.com","elicitationId":"e"}`))
	if err != nil || res.Action != "decline" {
		t.Errorf("url answer = %+v %v", res, err)
	}
}

func elicitationRequest(t *testing.T, params string) *session.ElicitationRequest {
	t.Helper()
	r := &session.ElicitationRequest{}
	r.Params = json.RawMessage(params)
	if err := json.Unmarshal(r.Params, &r.ElicitationParams); err != nil {
		t.Fatal(err)
	}
	return r
}
