package oauth_test

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
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
)

// authServer is a running oidc-provider.
type authServer struct {
	issuer string
}

// startOIDCProvider runs testdata/oidc-provider.mjs for the MCP resource
// at resource and returns once it listens.
func startOIDCProvider(t *testing.T, resource string) *authServer {
	t.Helper()
	node := testpeers.Node(t)
	lib := testpeers.File(t, "oidc-provider/lib/index.js")
	script, _ := filepath.Abs(filepath.Join("testdata", "oidc-provider.mjs"))
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Env = append(cmd.Environ(), "OIDC_PROVIDER="+lib, fmt.Sprintf("PORT=%d", port), "RESOURCE="+resource)
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
		return &authServer{issuer: iss}
	case <-time.After(20 * time.Second):
		t.Fatalf("oidc-provider did not start; stderr:\n%s", stderr.String())
	}
	return nil
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// resourceServer is a protected MCP endpoint: 401 with resource_metadata
// without a valid token; it checks the JWT access token's signature
// (against the issuer's JWKS), iss, aud (the RFC 8707 resource) and exp.
type resourceServer struct {
	*httptest.Server
	mu       sync.Mutex
	issuer   string
	resource string // what the metadata names (default: the /mcp URL)
	scopes   []string
	served   atomic.Int32
}

func newResourceServer(t *testing.T) *resourceServer {
	rs := &resourceServer{scopes: []string{"mcp:read", "mcp:write"}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		defer rs.mu.Unlock()
		res := rs.resource
		if res == "" {
			res = rs.URL + "/mcp"
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"resource": res, "authorization_servers": []string{rs.issuer}, "scopes_supported": rs.scopes,
		})
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		issuer := rs.issuer
		rs.mu.Unlock()
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || verifyJWT(tok, issuer, rs.URL+"/mcp") != nil {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, rs.URL))
			http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
			return
		}
		rs.served.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	rs.Server = httptest.NewServer(mux)
	t.Cleanup(rs.Close)
	return rs
}

// verifyJWT checks an RS256 JWT access token against the issuer's JWKS.
func verifyJWT(tok, issuer, audience string) error {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return errors.New("not a JWT")
	}
	var hdr struct{ Alg, Kid string }
	var claims struct {
		Iss string `json:"iss"`
		Aud any    `json:"aud"`
		Exp int64  `json:"exp"`
	}
	if err := decodeSeg(parts[0], &hdr); err != nil {
		return err
	}
	if err := decodeSeg(parts[1], &claims); err != nil {
		return err
	}
	if hdr.Alg != "RS256" || claims.Iss != issuer || claims.Aud != audience || time.Now().Unix() > claims.Exp {
		return fmt.Errorf("claims: %+v %+v", hdr, claims)
	}
	resp, err := http.Get(issuer + "/jwks")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var set struct {
		Keys []struct{ Kid, Kty, N, E string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		return err
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return err
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
			return nil
		}
	}
	return errors.New("bad signature")
}

func decodeSeg(s string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// setup starts the resource server and oidc-provider for it.
func setup(t *testing.T) (*resourceServer, *authServer) {
	t.Helper()
	rs := newResourceServer(t)
	as := startOIDCProvider(t, rs.URL+"/mcp")
	rs.mu.Lock()
	rs.issuer = as.issuer
	rs.mu.Unlock()
	return rs, as
}

// countingBrowser is the headless browser, counting the URLs it opened.
type countingBrowser struct {
	opened []string
	mu     sync.Mutex
}

func (b *countingBrowser) Open(ctx context.Context, u string) error {
	b.mu.Lock()
	b.opened = append(b.opened, u)
	b.mu.Unlock()
	return oauth.HTTPBrowser{}.Open(ctx, u)
}

func (b *countingBrowser) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.opened)
}

// call POSTs to the MCP endpoint the way wire does: Prepare, and on 401
// or 403 Authorize and retry once. It returns the final status.
func call(ctx context.Context, t *testing.T, a *oauth.Authorizer, endpoint string) (int, error) {
	t.Helper()
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
		if (resp.StatusCode != 401 && resp.StatusCode != 403) || attempt == 1 {
			return resp.StatusCode, nil
		}
		if err := a.Authorize(ctx, oauth.ChallengeFromResponse(resp)); err != nil {
			return resp.StatusCode, err
		}
	}
}

func TestOIDCProviderSignInRefreshRevoke(t *testing.T) {
	rs, as := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	store := secrets.NewMemory()
	browser := &countingBrowser{}
	var clock atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(clock.Load())) }
	var warnings []oauth.Warning
	a := oauth.New("my server", rs.URL+"/mcp", catalog.OAuth{}, store, &oauth.Options{
		Browser: browser, Now: now, OnWarning: func(w oauth.Warning) { warnings = append(warnings, w) },
	})

	// First request: 401, the whole flow through the headless browser, 200.
	status, err := call(ctx, t, a, rs.URL+"/mcp")
	if err != nil || status != 200 {
		t.Fatalf("first call: status %d, %v", status, err)
	}
	if browser.count() != 1 {
		t.Fatalf("browser opened %d times, want 1", browser.count())
	}
	au, _ := url.Parse(browser.opened[0])
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
	if !st.Authorized || !st.Refreshable || st.Issuer != as.issuer || st.ClientKind != "dynamic" || st.ClientID == "" {
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
	a2 := oauth.New("my server", rs.URL+"/mcp", catalog.OAuth{}, store, &oauth.Options{Browser: b2, Now: now})
	if status, err := call(ctx, t, a2, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call after restart: %d, %v", status, err)
	}

	// Two hours later the token looks expired: Prepare refreshes it
	// (rotation: a new refresh token) without the browser.
	oldTok := storedToken(t, store, "my server")
	clock.Store(int64(2 * time.Hour))
	if status, err := call(ctx, t, a2, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call after expiry: %d, %v", status, err)
	}
	newTok := storedToken(t, store, "my server")
	if newTok.AccessToken == oldTok.AccessToken || newTok.RefreshToken == oldTok.RefreshToken || newTok.RefreshToken == "" {
		t.Fatal("refresh did not rotate the tokens")
	}
	if code := refreshWith(ctx, t, as, oldTok.RefreshToken, st.ClientID); code != "invalid_grant" {
		t.Errorf("the rotated-out refresh token still works (%q)", code)
	}

	// Clear revokes the grant at the server: the refresh token is dead.
	res, err := a2.Clear(ctx, true)
	if err != nil || !res.Revoked || res.RevokeErr != nil {
		t.Fatalf("Clear: %+v, %v", res, err)
	}
	if len(store.Keys()) != 0 {
		t.Errorf("store after Clear: %v", store.Keys())
	}
	if code := refreshWith(ctx, t, as, newTok.RefreshToken, st.ClientID); code != "invalid_grant" {
		t.Errorf("the revoked refresh token still works (%q)", code)
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

// refreshWith posts a refresh grant directly and returns the error code
// ("" on success).
func refreshWith(ctx context.Context, t *testing.T, as *authServer, refresh, clientID string) string {
	t.Helper()
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {clientID}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, as.issuer+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Error string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode == 200 {
		return ""
	}
	return body.Error
}

func TestOIDCProviderNoRefreshTokenParamsAndOverrides(t *testing.T) {
	rs, as := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// A proxy in front of the real authorization endpoint stands for a
	// staging deployment of the same issuer (oauth.authorizationUrl).
	target, _ := url.Parse(as.issuer)
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		r.Host = target.Host
		u := *target
		u.Path, u.RawQuery = r.URL.Path, r.URL.RawQuery
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, u.String(), r.Body)
		out.Header = r.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	defer proxy.Close()

	no := false
	var warnings []oauth.Warning
	browser := &countingBrowser{}
	a := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{
		RequestRefreshToken: &no,
		AuthorizationParams: map[string]string{"login_hint": "user-1", "state": "attacker", "resource": "https://evil.example"},
		AuthorizationURL:    proxy.URL + "/auth",
		TokenURL:            "not a url",
	}, secrets.NewMemory(), &oauth.Options{Browser: browser, OnWarning: func(w oauth.Warning) { warnings = append(warnings, w) }})
	if status, err := call(ctx, t, a, rs.URL+"/mcp"); err != nil || status != 200 {
		t.Fatalf("call: %d, %v", status, err)
	}
	q := mustQuery(t, browser.opened[0])
	if q.Get("login_hint") != "user-1" || q.Get("resource") != rs.URL+"/mcp" || q.Get("state") == "attacker" {
		t.Errorf("authorization URL: %v", q)
	}
	if strings.Contains(q.Get("scope"), "offline_access") || q.Get("prompt") != "" {
		t.Errorf("offline_access or prompt requested without requestRefreshToken: %v", q)
	}
	if !strings.HasPrefix(browser.opened[0], proxy.URL+"/auth?") || proxied.Load() == 0 {
		t.Errorf("authorizationUrl override not used: %s", browser.opened[0])
	}
	st := a.Status(ctx)
	if st.Refreshable {
		t.Error("a refresh token was issued to a client registered without the refresh_token grant")
	}
	if st.Issuer != as.issuer {
		t.Errorf("issuer = %q, want the discovered %q (overrides leave it alone)", st.Issuer, as.issuer)
	}
	want := []oauth.Warning{{Code: oauth.WarnBadOverride, Detail: "tokenUrl"}, {Code: oauth.WarnReservedParam, Detail: "resource"}, {Code: oauth.WarnReservedParam, Detail: "state"}}
	if fmt.Sprint(warnings) != fmt.Sprint(want) {
		t.Errorf("warnings = %v, want %v", warnings, want)
	}
}

func TestOIDCProviderResourceMismatch(t *testing.T) {
	rs, _ := setup(t)
	rs.mu.Lock()
	rs.resource = "https://evil.example.com/mcp"
	rs.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b := oauth.BrowserFunc(func(context.Context, string) error { t.Error("browser opened for a mismatched resource"); return nil })
	a := oauth.New("s", rs.URL+"/mcp", catalog.OAuth{}, secrets.NewMemory(), &oauth.Options{Browser: b})
	_, err := call(ctx, t, a, rs.URL+"/mcp")
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
