package oauth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
)

// fakeAS is an in-process MCP resource + authorization server that
// approves at once; iss is what its authorization response names as the
// issuer ("" for its own). It logs the paths it is asked for.
type fakeAS struct {
	*httptest.Server
	iss string

	mu    sync.Mutex
	paths []string
}

func newFakeAS(t *testing.T) *fakeAS {
	s := &fakeAS{}
	mux := http.NewServeMux()
	js := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		js(w, map[string]any{"resource": s.URL + "/mcp", "authorization_servers": []string{s.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		js(w, map[string]any{"issuer": s.URL, "authorization_endpoint": s.URL + "/authorize", "token_endpoint": s.URL + "/token",
			"registration_endpoint": s.URL + "/register", "code_challenge_methods_supported": []string{"S256"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		js(w, map[string]any{"client_id": "c1"})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		iss := s.iss
		if iss == "" {
			iss = s.URL
		}
		http.Redirect(w, r, q.Get("redirect_uri")+"?"+url.Values{"code": {"the-code"}, "state": {q.Get("state")}, "iss": {iss}}.Encode(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		js(w, map[string]any{"access_token": "at", "token_type": "Bearer", "expires_in": 3600})
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *fakeAS) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// pageBrowser follows the redirects like a browser and hands over the
// page the loopback receiver showed.
type pageBrowser struct{ pages chan string }

func newPageBrowser() *pageBrowser { return &pageBrowser{pages: make(chan string, 1)} }

func (b *pageBrowser) Open(ctx context.Context, u string) error {
	// A real browser shows the page after the sign-in has ended (ctx).
	req, _ := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	b.pages <- string(body)
	return nil
}

func newSignIn(as *fakeAS, opts oauth.Options) *oauth.Authorizer {
	return oauth.New("s", as.URL+"/mcp", catalog.OAuth{}, secrets.NewMemory(), &opts)
}

var challenge401 = oauth.Challenge{Status: http.StatusUnauthorized, Bearer: true}

// TestLoopbackPageSaysWhenTheIssuerCheckFails: a redirect whose iss is
// not the issuer is refused, and the browser is told so (#11.13).
func TestLoopbackPageSaysWhenTheIssuerCheckFails(t *testing.T) {
	as := newFakeAS(t)
	as.iss = "https://evil.example"
	b := newPageBrowser()
	err := newSignIn(as, oauth.Options{Browser: b}).Authorize(t.Context(), challenge401)
	if !errors.Is(err, oauth.ErrIssuerMismatch) {
		t.Fatalf("err = %v, want ErrIssuerMismatch", err)
	}
	page := <-b.pages
	if !strings.Contains(page, "Sign-in failed") || !strings.Contains(page, "issuer check failed") || strings.Contains(page, "Signed in") {
		t.Errorf("the browser showed:\n%s\nwant a page saying the sign-in failed on the issuer check", page)
	}
	for _, p := range as.requested() {
		if p == "/token" {
			t.Error("the code of a refused response was redeemed")
		}
	}
}

func TestLoopbackPageSaysSignedIn(t *testing.T) {
	as := newFakeAS(t)
	b := newPageBrowser()
	if err := newSignIn(as, oauth.Options{Browser: b}).Authorize(t.Context(), challenge401); err != nil {
		t.Fatal(err)
	}
	if page := <-b.pages; !strings.Contains(page, "<h1>Signed in</h1>") {
		t.Errorf("the browser showed:\n%s\nwant Signed in", page)
	}
}

// TestFailingBrowserCommandEndsTheSignIn: a browser command that is not
// found or exits with a failure ends the sign-in at once, naming the
// command, instead of waiting for a redirect that cannot come (#11.3).
// The context has no deadline and the sign-in timeout is an hour: only
// the command's failure can end the wait.
func TestFailingBrowserCommandEndsTheSignIn(t *testing.T) {
	for _, command := range []string{"false", "/nonexistent/browser --new-tab %s", "sh -c 'exit 3'"} {
		t.Run(command, func(t *testing.T) {
			as := newFakeAS(t)
			a := newSignIn(as, oauth.Options{Browser: oauth.SystemBrowser{Command: command}, SignInTimeout: time.Hour})
			err := a.Authorize(context.Background(), challenge401)
			var be *oauth.BrowserError
			if !errors.Is(err, oauth.ErrBrowser) || !errors.As(err, &be) || be.Command != command {
				t.Fatalf("err = %v, want a BrowserError naming %q", err, command)
			}
		})
	}
}

// TestSignInTimeout: a browser that opens nothing leaves the sign-in
// waiting until Options.SignInTimeout.
func TestSignInTimeout(t *testing.T) {
	as := newFakeAS(t)
	a := newSignIn(as, oauth.Options{Browser: oauth.BrowserFunc(func(context.Context, string) error { return nil }), SignInTimeout: time.Millisecond})
	if err := a.Authorize(context.Background(), challenge401); !errors.Is(err, oauth.ErrSignInTimeout) {
		t.Fatalf("err = %v, want ErrSignInTimeout", err)
	}
}

// TestRefusalWithoutChallenge: a 403 without a Bearer challenge (a WAF,
// a proxy) starts no discovery nor registration; a 401 without one is
// warned about before discovery is tried (#11.10).
func TestRefusalWithoutChallenge(t *testing.T) {
	as := newFakeAS(t)
	a := newSignIn(as, oauth.Options{Browser: newPageBrowser()})
	if err := a.Authorize(t.Context(), oauth.ParseChallenge(http.StatusForbidden, nil)); !errors.Is(err, oauth.ErrNoChallenge) {
		t.Fatalf("403 without challenge: err = %v, want ErrNoChallenge", err)
	}
	if p := as.requested(); len(p) != 0 {
		t.Fatalf("403 without challenge sent requests to the origin: %v", p)
	}

	var order []string
	var mu sync.Mutex
	a = newSignIn(as, oauth.Options{Browser: newPageBrowser(), OnWarning: func(w oauth.Warning) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, string(w.Code)+" after "+strings.Join(as.requested(), ","))
	}})
	if err := a.Authorize(t.Context(), oauth.ParseChallenge(http.StatusUnauthorized, []string{`Basic realm="corp"`})); err != nil {
		t.Fatalf("401 without a Bearer challenge: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 1 || order[0] != string(oauth.WarnNoChallenge)+" after " {
		t.Errorf("warnings %q, want one no-challenge warning before any request", order)
	}
}
