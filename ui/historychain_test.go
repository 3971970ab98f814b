package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The chain of a sampling-with-tools loop reads as the seed draws it, from
// the kept nested requests alone (what an earlier session's call has).
func TestChainLines(t *testing.T) {
	ms := time.Millisecond
	got := chainLines([]NestedRequest{
		{After: 12 * ms, Method: "sampling/createMessage", WithTools: true, Status: "ok · 3ms",
			Summary: "toolUse – get_weather(Paris), get_weather(London)", ToolUses: []string{"get_weather(Paris)", "get_weather(London)"}, AnsweredAfter: 15 * ms},
		{After: 40 * ms, Method: "sampling/createMessage", Continuation: true, Status: "ok · 2ms", Summary: `"Sunny in both."`, AnsweredAfter: 42 * ms},
		{After: 50 * ms, Method: "elicitation/create", Status: "waiting"},
	})
	want := []string{
		"    ↳ +12ms  sampling/createMessage (with tools)  · ok · 3ms",
		"        Response: toolUse – get_weather(Paris), get_weather(London)",
		"    ↳ +15ms  tool execution: get_weather ×2",
		"    ↳ +40ms  sampling/createMessage (continuation)  · ok · 2ms",
		`        Response: "Sunny in both."`,
		"    ↳ +50ms  elicitation/create  · waiting",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("chain\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A tool call's only argument is shown in the summary, unless its name is
// a secret's: the summary is kept across restarts.
func TestFirstArgMasksSecret(t *testing.T) {
	if got := firstArg(json.RawMessage(`{"city": "Paris"}`)); got != "Paris" {
		t.Errorf("firstArg(city) = %q", got)
	}
	if got := firstArg(json.RawMessage(`{"api_key": "sekrit"}`)); strings.Contains(got, "sekrit") {
		t.Errorf("firstArg(api_key) = %q: the secret is shown", got)
	}
}
