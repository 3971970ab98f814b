// Package oauthpeer lends the real OAuth peers of core/oauth's own tests
// to tests elsewhere (cmd): oidc-provider, a protected resource that
// checks the JWT access tokens it mints, a headless browser and a request
// helper. It is for tests only.
package oauthpeer

import (
	"context"
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
	return oauthtest.Refresh(ctx, as, refreshToken, clientID)
}

// RegisterNative registers a public native client at the issuer, as an
// administrator would register Spyglass at an enterprise IdP, and returns
// its client_id.
func RegisterNative(ctx context.Context, t *testing.T, issuer string) string {
	t.Helper()
	return oauthtest.RegisterNative(ctx, t, issuer)
}
