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
}

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
	return e
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
