package oauth_test

import (
	"context"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/oauth/internal/oauthtest"
	"github.com/spyglass-mcp/spyglass/core/secrets"
)

// TestOIDCProviderDPoPOff signs in against oidc-provider with DPoP turned
// on and a resource whose metadata offers DPoP: by default (oauth.dpop
// "auto") the token is DPoP-bound (token_type DPoP, a cnf.jkt claim, the
// DPoP scheme on requests); with oauth.dpop "off" the same servers give a
// plain Bearer token, sent as Bearer, end to end.
func TestOIDCProviderDPoPOff(t *testing.T) {
	for _, tc := range []struct {
		mode, scheme string
		bound        bool
	}{
		{catalog.DPoPAuto, "DPoP", true},
		{catalog.DPoPOff, "Bearer", false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			rs := oauthtest.NewResourceServer(t)
			rs.SetDPoP(true)
			as := oauthtest.StartOIDCProviderEnv(t, rs.URL+"/mcp", "DPOP=1")
			rs.SetIssuer(as.Issuer)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			store := secrets.NewMemory()
			a := oauth.New("dpop server", rs.URL+"/mcp", catalog.OAuth{DPoP: tc.mode}, store, &oauth.Options{Browser: &oauthtest.Browser{}})
			status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp")
			if err != nil || status != 200 {
				t.Fatalf("call: status %d, %v", status, err)
			}
			if got := rs.Scheme(); got != tc.scheme {
				t.Errorf("the resource saw the %s scheme, want %s", got, tc.scheme)
			}
			tok := storedToken(t, store, "dpop server")
			if tok.TokenType != tc.scheme {
				t.Errorf("token_type %q, want %s", tok.TokenType, tc.scheme)
			}
			claims, err := oauthtest.VerifyJWT(tok.AccessToken, as.Issuer, rs.URL+"/mcp")
			if err != nil {
				t.Fatal(err)
			}
			if bound := claims.Cnf != nil && claims.Cnf.JKT != ""; bound != tc.bound {
				t.Errorf("token bound to a key: %v, want %v", bound, tc.bound)
			}
		})
	}
}
