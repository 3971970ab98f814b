// Command confclient is a small MCP client for the auth scenarios of the
// MCP conformance suite (@modelcontextprotocol/conformance). It shows, and
// tests, how core/oauth wires into core/wire and core/session: the
// Authorizer's Prepare is wire.HTTPConfig.Prepare, and an operation that
// fails with wire.ErrUnauthorized runs Authorize with the challenge and is
// retried. It connects, lists the tools and calls each one.
//
//	MCP_CONFORMANCE_SCENARIO=auth/... MCP_CONFORMANCE_CONTEXT='{...}' confclient URL
//
// The real conformance client is `spyglass --conformance-client` (cmd/);
// this one exists so that core/oauth is checked against the suite on its own.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// ClientMetadataURL is the client ID metadata document URL the suite
// expects a CIMD-capable client to use.
const ClientMetadataURL = "https://conformance-test.local/client-metadata.json"

// maxAuthorize bounds Authorize calls per operation.
const maxAuthorize = 3

type confContext struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	IDPClientID      string `json:"idp_client_id"`
	IDPIDToken       string `json:"idp_id_token"`
	IDPIssuer        string `json:"idp_issuer"`
	IDPTokenEndpoint string `json:"idp_token_endpoint"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: confclient URL")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := run(ctx, os.Args[len(os.Args)-1], os.Getenv("MCP_CONFORMANCE_SCENARIO")); err != nil {
		fmt.Fprintln(os.Stderr, "confclient:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, url, scenario string) error {
	var cc confContext
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	opts := &oauth.Options{
		Browser:           oauth.HTTPBrowser{},
		ClientName:        "spyglass-conformance",
		ClientMetadataURL: ClientMetadataURL,
		PrivateKeyPEM:     cc.PrivateKeyPEM,
		SigningAlg:        cc.SigningAlgorithm,
		OnWarning:         func(w oauth.Warning) { fmt.Fprintf(os.Stderr, "warning: %s %s\n", w.Code, w.Detail) },
	}
	if strings.HasPrefix(scenario, "auth/client-credentials") {
		opts.Grant = oauth.GrantClientCredentials
	}
	settings := catalog.OAuth{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret}
	if cc.IDPClientID != "" {
		// Enterprise-managed authorization (SEP-990); the suite hands
		// over the IdP's ID token, as if the user had signed in there.
		settings.EnterpriseManaged = true
		opts.Enterprise = &oauth.Enterprise{
			IDPIssuer:        cc.IDPIssuer,
			IDPTokenEndpoint: cc.IDPTokenEndpoint,
			IDPClientID:      cc.IDPClientID,
			IDToken:          cc.IDPIDToken,
		}
	}
	a := oauth.New("conformance", url, settings, secrets.NewMemory(), opts)

	log := events.New(nil)
	s := session.New(func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "conformance", URL: url, Prepare: a.Prepare}, log), nil
	}, log, &session.Options{
		Conn:       "conformance",
		ClientInfo: mcp.Implementation{Name: "spyglass-oauth-conformance", Version: "1.0.0"},
	})
	defer s.Close()

	if err := withAuth(ctx, a, func() error { return s.Connect(ctx) }); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	var tools *session.Tools
	if err := withAuth(ctx, a, func() (err error) { tools, err = s.ListTools(ctx, nil); return err }); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, t := range tools.Tools {
		name := t.Name
		if err := withAuth(ctx, a, func() error {
			_, err := s.CallTool(ctx, session.ToolCall{Name: name, Arguments: map[string]any{}}, nil)
			return err
		}); err != nil {
			return fmt.Errorf("tools/call %s: %w", name, err)
		}
	}
	return nil
}

// withAuth runs op; when it fails with a 401/403 the Authorizer handles
// the challenge (HandleUnauthorized) and op runs again, at most
// maxAuthorize times. This is the loop core/session is to run.
func withAuth(ctx context.Context, a *oauth.Authorizer, op func() error) error {
	for i := 0; ; i++ {
		err := op()
		if err == nil || i == maxAuthorize {
			return err
		}
		if herr := a.HandleUnauthorized(ctx, err); herr != nil {
			if herr == err {
				return err // not an authorization problem
			}
			return errors.Join(err, herr)
		}
	}
}
