package secrets

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zalando/go-keyring"
)

// DefaultService is the keyring service name Spyglass stores under.
const DefaultService = "spyglass"

// DefaultTimeout bounds each keyring call when KeyringOptions.Timeout is
// zero.
const DefaultTimeout = 5 * time.Second

// KeyringOptions configures a Keyring. The zero value is ready.
type KeyringOptions struct {
	// Service is the keyring service (the "application") name; ""
	// means DefaultService. Tests use a unique one.
	Service string
	// Timeout bounds every call; zero means DefaultTimeout. A call that
	// times out returns ErrTimeout; the blocked keyring call itself
	// cannot be interrupted and finishes (or not) in the background.
	Timeout time.Duration
}

// Keyring is a Store in the operating system's keyring. Operations on
// one key run one at a time, in the order they were called, so that a
// Set still blocked in the keyring after it timed out cannot land after a
// later Delete (or Set) of the key.
type Keyring struct {
	service string
	timeout time.Duration
	b       backend

	mu   sync.Mutex
	last map[string]chan struct{} // per key: closed when its latest operation ended
}

// backend is the keyring API; tests replace it with one that blocks.
type backend interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// osBackend is zalando/go-keyring's package-level API.
type osBackend struct{}

// Get calls keyring.Get.
func (osBackend) Get(service, user string) (string, error) { return keyring.Get(service, user) }

// Set calls keyring.Set.
func (osBackend) Set(service, user, password string) error {
	return keyring.Set(service, user, password)
}

// Delete calls keyring.Delete.
func (osBackend) Delete(service, user string) error { return keyring.Delete(service, user) }

// NewKeyring returns a Store backed by the OS keyring.
func NewKeyring(opts *KeyringOptions) *Keyring {
	k := &Keyring{service: DefaultService, timeout: DefaultTimeout, b: osBackend{}}
	if opts != nil {
		if opts.Service != "" {
			k.service = opts.Service
		}
		if opts.Timeout > 0 {
			k.timeout = opts.Timeout
		}
	}
	return k
}

// Get returns the value stored under key.
func (k *Keyring) Get(ctx context.Context, key string) (string, error) {
	var v string
	err := k.do(ctx, "get", key, true, func() error {
		var err error
		v, err = k.b.Get(k.service, key)
		return err
	})
	if err != nil {
		return "", err
	}
	return v, nil
}

// Set stores value under key, replacing what was there.
func (k *Keyring) Set(ctx context.Context, key, value string) error {
	return k.do(ctx, "set", key, true, func() error { return k.b.Set(k.service, key, value) })
}

// Delete removes key; a missing key is not an error.
func (k *Keyring) Delete(ctx context.Context, key string) error {
	err := k.do(ctx, "delete", key, false, func() error { return k.b.Delete(k.service, key) })
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// Ping checks that the keyring answers within the timeout by reading a
// key that does not exist. It returns nil when the keyring is usable.
func (k *Keyring) Ping(ctx context.Context) error {
	_, err := k.Get(ctx, "spyglass-ping")
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// do runs fn in its own goroutine, after the operations on key called
// before it have ended, and waits at most the timeout (or until ctx ends).
// An operation given up on before it started is skipped when skippable
// (a Get, or a Set that must not land after the caller was told it
// failed); a Delete still runs, since clearing a secret is the safe side.
// One that already started cannot be interrupted: the next operations on
// key wait for it. The result channel is buffered so that a call that
// finishes after we gave up does not leak a blocked goroutine.
func (k *Keyring) do(ctx context.Context, op, key string, skippable bool, fn func() error) error {
	ctx, cancel := context.WithTimeout(ctx, k.timeout)
	defer cancel()
	k.mu.Lock()
	if k.last == nil {
		k.last = make(map[string]chan struct{})
	}
	prev, mine := k.last[key], make(chan struct{})
	k.last[key] = mine
	k.mu.Unlock()
	var gaveUp atomic.Bool
	done := make(chan error, 1)
	go func() {
		defer func() {
			k.mu.Lock()
			if k.last[key] == mine {
				delete(k.last, key)
			}
			k.mu.Unlock()
			close(mine)
		}()
		if prev != nil {
			<-prev
		}
		if skippable && gaveUp.Load() {
			return
		}
		done <- fn()
	}()
	select {
	case err := <-done:
		return wrap(op, key, err)
	case <-ctx.Done():
		gaveUp.Store(true)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("secrets: keyring %s %q: %w", op, key, ErrTimeout)
		}
		return fmt.Errorf("secrets: keyring %s %q: %w", op, key, ctx.Err())
	}
}

// wrap maps go-keyring's errors onto ours. The backend's message is kept
// for diagnosis (it never contains the value).
func wrap(op, key string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound):
		return fmt.Errorf("secrets: keyring %s %q: %w", op, key, ErrNotFound)
	case errors.Is(err, keyring.ErrSetDataTooBig):
		return fmt.Errorf("secrets: keyring %s %q: %w", op, key, ErrTooBig)
	case errors.Is(err, keyring.ErrUnsupportedPlatform), isUnavailable(err):
		return fmt.Errorf("secrets: keyring %s %q: %w: %v", op, key, ErrUnavailable, err)
	default:
		return fmt.Errorf("secrets: keyring %s %q: %w", op, key, err)
	}
}

// isUnavailable recognises D-Bus errors meaning no Secret Service runs.
func isUnavailable(err error) bool {
	s := err.Error()
	for _, m := range []string{
		"org.freedesktop.DBus.Error.ServiceUnknown",
		"org.freedesktop.DBus.Error.NoReply",
		"DBUS_SESSION_BUS_ADDRESS",
		"dbus: couldn't determine address",
		"dial unix",
		"connection refused",
		"no such file or directory",
	} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}
