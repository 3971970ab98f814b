package elicit

import (
	"encoding/json"
	"testing"
)

func TestAnswer(t *testing.T) {
	form := `{"message":"Who?","requestedSchema":{"type":"object","properties":{
	  "name":{"type":"string","default":"Ada"},"age":{"type":"integer","default":36},
	  "score":{"type":"number","default":9.5},"ok":{"type":"boolean","default":true},
	  "color":{"type":"string","enum":["red","green"],"default":"green"},"nodefault":{"type":"string"}}}}`
	url := `{"mode":"url","message":"Sign in","url":"https://example.test/x","elicitationId":"e1"}`
	tests := []struct {
		policy Policy
		params string
		want   string
	}{
		{Decline, form, `{"action":"decline"}`},
		{Cancel, form, `{"action":"cancel"}`},
		{Defaults, form, `{"action":"accept","content":{"age":36,"color":"green","name":"Ada","ok":true,"score":9.5}}`},
		{Defaults, url, `{"action":"decline"}`},
		{Defaults, `{"message":"none"}`, `{"action":"accept","content":{}}`},
	}
	for _, tc := range tests {
		got, err := Answer(tc.policy, json.RawMessage(tc.params))
		if err != nil {
			t.Fatalf("%s: %v", tc.policy, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.policy, got, tc.want)
		}
	}
	if _, err := Answer(Defaults, json.RawMessage(`{`)); err == nil {
		t.Error("malformed params accepted")
	}
}
