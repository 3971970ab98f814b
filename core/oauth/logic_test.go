package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/secrets"
)

func TestResourceMetadataURLs(t *testing.T) {
	for _, c := range []struct {
		server, header string
		want           []string
	}{
		{"https://mcp.example.com/mcp", "", []string{
			"https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
			"https://mcp.example.com/.well-known/oauth-protected-resource",
		}},
		{"https://mcp.example.com/a/b/", "https://x.example/prm", []string{
			"https://x.example/prm",
			"https://mcp.example.com/.well-known/oauth-protected-resource/a/b",
			"https://mcp.example.com/.well-known/oauth-protected-resource",
		}},
		{"http://127.0.0.1:8080", "", []string{"http://127.0.0.1:8080/.well-known/oauth-protected-resource"}},
		{"https://h/mcp", "https://h/.well-known/oauth-protected-resource/mcp", []string{
			"https://h/.well-known/oauth-protected-resource/mcp",
			"https://h/.well-known/oauth-protected-resource",
		}},
	} {
		got, err := ResourceMetadataURLs(c.server, c.header)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ResourceMetadataURLs(%q, %q) = %q, %v; want %q", c.server, c.header, got, err, c.want)
		}
	}
	if _, err := ResourceMetadataURLs("not a url", ""); err == nil {
		t.Error("relative server URL accepted")
	}
}

func TestServerMetadataURLs(t *testing.T) {
	for _, c := range []struct {
		issuer string
		want   []string
	}{
		{"https://auth.example.com", []string{
			"https://auth.example.com/.well-known/oauth-authorization-server",
			"https://auth.example.com/.well-known/openid-configuration",
		}},
		{"https://auth.example.com/", []string{
			"https://auth.example.com/.well-known/oauth-authorization-server",
			"https://auth.example.com/.well-known/openid-configuration",
		}},
		{"https://auth.example.com/tenant1", []string{
			"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
			"https://auth.example.com/.well-known/openid-configuration/tenant1",
			"https://auth.example.com/tenant1/.well-known/openid-configuration",
		}},
		{"http://localhost:9000/a/b", []string{
			"http://localhost:9000/.well-known/oauth-authorization-server/a/b",
			"http://localhost:9000/.well-known/openid-configuration/a/b",
			"http://localhost:9000/a/b/.well-known/openid-configuration",
		}},
	} {
		got, err := ServerMetadataURLs(c.issuer)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ServerMetadataURLs(%q) = %q, %v; want %q", c.issuer, got, err, c.want)
		}
	}
}

func TestResourceMatches(t *testing.T) {
	for _, c := range []struct {
		resource, server string
		want             bool
	}{
		{"https://h/mcp", "https://h/mcp", true},
		{"https://h/mcp/", "https://h/mcp", true},
		{"https://h", "https://h/mcp", true},
		{"https://h/", "https://h/mcp", true},
		{"https://H:443/mcp", "https://h/mcp", true},
		{"https://h/api", "https://h/api/mcp", true},
		{"https://h/mc", "https://h/mcp", false},
		{"https://h/other", "https://h/mcp", false},
		{"https://evil.example.com/mcp", "http://localhost:3000/mcp", false},
		{"http://h/mcp", "https://h/mcp", false},
		{"https://h:8443/mcp", "https://h/mcp", false},
		{"", "https://h/mcp", false},
	} {
		if got := ResourceMatches(c.resource, c.server); got != c.want {
			t.Errorf("ResourceMatches(%q, %q) = %v, want %v", c.resource, c.server, got, c.want)
		}
	}
}

func TestCanonicalResource(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://MCP.Example.com/mcp#frag": "https://mcp.example.com/mcp",
		"https://mcp.example.com/":         "https://mcp.example.com",
		"http://127.0.0.1:8080/mcp":        "http://127.0.0.1:8080/mcp",
		"https://h/Path/Case":              "https://h/Path/Case",
	} {
		if got, err := CanonicalResource(in); err != nil || got != want {
			t.Errorf("CanonicalResource(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestSelectScopes(t *testing.T) {
	for _, c := range []struct {
		name string
		in   ScopeInput
		want string
	}{
		{"challenge first", ScopeInput{Challenge: "mcp:basic", ResourceScopes: []string{"a", "b"}}, "mcp:basic"},
		{"scopes_supported next", ScopeInput{ResourceScopes: []string{"mcp:basic", "mcp:read", "mcp:write"}}, "mcp:basic mcp:read mcp:write"},
		{"omitted when undefined", ScopeInput{}, ""},
		{"configured wins", ScopeInput{Configured: " x  y ", Challenge: "mcp:basic"}, "x y"},
		{"offline_access when offered and wanted", ScopeInput{ResourceScopes: []string{"mcp:basic"}, ServerScopes: []string{"mcp:basic", "offline_access"}, WantRefreshToken: true}, "mcp:basic offline_access"},
		{"no offline_access when not offered", ScopeInput{ResourceScopes: []string{"mcp:basic", "mcp:read"}, ServerScopes: []string{"mcp:basic", "mcp:read"}, WantRefreshToken: true}, "mcp:basic mcp:read"},
		{"no offline_access alone", ScopeInput{ServerScopes: []string{"offline_access"}, WantRefreshToken: true}, ""},
		{"offline_access filtered when not wanted", ScopeInput{ResourceScopes: []string{"mcp:basic", "offline_access"}, ServerScopes: []string{"offline_access"}}, "mcp:basic"},
		{"configured offline_access kept when not wanted", ScopeInput{Configured: "mcp:basic offline_access", ServerScopes: []string{"offline_access"}}, "mcp:basic offline_access"},
		{"step-up adds to the grant", ScopeInput{Challenge: "mcp:basic mcp:write", Granted: "mcp:basic", StepUp: true}, "mcp:basic mcp:write"},
		{"step-up keeps other granted scopes", ScopeInput{Challenge: "mcp:write", Granted: "mcp:read", StepUp: true}, "mcp:read mcp:write"},
		{"step-up drops a granted offline_access when not wanted", ScopeInput{Challenge: "mcp:write", Granted: "mcp:read offline_access", StepUp: true}, "mcp:read mcp:write"},
		{"no duplicates", ScopeInput{Challenge: "a a b"}, "a b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(SelectScopes(c.in), " "); got != c.want {
				t.Errorf("SelectScopes = %q, want %q", got, c.want)
			}
		})
	}
}

func TestAuthRequestURL(t *testing.T) {
	base := AuthRequest{
		Endpoint: "https://as.example/authorize?tenant=t1", ClientID: "cid", RedirectURI: "http://127.0.0.1:5000/callback",
		State: "st", CodeChallenge: "cc", Resource: "https://mcp.example/mcp",
	}
	for _, c := range []struct {
		name        string
		scopes      []string
		extra       map[string]string
		wantDropped []string
		want        map[string]string // "" value: must be absent
	}{
		{"basic", nil, nil, nil, map[string]string{
			"response_type": "code", "client_id": "cid", "redirect_uri": "http://127.0.0.1:5000/callback", "state": "st",
			"code_challenge": "cc", "code_challenge_method": "S256", "resource": "https://mcp.example/mcp", "tenant": "t1", "scope": "", "prompt": "",
		}},
		{"reserved dropped", []string{"a"}, map[string]string{
			"client_id": "x", "code_challenge": "x", "code_challenge_method": "plain", "redirect_uri": "x", "resource": "x",
			"response_type": "token", "scope": "x", "state": "x", "login_hint": "me", "kc_idp_hint": "gh",
		}, []string{"client_id", "code_challenge", "code_challenge_method", "redirect_uri", "resource", "response_type", "scope", "state"},
			map[string]string{"client_id": "cid", "state": "st", "code_challenge_method": "S256", "response_type": "code", "scope": "a", "login_hint": "me", "kc_idp_hint": "gh", "resource": "https://mcp.example/mcp"}},
		{"offline_access adds prompt=consent", []string{"a", "offline_access"}, nil, nil, map[string]string{"prompt": "consent", "scope": "a offline_access"}},
		{"a prompt of the user wins", []string{"offline_access", "a"}, map[string]string{"prompt": "login"}, nil, map[string]string{"prompt": "login"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := base
			r.Scopes, r.Extra = c.scopes, c.extra
			s, dropped, err := r.URL()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(dropped, c.wantDropped) {
				t.Errorf("dropped = %q, want %q", dropped, c.wantDropped)
			}
			u, _ := url.Parse(s)
			if u.Host != "as.example" || u.Path != "/authorize" {
				t.Errorf("endpoint changed: %s", s)
			}
			q := u.Query()
			for k, v := range c.want {
				if v == "" {
					if q.Has(k) {
						t.Errorf("%s present: %q", k, q.Get(k))
					}
				} else if q.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, q.Get(k), v)
				}
			}
		})
	}
}

func TestCheckResponse(t *testing.T) {
	meta := ServerMetadata{Issuer: "https://as.example"}
	metaIss := ServerMetadata{Issuer: "https://as.example", AuthorizationResponseIssParameterSupported: true}
	for _, c := range []struct {
		name  string
		query string
		meta  ServerMetadata
		want  error
		code  string // AuthorizationError code
	}{
		{"ok", "code=c&state=s", meta, nil, ""},
		{"ok with iss", "code=c&state=s&iss=https%3A%2F%2Fas.example", metaIss, nil, ""},
		// RFC 9207 §2.4: simple string comparison, no normalization
		// (conformance auth/iss-normalized)
		{"trailing slash is another issuer", "code=c&state=s&iss=https%3A%2F%2Fas.example%2F", metaIss, ErrIssuerMismatch, ""},
		{"host case is another issuer", "code=c&state=s&iss=https%3A%2F%2FAS.example", metaIss, ErrIssuerMismatch, ""},
		{"default port is another issuer", "code=c&state=s&iss=https%3A%2F%2Fas.example%3A443", metaIss, ErrIssuerMismatch, ""},
		{"empty iss", "code=c&state=s&iss=", meta, ErrIssuerMismatch, ""},
		{"wrong state", "code=c&state=x", meta, ErrStateMismatch, ""},
		{"no state", "code=c", meta, ErrStateMismatch, ""},
		{"mix-up: other issuer", "code=c&state=s&iss=https%3A%2F%2Fevil.example", meta, ErrIssuerMismatch, ""},
		{"promised iss missing", "code=c&state=s", metaIss, ErrIssuerMismatch, ""},
		{"iss checked before error", "error=access_denied&state=s&iss=https%3A%2F%2Fevil.example", meta, ErrIssuerMismatch, ""},
		{"error response", "error=access_denied&error_description=no&state=s", meta, nil, "access_denied"},
		{"no code", "state=s", meta, nil, "invalid_response"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, _ := url.ParseQuery(c.query)
			err := CheckResponse(q, "s", c.meta)
			var ae *AuthorizationError
			switch {
			case c.want != nil:
				if !errors.Is(err, c.want) {
					t.Errorf("err = %v, want %v", err, c.want)
				}
			case c.code != "":
				if !errors.As(err, &ae) || ae.Code != c.code {
					t.Errorf("err = %v, want AuthorizationError %s", err, c.code)
				}
			case err != nil:
				t.Errorf("err = %v", err)
			}
		})
	}
}

func TestParseChallenge(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want Challenge
	}{
		{[]string{`Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`},
			Challenge{Status: 401, ResourceMetadata: "https://h/.well-known/oauth-protected-resource/mcp", Bearer: true}},
		{[]string{`Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="https://h/prm", error_description="need \"write\", sorry"`},
			Challenge{Status: 401, Error: "insufficient_scope", Scope: "mcp:basic mcp:write", ResourceMetadata: "https://h/prm", Description: `need "write", sorry`, Bearer: true}},
		{[]string{`Basic realm="x", Bearer realm="mcp", Scope="a b"`}, Challenge{Status: 401, Scope: "a b", Bearer: true}},
		{[]string{`Basic realm="x"`, `bearer error=invalid_token`}, Challenge{Status: 401, Error: "invalid_token", Bearer: true}},
		{[]string{`Basic realm="corp"`}, Challenge{Status: 401}},
		{[]string{``}, Challenge{Status: 401}},
		{nil, Challenge{Status: 401}},
	} {
		if got := ParseChallenge(401, c.in); got != c.want {
			t.Errorf("ParseChallenge(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestBrowserCommands(t *testing.T) {
	u := "https://as.example/authorize?a=1"
	for _, c := range []struct {
		command, env, goos string
		want               [][]string
	}{
		{"", "", "linux", [][]string{{"xdg-open", u}}},
		{"", "", "darwin", [][]string{{"open", u}}},
		{"", "", "windows", [][]string{{"rundll32", "url.dll,FileProtocolHandler", u}}},
		{"", "firefox", "linux", [][]string{{"firefox", u}}},
		{"", "firefox %s", "linux", [][]string{{"firefox", u}}},
		{"", "/opt/fake-browser.sh --flag %s:lynx", "linux", [][]string{{"/opt/fake-browser.sh", "--flag", u}, {"lynx", u}}},
		// --browser wins over $BROWSER and is split like a shell would.
		{"'my browser' --flag %s", "lynx", "linux", [][]string{{"my browser", "--flag", u}}},
		{`"/opt/My Apps/b" --title "a b" --url=%s`, "", "linux", [][]string{{"/opt/My Apps/b", "--title", "a b", "--url=" + u}}},
		{`my\ browser`, "", "linux", [][]string{{"my browser", u}}},
		{"   ", "lynx", "linux", [][]string{{"lynx", u}}},
	} {
		cmds, err := browserCommands(c.command, c.env, c.goos, u)
		var got [][]string
		for _, c := range cmds {
			got = append(got, c.argv)
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("browserCommands(%q, %q, %q) = %q, %v; want %q", c.command, c.env, c.goos, got, err, c.want)
		}
	}
	var be *BrowserError
	if _, err := browserCommands("'my browser --flag", "", "linux", u); !errors.As(err, &be) || be.Command != "'my browser --flag" || !errors.Is(err, ErrBrowser) {
		t.Errorf("unbalanced quote: err = %v, want a BrowserError naming the command", err)
	}
}

func TestRevokeReason(t *testing.T) {
	meta := &ServerMetadata{Issuer: "https://as", RevocationEndpoint: "https://as/revoke"}
	tok := &Token{AccessToken: "a", RefreshToken: "r", Issuer: "https://as"}
	cl := &Client{ClientID: "c"}
	for _, c := range []struct {
		name   string
		revoke bool
		tok    *Token
		meta   *ServerMetadata
		cl     *Client
		want   string
	}{
		{"revocable", true, tok, meta, cl, ""},
		{"disabled", false, tok, meta, cl, NotRevokedDisabled},
		{"no grant", true, nil, meta, cl, NotRevokedNoGrant},
		{"unbound", true, &Token{AccessToken: "a"}, meta, cl, NotRevokedUnbound},
		{"other issuer", true, &Token{AccessToken: "a", Issuer: "https://other"}, meta, cl, NotRevokedOtherIssuer},
		{"no metadata", true, tok, nil, cl, NotRevokedOtherIssuer},
		{"no endpoint", true, tok, &ServerMetadata{Issuer: "https://as"}, cl, NotRevokedNoEndpoint},
		{"no client", true, tok, meta, nil, NotRevokedNoClient},
	} {
		if got := revokeReason(c.revoke, c.tok, c.meta, c.cl); got != c.want {
			t.Errorf("%s: revokeReason = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSecretsStayHidden(t *testing.T) {
	tok := Token{AccessToken: "AT-secret", RefreshToken: "RT-secret", Scope: "a", Expiry: time.Unix(0, 0)}
	cl := Client{ClientID: "cid", ClientSecret: "CS-secret"}
	for _, s := range []string{fmt.Sprint(tok), fmt.Sprintf("%v %+v %#v", tok, &tok, tok), fmt.Sprintf("%v %+v %#v", cl, &cl, cl)} {
		if strings.Contains(s, "secret") {
			t.Errorf("formatted value leaks a secret: %s", s)
		}
	}
}

func TestStoredTokenOfAnotherResourceIsNotSent(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		resource string
		sent     bool
	}{
		{"https://h/mcp", true},
		{"https://h", true},
		{"", true},
		{"https://other.example/mcp", false},
		{"https://h/other", false},
	} {
		store := secrets.NewMemory()
		b, _ := json.Marshal(Token{AccessToken: "AT", Resource: c.resource, Issuer: "https://as"})
		_ = secrets.ForServer(store, "s").Set(ctx, KeyToken, string(b))
		a := New("s", "https://h/mcp", catalog.OAuth{}, store, nil)
		req, _ := http.NewRequest(http.MethodPost, "https://h/mcp", nil)
		if err := a.Prepare(req); err != nil {
			t.Fatal(err)
		}
		if got := req.Header.Get("Authorization") == "Bearer AT"; got != c.sent {
			t.Errorf("token for %q sent to https://h/mcp: %v, want %v", c.resource, got, c.sent)
		}
	}
}

func TestInsecure(t *testing.T) {
	for u, want := range map[string]bool{
		"https://as.example/token":   false,
		"http://as.example/token":    true,
		"http://10.0.0.5:8080/token": true,
		"http://127.0.0.1:9/token":   false,
		"http://127.1.2.3/token":     false,
		"http://[::1]:9/token":       false,
		"http://localhost:9/token":   false,
		"http://a.localhost/token":   false,
		"HTTP://AS.EXAMPLE/token":    true,
		"":                           false,
	} {
		if got := Insecure(u); got != want {
			t.Errorf("Insecure(%q) = %v, want %v", u, got, want)
		}
	}
}

// TestLoopbackIgnoresStrayResponses: a request to the redirect URI without
// the expected state (a stray tab, a hostile page) neither ends the sign-in
// nor takes the place of the real redirect.
func TestLoopbackIgnoresStrayResponses(t *testing.T) {
	rcv, err := listenLoopback(0)
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.close()
	rcv.expect("the-state")
	get := func(q string) int {
		resp, err := http.Get(rcv.redirectURI + "?" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := get("code=bogus&state=other"); c != http.StatusBadRequest {
		t.Errorf("stray response: status %d, want 400", c)
	}
	if c := get("code=bogus"); c != http.StatusBadRequest {
		t.Errorf("response without state: status %d, want 400", c)
	}
	// The page of the real redirect waits for the sign-in's outcome.
	status := make(chan int, 1)
	go func() { status <- get("code=real&state=the-state") }()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	q, err := rcv.wait(ctx, nil)
	if err != nil || q.Get("code") != "real" {
		t.Errorf("delivered %v, %v; want the real code", q, err)
	}
	rcv.finish(nil)
	if c := <-status; c != http.StatusOK {
		t.Errorf("real redirect: status %d, want 200", c)
	}
}
