package secrets

import (
	"context"
	"errors"
	"strings"
)

// Errors callers branch on.
var (
	// ErrNotFound is returned by Get when nothing is stored under the key.
	ErrNotFound = errors.New("secrets: not found")
	// ErrTimeout is returned when the backing store did not answer in
	// time (typically a locked OS keyring waiting for an unlock prompt).
	ErrTimeout = errors.New("secrets: timed out")
	// ErrUnavailable is returned when the OS keyring cannot be reached
	// at all (no Secret Service on the session bus, for example).
	ErrUnavailable = errors.New("secrets: keyring unavailable")
	// ErrTooBig is returned by Set when the backend refuses a value for
	// its size.
	ErrTooBig = errors.New("secrets: value too big")
)

// Store keeps secret strings under keys. Implementations are safe for
// concurrent use. Get returns an error matching ErrNotFound for a missing
// key; Delete of a missing key is not an error.
type Store interface {
	// Get returns the value stored under key.
	Get(ctx context.Context, key string) (string, error)
	// Set stores value under key, replacing what was there.
	Set(ctx context.Context, key, value string) error
	// Delete removes key.
	Delete(ctx context.Context, key string) error
}

// ServerKey is the key of item for the catalog server named server:
// "server/<name>/<item>". Names may contain any character; a '/' in the
// server name cannot make two servers' keys collide because the item
// comes last and items never contain '/'.
func ServerKey(server, item string) string {
	return "server/" + server + "/" + strings.ReplaceAll(item, "/", "_")
}

// ForServer returns a view of s in which every key is item-local to the
// catalog server named server (see ServerKey).
func ForServer(s Store, server string) Store {
	return scoped{s: s, server: server}
}

type scoped struct {
	s      Store
	server string
}

// Get reads key in the server's namespace.
func (p scoped) Get(ctx context.Context, key string) (string, error) {
	return p.s.Get(ctx, ServerKey(p.server, key))
}

// Set writes key in the server's namespace.
func (p scoped) Set(ctx context.Context, key, value string) error {
	return p.s.Set(ctx, ServerKey(p.server, key), value)
}

// Delete removes key from the server's namespace.
func (p scoped) Delete(ctx context.Context, key string) error {
	return p.s.Delete(ctx, ServerKey(p.server, key))
}
