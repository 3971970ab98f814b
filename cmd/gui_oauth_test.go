package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/oauth/oauthpeer"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/ui"
)

// oauthBackend is a window backend over a catalog file, with tokens in memory.
func oauthBackend(t *testing.T, doc string) (*guiBackend, *secrets.Memory, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	be := newGUIBackend(cat, "", nil)
	store := secrets.NewMemory()
	be.secrets = store
	return be, store, path
}

// signedIn signs in to the resource as server name through the headless
// browser, with the backend's store, and returns the authorizer and the
// refresh token it got.
func signedIn(ctx context.Context, t *testing.T, be *guiBackend, name, endpoint string) (*oauth.Authorizer, string, string) {
	t.Helper()
	a := oauth.New(name, endpoint, catalog.OAuth{}, be.secrets, &oauth.Options{Browser: &oauthpeer.Browser{}})
	if status, err := oauthpeer.Call(ctx, a, endpoint); err != nil || status != 200 {
		t.Fatalf("sign-in: %d %v", status, err)
	}
	raw, err := secrets.ForServer(be.secrets, name).Get(ctx, oauth.KeyToken)
	if err != nil {
		t.Fatal(err)
	}
	var tok oauth.Token
	if err := json.Unmarshal([]byte(raw), &tok); err != nil || tok.RefreshToken == "" {
		t.Fatalf("stored token without a refresh token: %v", err)
	}
	return a, tok.RefreshToken, a.Status(ctx).ClientID
}

// TestGUIClearOAuthRevokes: Clear OAuth state forgets the sign-in (the
// live connection's authorizer included) and revokes it at oidc-provider,
// so the refresh token is dead there; with revokeOnClear false the grant
// is only forgotten here and still works at the server.
func TestGUIClearOAuthRevokes(t *testing.T) {
	rs, as := oauthpeer.Setup(t)
	endpoint := rs.URL + "/mcp"
	be, store, _ := oauthBackend(t, `{"mcpServers": {
  "secure": {"type": "http", "url": "`+endpoint+`"},
  "keep": {"type": "http", "url": "`+endpoint+`", "oauth": {"revokeOnClear": false}}
}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	live, refresh, clientID := signedIn(ctx, t, be, "secure", endpoint)
	be.noteAuthorizer("secure", live)
	msg, err := be.ClearOAuth(ctx, "secure")
	if err != nil || msg != "Cleared the OAuth state of secure; its tokens were revoked." {
		t.Fatalf("ClearOAuth: %q, %v", msg, err)
	}
	for _, k := range store.Keys() {
		if strings.HasPrefix(k, "server/secure/") {
			t.Errorf("left in the keyring: %s", k)
		}
	}
	if live.Status(ctx).Authorized {
		t.Error("the live connection's authorizer still holds the token")
	}
	if code, err := oauthpeer.Refresh(ctx, as, refresh, clientID); err != nil || code != "invalid_grant" {
		t.Errorf("the revoked refresh token: %q, %v; want invalid_grant", code, err)
	}

	// revokeOnClear false: forgotten here, alive at the server
	_, refresh, clientID = signedIn(ctx, t, be, "keep", endpoint)
	msg, err = be.ClearOAuth(ctx, "keep")
	if err != nil || !strings.Contains(msg, "not revoked (Revoke tokens on clear is off)") {
		t.Fatalf("ClearOAuth keep: %q, %v", msg, err)
	}
	if code, err := oauthpeer.Refresh(ctx, as, refresh, clientID); err != nil || code != "" {
		t.Errorf("the kept refresh token: %q, %v; want it to work", code, err)
	}
	// nothing stored: said so
	if msg, err = be.ClearOAuth(ctx, "secure"); err != nil || !strings.Contains(msg, "no sign-in") {
		t.Errorf("ClearOAuth with nothing stored: %q, %v", msg, err)
	}
}

// TestClearWords: each outcome of a clear is said plainly.
func TestClearWords(t *testing.T) {
	for res, want := range map[*oauth.ClearResult]string{
		{NotRevoked: oauth.NotRevokedNoEndpoint}:  "the authorization server has no revocation endpoint",
		{RevokeErr: context.DeadlineExceeded}:     "Cleared the OAuth state of s here; revocation failed: the authorization server did not answer in time.",
		{NotRevoked: oauth.NotRevokedDisabled}:    "Revoke tokens on clear is off",
		{Revoked: true}:                           "its tokens were revoked",
		{NotRevoked: oauth.NotRevokedOtherIssuer}: "another authorization server",
		{NotRevoked: oauth.NotRevokedNoGrant}:     "there was no sign-in to revoke",
	} {
		if got := clearWords("s", *res); !strings.Contains(got, want) {
			t.Errorf("%+v: %q, want %q", *res, got, want)
		}
	}
}

// TestGUISaveServerSettings: the form's fields reach the catalog with its
// minimal diff (comments and other entries untouched; an unchanged save
// writes nothing); a typed client secret goes to the keyring, never into
// the file, and the connection finds it there; the enterprise fields
// become the authorizer's Enterprise options.
func TestGUISaveServerSettings(t *testing.T) {
	doc := `{
  // my servers
  "mcpServers": {
    "web": {"type": "http", "url": "https://mcp.example/mcp"}, // staging
    "other": {"command": "node", "args": ["x.js"]}
  }
}
`
	be, store, path := oauthBackend(t, doc)
	cfg := be.Servers()[0]
	if err := be.SaveServer("web", cfg); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != doc {
		t.Fatalf("an unchanged save rewrote the file:\n%s", b)
	}
	n := 0
	cfg.ModernLogLevel, cfg.MaxFetchRequests, cfg.MaxMessageSize = "info", &n, 1<<20
	cfg.AdvertisedExtensions = json.RawMessage(`{"io.x/ui": {}}`)
	cfg.Auth = ui.OAuthConfig{ClientID: "mcp-client", ClientSecret: "s3cret", NoRevokeOnClear: true,
		AuthorizationParams: map[string]string{"login_hint": "me"}, TokenURL: "https://staging.example/token",
		OnInsufficientScope: "fail", EnterpriseManaged: true, IDPIssuer: "https://idp.example", IDPClientID: "spy",
		IDPClientSecret: "idp-s3cret", IDTokenEnv: "IDP_ID_TOKEN"}
	if err := be.SaveServer("web", cfg); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	got := string(b)
	for _, want := range []string{`// my servers`, `// staging`, `"other": {"command": "node", "args": ["x.js"]}`,
		`"modernLogLevel": "info"`, `"maxFetchRequests": 0`, `"maxMessageSize": 1048576`, `"advertisedExtensions"`,
		`"clientId": "mcp-client"`, `"revokeOnClear": false`, `"login_hint": "me"`, `"tokenUrl": "https://staging.example/token"`,
		`"onInsufficientScope": "fail"`, `"enterpriseManaged": true`, `"idpIssuer": "https://idp.example"`,
		`"idpClientId": "spy"`, `"idTokenEnv": "IDP_ID_TOKEN"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the file lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "s3cret") || strings.Contains(got, "requestRefreshToken") {
		t.Errorf("a secret or a default was written:\n%s", got)
	}
	ctx := context.Background()
	if v, _ := store.Get(ctx, secrets.ServerKey("web", oauth.KeyClientSecret)); v != "s3cret" {
		t.Errorf("client secret in the keyring: %q", v)
	}
	// the form reads it all back
	back := be.Servers()[0]
	if back.Auth.ClientSecret != "" || back.Auth.IDPIssuer != "https://idp.example" || !back.Auth.NoRevokeOnClear || back.Auth.OnInsufficientScope != "fail" {
		t.Errorf("read back %+v", back.Auth)
	}

	// what a connection gets
	s, _ := be.cat.Get("web")
	settings := *s.OAuth
	idp := keyringSecrets(ctx, store, "web", &settings)
	if settings.ClientSecret != "s3cret" || idp != "idp-s3cret" {
		t.Errorf("keyring secrets for the sign-in: %q, %q", settings.ClientSecret, idp)
	}
	e, err := enterpriseFrom(settings, idp, os.ReadFile, func(k string) string {
		if k == "IDP_ID_TOKEN" {
			return " eyJ.id.token\n"
		}
		return ""
	})
	if err != nil || e.IDPIssuer != "https://idp.example" || e.IDPClientID != "spy" || e.IDPClientSecret != "idp-s3cret" || e.IDToken != "eyJ.id.token" {
		t.Errorf("enterprise options %+v, %v", e, err)
	}
	if _, err := enterpriseFrom(settings, "", os.ReadFile, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "IDP_ID_TOKEN (oauth.idTokenEnv) is not set") {
		t.Errorf("an unset ID token variable: %v", err)
	}

	// a bad value is the field's error
	cfg.Auth.TokenURL = "staging/token"
	var fe *ui.FieldError
	if err := be.SaveServer("web", cfg); !asFieldError(err, &fe) || fe.Field != "oauth.tokenUrl" {
		t.Errorf("bad token URL: %v", err)
	}
}

func asFieldError(err error, fe **ui.FieldError) bool {
	f, ok := err.(*ui.FieldError)
	*fe = f
	return ok
}

// TestGUIRemoveUndo: a removed server takes its keyring items with it;
// RestoreServer puts the entry back at its position and the items back.
func TestGUIRemoveUndo(t *testing.T) {
	be, store, path := oauthBackend(t, `{"mcpServers": {
  "a": {"command": "a"},
  "b": {"type": "http", "url": "https://mcp.example/mcp", "x-note": "kept", "oauth": {"clientId": "c"}},
  "c": {"command": "c"}
}}`)
	ctx := context.Background()
	for _, k := range []string{oauth.KeyToken, oauth.KeyClientSecret} {
		if err := store.Set(ctx, secrets.ServerKey("b", k), "v-"+k); err != nil {
			t.Fatal(err)
		}
	}
	if err := be.RemoveServer("b"); err != nil {
		t.Fatal(err)
	}
	if len(store.Keys()) != 0 {
		t.Errorf("keyring after remove: %v", store.Keys())
	}
	if err := be.RestoreServer("b"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range be.Servers() {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "a,b,c" {
		t.Errorf("after undo: %v", names)
	}
	if got := strings.Join(store.Keys(), ","); got != "server/b/oauth-client-secret,server/b/oauth-token" {
		t.Errorf("keyring after undo: %s", got)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"x-note": "kept"`) {
		t.Errorf("the unknown field did not come back:\n%s", b)
	}
	if err := be.RestoreServer("b"); err == nil {
		t.Error("a second undo succeeded")
	}
}

// TestEnterpriseFieldsReachTheAuthorizer: the catalog's oauth.idpIssuer
// and idpClientId (and the client secret in the keyring) are what the
// connection's authorizer signs in with — the sign-in goes to the IdP
// (oidc-provider) with EMA's fixed scope — and with oauth.idTokenEnv set
// no browser opens: the given ID token goes straight to the token
// exchange (which oidc-provider does not offer, so it ends there).
func TestEnterpriseFieldsReachTheAuthorizer(t *testing.T) {
	rs, as := oauthpeer.Setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	idp := oauthpeer.RegisterNative(ctx, t, as.Issuer)
	endpoint := rs.URL + "/mcp"
	for _, idTokenEnv := range []string{"", "SPYGLASS_TEST_IDP_ID_TOKEN"} {
		if idTokenEnv != "" {
			t.Setenv(idTokenEnv, "eyJ.given.token")
		}
		srv := catalog.Server{Type: catalog.TypeHTTP, URL: endpoint, OAuth: &catalog.OAuth{
			ClientID: "mcp-client", EnterpriseManaged: true, IDPIssuer: as.Issuer, IDPClientID: idp, IDTokenEnv: idTokenEnv}}
		log := events.New(nil)
		c, err := newConnection("ema", srv, log, nil)
		if err != nil {
			t.Fatal(err)
		}
		store := secrets.NewMemory()
		_ = store.Set(ctx, secrets.ServerKey("ema", oauth.KeyClientSecret), "from-the-keyring")
		browser := &oauthpeer.Browser{}
		c.enableOAuth(ctx, store, log, nil, oauth.Options{Browser: browser})
		_, err = oauthpeer.Call(ctx, c.auth, endpoint)
		var ee *oauth.EndpointError
		if !errors.As(err, &ee) || ee.Code != "unsupported_grant_type" {
			t.Fatalf("idTokenEnv %q: %v, want the IdP's unsupported_grant_type for the token exchange", idTokenEnv, err)
		}
		opened := browser.Opened()
		switch {
		case idTokenEnv == "" && (len(opened) != 1 || !strings.HasPrefix(opened[0], as.Issuer+"/auth?") || !strings.Contains(opened[0], "scope=openid+offline_access") || !strings.Contains(opened[0], "client_id="+idp)):
			t.Errorf("the IdP sign-in: %v", opened)
		case idTokenEnv != "" && len(opened) != 0:
			t.Errorf("a browser opened although the ID token was given: %v", opened)
		}
	}
}
