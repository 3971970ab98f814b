package requests

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// samplingParams is the view of sampling/createMessage params the panels
// read; unknown members are simply not shown here (the inspector keeps the
// raw message).
type samplingParams struct {
	Messages         []samplingMessage `json:"messages"`
	ModelPreferences *modelPrefs       `json:"modelPreferences"`
	SystemPrompt     string            `json:"systemPrompt"`
	IncludeContext   string            `json:"includeContext"`
	Temperature      *float64          `json:"temperature"`
	MaxTokens        *int              `json:"maxTokens"`
	StopSequences    []string          `json:"stopSequences"`
	Tools            []samplingTool    `json:"tools"`
	ToolChoice       *struct {
		Mode string `json:"mode"`
		Name string `json:"name"`
	} `json:"toolChoice"`
}

type samplingMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type modelPrefs struct {
	Hints []struct {
		Name string `json:"name"`
	} `json:"hints"`
	CostPriority         *float64 `json:"costPriority"`
	SpeedPriority        *float64 `json:"speedPriority"`
	IntelligencePriority *float64 `json:"intelligencePriority"`
}

type samplingTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// block is one content block of any type.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Data      string          `json:"data"`
	MimeType  string          `json:"mimeType"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"toolUseId"`
	Content   []block         `json:"content"`
	IsError   bool            `json:"isError"`
	raw       json.RawMessage
}

// parseSampling reads params; what cannot be read is reported and the rest
// shown.
func parseSampling(raw json.RawMessage) (*samplingParams, error) {
	p := &samplingParams{}
	if len(raw) == 0 {
		return p, nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return p, err
	}
	return p, nil
}

// blocks returns a message's content blocks, whether one object or an array.
func (m samplingMessage) blocks() []block {
	c := strings.TrimSpace(string(m.Content))
	var raws []json.RawMessage
	if strings.HasPrefix(c, "[") {
		_ = json.Unmarshal(m.Content, &raws)
	} else if c != "" {
		raws = []json.RawMessage{m.Content}
	}
	out := make([]block, 0, len(raws))
	for _, r := range raws {
		var b block
		if json.Unmarshal(r, &b) != nil {
			b = block{Type: "?"}
		}
		b.raw = r
		out = append(out, b)
	}
	return out
}

// hints returns the model hint names.
func (p *samplingParams) hints() []string {
	if p.ModelPreferences == nil {
		return nil
	}
	var out []string
	for _, h := range p.ModelPreferences.Hints {
		if h.Name != "" {
			out = append(out, h.Name)
		}
	}
	return out
}

// preview is the text of the last user message that has text, else the
// first block of any message.
func (p *samplingParams) preview() string {
	for i := len(p.Messages) - 1; i >= 0; i-- {
		if p.Messages[i].Role != "user" {
			continue
		}
		for _, b := range p.Messages[i].blocks() {
			if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
				return oneLine(b.Text)
			}
		}
	}
	for _, m := range p.Messages {
		for _, b := range m.blocks() {
			if t := b.summary(); t != "" {
				return t
			}
		}
	}
	return ""
}

// hasToolResults reports whether the request continues a tool loop.
func (p *samplingParams) hasToolResults() bool {
	for _, m := range p.Messages {
		for _, b := range m.blocks() {
			if b.Type == "tool_result" {
				return true
			}
		}
	}
	return false
}

// summary is a one-line description of a block.
func (b block) summary() string {
	switch b.Type {
	case "text":
		return oneLine(b.Text)
	case "image", "audio":
		return fmt.Sprintf("[%s: %s, %s]", b.Type, b.MimeType, sizeText(base64.StdEncoding.DecodedLen(len(b.Data))))
	case "tool_use":
		return fmt.Sprintf("%s(%s)", b.Name, compactJSON(b.Input))
	case "tool_result":
		var parts []string
		for _, c := range b.Content {
			parts = append(parts, c.summary())
		}
		s := strings.Join(parts, " ")
		if b.IsError {
			s = "error: " + s
		}
		return s
	}
	return compactJSON(b.raw)
}

// priority words a model preference priority as "low (0.2)".
func priority(v *float64) string {
	if v == nil {
		return "(not specified)"
	}
	w := "medium"
	switch {
	case *v < 0.34:
		w = "low"
	case *v > 0.66:
		w = "high"
	}
	return fmt.Sprintf("%s (%g)", w, *v)
}
