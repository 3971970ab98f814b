package oauth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// rotatingAS is an in-process token endpoint with refresh-token rotation:
// each refresh token is good once; a reused one is counted and refused.
type rotatingAS struct {
	lifetime int // expires_in of the tokens it issues

	mu        sync.Mutex
	current   string // the one valid refresh token
	n         int    // refreshes granted
	reused    int    // other requests: a spent refresh token, discovery, registration
	resources []string
}

func (s *rotatingAS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Form.Get("grant_type") != "refresh_token" || r.Form.Get("refresh_token") != s.current {
		s.reused++
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":"invalid_grant"}`)
		return
	}
	s.n++
	s.resources = append(s.resources, r.Form.Get("resource"))
	s.current = fmt.Sprintf("r%d", s.n)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": fmt.Sprintf("a%d", s.n), "token_type": "Bearer",
		"refresh_token": s.current, "expires_in": s.lifetime,
	})
}

func (s *rotatingAS) refreshes() (n, reused int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n, s.reused
}

// handlerTransport serves requests with a handler in-process (no sockets,
// so that a synctest bubble can advance its clock).
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

const (
	testIssuer   = "https://as.test"
	testResource = "https://mcp.test/mcp"
)

// seededAuthorizer returns an Authorizer whose store holds a grant from
// as obtained now with the given lifetime (obtained false: stored by an
// older version, without the time it was obtained).
func seededAuthorizer(t *testing.T, as *rotatingAS, lifetime time.Duration, obtained bool, set ...func(*oauth.Options)) *oauth.Authorizer {
	t.Helper()
	ctx := context.Background()
	store := secrets.NewMemory()
	ns := secrets.ForServer(store, "s")
	now := time.Now()
	tok := oauth.Token{AccessToken: "a0", TokenType: "Bearer", RefreshToken: "r0", Expiry: now.Add(lifetime), Issuer: testIssuer, Resource: testResource}
	if obtained {
		tok.Obtained = now
	}
	for key, v := range map[string]any{
		oauth.KeyToken:    tok,
		oauth.KeyMetadata: oauth.ServerMetadata{Issuer: testIssuer, TokenEndpoint: testIssuer + "/token", AuthorizationEndpoint: testIssuer + "/auth"},
		oauth.KeyClient:   oauth.Client{ClientID: "c", AuthMethod: oauth.AuthNone, Issuer: testIssuer, Kind: "dynamic"},
	} {
		b, _ := json.Marshal(v)
		if err := ns.Set(ctx, key, string(b)); err != nil {
			t.Fatal(err)
		}
	}
	as.current = "r0"
	opts := &oauth.Options{
		HTTPClient: &http.Client{Transport: handlerTransport{as}},
		Browser:    oauth.BrowserFunc(func(context.Context, string) error { t.Error("browser opened"); return nil }),
	}
	for _, f := range set {
		f(opts)
	}
	return oauth.New("s", testResource, catalog.OAuth{}, store, opts)
}

func bearer(t *testing.T, a *oauth.Authorizer) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, testResource, nil)
	if err := a.Prepare(req); err != nil {
		t.Fatal(err)
	}
	return req.Header.Get("Authorization")
}

// TestShortLivedTokenIsNotRefreshedOnEveryRequest: the refresh margin is
// a tenth of the lifetime, at most 30 s (#11.11). A 20 s token is used
// for 18 s; a 1 h token until 30 s before it expires.
func TestShortLivedTokenIsNotRefreshedOnEveryRequest(t *testing.T) {
	for _, c := range []struct {
		name       string
		lifetime   time.Duration
		obtained   bool
		stillGood  time.Duration // a request then uses the token
		refreshDue time.Duration // a request then refreshes it
	}{
		{"20s", 20 * time.Second, true, 17 * time.Second, 18 * time.Second},
		{"5s", 5 * time.Second, true, 4 * time.Second, 4500 * time.Millisecond},
		{"1h", time.Hour, true, time.Hour - 31*time.Second, time.Hour - 30*time.Second},
		{"stored without obtained", time.Hour, false, time.Hour - 31*time.Second, time.Hour - 30*time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				as := &rotatingAS{lifetime: int(c.lifetime / time.Second)}
				a := seededAuthorizer(t, as, c.lifetime, c.obtained)
				start := time.Now()
				if got := bearer(t, a); got != "Bearer a0" {
					t.Fatalf("first request: %q", got)
				}
				time.Sleep(c.stillGood - time.Since(start))
				if got := bearer(t, a); got != "Bearer a0" {
					t.Fatalf("at %s of %s: %q, want the token still in use", c.stillGood, c.lifetime, got)
				}
				if n, _ := as.refreshes(); n != 0 {
					t.Fatalf("%d refreshes before the margin", n)
				}
				time.Sleep(c.refreshDue - time.Since(start))
				if got := bearer(t, a); got != "Bearer a1" {
					t.Fatalf("at %s of %s: %q, want the refreshed token", c.refreshDue, c.lifetime, got)
				}
				// The refreshed token has the same lifetime and margin.
				if got := bearer(t, a); got != "Bearer a1" {
					t.Fatalf("right after the refresh: %q", got)
				}
				if n, reused := as.refreshes(); n != 1 || reused != 0 {
					t.Fatalf("refreshes %d (reused %d), want 1", n, reused)
				}
				if as.resources[0] != testResource {
					t.Errorf("refresh sent resource %q, want %q (RFC 8707)", as.resources[0], testResource)
				}
			})
		})
	}
}

// TestConcurrentRefreshesNeverReuseARefreshToken: requests that find the
// token expired at once (Prepare) and refusals that arrive together
// (HandleUnauthorizedSince) refresh once; with rotation, a second refresh
// with the spent refresh token would be refused and lose the grant.
func TestConcurrentRefreshesNeverReuseARefreshToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		as := &rotatingAS{lifetime: 3600}
		a := seededAuthorizer(t, as, 20*time.Second, true)
		gen := a.Generation()
		time.Sleep(20 * time.Second) // expired
		refusal := &wire.HTTPError{Method: "POST", URL: testResource, Status: http.StatusUnauthorized,
			Header: http.Header{"Www-Authenticate": {`Bearer error="invalid_token"`}}}
		var wg sync.WaitGroup
		got := make([]string, 16)
		for i := range got {
			wg.Go(func() {
				if i%2 == 0 {
					if err := a.HandleUnauthorizedSince(context.Background(), refusal, gen); err != nil {
						t.Errorf("HandleUnauthorizedSince: %v", err)
					}
				}
				req := httptest.NewRequest(http.MethodPost, testResource, nil)
				if err := a.Prepare(req); err != nil {
					t.Errorf("Prepare: %v", err)
				}
				got[i] = req.Header.Get("Authorization")
			})
		}
		wg.Wait()
		n, reused := as.refreshes()
		if n != 1 || reused != 0 {
			t.Fatalf("refreshes %d, with a spent refresh token %d; want 1 and 0", n, reused)
		}
		for i, g := range got {
			if g != "Bearer a1" {
				t.Errorf("request %d sent %q, want the one refreshed token", i, g)
			}
		}
	})
}

// TestRefusalAfterARefreshElsewhereSendsAgain: a request refused with
// the expired token while another request (Prepare) refreshes it is sent
// again with the refreshed token; nobody is asked to sign in. The
// refresh is made to land between the refusal's first look at the token
// and its own refresh: the warning for a challenge-less 401 comes there.
// Before the fix the refusal saw the refreshed token as "already
// refreshed once" and started a whole sign-in (discovery, registration).
func TestRefusalAfterARefreshElsewhereSendsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		as := &rotatingAS{lifetime: 3600}
		var a *oauth.Authorizer
		var during string
		a = seededAuthorizer(t, as, 20*time.Second, true, func(o *oauth.Options) {
			o.OnWarning = func(w oauth.Warning) {
				if w.Code == oauth.WarnNoChallenge && during == "" {
					during = bearer(t, a) // another request finds the token expired
				}
			}
		})
		gen := a.Generation()
		time.Sleep(20 * time.Second) // expired
		refusal := &wire.HTTPError{Method: "POST", URL: testResource, Status: http.StatusUnauthorized}
		if err := a.HandleUnauthorizedSince(context.Background(), refusal, gen); err != nil {
			t.Fatalf("HandleUnauthorizedSince: %v (want nil: send again with the refreshed token)", err)
		}
		if during != "Bearer a1" {
			t.Fatalf("the request prepared meanwhile sent %q, want the refreshed token", during)
		}
		if got := bearer(t, a); got != "Bearer a1" {
			t.Errorf("the refused request, sent again, carries %q; want the refreshed token", got)
		}
		if n, other := as.refreshes(); n != 1 || other != 0 {
			t.Errorf("token endpoint: %d refreshes and %d other requests (a spent refresh token, discovery, registration); want 1 and 0", n, other)
		}
	})
}
