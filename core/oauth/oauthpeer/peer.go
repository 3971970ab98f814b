// Package oauthpeer lends the real OAuth peers of core/oauth's own tests
// to tests elsewhere (cmd): oidc-provider, a protected resource that
// checks the JWT access tokens it mints, a headless browser and a request
// helper. It is for tests only.
package oauthpeer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/oauth/internal/oauthtest"
)

// ResourceServer is the protected resource (see Setup).
type ResourceServer = oauthtest.ResourceServer

// AuthServer is a running oidc-provider.
type AuthServer = oauthtest.AuthServer

// Browser is the headless browser that follows the authorization redirects.
type Browser = oauthtest.Browser

// Setup starts a resource server and an oidc-provider for it; both end
// with the test. It skips (fails under CI) without node or the peer.
func Setup(t *testing.T) (*ResourceServer, *AuthServer) { return oauthtest.Setup(t) }

// Call sends one request to endpoint through a, signing in on 401/403, and
// returns the final status.
func Call(ctx context.Context, a *oauth.Authorizer, endpoint string) (int, error) {
	return oauthtest.Call(ctx, a, endpoint)
}

// Refresh posts a refresh grant for a public client straight to the
// authorization server and returns its error code ("" when it worked).
func Refresh(ctx context.Context, as *AuthServer, refreshToken, clientID string) (string, error) {
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}, "client_id": {clientID}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.Issuer+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body struct{ Error string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode == http.StatusOK {
		return "", nil
	}
	return body.Error, nil
}

// RegisterNative registers a public native client at the issuer, as an
// administrator would register Spyglass at an enterprise IdP, and returns
// its client_id.
func RegisterNative(ctx context.Context, t *testing.T, issuer string) string {
	t.Helper()
	body := `{"client_name":"idp-client","application_type":"native","redirect_uris":["http://127.0.0.1/callback"],` +
		`"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, issuer+"/reg", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.ClientID == "" {
		t.Fatalf("registration: %d, %v", resp.StatusCode, err)
	}
	return out.ClientID
}
