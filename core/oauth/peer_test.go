package oauth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/oauth/internal/oauthtest"
	"github.com/spyglass-mcp/spyglass/core/secrets"
)

func TestOIDCProviderSignInRefreshRevoke(t *testing.T) {
	rs, as := oauthtest.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	store := secrets.NewMemory()
	browser := &oauthtest.Browser{}
	var clock atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(clock.Load())) }
	var warnings []oauth.Warning
	var mu sync.Mutex
	reported := map[string]bool{}
	onSecret := func(s string) { mu.Lock(); reported[s] = true; mu.Unlock() }
	a := oauth.New("my server", rs.URL+"/mcp", catalog.OAuth{}, store, &oauth.Options{
		Browser: browser, Now: now, OnWarning: func(w oauth.Warning) { warnings = append(warnings, w) }, OnSecret: onSecret,
	})

	// First request: 401, the whole flow through the headless browser, 200.
	status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp")
	if err != nil || status != 200 {
		t.Fatalf("first call: status %d, %v", status, err)
	}
	if len(browser.Opened()) != 1 {
		t.Fatalf("browser opened %d times, want 1", len(browser.Opened()))
	}
	au, _ := url.Parse(browser.Opened()[0])
	q := au.Query()
	if q.Get("resource") != rs.URL+"/mcp" || q.Get("code_challenge_method") != "S256" || q.Get("state") == "" {
		t.Errorf("authorization request lacks resource/PKCE/state: %s", au.RawQuery)
	}
	if got := q.Get("scope"); got != "mcp:read mcp:write offline_access" {
		t.Errorf("scope = %q, want the resource's scopes_supported plus offline_access", got)
	}
	if !strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") {
		t.Errorf("redirect_uri = %q, want a 127.0.0.1 loopback", q.Get("redirect_uri"))
	}
	st := a.Status(ctx)
	if !st.Authorized || !st.Refreshable || st.Issuer != as.Issuer || st.ClientKind != "dynamic" || st.ClientID == "" {
		t.Fatalf("status after sign-in: %+v", st)
	}
	if got := strings.Join(store.Keys(), ","); got != "server/my server/oauth-client,server/my server/oauth-metadata,server/my server/oauth-token" {
		t.Errorf("stored keys = %s", got)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %+v", warnings)
	}

	// A restart: a new Authorizer over the same store uses the stored
	// token with no browser.
	b2 := oauth.BrowserFunc(func(context.Context, string) error { t.Error("browser opened after a restart"); return nil })
	a2 := oauth.New("my server", rs.URL+"/mcp", catalog.OAuth{}, store, &oauth.Options{Browser: b2, Now: now, OnSecret: onSecret})
	if status, err := oauthtest.Call(ctx, a2, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call after restart: %d, %v", status, err)
	}

	// Two hours later the token looks expired: Prepare refreshes it
	// (rotation: a new refresh token) without the browser.
	oldTok := storedToken(t, store, "my server")
	clock.Store(int64(2 * time.Hour))
	if status, err := oauthtest.Call(ctx, a2, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call after expiry: %d, %v", status, err)
	}
	newTok := storedToken(t, store, "my server")
	if newTok.AccessToken == oldTok.AccessToken || newTok.RefreshToken == oldTok.RefreshToken || newTok.RefreshToken == "" {
		t.Fatal("refresh did not rotate the tokens")
	}
	mu.Lock()
	for _, s := range []string{oldTok.AccessToken, oldTok.RefreshToken, newTok.AccessToken, newTok.RefreshToken} {
		if !reported[s] {
			t.Error("a token was not reported to OnSecret (the redactor would not mask it)")
		}
	}
	mu.Unlock()
	if code, err := oauthtest.Refresh(ctx, as, oldTok.RefreshToken, st.ClientID); err != nil || code != "invalid_grant" {
		t.Errorf("the rotated-out refresh token still works (%q, %v)", code, err)
	}

	// Clear revokes the grant at the server: the refresh token is dead.
	res, err := a2.Clear(ctx, true)
	if err != nil || !res.Revoked || res.RevokeErr != nil {
		t.Fatalf("Clear: %+v, %v", res, err)
	}
	if len(store.Keys()) != 0 {
		t.Errorf("store after Clear: %v", store.Keys())
	}
	if code, err := oauthtest.Refresh(ctx, as, newTok.RefreshToken, st.ClientID); err != nil || code != "invalid_grant" {
		t.Errorf("the revoked refresh token still works (%q, %v)", code, err)
	}
	if s := a2.Status(ctx); s.Authorized {
		t.Errorf("status after Clear: %+v", s)
	}
}

func storedToken(t *testing.T, s secrets.Store, server string) oauth.Token {
	t.Helper()
	raw, err := secrets.ForServer(s, server).Get(context.Background(), oauth.KeyToken)
	if err != nil {
		t.Fatal(err)
	}
	var tok oauth.Token
	if err := json.Unmarshal([]byte(raw), &tok); err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestOIDCProviderNoRefreshTokenParamsAndOverrides(t *testing.T) {
	rs, as := oauthtest.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// A proxy in front of the real authorization endpoint stands for a
	// staging deployment of the same issuer (oauth.authorizationUrl).
	proxy, hits := oauthtest.Proxy(t, as.Issuer)
	no := false
	var warnings []oauth.Warning
	browser := &oauthtest.Browser{}
	a := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{
		RequestRefreshToken: &no,
		AuthorizationParams: map[string]string{"login_hint": "user-1", "state": "attacker", "resource": "https://evil.example"},
		AuthorizationURL:    proxy.URL + "/auth",
		TokenURL:            "not a url",
	}, secrets.NewMemory(), &oauth.Options{Browser: browser, OnWarning: func(w oauth.Warning) { warnings = append(warnings, w) }})
	if status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call: %d, %v", status, err)
	}
	q := mustQuery(t, browser.Opened()[0])
	if q.Get("login_hint") != "user-1" || q.Get("resource") != rs.URL+"/mcp" || q.Get("state") == "attacker" {
		t.Errorf("authorization URL: %v", q)
	}
	if strings.Contains(q.Get("scope"), "offline_access") || q.Get("prompt") != "" {
		t.Errorf("offline_access or prompt requested without requestRefreshToken: %v", q)
	}
	if !strings.HasPrefix(browser.Opened()[0], proxy.URL+"/auth?") || hits("/auth") == 0 {
		t.Errorf("authorizationUrl override not used: %s", browser.Opened()[0])
	}
	st := a.Status(ctx)
	if st.Refreshable {
		t.Error("a refresh token was issued to a client registered without the refresh_token grant")
	}
	if st.Issuer != as.Issuer {
		t.Errorf("issuer = %q, want the discovered %q (overrides leave it alone)", st.Issuer, as.Issuer)
	}
	want := []oauth.Warning{{Code: oauth.WarnBadOverride, Detail: "tokenUrl"}, {Code: oauth.WarnReservedParam, Detail: "resource"}, {Code: oauth.WarnReservedParam, Detail: "state"}}
	if fmt.Sprint(warnings) != fmt.Sprint(want) {
		t.Errorf("warnings = %v, want %v", warnings, want)
	}
}

func TestOIDCProviderResourceMismatch(t *testing.T) {
	rs, _ := oauthtest.Setup(t)
	rs.SetResource("https://evil.example.com/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b := oauth.BrowserFunc(func(context.Context, string) error { t.Error("browser opened for a mismatched resource"); return nil })
	a := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{}, secrets.NewMemory(), &oauth.Options{Browser: b})
	_, err := oauthtest.Call(ctx, a, rs.URL+"/mcp")
	if !errors.Is(err, oauth.ErrResourceMismatch) {
		t.Fatalf("err = %v, want ErrResourceMismatch", err)
	}
}

func mustQuery(t *testing.T, s string) url.Values {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

func TestOIDCProviderStepUp(t *testing.T) {
	rs, _ := oauthtest.Setup(t)
	rs.SetScopes("mcp:read")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	browser := &oauthtest.Browser{}
	store := secrets.NewMemory()
	a := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{}, store, &oauth.Options{Browser: browser})
	if status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("first call: %d, %v", status, err)
	}
	if got := mustQuery(t, browser.Opened()[0]).Get("scope"); got != "mcp:read offline_access" {
		t.Fatalf("first scope = %q", got)
	}

	// The server now wants mcp:write as well: 403 insufficient_scope,
	// a second sign-in asking for both, and the call goes through.
	rs.Require("mcp:read mcp:write")
	if status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call needing mcp:write: %d, %v", status, err)
	}
	opened := browser.Opened()
	if len(opened) != 2 {
		t.Fatalf("browser opened %d times, want 2", len(opened))
	}
	scope := strings.Fields(mustQuery(t, opened[1]).Get("scope"))
	for _, want := range []string{"mcp:read", "mcp:write"} {
		if !slices.Contains(scope, want) {
			t.Errorf("step-up scope %q lacks %s", scope, want)
		}
	}
	if st := a.Status(ctx); !strings.Contains(st.Scope, "mcp:write") {
		t.Errorf("granted scope after step-up = %q", st.Scope)
	}

	// With onInsufficientScope "fail" the 403 is reported, no browser.
	b := oauth.BrowserFunc(func(context.Context, string) error { t.Error("browser opened with step-up off"); return nil })
	a2 := oauth.New("other", rs.URL+"/mcp", catalog.OAuth{OnInsufficientScope: "fail"}, store, &oauth.Options{Browser: b})
	rs.Require("")
	// Sign in once (scope mcp:read only) with a browser...
	a3 := oauth.New("other", rs.URL+"/mcp", catalog.OAuth{}, store, &oauth.Options{Browser: browser})
	if status, err := oauthtest.Call(ctx, a3, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("sign-in of the second server: %d, %v", status, err)
	}
	// ...then a2 (same stored grant) meets the 403 and gives up.
	rs.Require("mcp:read mcp:write")
	status, err := oauthtest.Call(ctx, a2, rs.URL+"/mcp")
	if status != 403 || !errors.Is(err, oauth.ErrInsufficientScope) {
		t.Fatalf("step-up off: %d, %v; want 403 and ErrInsufficientScope", status, err)
	}
}

// lockedKeyring fails every call the way a locked keyring does.
type lockedKeyring struct{}

func (lockedKeyring) Get(context.Context, string) (string, error) {
	return "", fmt.Errorf("keyring get: %w", secrets.ErrTimeout)
}
func (lockedKeyring) Set(context.Context, string, string) error {
	return fmt.Errorf("keyring set: %w", secrets.ErrTimeout)
}
func (lockedKeyring) Delete(context.Context, string) error {
	return fmt.Errorf("keyring delete: %w", secrets.ErrTimeout)
}

func TestOIDCProviderLockedKeyring(t *testing.T) {
	rs, _ := oauthtest.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var warnings []oauth.Warning
	a := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{}, lockedKeyring{}, &oauth.Options{
		Browser: &oauthtest.Browser{}, OnWarning: func(w oauth.Warning) { warnings = append(warnings, w) },
	})
	// The keyring never answers: the sign-in still works, from memory,
	// and the user hears about it.
	if status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call: %d, %v", status, err)
	}
	if len(warnings) == 0 || warnings[0].Code != oauth.WarnStore {
		t.Fatalf("warnings = %+v, want WarnStore", warnings)
	}
	for _, w := range warnings {
		if strings.Contains(w.Detail, "ey") && strings.Contains(w.Detail, ".") && len(w.Detail) > 200 {
			t.Errorf("a warning carries a token: %s", w.Detail)
		}
	}
	if status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("second call: %d, %v", status, err)
	}
	if _, err := a.Clear(ctx, true); !errors.Is(err, secrets.ErrTimeout) {
		t.Errorf("Clear with a locked keyring: %v, want ErrTimeout", err)
	}
}

func TestClearDoesNotWaitForASignIn(t *testing.T) {
	rs, _ := oauthtest.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opened := make(chan struct{})
	// A user who never finishes signing in.
	b := oauth.BrowserFunc(func(context.Context, string) error { close(opened); return nil })
	a := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{}, secrets.NewMemory(), &oauth.Options{Browser: b})
	flowCtx, stopFlow := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := oauthtest.Call(flowCtx, a, rs.URL+"/mcp"); done <- err }()
	select {
	case <-opened:
	case <-ctx.Done():
		t.Fatal("the browser was never opened")
	}
	cleared := make(chan struct{})
	go func() { _, _ = a.Clear(ctx, true); close(cleared) }()
	select {
	case <-cleared:
	case <-time.After(10 * time.Second):
		t.Fatal("Clear waited for the sign-in in progress")
	}
	stopFlow()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("abandoned sign-in: %v, want context.Canceled", err)
	}
}

// TestOIDCProviderEnterpriseIdPSignIn drives the IdP leg of
// enterprise-managed authorization against oidc-provider playing the
// enterprise IdP: an OpenID Connect sign-in with the fixed scope
// "openid offline_access" (no resource, no authorizationParams), whose ID
// token is then offered in an RFC 8693 token exchange — which
// oidc-provider does not implement, so the flow ends there with its
// unsupported_grant_type answer. (The exchange and the JWT bearer grant are
// covered by the conformance scenario auth/cross-app-access-complete-flow.)
func TestOIDCProviderEnterpriseIdPSignIn(t *testing.T) {
	rs, as := oauthtest.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	idpClient := oauthtest.RegisterNative(ctx, t, as.Issuer)
	browser := &oauthtest.Browser{}
	var warnings []oauth.Warning
	a := oauth.New("ema", rs.URL+"/mcp", catalog.OAuth{
		ClientID: "mcp-client", ClientSecret: "s", EnterpriseManaged: true,
		AuthorizationParams: map[string]string{"login_hint": "x"}, AuthorizationURL: "https://staging.example/auth",
	}, secrets.NewMemory(), &oauth.Options{
		Browser:    browser,
		Enterprise: &oauth.Enterprise{IDPIssuer: as.Issuer, IDPClientID: idpClient},
		OnWarning:  func(w oauth.Warning) { warnings = append(warnings, w) },
	})
	_, err := oauthtest.Call(ctx, a, rs.URL+"/mcp")
	var ee *oauth.EndpointError
	if !errors.As(err, &ee) || ee.Code != "unsupported_grant_type" {
		t.Fatalf("err = %v, want the IdP's unsupported_grant_type for the token exchange", err)
	}
	opened := browser.Opened()
	if len(opened) != 1 {
		t.Fatalf("browser opened %d times, want 1 (the IdP sign-in)", len(opened))
	}
	q := mustQuery(t, opened[0])
	if !strings.HasPrefix(opened[0], as.Issuer+"/auth?") || q.Get("scope") != "openid offline_access" || q.Has("resource") || q.Has("login_hint") {
		t.Errorf("IdP sign-in URL: %s", opened[0])
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %+v", warnings)
	}
	// Without the IdP configured, enterprise-managed authorization is
	// refused before any network traffic.
	a2 := oauth.New("ema", rs.URL+"/mcp", catalog.OAuth{EnterpriseManaged: true}, secrets.NewMemory(), nil)
	if err := a2.Authorize(ctx, oauth.Challenge{Status: 401}); !errors.Is(err, oauth.ErrEnterpriseManaged) {
		t.Errorf("EMA without IdP: %v", err)
	}
}

func TestOIDCProviderTokenURLOverrideServesRefresh(t *testing.T) {
	rs, as := oauthtest.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	proxy, hits := oauthtest.Proxy(t, as.Issuer)
	var clock atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(clock.Load())) }
	store := secrets.NewMemory()
	settings := catalog.OAuth{TokenURL: proxy.URL + "/token"}
	a := oauth.New("s", rs.URL+"/mcp", settings, store, &oauth.Options{Browser: &oauthtest.Browser{}, Now: now})
	if status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("sign-in: %d, %v", status, err)
	}
	if hits("/token") != 1 {
		t.Fatalf("code redeemed %d times through the tokenUrl override, want 1", hits("/token"))
	}
	// After a restart with the same settings, the refresh goes through the
	// override too (the stored metadata is the discovered one).
	clock.Store(int64(2 * time.Hour))
	a2 := oauth.New("s", rs.URL+"/mcp", settings, store, &oauth.Options{Now: now,
		Browser: oauth.BrowserFunc(func(context.Context, string) error { t.Error("browser opened"); return nil })})
	if status, err := oauthtest.Call(ctx, a2, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("after expiry: %d, %v", status, err)
	}
	if hits("/token") != 2 {
		t.Errorf("token requests through the override = %d, want 2 (code + refresh)", hits("/token"))
	}
	// Without the override the refresh goes to the discovered endpoint.
	clock.Store(int64(4 * time.Hour))
	a3 := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{}, store, &oauth.Options{Now: now})
	if status, err := oauthtest.Call(ctx, a3, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("without override: %d, %v", status, err)
	}
	if hits("/token") != 2 {
		t.Errorf("refresh without the override went through the proxy")
	}
}

// Requests refused together (a window connecting sends several at once)
// lead to one sign-in in the browser, not one each; every request then
// goes through with the one token.
func TestOIDCProviderConcurrentRefusalsSignInOnce(t *testing.T) {
	rs, _ := oauthtest.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	browser := &oauthtest.Browser{}
	a := oauth.New("busy", rs.URL+"/mcp", catalog.OAuth{}, secrets.NewMemory(), &oauth.Options{Browser: browser})

	const n = 4
	send := func() *http.Response {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rs.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err := a.Prepare(req); err != nil {
			t.Error(err)
			return nil
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return nil
		}
		resp.Body.Close()
		return resp
	}
	var refused, done sync.WaitGroup
	refused.Add(n)
	statuses := make([]int, n)
	for i := range n {
		done.Add(1)
		go func() {
			defer done.Done()
			gen := a.Generation()
			resp := send()
			refused.Done()
			if resp == nil {
				return
			}
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("request %d without a token: %d", i, resp.StatusCode)
				return
			}
			refused.Wait() // every request has its 401 before anyone signs in
			if err := a.AuthorizeSince(ctx, oauth.ChallengeFromResponse(resp), gen); err != nil {
				t.Errorf("request %d: authorize: %v", i, err)
				return
			}
			if again := send(); again != nil {
				statuses[i] = again.StatusCode
			}
		}()
	}
	done.Wait()
	if got := len(browser.Opened()); got != 1 {
		t.Fatalf("%d refusals opened the browser %d times, want once", n, got)
	}
	for i, st := range statuses {
		if st != http.StatusOK {
			t.Errorf("request %d after the sign-in: %d", i, st)
		}
	}
}
