package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

// TestSignInShowsBoundAndURL: while a sign-in waits in the browser the
// server's pane says how long it waits and until when, and shows the
// authorization URL with Copy and Open; the card says the bound too.
func TestSignInShowsBoundAndURL(t *testing.T) {
	b := newFakeBackend("fake")
	block := make(chan struct{})
	b.conns["fake"] = &fakeConn{name: "fake", ev: b.ev, block: block}
	var opened []string
	w := newTestWindow(t, b, &Options{OpenURL: func(u string) error { opened = append(opened, u); return nil }})
	Sync(func() { w.server("fake").onConnect() })
	conn := b.conns["fake"]
	waitFor(t, "connecting", func() bool { return w.server("fake").state.State == StateConnecting })

	conn.onState(StateView{State: StateAuthorizing})
	waitFor(t, "the sign-in", func() bool { return strings.Contains(texts(w.middle), "Waiting for you to sign in in your browser…") })

	const authURL = "https://auth.example.com/authorize?client_id=spyglass&state=xyz"
	until := time.Date(2026, 3, 4, 14, 5, 0, 0, time.Local)
	conn.onState(StateView{State: StateAuthorizing, SignIn: &SignInView{URL: authURL, Wait: 4*time.Minute + 59*time.Second, Until: until}})
	waitFor(t, "the bound", func() bool {
		return strings.Contains(texts(w.middle), "Waiting up to 5 min (until 14:05) for you to sign in in your browser…")
	})
	var pane, card string
	Sync(func() { pane, card = texts(w.middle), texts(w.list.cards[w.server("fake")]) })
	if !strings.Contains(pane, authURL) {
		t.Errorf("the pane does not show the authorization URL:\n%s", pane)
	}
	if !strings.Contains(card, "Complete sign-in in your browser (waits up to 5 min)") {
		t.Errorf("the card does not say the bound:\n%s", card)
	}
	Sync(func() { tapButton(t, w.middle, "Copy") })
	if got := fyne.CurrentApp().Clipboard().Content(); got != authURL {
		t.Errorf("Copy put %q on the clipboard, want the URL", got)
	}
	Sync(func() { tapButton(t, w.middle, "Open") })
	if len(opened) != 1 || opened[0] != authURL {
		t.Errorf("Open opened %q, want the URL once", opened)
	}

	// the sign-in ends: the URL goes away with it
	conn.onState(StateView{State: StateConnecting})
	close(block)
	waitFor(t, "connected", func() bool { return w.server("fake").screens != nil })
	Sync(func() { pane = texts(w.middle) })
	if strings.Contains(pane, authURL) {
		t.Errorf("the URL is still shown after the sign-in:\n%s", pane)
	}
}

func TestSignInWaitText(t *testing.T) {
	for _, tc := range []struct {
		wait time.Duration
		want string
	}{
		{5 * time.Minute, "5 min"},
		{4*time.Minute + 59*time.Second, "5 min"},
		{90 * time.Second, "90 s"},
		{2*time.Minute - 100*time.Millisecond, "2 min"},
		{30 * time.Second, "30 s"},
	} {
		if got := (&SignInView{Wait: tc.wait}).waitText(); got != tc.want {
			t.Errorf("waitText(%v) = %q, want %q", tc.wait, got, tc.want)
		}
	}
}
