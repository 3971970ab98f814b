package requests

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// tinyPNG is a 2×2 red PNG.
var tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="

func plainSampling() SamplingRequest {
	return SamplingRequest{Server: "everything", ID: "3", Params: json.RawMessage(`{
  "messages": [
    {"role": "user", "content": {"type": "text", "text": "Analyze this data and provide insights about the trends..."}},
    {"role": "user", "content": {"type": "image", "data": "` + tinyPNG + `", "mimeType": "image/png"}},
    {"role": "user", "content": [{"type": "audio", "data": "` + base64.StdEncoding.EncodeToString([]byte("RIFF....WAVE")) + `", "mimeType": "audio/wav"}]}
  ],
  "modelPreferences": {"hints": [{"name": "claude-3-sonnet"}, {"name": "gpt-4"}], "costPriority": 0.2, "speedPriority": 0.5, "intelligencePriority": 0.8},
  "systemPrompt": "You are a helpful assistant.",
  "includeContext": "thisServer",
  "maxTokens": 1000,
  "stopSequences": ["\n\n", "END"]
}`)}
}

func toolSampling() SamplingRequest {
	return SamplingRequest{Server: "weather", ID: "9", Params: json.RawMessage(`{
  "messages": [{"role": "user", "content": {"type": "text", "text": "What's the weather in Paris and London?"}}],
  "maxTokens": 500,
  "tools": [
    {"name": "get_weather", "description": "Get current weather for a city", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "get_forecast", "description": "Get 5-day forecast for a city", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "number"}}, "required": ["city"]}}
  ],
  "toolChoice": {"mode": "auto"}
}`)}
}

func continuationSampling() SamplingRequest {
	return SamplingRequest{Server: "weather", ID: "10", Params: json.RawMessage(`{
  "messages": [
    {"role": "user", "content": {"type": "text", "text": "What's the weather in Paris and London?"}},
    {"role": "assistant", "content": [
      {"type": "text", "text": "I'll check the weather for both cities."},
      {"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Paris"}},
      {"type": "tool_use", "id": "c2", "name": "get_weather", "input": {"city": "London"}}
    ]},
    {"role": "user", "content": [
      {"type": "tool_result", "toolUseId": "c1", "content": [{"type": "text", "text": "{\"temp\": 18, \"conditions\": \"Sunny\"}"}]},
      {"type": "tool_result", "toolUseId": "c2", "content": [{"type": "text", "text": "{\"temp\": 14, \"conditions\": \"Cloudy\"}"}]}
    ]}
  ],
  "maxTokens": 500,
  "tools": [{"name": "get_weather", "description": "Get current weather for a city", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]
}`)}
}

func newSampling(t *testing.T, req SamplingRequest, ps ProfileSet) (*SamplingPanel, *[]SamplingAnswer) {
	t.Helper()
	newApp(t)
	var got []SamplingAnswer
	p := NewSamplingPanel(req, &SamplingOptions{Profiles: ps, Responder: fakeResponder{}, OnEditProfiles: func() {}})
	p.OnAnswer = func(a SamplingAnswer) { got = append(got, a) }
	win := window(t, scrolled(p.Object()), 720, 760)
	p.opts.Window = win
	return p, &got
}

func TestSamplingInlineShowsSummaryAndPrefill(t *testing.T) {
	p, _ := newSampling(t, plainSampling(), testProfiles())
	capture(t, p.opts.Window, "sampling-inline")
	shown := texts(p.Object())
	for _, want := range []string{"Sampling Request", "Model hints: claude-3-sonnet, gpt-4", "Analyze this data", "[View Details]",
		"[Auto-respond]", "[Edit & Send]", "[Reject]", "[Edit Profiles]"} {
		if !strings.Contains(shown, want) {
			t.Errorf("inline view does not show %q:\n%s", want, shown)
		}
	}
	if p.response.Text != "This is a mock LLM response for testing purposes." || p.model.Text != "mock-model-1.0" || p.stop.Selected != StopEndTurn {
		t.Errorf("prefill = %q %q %q", p.response.Text, p.model.Text, p.stop.Selected)
	}
	// Switching to the manual profile empties the response and disables
	// Auto-respond.
	p.profileSel.SetSelected("Manual Review")
	if p.response.Text != "" || !p.autoBtn.Disabled() {
		t.Errorf("manual profile: response %q, auto disabled %v", p.response.Text, p.autoBtn.Disabled())
	}
}

func TestSamplingAutoRespond(t *testing.T) {
	p, got := newSampling(t, plainSampling(), testProfiles())
	test.Tap(button(t, p.Object(), "Auto-respond"))
	if len(*got) != 1 {
		t.Fatalf("answers = %+v", *got)
	}
	a := (*got)[0]
	if a.Rejected || !a.Auto || a.Profile != "Quick Mock" {
		t.Errorf("answer = %+v", a)
	}
	want := `{"content":{"text":"This is a mock LLM response for testing purposes.","type":"text"},"model":"mock-model-1.0","role":"assistant","stopReason":"endTurn"}`
	if compact(t, a.Result) != want {
		t.Errorf("result = %s", a.Result)
	}
	if !button(t, p.Object(), "Edit & Send").Disabled() {
		t.Error("the panel can answer twice")
	}
}

func TestSamplingEditAndSend(t *testing.T) {
	p, got := newSampling(t, plainSampling(), testProfiles())
	p.response.SetText("")
	test.Type(p.response, "Revenue grew 25%.")
	p.model.SetText("")
	test.Type(p.model, "claude-3-sonnet")
	p.stop.SetSelected(StopMaxTokens)
	test.Tap(button(t, p.Object(), "Edit & Send"))
	if len(*got) != 1 {
		t.Fatalf("answers = %+v", *got)
	}
	want := `{"role":"assistant","content":{"type":"text","text":"Revenue grew 25%."},"model":"claude-3-sonnet","stopReason":"maxTokens"}`
	if string((*got)[0].Result) != want {
		t.Errorf("result = %s\nwant     %s", (*got)[0].Result, want)
	}
	if (*got)[0].Auto {
		t.Error("an edited answer is marked automatic")
	}
}

func TestSamplingReject(t *testing.T) {
	p, got := newSampling(t, plainSampling(), testProfiles())
	test.Tap(button(t, p.Object(), "Reject"))
	if len(*got) != 1 || !(*got)[0].Rejected || (*got)[0].Result != nil {
		t.Fatalf("answers = %+v", *got)
	}
	if !strings.Contains(texts(p.Object()), "Rejected.") {
		t.Error("no note")
	}
}

func TestSamplingDetailsModal(t *testing.T) {
	p, got := newSampling(t, plainSampling(), testProfiles())
	test.Tap(button(t, p.Object(), "View Details"))
	if p.modal == nil {
		t.Fatal("no modal")
	}
	capture(t, p.opts.Window, "sampling-modal")
	shown := texts(p.Details())
	for _, want := range []string{"[0] role: user", "“Analyze this data and provide insights about the trends...”", "[image: image/png",
		"[Preview]", "[audio: audio/wav", "[Save…]", `["claude-3-sonnet","gpt-4"]`, "low (0.2)", "medium (0.5)", "high (0.8)",
		"1000", `["\n\n","END"]`, "(not specified)", "thisServer", "You are a helpful assistant."} {
		if !strings.Contains(shown, want) {
			t.Errorf("details do not show %q:\n%s", want, shown)
		}
	}
	// The editor moved into the modal; sending from there closes it.
	if p.sendBtn.Text != "Send Response" {
		t.Errorf("modal send button = %q", p.sendBtn.Text)
	}
	test.Tap(p.sendBtn)
	if len(*got) != 1 || p.modal != nil {
		t.Fatalf("answers = %+v, modal open %v", *got, p.modal != nil)
	}
	if p.sendBtn.Text != "Edit & Send" || len(p.inlineSlot.Objects) != 1 {
		t.Error("the editor did not come back inline")
	}
}

func TestSamplingToolUseAnswer(t *testing.T) {
	p, got := newSampling(t, toolSampling(), testProfiles())
	shown := texts(p.Details())
	for _, want := range []string{"Available Tools (2):", "get_weather", "Get current weather for a city", "Parameters: { city*: string }",
		"Parameters: { city*: string, days: number }", "Tool Choice: auto"} {
		if !strings.Contains(shown, want) {
			t.Errorf("details do not show %q:\n%s", want, shown)
		}
	}
	if !strings.Contains(texts(p.Object()), "Sampling Request (with tools)") {
		t.Error("title does not say with tools")
	}
	p.response.SetText("I'll check the weather for both cities.")
	test.Tap(button(t, p.Object(), "Add tool call"))
	test.Tap(button(t, p.Object(), "Add tool call"))
	if p.stop.Selected != StopToolUse || !p.toolWarn.Visible() {
		t.Errorf("stop = %q, warning shown %v", p.stop.Selected, p.toolWarn.Visible())
	}
	if p.callRows[0].args.Text != `{"city": ""}` {
		t.Errorf("skeleton = %q", p.callRows[0].args.Text)
	}
	p.callRows[0].args.SetText(`{"city": "Paris"}`)
	p.callRows[1].args.SetText(`{ "city" : "London" }`)
	capture(t, p.opts.Window, "sampling-tools")
	test.Tap(button(t, p.Object(), "Edit & Send"))
	if len(*got) != 1 {
		t.Fatalf("answers = %+v", *got)
	}
	want := `{"role":"assistant","content":[{"type":"text","text":"I'll check the weather for both cities."},` +
		`{"type":"tool_use","id":"call_9_1","name":"get_weather","input":{"city":"Paris"}},` +
		`{"type":"tool_use","id":"call_9_2","name":"get_weather","input":{"city":"London"}}],"model":"mock-model-1.0","stopReason":"toolUse"}`
	if string((*got)[0].Result) != want {
		t.Errorf("result = %s\nwant     %s", (*got)[0].Result, want)
	}
}

func TestSamplingToolUseNeedsValidCalls(t *testing.T) {
	p, got := newSampling(t, toolSampling(), testProfiles())
	p.stop.SetSelected(StopToolUse)
	test.Tap(button(t, p.Object(), "Edit & Send"))
	if len(*got) != 0 || !strings.Contains(p.errLbl.Text, "needs at least one tool call") {
		t.Fatalf("answers = %+v, error %q", *got, p.errLbl.Text)
	}
	test.Tap(button(t, p.Object(), "Add tool call"))
	p.callRows[0].args.SetText(`{"city": `)
	test.Tap(button(t, p.Object(), "Edit & Send"))
	if len(*got) != 0 || !strings.Contains(p.errLbl.Text, "not a JSON object") {
		t.Fatalf("answers = %+v, error %q", *got, p.errLbl.Text)
	}
	if l, c := p.callRows[0].argsEd.Problem(); l != 1 || c != 9 {
		t.Errorf("the arguments editor marks %d:%d, want the end of the text (1:9)", l, c)
	}
}

func TestSamplingToolCallerProfile(t *testing.T) {
	ps := testProfiles()
	ps.Active = "Tool Caller"
	p, got := newSampling(t, toolSampling(), ps)
	// The profile's tool call is prefilled…
	if len(p.callRows) != 1 || p.callRows[0].tool.Selected != "get_weather" || p.stop.Selected != StopToolUse {
		t.Fatalf("prefill: %d rows, stop %q", len(p.callRows), p.stop.Selected)
	}
	// …and Auto-respond sends the profile's own result.
	test.Tap(button(t, p.Object(), "Auto-respond"))
	if len(*got) != 1 || !strings.Contains(string((*got)[0].Result), `"stopReason":"toolUse"`) {
		t.Fatalf("answers = %+v", *got)
	}
}

func TestSamplingContinuation(t *testing.T) {
	ps := testProfiles()
	ps.Active = "Tool Caller"
	p, got := newSampling(t, continuationSampling(), ps)
	test.Tap(button(t, p.Object(), "View Details"))
	capture(t, p.opts.Window, "sampling-continuation")
	shown := texts(p.Details())
	for _, want := range []string{"Sampling Request (continuation with tool results)", "[1] role: assistant", "Tool calls: get_weather({\"city\":\"Paris\"}), get_weather({\"city\":\"London\"})",
		"[2] role: user (tool_result)", `get_weather({"city":"Paris"}): {"temp": 18, "conditions": "Sunny"}`} {
		if !strings.Contains(shown+texts(p.Object()), want) {
			t.Errorf("details do not show %q:\n%s", want, shown)
		}
	}
	// With results back, the tool-calling profile answers with text.
	if len(p.callRows) != 0 || p.stop.Selected != StopEndTurn || p.response.Text != "Done." {
		t.Errorf("prefill: %d rows, stop %q, text %q", len(p.callRows), p.stop.Selected, p.response.Text)
	}
	test.Tap(p.sendBtn)
	if len(*got) != 1 || !strings.Contains(string((*got)[0].Result), `"stopReason":"endTurn"`) {
		t.Fatalf("answers = %+v", *got)
	}
}

func TestSamplingClose(t *testing.T) {
	p, got := newSampling(t, plainSampling(), testProfiles())
	p.Close("cancelled by the server")
	test.Tap(button(t, p.Object(), "Edit & Send"))
	if len(*got) != 0 || !p.Answered() || !strings.Contains(texts(p.Object()), "cancelled by the server") {
		t.Fatalf("answers = %+v", *got)
	}
}

func TestSamplingBadParams(t *testing.T) {
	p, got := newSampling(t, SamplingRequest{Server: "s", ID: "1", Params: json.RawMessage(`{"messages": 5}`)}, testProfiles())
	if !strings.Contains(texts(p.Object()), "could not be read") {
		t.Errorf("no parse error:\n%s", texts(p.Object()))
	}
	test.Tap(button(t, p.Object(), "Reject"))
	if len(*got) != 1 {
		t.Fatal("cannot reject")
	}
}

// TestSamplingResponseTabMovesOn: Tab in the response field moves the
// focus on to the panel's buttons instead of typing a tab, so a keyboard
// user can reach Edit & Send.
func TestSamplingResponseTabMovesOn(t *testing.T) {
	p, _ := newSampling(t, plainSampling(), testProfiles())
	if p.response.AcceptsTab() {
		t.Error("Tab in the sampling response types a tab: the keyboard cannot leave the field")
	}
}

// TestSamplingEmptyResponseAsks: Send with an empty response asks first
// (a response the user forgot to type, found in the new-user walk) and
// sends the empty text only on "Send empty"; Cancel sends nothing; a
// typed response goes at once.
func TestSamplingEmptyResponseAsks(t *testing.T) {
	p, got := newSampling(t, plainSampling(), testProfiles())
	p.response.SetText("  ")
	confirm := func(verb string) {
		t.Helper()
		top := p.opts.Window.Canvas().Overlays().Top()
		if top == nil || !strings.Contains(texts(top), "Send an empty response?") {
			t.Fatalf("Send with an empty response asked nothing (%d answers)", len(*got))
		}
		test.Tap(button(t, top, verb))
	}
	test.Tap(p.sendBtn)
	if len(*got) != 0 {
		t.Fatalf("an empty response was sent without asking: %+v", *got)
	}
	confirm("Cancel")
	if len(*got) != 0 || p.done {
		t.Fatalf("Cancel sent the empty response: %+v", *got)
	}
	test.Tap(p.sendBtn)
	confirm("Send empty")
	if len(*got) != 1 || !strings.Contains(string((*got)[0].Result), `"text":"  "`) {
		t.Fatalf("Send empty: answers %+v", *got)
	}

	p, got = newSampling(t, plainSampling(), testProfiles())
	p.response.SetText("A haiku.")
	test.Tap(p.sendBtn)
	if len(*got) != 1 || p.opts.Window.Canvas().Overlays().Top() != nil {
		t.Fatalf("a typed response: answers %+v, a dialog open %v", *got, p.opts.Window.Canvas().Overlays().Top() != nil)
	}
}
