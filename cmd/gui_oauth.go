package cmd

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/ui"
)

// serverKeys are the keyring items of a server: its OAuth state and its
// configured secrets. Removing a server takes them with it (Undo puts them
// back); renaming it moves them.
var serverKeys = []string{oauth.KeyToken, oauth.KeyClient, oauth.KeyMetadata, oauth.KeyClientSecret, oauth.KeyIDPClientSecret}

// keyringSecrets fills in o.ClientSecret from the keyring when the catalog
// file carries none and returns the enterprise IdP client's secret ("" when
// none is stored). A keyring that cannot be read leaves them empty: the
// sign-in then says what it misses.
func keyringSecrets(ctx context.Context, store secrets.Store, name string, o *catalog.OAuth) (idpSecret string) {
	st := secrets.ForServer(store, name)
	if o.ClientSecret == "" && o.ClientID != "" {
		if v, err := st.Get(ctx, oauth.KeyClientSecret); err == nil {
			o.ClientSecret = v
		}
	}
	if o.EnterpriseManaged && o.IDPClientID != "" {
		if v, err := st.Get(ctx, oauth.KeyIDPClientSecret); err == nil {
			idpSecret = v
		}
	}
	return idpSecret
}

// enterpriseFrom builds the enterprise-managed authorization options from
// the catalog's oauth.idp* fields: the IdP, Spyglass's client there, and
// the ID token when oauth.idTokenFile or oauth.idTokenEnv names one (read
// now; without one the user signs in at the IdP). err says why a named ID
// token could not be read (the sign-in then runs in the browser).
func enterpriseFrom(o catalog.OAuth, idpSecret string, readFile func(string) ([]byte, error), getenv func(string) string) (*oauth.Enterprise, error) {
	e := &oauth.Enterprise{IDPIssuer: o.IDPIssuer, IDPTokenEndpoint: o.IDPTokenURL, IDPClientID: o.IDPClientID, IDPClientSecret: idpSecret}
	switch {
	case o.IDTokenFile != "":
		b, err := readFile(o.IDTokenFile)
		if err != nil {
			return e, fmt.Errorf("cannot read the ID token from oauth.idTokenFile: %w", err)
		}
		e.IDToken = strings.TrimSpace(string(b))
		if e.IDToken == "" {
			return e, fmt.Errorf("oauth.idTokenFile %s is empty: it should hold the IdP's ID token", o.IDTokenFile)
		}
	case o.IDTokenEnv != "":
		if e.IDToken = strings.TrimSpace(getenv(o.IDTokenEnv)); e.IDToken == "" {
			return e, fmt.Errorf("the environment variable %s (oauth.idTokenEnv) is not set or empty: it should hold the IdP's ID token", o.IDTokenEnv)
		}
	}
	return e, nil
}

// toUIOAuth is the catalog's oauth block as the form edits it.
func toUIOAuth(o *catalog.OAuth) ui.OAuthConfig {
	if o == nil {
		return ui.OAuthConfig{}
	}
	c := ui.OAuthConfig{
		ClientID: o.ClientID, Scopes: o.Scopes,
		NoRefreshToken: !o.RequestsRefreshToken(), NoRevokeOnClear: !o.RevokesOnClear(),
		AuthorizationParams: o.AuthorizationParams, AuthorizationURL: o.AuthorizationURL, TokenURL: o.TokenURL,
		EnterpriseManaged: o.EnterpriseManaged, AssertionFile: o.AssertionFile, AssertionEnv: o.AssertionEnv,
		IDPIssuer: o.IDPIssuer, IDPTokenURL: o.IDPTokenURL, IDPClientID: o.IDPClientID,
		IDTokenFile: o.IDTokenFile, IDTokenEnv: o.IDTokenEnv,
	}
	switch strings.ToLower(strings.TrimSpace(o.OnInsufficientScope)) {
	case oauth.StepUpFail, "error", "none", "off":
		c.OnInsufficientScope = "fail"
	}
	if o.DPoP == catalog.DPoPOff {
		c.DPoP = "off"
	}
	return c
}

// fromUIOAuth applies the form's OAuth section to the entry's oauth block
// (nil stays nil when the section holds only defaults). A secret typed in
// the form goes to the keyring (storeSecrets), so a secret the file carried
// is dropped from it then, and when the user asks to forget it.
func fromUIOAuth(base *catalog.OAuth, c ui.OAuthConfig) *catalog.OAuth {
	if base == nil && c.IsZero() {
		return nil
	}
	o := &catalog.OAuth{}
	if base != nil {
		b := *base
		o = &b
	}
	o.ClientID, o.Scopes = c.ClientID, c.Scopes
	o.RequestRefreshToken, o.RevokeOnClear = falseOrNil(c.NoRefreshToken), falseOrNil(c.NoRevokeOnClear)
	o.AuthorizationParams = c.AuthorizationParams
	o.AuthorizationURL, o.TokenURL = c.AuthorizationURL, c.TokenURL
	o.EnterpriseManaged = c.EnterpriseManaged
	// a spelling the file already has for the same choice is kept
	if c.OnInsufficientScope == "fail" {
		if toUIOAuth(base).OnInsufficientScope != "fail" {
			o.OnInsufficientScope = oauth.StepUpFail
		}
	} else if !knownStepUp(o.OnInsufficientScope) {
		o.OnInsufficientScope = ""
	}
	o.AssertionFile, o.AssertionEnv = c.AssertionFile, c.AssertionEnv
	o.DPoP = ""
	if c.DPoP == "off" {
		o.DPoP = catalog.DPoPOff
	}
	o.IDPIssuer, o.IDPTokenURL, o.IDPClientID = c.IDPIssuer, c.IDPTokenURL, c.IDPClientID
	o.IDTokenFile, o.IDTokenEnv = c.IDTokenFile, c.IDTokenEnv
	if c.ClientSecret != "" || c.ForgetClientSecret {
		o.ClientSecret = ""
	}
	return o
}

func knownStepUp(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case oauth.StepUpAuthorize, "reauthorize", "authorize":
		return true
	}
	return false
}

func falseOrNil(no bool) *bool {
	if !no {
		return nil
	}
	f := false
	return &f
}

// storeSecrets keeps the secrets typed in the form in the keyring (or
// forgets them), before the catalog is saved: a keyring that refuses
// leaves both as they were. b.mu is held.
func (b *guiBackend) storeSecrets(name string, c ui.OAuthConfig) error {
	if c.ClientSecret == "" && !c.ForgetClientSecret && c.IDPClientSecret == "" && !c.ForgetIDPClientSecret {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st := secrets.ForServer(b.secretsLocked(), name)
	for _, s := range []struct {
		key, value string
		forget     bool
	}{{oauth.KeyClientSecret, c.ClientSecret, c.ForgetClientSecret}, {oauth.KeyIDPClientSecret, c.IDPClientSecret, c.ForgetIDPClientSecret}} {
		var err error
		switch {
		case s.value != "":
			err = st.Set(ctx, s.key, s.value)
		case s.forget:
			err = st.Delete(ctx, s.key)
		}
		if err != nil {
			return fmt.Errorf("the OS keyring did not take the secret, so nothing was saved: %w", err)
		}
	}
	return nil
}

// takeSecrets reads and deletes a server's keyring items (removal), or
// with keep set only reads them. b.mu is held.
func (b *guiBackend) takeSecrets(name string, keep bool) map[string]string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st := secrets.ForServer(b.secretsLocked(), name)
	out := map[string]string{}
	for _, k := range serverKeys {
		if v, err := st.Get(ctx, k); err == nil {
			out[k] = v
			if !keep {
				_ = st.Delete(ctx, k)
			}
		}
	}
	return out
}

// putSecrets writes keyring items back (undo, rename). b.mu is held.
func (b *guiBackend) putSecrets(name string, items map[string]string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st := secrets.ForServer(b.secretsLocked(), name)
	var errs []error
	for k, v := range items {
		errs = append(errs, st.Set(ctx, k, v))
	}
	return errors.Join(errs...)
}

// secretsLocked is secretStore with b.mu held.
func (b *guiBackend) secretsLocked() secrets.Store {
	if b.secrets == nil {
		b.secrets = cliStore(runtime.GOOS, os.Getenv, os.Stderr)
	}
	return b.secrets
}

// removedServer is what RestoreServer needs to undo a removal.
type removedServer struct {
	entry   *catalog.Removed
	secrets map[string]string
}

// RestoreServer implements ui.ServerRestorer: the server removed last
// under name comes back at its position, with its keyring items.
func (b *guiBackend) RestoreServer(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.removed[name]
	if !ok {
		return fmt.Errorf("%s cannot be put back any more", name)
	}
	if err := b.cat.Restore(r.entry); err != nil {
		return err
	}
	if err := b.saveLocked(); err != nil {
		b.cat.Delete(name)
		return err
	}
	delete(b.removed, name)
	if err := b.putSecrets(name, r.secrets); err != nil {
		return fmt.Errorf("%s is back, but the OS keyring did not take its secrets again (sign in again): %w", name, err)
	}
	return nil
}

// noteAuthorizer remembers the authorizer of a server's live connection,
// so that Clear OAuth state forgets what it holds in memory too.
func (b *guiBackend) noteAuthorizer(name string, a *oauth.Authorizer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.auths == nil {
		b.auths = map[string]*oauth.Authorizer{}
	}
	b.auths[name] = a
}

// ClearOAuth implements ui.OAuthClearer: the server's stored tokens,
// client registration and DPoP key are forgotten, and the grant revoked
// at the authorization server first when oauth.revokeOnClear (default on)
// says so — snapshot, clear, revoke (core/oauth's Clear).
func (b *guiBackend) ClearOAuth(ctx context.Context, name string) (string, error) {
	b.mu.Lock()
	s, ok := b.cat.Get(name)
	if o, over := b.override[name]; over {
		s = o
	}
	a := b.auths[name]
	b.mu.Unlock()
	if !ok {
		return "", fmt.Errorf("no server named %q in the catalog", name)
	}
	if !s.Type.IsHTTP() {
		return "", fmt.Errorf("%s is a stdio server: it has no OAuth state", name)
	}
	if a == nil {
		settings := catalog.OAuth{}
		if s.OAuth != nil {
			settings = *s.OAuth
		}
		keyringSecrets(ctx, b.secretStore(), name, &settings)
		a = oauth.New(name, s.URL, settings, b.secretStore(), &oauth.Options{
			HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: &wire.Tap{Rec: b.log, Conn: name, Redactor: b.red}},
			OnSecret:   func(v string) { b.red.Add(v) },
		})
	}
	res, err := a.Clear(ctx, s.OAuth.RevokesOnClear())
	if err != nil {
		return "", fmt.Errorf("the OS keyring did not let go of the stored sign-in: %w", err)
	}
	return clearWords(name, res), nil
}

// clearWords says what Clear OAuth state did, short enough for a toast.
func clearWords(name string, res oauth.ClearResult) string {
	done := "Cleared the OAuth state of " + name
	switch {
	case res.Revoked:
		return done + "; its tokens were revoked."
	case res.RevokeErr != nil:
		return done + " here; revocation failed: " + humanizeRevoke(res.RevokeErr) + "."
	}
	why := map[string]string{
		oauth.NotRevokedDisabled:    "; not revoked (Revoke tokens on clear is off).",
		oauth.NotRevokedNoGrant:     " (there was no sign-in to revoke).",
		oauth.NotRevokedNoEndpoint:  "; not revoked: the authorization server has no revocation endpoint.",
		oauth.NotRevokedOtherIssuer: "; not revoked: the tokens came from another authorization server.",
		oauth.NotRevokedUnbound:     "; not revoked: its authorization server is unknown.",
		oauth.NotRevokedNoClient:    "; not revoked: no client credentials to revoke with.",
	}[res.NotRevoked]
	if why == "" {
		why = "; not revoked."
	}
	return done + why
}

// humanizeRevoke is the cause of a failed revocation, in a few words.
func humanizeRevoke(err error) string {
	var ue interface{ Timeout() bool }
	if errors.As(err, &ue) && ue.Timeout() {
		return "the authorization server did not answer in time"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		msg = msg[i+2:]
	}
	return msg
}
