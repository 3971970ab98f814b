package secrets

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Memory is a Store that keeps secrets in process memory. The zero value
// is not ready: use NewMemory.
type Memory struct {
	mu sync.Mutex
	m  map[string]string
}

// NewMemory returns an empty in-memory Store.
func NewMemory() *Memory { return &Memory{m: map[string]string{}} }

// Get returns the value stored under key.
func (m *Memory) Get(ctx context.Context, key string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("secrets: get: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	if !ok {
		return "", fmt.Errorf("secrets: get %q: %w", key, ErrNotFound)
	}
	return v, nil
}

// Set stores value under key.
func (m *Memory) Set(ctx context.Context, key, value string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("secrets: set: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = value
	return nil
}

// Delete removes key; a missing key is not an error.
func (m *Memory) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("secrets: delete: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, key)
	return nil
}

// Keys returns the stored keys, sorted (for tests; values stay inside).
func (m *Memory) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.m))
}
