package secrets

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/zalando/go-keyring"
)

// slowSet is an in-memory backend whose Set blocks until release is
// closed (a keyring behind an unlock prompt); setDone is closed when a
// blocked Set has landed.
type slowSet struct {
	release chan struct{}
	entered chan struct{} // one value per Set that reached the keyring
	setDone chan struct{}
	once    sync.Once

	mu sync.Mutex
	m  map[string]string
}

func newSlowSet() *slowSet {
	return &slowSet{release: make(chan struct{}), entered: make(chan struct{}, 100), setDone: make(chan struct{}), m: map[string]string{}}
}

func (b *slowSet) Get(service, user string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (b *slowSet) Set(service, user, password string) error {
	b.entered <- struct{}{}
	<-b.release
	b.mu.Lock()
	b.m[user] = password
	b.mu.Unlock()
	b.once.Do(func() { close(b.setDone) })
	return nil
}

func (b *slowSet) Delete(service, user string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.m[user]; !ok {
		return keyring.ErrNotFound
	}
	delete(b.m, user)
	return nil
}

func (b *slowSet) has(user string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.m[user]
	return ok
}

// A Set that timed out but is still running in the keyring must not land
// after a later Delete of the same key returned: the cleared token would
// come back.
func TestKeyringDeleteAfterTimedOutSet(t *testing.T) {
	// A bubble: the timeouts run on its fake clock, and synctest.Wait
	// knows when the Delete is queued behind the blocked Set.
	synctest.Test(t, func(t *testing.T) {
		b := newSlowSet()
		k := NewKeyring(&KeyringOptions{Service: "spyglass-test", Timeout: 10 * time.Second})
		k.b = b
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := k.Set(ctx, "tok", "old-token"); !errors.Is(err, ErrTimeout) {
			t.Fatalf("Set: %v, want ErrTimeout", err)
		}
		deleted := make(chan error, 1)
		go func() { deleted <- k.Delete(context.Background(), "tok") }()
		synctest.Wait() // the Delete waits for the Set still in the keyring
		close(b.release)
		if err := <-deleted; err != nil {
			t.Fatalf("Delete: %v", err)
		}
		<-b.setDone
		if b.has("tok") {
			t.Fatal("the timed-out Set landed after the Delete: the token is back")
		}
	})
}

// A Set that timed out before the keyring got to it is not applied at
// all; a Get of another key is not held up by it.
func TestKeyringQueuedSetDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSlowSet()
		k := NewKeyring(&KeyringOptions{Service: "spyglass-test", Timeout: 10 * time.Second})
		k.b = b
		first := make(chan error, 1)
		go func() { first <- k.Set(context.Background(), "tok", "first") }() // blocks in the keyring
		<-b.entered
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := k.Set(ctx, "tok", "second"); !errors.Is(err, ErrTimeout) {
			t.Fatalf("second Set: %v, want ErrTimeout", err)
		}
		if _, err := k.Get(context.Background(), "other"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get of another key: %v", err)
		}
		close(b.release)
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		if v, err := k.Get(context.Background(), "tok"); err != nil || v != "first" {
			t.Fatalf("tok = %q, %v; want the first value (the timed-out second Set dropped)", v, err)
		}
	})
}
