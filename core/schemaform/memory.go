package schemaform

import (
	"encoding/json"
	"slices"
	"sync"
)

// Memory remembers the last arguments sent per key (for example
// "<server>/<tool>") for the length of a session. It is safe for
// concurrent use.
type Memory struct {
	mu sync.Mutex
	m  map[string]json.RawMessage
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory { return &Memory{m: map[string]json.RawMessage{}} }

// Remember stores a copy of args under key.
func (m *Memory) Remember(key string, args json.RawMessage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = slices.Clone(args)
}

// Recall returns a copy of the arguments stored under key.
func (m *Memory) Recall(key string) (json.RawMessage, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.m[key]
	return slices.Clone(a), ok
}

// Forget drops what is stored under key.
func (m *Memory) Forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, key)
}
