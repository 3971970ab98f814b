package cmd

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/ui"
)

// TestSignInShower: before the browser opens, the window hears the
// authorization URL and the sign-in's deadline (the one core/oauth puts
// on the browser leg); the browser's own failure comes back unchanged.
func TestSignInShower(t *testing.T) {
	const authURL = "https://auth.example.com/authorize?client_id=c&state=s"
	deadline := time.Now().Add(oauth.DefaultSignInTimeout)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	var states []ui.StateView
	var opened []string
	noBrowser := errors.New("no display")
	b := signInShower(oauth.BrowserFunc(func(_ context.Context, u string) error {
		if len(states) != 1 {
			t.Error("the browser opened before the window was told")
		}
		opened = append(opened, u)
		return noBrowser
	}), func(st ui.StateView) { states = append(states, st) })

	if err := b.Open(ctx, authURL); !errors.Is(err, noBrowser) {
		t.Fatalf("err = %v, want the browser's", err)
	}
	if len(opened) != 1 || opened[0] != authURL {
		t.Fatalf("opened %q", opened)
	}
	if len(states) != 1 || states[0].State != ui.StateAuthorizing || states[0].SignIn == nil {
		t.Fatalf("states = %+v, want one authorizing state with the sign-in", states)
	}
	si := states[0].SignIn
	if si.URL != authURL || !si.Until.Equal(deadline) {
		t.Errorf("sign-in = %+v, want the URL and the context's deadline %v", si, deadline)
	}
	if si.Wait <= 0 || si.Wait > oauth.DefaultSignInTimeout {
		t.Errorf("wait = %v, want at most %v", si.Wait, oauth.DefaultSignInTimeout)
	}
}

// TestGUIOptionsOpenURL: the window can open a sign-in's page again.
func TestGUIOptionsOpenURL(t *testing.T) {
	if guiOptions().OpenURL == nil {
		t.Error("the window has no OpenURL: Open would use Fyne's opener, ignoring $BROWSER")
	}
}
