package cmd

import (
	"context"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/oauth/oauthpeer"
)

// TestMatrixConnectionSignsIn: the protocol matrix's (and a replay's)
// connection of its own, named "secure @ VERSION" in the log, signs in
// with the tokens oidc-provider issued to the entry "secure" (kept in the
// store under the entry's name), so the protected resource answers 200
// without another sign-in in the browser; a connection keyed by its own
// name would hold no token.
func TestMatrixConnectionSignsIn(t *testing.T) {
	rs, _ := oauthpeer.Setup(t)
	endpoint := rs.URL + "/mcp"
	be, _, _ := oauthBackend(t, `{"mcpServers": {"secure": {"type": "http", "url": "`+endpoint+`"}}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	signedIn(ctx, t, be, "secure", endpoint)

	s, err := be.entryServer("secure")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := be.freshConnection("secure @ 2025-06-18", "secure", s)
	if err != nil {
		t.Fatal(err)
	}
	if conn.auth == nil {
		t.Fatal("the matrix's connection has no OAuth: it would connect bare and get 401")
	}
	if st := conn.auth.Status(ctx); !st.Authorized {
		t.Fatalf("the matrix's connection does not hold the entry's token: %+v", st)
	}
	if conn.name != "secure @ 2025-06-18" {
		t.Errorf("the connection is named %q in the log, want secure @ 2025-06-18", conn.name)
	}
	if status, err := oauthpeer.Call(ctx, conn.auth, endpoint); err != nil || status != 200 {
		t.Fatalf("a request with the entry's token: %d %v", status, err)
	}
}
