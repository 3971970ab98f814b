package keyringtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/oauth/internal/oauthtest"
	"github.com/spyglass-mcp/spyglass/core/secrets"
)

func TestSignInWithTokensInTheOSKeyring(t *testing.T) {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	service := "spyglass-test-" + hex.EncodeToString(b)
	kr := secrets.NewKeyring(&secrets.KeyringOptions{Service: service, Timeout: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := kr.Ping(ctx); err != nil {
		// Under CI or inside .ci/keyring.sh (make test) a keyring must be there.
		if os.Getenv("CI") == "true" || os.Getenv("SPYGLASS_KEYRING_INNER") != "" {
			t.Fatalf("no usable OS keyring under CI or inside .ci/keyring.sh: %v", err)
		}
		t.Skipf("no usable OS keyring (run inside .ci/keyring.sh): %v", err)
	}
	rs, as := oauthtest.Setup(t)
	var warnings []oauth.Warning
	a := oauth.New("keyring server", rs.URL+"/mcp", catalog.OAuth{}, kr, &oauth.Options{
		Browser: &oauthtest.Browser{}, OnWarning: func(w oauth.Warning) { warnings = append(warnings, w) },
	})
	t.Cleanup(func() { _, _ = a.Clear(context.Background(), false) })
	if status, err := oauthtest.Call(ctx, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("sign-in: %d, %v", status, err)
	}
	if len(warnings) > 0 {
		t.Fatalf("warnings (the keyring failed?): %+v", warnings)
	}
	// The token (a JWT of about a kilobyte) and the client are in the
	// keyring, under the server's name.
	scoped := secrets.ForServer(kr, "keyring server")
	raw, err := scoped.Get(ctx, oauth.KeyToken)
	if err != nil || !strings.Contains(raw, `"access_token":"ey`) {
		t.Fatalf("token in the keyring: %v", err)
	}
	if _, err := scoped.Get(ctx, oauth.KeyClient); err != nil {
		t.Fatalf("client in the keyring: %v", err)
	}

	// A restart (a fresh Keyring and Authorizer) signs nobody in again.
	kr2 := secrets.NewKeyring(&secrets.KeyringOptions{Service: service, Timeout: 10 * time.Second})
	noBrowser := oauth.BrowserFunc(func(context.Context, string) error { t.Error("browser opened after a restart"); return nil })
	a2 := oauth.New("keyring server", rs.URL+"/mcp", catalog.OAuth{}, kr2, &oauth.Options{Browser: noBrowser})
	if status, err := oauthtest.Call(ctx, a2, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("after restart: %d, %v", status, err)
	}
	if st := a2.Status(ctx); st.Issuer != as.Issuer || !st.Refreshable {
		t.Errorf("status after restart: %+v", st)
	}

	// Clear empties the keyring entries and revokes the grant.
	res, err := a2.Clear(ctx, true)
	if err != nil || !res.Revoked {
		t.Fatalf("Clear: %+v, %v", res, err)
	}
	for _, k := range []string{oauth.KeyToken, oauth.KeyClient, oauth.KeyMetadata} {
		if _, err := scoped.Get(ctx, k); !errors.Is(err, secrets.ErrNotFound) {
			t.Errorf("%s after Clear: %v", k, err)
		}
	}
}
