package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/adrg/xdg"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/redact"
)

// DefaultMax is how many entries a server's history keeps by default.
const DefaultMax = 200

// Entry is one request sent from the tester.
type Entry struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	// Params are the request's params as the user wrote them (masked).
	Params json.RawMessage `json:"params,omitempty"`
	// Headers are the per-request HTTP headers (secret values masked).
	Headers map[string]string `json:"headers,omitempty"`
	// Progress says whether progress was asked for.
	Progress bool `json:"progress,omitempty"`
	// Status is the outcome: "ok", "error", "timed out", "no response"...
	Status string `json:"status"`
	// Code is the JSON-RPC error code of an error answer (0 otherwise).
	Code int `json:"code,omitempty"`
	// Duration is the round trip, 0 when no answer came.
	Duration time.Duration `json:"durationNs,omitempty"`
	// Nested are the server's own requests during the call (sampling,
	// elicitation, roots), in order, at most MaxNested (masked, their
	// words bounded). Files written before they were kept have none.
	Nested []Nested `json:"nested,omitempty"`
}

// Nested is one request the server sent while a call ran, as the
// History's chain shows it: when, what, its outcome and the answer in
// short.
type Nested struct {
	// After is the time from the call's request to this request.
	After time.Duration `json:"afterNs"`
	// Method is sampling/createMessage, elicitation/create or roots/list.
	Method string `json:"method"`
	// WithTools and Continuation describe a sampling request: it offered
	// tools; its messages carry tool results.
	WithTools    bool `json:"withTools,omitempty"`
	Continuation bool `json:"continuation,omitempty"`
	// Status is the request's outcome badge ("ok · 3ms", "waiting").
	Status string `json:"status"`
	// Summary is the answer in short ("toolUse – get_weather(Paris)",
	// the quoted text, "accept", "2 root(s)"), "" when none came.
	Summary string `json:"summary,omitempty"`
	// ToolUses are the tool calls a sampling answer asked for
	// ("get_weather(Paris)").
	ToolUses []string `json:"toolUses,omitempty"`
	// AnsweredAfter is the time from the call's request to the answer,
	// 0 when none came.
	AnsweredAfter time.Duration `json:"answeredAfterNs,omitempty"`
}

// Bounds of what one call keeps of its nested requests: a server that
// sends hundreds of requests in one call, or a long sampling answer,
// does not grow the file without end.
const (
	MaxNested   = 32  // nested requests per call (the first ones)
	MaxToolUses = 16  // tool calls per sampling answer
	MaxWords    = 200 // characters of a summary, a status or a tool call
)

// Options tune a Store; nil means defaults.
type Options struct {
	// Max is how many entries a server keeps (DefaultMax when 0).
	Max int
	// Mask, when set, masks known secret values (for example a wire
	// Redactor's JSON) in params, after the name-based policy.
	Mask func(json.RawMessage) json.RawMessage
}

// Store reads and writes the history files of one folder. It is safe for
// concurrent use within one process.
type Store struct {
	dir  string
	opts Options
	mu   sync.Mutex
}

// DefaultDir is $XDG_DATA_HOME/spyglass/history.
func DefaultDir() string { return filepath.Join(xdg.DataHome, "spyglass", "history") }

// CallsDir is $XDG_DATA_HOME/spyglass/calls: the window's History of the
// calls a person made (tools, prompts, resources, raw requests), one file
// per server like the tester's.
func CallsDir() string { return filepath.Join(xdg.DataHome, "spyglass", "calls") }

// New returns a store keeping its files in dir (created on the first Add).
func New(dir string, opts *Options) *Store {
	s := &Store{dir: dir}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Max <= 0 {
		s.opts.Max = DefaultMax
	}
	return s
}

// path is the file of server: its name escaped, so that any name is one
// file inside dir.
func (s *Store) path(server string) string {
	return filepath.Join(s.dir, url.PathEscape(server)+".json")
}

type file struct {
	Server  string  `json:"server"`
	Entries []Entry `json:"entries"`
}

// List returns the server's entries, newest first (none when it has no
// history yet).
func (s *Store) List(server string) ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read(server)
}

func (s *Store) read(server string) ([]Entry, error) {
	data, err := os.ReadFile(s.path(server))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history: read %s: %w", server, err)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path(server), err)
	}
	return f.Entries, nil
}

// Add masks e and puts it first in the server's history, dropping the
// oldest entries past the limit, and writes the file atomically. An
// unreadable file is replaced.
func (s *Store) Add(server string, e Entry) error {
	e = s.mask(e)
	s.mu.Lock()
	defer s.mu.Unlock()
	old, _ := s.read(server)
	entries := append([]Entry{e}, old...)
	if len(entries) > s.opts.Max {
		entries = entries[:s.opts.Max]
	}
	data, err := json.MarshalIndent(file{Server: server, Entries: entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := catalog.WriteAtomic(s.path(server), data, nil); err != nil {
		return fmt.Errorf("history: write %s: %w", server, err)
	}
	return nil
}

// mask applies the masking policy to e.
func (s *Store) mask(e Entry) Entry {
	if len(e.Headers) > 0 {
		h := make(map[string]string, len(e.Headers))
		for k, v := range e.Headers {
			if redact.Name(k) && v != "" {
				v = redact.Mask
			}
			h[k] = v
		}
		e.Headers = h
	}
	e.Params = MaskJSON(e.Params)
	if s.opts.Mask != nil && len(e.Params) > 0 {
		e.Params = s.opts.Mask(e.Params)
	}
	e.Nested = s.maskNested(e.Nested)
	return e
}

// maskNested bounds the nested requests and masks their words: secret
// URL parameters, and the known secret values of Options.Mask.
func (s *Store) maskNested(ns []Nested) []Nested {
	if len(ns) == 0 {
		return nil
	}
	out := make([]Nested, 0, min(len(ns), MaxNested))
	for _, n := range ns[:min(len(ns), MaxNested)] {
		n.Method, n.Status, n.Summary = clip(n.Method), clip(n.Status), clip(n.Summary)
		uses := make([]string, 0, min(len(n.ToolUses), MaxToolUses))
		for _, u := range n.ToolUses[:min(len(n.ToolUses), MaxToolUses)] {
			uses = append(uses, clip(u))
		}
		n.ToolUses = uses
		if len(uses) == 0 {
			n.ToolUses = nil
		}
		out = append(out, n)
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return out
	}
	masked := maskStrings(raw)
	if s.opts.Mask != nil {
		masked = s.opts.Mask(masked)
	}
	var back []Nested
	if json.Unmarshal(masked, &back) != nil {
		return out
	}
	return back
}

// maskStrings masks the secret URL parameters in every string of raw
// (MaskJSON does it for strings that are URLs; a summary holds one
// among other words).
func maskStrings(raw json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, sub := range x {
				x[k] = walk(sub)
			}
		case []any:
			for i, sub := range x {
				x[i] = walk(sub)
			}
		case string:
			if strings.Contains(x, "://") {
				words := strings.Fields(x)
				for i, w := range words {
					if strings.Contains(w, "://") {
						words[i] = redact.URL(w)
					}
				}
				return strings.Join(words, " ")
			}
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		return raw
	}
	return out
}

// clip cuts s to MaxWords characters, marking the cut with "…".
func clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxWords {
		return s
	}
	return string([]rune(s)[:MaxWords-1]) + "…"
}

// MaskJSON masks the values of secret-named object members (core/redact's
// Name) at any depth, and the secrets in URL strings. JSON that needs no
// masking, or is not valid, is returned unchanged; masked JSON is
// re-encoded (members in sorted order).
func MaskJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	v, changed := maskValue(v)
	if !changed {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

func maskValue(v any) (any, bool) {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if redact.Name(k) && sub != nil {
				if s, ok := sub.(string); !ok || s != redact.Mask {
					x[k] = redact.Mask
					changed = true
				}
				continue
			}
			if nv, ch := maskValue(sub); ch {
				x[k], changed = nv, true
			}
		}
	case []any:
		for i, sub := range x {
			if nv, ch := maskValue(sub); ch {
				x[i], changed = nv, true
			}
		}
	case string:
		if strings.Contains(x, "://") {
			if m := redact.URL(x); m != x {
				return m, true
			}
		}
	}
	return v, changed
}
