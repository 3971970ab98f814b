// Package oauthtest holds the real peers core/oauth is tested against:
// oidc-provider (a certified OpenID Connect / OAuth 2.1 authorization
// server, run by node from core/oauth/testdata/oidc-provider.mjs) and a
// protected MCP resource that checks the JWT access tokens it mints, plus
// a headless browser and a request helper that authorizes on 401/403.
package oauthtest

import (
	"bufio"
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
)

// AuthServer is a running oidc-provider.
type AuthServer struct {
	Issuer string // http://127.0.0.1:PORT; token endpoint Issuer+"/token"
}

// StartOIDCProvider runs core/oauth/testdata/oidc-provider.mjs for the MCP
// resource at resource and returns once it listens. The process is ended
// when the test ends. It skips (fails under CI) without node or the peer.
func StartOIDCProvider(t *testing.T, resource string) *AuthServer {
	t.Helper()
	return StartOIDCProviderEnv(t, resource)
}

// StartOIDCProviderEnv is StartOIDCProvider with more environment for the
// script (DPOP=0 turns RFC 9449 DPoP off; it is on by default).
func StartOIDCProviderEnv(t *testing.T, resource string, env ...string) *AuthServer {
	t.Helper()
	node := testpeers.Node(t)
	lib := testpeers.File(t, "oidc-provider/lib/index.js")
	root, err := testpeers.Root()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "core", "oauth", "testdata", "oidc-provider.mjs")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Env = append(append(cmd.Environ(), "OIDC_PROVIDER="+lib, "RESOURCE="+resource), env...)
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start oidc-provider: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if iss, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
				ready <- iss
			}
		}
	}()
	select {
	case iss := <-ready:
		return &AuthServer{Issuer: iss}
	case <-time.After(20 * time.Second):
		cancel()
		t.Fatalf("oidc-provider did not start; stderr:\n%s", stderr.String())
	}
	return nil
}

// ResourceServer is a protected MCP endpoint at URL+"/mcp". Without a
// valid token it answers 401 with WWW-Authenticate resource_metadata; it
// checks the JWT access token's RS256 signature (against the issuer's
// JWKS), iss, aud (the RFC 8707 resource) and exp; with a required scope
// set it answers 403 insufficient_scope to tokens lacking it. It serves
// its RFC 9728 metadata at the path-aware well-known URL.
type ResourceServer struct {
	*httptest.Server
	mu       sync.Mutex
	issuer   string
	resource string
	scopes   []string
	require  string
	dpop     bool   // metadata offers DPoP and "DPoP" tokens are taken
	scheme   string // the Authorization scheme of the last request served
}

// NewResourceServer starts a ResourceServer whose metadata offers the
// scopes mcp:read and mcp:write.
func NewResourceServer(t *testing.T) *ResourceServer {
	t.Helper()
	rs := &ResourceServer{scopes: []string{"mcp:read", "mcp:write"}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		defer rs.mu.Unlock()
		res := rs.resource
		if res == "" {
			res = rs.URL + "/mcp"
		}
		m := map[string]any{
			"resource": res, "authorization_servers": []string{rs.issuer}, "scopes_supported": rs.scopes,
		}
		if rs.dpop {
			m["dpop_signing_alg_values_supported"] = []string{"ES256"}
		}
		_ = json.NewEncoder(w).Encode(m)
	})
	mux.HandleFunc("/mcp", rs.serveMCP)
	rs.Server = httptest.NewServer(mux)
	t.Cleanup(rs.Close)
	return rs
}

func (rs *ResourceServer) serveMCP(w http.ResponseWriter, r *http.Request) {
	rs.mu.Lock()
	issuer, require, dpop := rs.issuer, rs.require, rs.dpop
	rs.mu.Unlock()
	prm := rs.URL + "/.well-known/oauth-protected-resource/mcp"
	scheme := "Bearer"
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok && dpop { // the proof itself is the authorization server's business here
		scheme = "DPoP"
		tok, ok = strings.CutPrefix(r.Header.Get("Authorization"), "DPoP ")
	}
	claims, err := VerifyJWT(tok, issuer, rs.URL+"/mcp")
	if !ok || err != nil {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s"`, prm))
		http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
		return
	}
	if require != "" {
		have := strings.Fields(claims.Scope)
		for _, s := range strings.Fields(require) {
			if !slices.Contains(have, s) {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s"`, require, prm))
				http.Error(w, `{"error":"insufficient_scope"}`, http.StatusForbidden)
				return
			}
		}
	}
	rs.mu.Lock()
	rs.scheme = scheme
	rs.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
}

// SetIssuer names the authorization server in the metadata and the
// issuer tokens must come from.
func (rs *ResourceServer) SetIssuer(iss string) { rs.mu.Lock(); rs.issuer = iss; rs.mu.Unlock() }

// SetResource makes the metadata name another resource ("" = itself).
func (rs *ResourceServer) SetResource(r string) { rs.mu.Lock(); rs.resource = r; rs.mu.Unlock() }

// SetScopes sets the metadata's scopes_supported.
func (rs *ResourceServer) SetScopes(s ...string) { rs.mu.Lock(); rs.scopes = s; rs.mu.Unlock() }

// Require makes requests need every scope of scopes (space separated);
// "" requires none.
func (rs *ResourceServer) Require(scopes string) { rs.mu.Lock(); rs.require = scopes; rs.mu.Unlock() }

// SetDPoP makes the metadata offer DPoP (dpop_signing_alg_values_supported
// ES256) and the endpoint take DPoP-scheme tokens as well as Bearer ones.
func (rs *ResourceServer) SetDPoP(on bool) { rs.mu.Lock(); rs.dpop = on; rs.mu.Unlock() }

// Scheme is the Authorization scheme ("Bearer" or "DPoP") of the last
// request answered 200.
func (rs *ResourceServer) Scheme() string { rs.mu.Lock(); defer rs.mu.Unlock(); return rs.scheme }

// Claims are the access token claims the ResourceServer checks.
type Claims struct {
	Iss   string `json:"iss"`
	Aud   any    `json:"aud"`
	Exp   int64  `json:"exp"`
	Scope string `json:"scope"`
	// Cnf is the confirmation claim of a DPoP-bound token (RFC 9449 §6):
	// the JWK thumbprint of the client's key.
	Cnf *struct {
		JKT string `json:"jkt"`
	} `json:"cnf"`
}

// VerifyJWT checks an RS256 JWT access token against the issuer's JWKS,
// its iss, aud and exp, and returns its claims.
func VerifyJWT(tok, issuer, audience string) (*Claims, error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil, errors.New("not a JWT")
	}
	var hdr struct{ Alg, Kid string }
	var claims Claims
	if err := decodeSeg(parts[0], &hdr); err != nil {
		return nil, err
	}
	if err := decodeSeg(parts[1], &claims); err != nil {
		return nil, err
	}
	if hdr.Alg != "RS256" || claims.Iss != issuer || claims.Aud != audience || time.Now().Unix() > claims.Exp {
		return nil, fmt.Errorf("claims: %+v %+v", hdr, claims)
	}
	resp, err := http.Get(issuer + "/jwks")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var set struct {
		Keys []struct{ Kid, Kty, N, E string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		return nil, err
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	for _, k := range set.Keys {
		if k.Kty != "RSA" || (hdr.Kid != "" && k.Kid != hdr.Kid) {
			continue
		}
		n, _ := base64.RawURLEncoding.DecodeString(k.N)
		e, _ := base64.RawURLEncoding.DecodeString(k.E)
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		if rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], sig) == nil {
			return &claims, nil
		}
	}
	return nil, errors.New("bad signature")
}

func decodeSeg(s string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Setup starts a ResourceServer and an oidc-provider for it.
func Setup(t *testing.T) (*ResourceServer, *AuthServer) {
	t.Helper()
	rs := NewResourceServer(t)
	as := StartOIDCProvider(t, rs.URL+"/mcp")
	rs.SetIssuer(as.Issuer)
	return rs, as
}

// Browser is the headless browser (oauth.HTTPBrowser), remembering the
// URLs it opened.
type Browser struct {
	mu     sync.Mutex
	opened []string
}

// Open records u and follows its redirects.
func (b *Browser) Open(ctx context.Context, u string) error {
	b.mu.Lock()
	b.opened = append(b.opened, u)
	b.mu.Unlock()
	return oauth.HTTPBrowser{}.Open(ctx, u)
}

// Opened returns the URLs opened so far.
func (b *Browser) Opened() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.opened...)
}

// Call POSTs a ping to endpoint the way core/wire does — Prepare, and on
// 401 or 403 Authorize with the challenge and send again, at most three
// times — and returns the final status.
func Call(ctx context.Context, a *oauth.Authorizer, endpoint string) (int, error) {
	for attempt := 0; ; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err := a.Prepare(req); err != nil {
			return 0, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if (resp.StatusCode != 401 && resp.StatusCode != 403) || attempt == 3 {
			return resp.StatusCode, nil
		}
		if err := a.Authorize(ctx, oauth.ChallengeFromResponse(resp)); err != nil {
			return resp.StatusCode, err
		}
	}
}

// Proxy starts a reverse proxy to target (an http origin) that counts the
// requests per path: a staging deployment of the same issuer, for the
// authorizationUrl/tokenUrl overrides.
func Proxy(t *testing.T, target string) (*httptest.Server, func(path string) int) {
	t.Helper()
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), r.Body)
		out.Header = r.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv, func(path string) int { mu.Lock(); defer mu.Unlock(); return hits[path] }
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
