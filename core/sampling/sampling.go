package sampling

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
)

// Provider names.
const (
	ProviderManual = "manual" // a person types each response
	ProviderMock   = "mock"   // answers from templates
)

// Stop reasons of a sampling result.
const (
	StopEndTurn      = "endTurn"
	StopToolUse      = "toolUse"
	StopMaxTokens    = "maxTokens"
	StopStopSequence = "stopSequence"
)

// ErrManual is returned by Respond for a profile whose provider is Manual:
// a person has to write the answer.
var ErrManual = errors.New("sampling: this profile needs a person to answer")

// ErrBadRequest wraps a sampling request that cannot be read.
var ErrBadRequest = errors.New("sampling: malformed sampling/createMessage params")

// Override is a model-specific template: the first override whose Pattern
// (a glob such as "claude-*") matches one of the request's model hints wins.
type Override struct {
	Pattern  string `json:"pattern"`
	Template string `json:"template"`
}

// Profile is a saved testing configuration: a provider and its settings.
type Profile struct {
	Name        string     `json:"name"`
	Provider    string     `json:"provider"`
	AutoRespond bool       `json:"autoRespond,omitempty"`
	Template    string     `json:"template,omitempty"`
	Model       string     `json:"model,omitempty"`
	StopReason  string     `json:"stopReason,omitempty"`
	Overrides   []Override `json:"overrides,omitempty"`
	// CallTools makes a mock answer a request that offers tools with a
	// call of the chosen tool (stopReason "toolUse") until tool results
	// come back; then it answers with text and "endTurn".
	CallTools bool `json:"callTools,omitempty"`
}

// DefaultTemplate is the response of the built-in Quick Mock profile.
const DefaultTemplate = "This is a mock LLM response for testing purposes."

// DefaultModel is the model name mock responses report.
const DefaultModel = "mock-model-1.0"

// BuiltinProfiles returns the three profiles every installation starts with.
func BuiltinProfiles() []Profile {
	return []Profile{
		{Name: "Quick Mock", Provider: ProviderMock, AutoRespond: true, Template: DefaultTemplate,
			Model: DefaultModel, StopReason: StopEndTurn, CallTools: true},
		{Name: "Detailed Mock", Provider: ProviderMock, AutoRespond: true, Template: DefaultTemplate,
			Model: DefaultModel, StopReason: StopEndTurn, CallTools: true, Overrides: []Override{
				{Pattern: "claude-*", Template: "I'll analyze this as Claude would: {{last_user_message}}"},
				{Pattern: "gpt-*", Template: "As an AI assistant, I can help with: {{last_user_message}}"},
			}},
		{Name: ManualReview, Provider: ProviderManual},
	}
}

// Request is the part of sampling/createMessage params a profile reads.
type Request struct {
	Messages         []Message        `json:"messages"`
	ModelPreferences *json.RawMessage `json:"modelPreferences,omitempty"`
	SystemPrompt     string           `json:"systemPrompt,omitempty"`
	MaxTokens        int              `json:"maxTokens,omitempty"`
	Tools            []Tool           `json:"tools,omitempty"`
	ToolChoice       *ToolChoice      `json:"toolChoice,omitempty"`
}

// Message is one sampling message; Content is a single content block or
// an array of them (2025-11-25), kept raw.
type Message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// Tool is a tool offered to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// ToolChoice says whether and which tool the model may call.
type ToolChoice struct {
	Mode string `json:"mode,omitempty"` // auto, none, required
	Name string `json:"name,omitempty"` // a specific tool
}

// Block is one content block.
type Block struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// Blocks returns the message's content blocks whether Content is a single
// object or an array.
func (m Message) Blocks() []json.RawMessage {
	c := strings.TrimSpace(string(m.Content))
	if strings.HasPrefix(c, "[") {
		var arr []json.RawMessage
		if json.Unmarshal(m.Content, &arr) == nil {
			return arr
		}
		return nil
	}
	if c == "" {
		return nil
	}
	return []json.RawMessage{m.Content}
}

// ParseRequest reads sampling/createMessage params.
func ParseRequest(params json.RawMessage) (*Request, error) {
	var r Request
	if err := json.Unmarshal(params, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	return &r, nil
}

// Hints returns the model hint names of the request, in order.
func (r *Request) Hints() []string {
	if r.ModelPreferences == nil {
		return nil
	}
	var p struct {
		Hints []struct {
			Name string `json:"name"`
		} `json:"hints"`
	}
	if json.Unmarshal(*r.ModelPreferences, &p) != nil {
		return nil
	}
	var out []string
	for _, h := range p.Hints {
		if h.Name != "" {
			out = append(out, h.Name)
		}
	}
	return out
}

// LastUserText returns the text of the last user message's text blocks.
func (r *Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role != "user" {
			continue
		}
		var parts []string
		for _, raw := range r.Messages[i].Blocks() {
			var b Block
			if json.Unmarshal(raw, &b) == nil && b.Type == "text" {
				parts = append(parts, b.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return ""
}

// hasToolResults reports whether the last message carries tool results,
// which means the model's tool calls were executed and it should finish.
func (r *Request) hasToolResults() bool {
	if len(r.Messages) == 0 {
		return false
	}
	for _, raw := range r.Messages[len(r.Messages)-1].Blocks() {
		var b Block
		if json.Unmarshal(raw, &b) == nil && b.Type == "tool_result" {
			return true
		}
	}
	return false
}

// Result is a sampling/createMessage result.
type Result struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	Model      string `json:"model"`
	StopReason string `json:"stopReason,omitempty"`
}

// TemplateFor returns the template the profile uses for a request: the
// first override matching a model hint, else the default template.
func (p *Profile) TemplateFor(r *Request) string {
	for _, o := range p.Overrides {
		for _, h := range r.Hints() {
			if ok, _ := path.Match(o.Pattern, h); ok {
				return o.Template
			}
		}
	}
	if p.Template == "" {
		return DefaultTemplate
	}
	return p.Template
}

// Expand fills a template's placeholders: {{last_user_message}} and
// {{model_hint}} (the first hint).
func Expand(tmpl string, r *Request) string {
	hint := ""
	if hs := r.Hints(); len(hs) > 0 {
		hint = hs[0]
	}
	return strings.NewReplacer("{{last_user_message}}", r.LastUserText(), "{{model_hint}}", hint).Replace(tmpl)
}

// Respond builds the result JSON a mock profile sends for the request. A
// Manual profile returns ErrManual; Draft gives its prefilled text instead.
func (p *Profile) Respond(params json.RawMessage) (json.RawMessage, error) {
	if p.Provider == ProviderManual {
		return nil, ErrManual
	}
	r, err := ParseRequest(params)
	if err != nil {
		return nil, err
	}
	return json.Marshal(p.build(r))
}

// Draft returns the text a profile prefills in the response field.
func (p *Profile) Draft(params json.RawMessage) string {
	if p.Provider == ProviderManual {
		return ""
	}
	r, err := ParseRequest(params)
	if err != nil {
		return ""
	}
	return Expand(p.TemplateFor(r), r)
}

func (p *Profile) model() string {
	if p.Model == "" {
		return DefaultModel
	}
	return p.Model
}

func (p *Profile) build(r *Request) Result {
	if tool, ok := p.toolToCall(r); ok {
		return Result{Role: "assistant", Model: p.model(), StopReason: StopToolUse, Content: []map[string]any{{
			"type":  "tool_use",
			"id":    "call_1",
			"name":  tool.Name,
			"input": DefaultArguments(tool.InputSchema),
		}}}
	}
	stop := p.StopReason
	if stop == "" {
		stop = StopEndTurn
	}
	text := Expand(p.TemplateFor(r), r)
	if len(r.Tools) > 0 {
		// 2025-11-25: a result to a request with tools carries an array.
		return Result{Role: "assistant", Model: p.model(), StopReason: stop,
			Content: []Block{{Type: "text", Text: text}}}
	}
	return Result{Role: "assistant", Model: p.model(), StopReason: stop, Content: Block{Type: "text", Text: text}}
}

func (p *Profile) toolToCall(r *Request) (Tool, bool) {
	if !p.CallTools || len(r.Tools) == 0 || r.hasToolResults() {
		return Tool{}, false
	}
	if r.ToolChoice != nil {
		if r.ToolChoice.Mode == "none" {
			return Tool{}, false
		}
		if r.ToolChoice.Name != "" {
			for _, t := range r.Tools {
				if t.Name == r.ToolChoice.Name {
					return t, true
				}
			}
		}
	}
	return r.Tools[0], true
}

// DefaultArguments builds tool arguments from a JSON Schema: each
// property's default, else a placeholder of its type for required ones.
func DefaultArguments(schema json.RawMessage) map[string]any {
	out := map[string]any{}
	var s struct {
		Properties map[string]struct {
			Type    any             `json:"type"`
			Default json.RawMessage `json:"default"`
			Enum    []any           `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return out
	}
	for name, p := range s.Properties {
		if len(p.Default) > 0 {
			out[name] = p.Default
		}
	}
	for _, name := range s.Required {
		if _, ok := out[name]; ok {
			continue
		}
		p := s.Properties[name]
		switch {
		case len(p.Enum) > 0:
			out[name] = p.Enum[0]
		case p.Type == "number" || p.Type == "integer":
			out[name] = 0
		case p.Type == "boolean":
			out[name] = false
		case p.Type == "array":
			out[name] = []any{}
		case p.Type == "object":
			out[name] = map[string]any{}
		default:
			out[name] = "mock"
		}
	}
	return out
}
