package sampling

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

func respond(t *testing.T, p Profile, params string) map[string]any {
	t.Helper()
	raw, err := p.Respond(json.RawMessage(params))
	if err != nil {
		t.Fatalf("Respond: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("result is not JSON: %v", err)
	}
	return m
}

func TestMockProfiles(t *testing.T) {
	quick, detailed := BuiltinProfiles()[0], BuiltinProfiles()[1]
	plain := `{"messages":[{"role":"user","content":{"type":"text","text":"Index advice?"}}],"maxTokens":100}`
	claude := `{"messages":[{"role":"user","content":{"type":"text","text":"hello"}}],"modelPreferences":{"hints":[{"name":"claude-3-sonnet"}]}}`
	gpt := `{"messages":[{"role":"user","content":[{"type":"text","text":"arr"}]}],"modelPreferences":{"hints":[{"name":"x"},{"name":"gpt-4"}]}}`
	tests := []struct {
		name     string
		p        Profile
		params   string
		wantText string
	}{
		{"default template", quick, plain, DefaultTemplate},
		{"claude override with placeholder", detailed, claude, "I'll analyze this as Claude would: hello"},
		{"second hint matches gpt", detailed, gpt, "As an AI assistant, I can help with: arr"},
		{"no hint falls back", detailed, plain, DefaultTemplate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := respond(t, tc.p, tc.params)
			c, _ := m["content"].(map[string]any)
			if c["type"] != "text" || c["text"] != tc.wantText {
				t.Errorf("content = %v, want text %q", m["content"], tc.wantText)
			}
			if m["role"] != "assistant" || m["model"] != DefaultModel || m["stopReason"] != StopEndTurn {
				t.Errorf("envelope = %v", m)
			}
		})
	}
}

func TestToolLoop(t *testing.T) {
	p := BuiltinProfiles()[0]
	req := `{"messages":[{"role":"user","content":{"type":"text","text":"weather?"}}],
	  "tools":[{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string","default":"Paris"},"days":{"type":"integer"}},"required":["city","days"]}},
	           {"name":"get_forecast","inputSchema":{"type":"object"}}]}`
	m := respond(t, p, req)
	if m["stopReason"] != StopToolUse {
		t.Fatalf("first turn stopReason = %v, want toolUse", m["stopReason"])
	}
	blocks := m["content"].([]any)
	call := blocks[0].(map[string]any)
	if call["type"] != "tool_use" || call["name"] != "get_weather" {
		t.Fatalf("tool call = %v", call)
	}
	in := call["input"].(map[string]any)
	if in["city"] != "Paris" || in["days"] != float64(0) {
		t.Errorf("input = %v, want defaults filled", in)
	}

	specific := `{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"tools":[{"name":"a"},{"name":"b"}],"toolChoice":{"mode":"required","name":"b"}}`
	if got := respond(t, p, specific)["content"].([]any)[0].(map[string]any)["name"]; got != "b" {
		t.Errorf("toolChoice name ignored: called %v", got)
	}
	none := `{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"tools":[{"name":"a"}],"toolChoice":{"mode":"none"}}`
	if got := respond(t, p, none)["stopReason"]; got != StopEndTurn {
		t.Errorf("toolChoice none: stopReason %v", got)
	}
	cont := `{"messages":[{"role":"user","content":{"type":"text","text":"weather?"}},
	  {"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":{}}]},
	  {"role":"user","content":[{"type":"tool_result","toolUseId":"call_1","content":[{"type":"text","text":"18C"}]}]}],
	  "tools":[{"name":"get_weather"}]}`
	m = respond(t, p, cont)
	if m["stopReason"] != StopEndTurn {
		t.Fatalf("continuation stopReason = %v, want endTurn", m["stopReason"])
	}
	if _, isArr := m["content"].([]any); !isArr {
		t.Errorf("content with tools must be an array, got %T", m["content"])
	}
}

func TestManualAndErrors(t *testing.T) {
	manual := BuiltinProfiles()[2]
	if _, err := manual.Respond(json.RawMessage(`{"messages":[]}`)); !errors.Is(err, ErrManual) {
		t.Errorf("manual Respond err = %v, want ErrManual", err)
	}
	if d := manual.Draft(json.RawMessage(`{"messages":[]}`)); d != "" {
		t.Errorf("manual draft = %q, want empty", d)
	}
	quick := BuiltinProfiles()[0]
	if _, err := quick.Respond(json.RawMessage(`{"messages":`)); !errors.Is(err, ErrBadRequest) {
		t.Errorf("bad params err = %v, want ErrBadRequest", err)
	}
}

func TestProfilesFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub", "profiles.json")
	ps, err := Load(file)
	// a new installation answers nothing by itself: Manual Review is active
	if err != nil || ps.Current().Name != ManualReview || ps.Current().AutoRespond || len(ps.Profiles) != 3 {
		t.Fatalf("missing file: %v %+v", err, ps)
	}
	// an unknown active name falls back to a profile that does not
	// auto-respond, never to the first mock
	ps.Active = "gone"
	if cur := ps.Current(); cur.AutoRespond || cur.Provider != ProviderManual {
		t.Errorf("unknown active gives %+v, want a manual profile", cur)
	}
	if cur := (&Profiles{Profiles: BuiltinProfiles()[:2]}).Current(); cur.AutoRespond {
		t.Errorf("only mocks, no active: %+v auto-responds", cur)
	}
	ps.Put(Profile{Name: "Mine", Provider: ProviderMock, Template: "t"})
	ps.Active = "Mine"
	if err := ps.Delete("Detailed Mock"); err != nil {
		t.Fatal(err)
	}
	if err := ps.Delete("nope"); !errors.Is(err, ErrNoProfile) {
		t.Errorf("delete unknown: %v", err)
	}
	if err := Save(file, ps); err != nil {
		t.Fatal(err)
	}
	back, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if back.Current().Template != "t" || len(back.Profiles) != 3 {
		t.Errorf("round trip lost data: %+v", back)
	}
}
