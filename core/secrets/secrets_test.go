package secrets

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func TestMemoryAndForServer(t *testing.T) {
	ctx := context.Background()
	m := NewMemory()
	a, b := ForServer(m, "alpha"), ForServer(m, "beta")
	if _, err := a.Get(ctx, "token"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of a missing key: %v, want ErrNotFound", err)
	}
	if err := a.Set(ctx, "token", "s3cret-a"); err != nil {
		t.Fatal(err)
	}
	if err := b.Set(ctx, "token", "s3cret-b"); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.Get(ctx, "token"); v != "s3cret-a" {
		t.Fatalf("alpha token = %q", v)
	}
	if v, _ := b.Get(ctx, "token"); v != "s3cret-b" {
		t.Fatalf("beta token = %q", v)
	}
	if got := strings.Join(m.Keys(), ","); got != "server/alpha/token,server/beta/token" {
		t.Fatalf("keys = %s", got)
	}
	if err := a.Delete(ctx, "token"); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctx, "token"); err != nil {
		t.Fatalf("second Delete: %v", err)
	}
	if _, err := a.Get(ctx, "token"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after Delete: %v", err)
	}
	if v, _ := b.Get(ctx, "token"); v != "s3cret-b" {
		t.Fatal("deleting alpha's token touched beta's")
	}
}

func TestServerKey(t *testing.T) {
	for _, c := range []struct{ server, item, want string }{
		{"demo", "token", "server/demo/token"},
		{"a/b", "token", "server/a/b/token"},
		{"x", "a/b", "server/x/a_b"},
		{"", "token", "server//token"},
	} {
		if got := ServerKey(c.server, c.item); got != c.want {
			t.Errorf("ServerKey(%q, %q) = %q, want %q", c.server, c.item, got, c.want)
		}
	}
}

// blocking never answers until released, like a keyring waiting behind
// an unlock prompt.
type blocking struct{ release chan struct{} }

func (b blocking) Get(string, string) (string, error) { <-b.release; return "", nil }
func (b blocking) Set(string, string, string) error   { <-b.release; return nil }
func (b blocking) Delete(string, string) error        { <-b.release; return nil }

func TestKeyringTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	k := NewKeyring(&KeyringOptions{Service: "spyglass-test", Timeout: 50 * time.Millisecond})
	k.b = blocking{release}
	ctx := context.Background()
	if _, err := k.Get(ctx, "k"); !errors.Is(err, ErrTimeout) {
		t.Errorf("Get: %v, want ErrTimeout", err)
	}
	err := k.Set(ctx, "k", "the-secret-value")
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("Set: %v, want ErrTimeout", err)
	}
	if err != nil && strings.Contains(err.Error(), "the-secret-value") {
		t.Errorf("error carries the secret: %v", err)
	}
	if err := k.Delete(ctx, "k"); !errors.Is(err, ErrTimeout) {
		t.Errorf("Delete: %v, want ErrTimeout", err)
	}
	// A cancelled context ends the wait too, as a cancellation.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := k.Get(cctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with a cancelled context: %v", err)
	}
}

type failing struct{ err error }

func (f failing) Get(string, string) (string, error) { return "", f.err }
func (f failing) Set(string, string, string) error   { return f.err }
func (f failing) Delete(string, string) error        { return f.err }

func TestKeyringErrorMapping(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"not found", keyring.ErrNotFound, ErrNotFound},
		{"too big", keyring.ErrSetDataTooBig, ErrTooBig},
		{"no secret service", errors.New("The name org.freedesktop.secrets was not provided by any .service files: org.freedesktop.DBus.Error.ServiceUnknown"), ErrUnavailable},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := NewKeyring(nil)
			k.b = failing{c.err}
			if _, err := k.Get(ctx, "k"); !errors.Is(err, c.want) {
				t.Errorf("Get: %v, want %v", err, c.want)
			}
		})
	}
	k := NewKeyring(nil)
	k.b = failing{keyring.ErrNotFound}
	if err := k.Delete(ctx, "k"); err != nil {
		t.Errorf("Delete of a missing key: %v", err)
	}
}
