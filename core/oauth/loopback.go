package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CallbackPath is the path of the loopback redirect URI.
const CallbackPath = "/callback"

// receiver is the loopback redirect receiver (RFC 8252 §7.3): an HTTP
// server on 127.0.0.1 that waits for the one authorization response and
// answers the browser once the sign-in's outcome is known.
type receiver struct {
	ln          net.Listener
	srv         *http.Server
	redirectURI string
	once        sync.Once
	ch          chan url.Values
	verdict     chan error // the sign-in's outcome, for the page
	finishOnce  sync.Once

	mu    sync.Mutex
	state string // the state of the request in flight; "" accepts any
}

// expect makes the receiver take only a response carrying state: a stray
// or hostile request to the loopback port (a web page can send one) must
// not end the sign-in before the real redirect arrives.
func (r *receiver) expect(state string) {
	r.mu.Lock()
	r.state = state
	r.mu.Unlock()
}

// finish tells the browser's page how the sign-in ended (nil: signed in).
// Only the first call counts.
func (r *receiver) finish(err error) {
	r.finishOnce.Do(func() { r.verdict <- err })
}

// listenLoopback listens on 127.0.0.1:port; port 0, or a port in use,
// means an ephemeral port.
func listenLoopback(port int) (*receiver, error) {
	var ln net.Listener
	var err error
	if port > 0 {
		ln, err = net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	}
	if ln == nil {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, fmt.Errorf("oauth: loopback redirect receiver: %w", err)
	}
	r := &receiver{
		ln:          ln,
		redirectURI: "http://" + ln.Addr().String() + CallbackPath,
		ch:          make(chan url.Values, 1),
		verdict:     make(chan error, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc(CallbackPath, r.serve)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// serve takes the first request that carries a code or an error.
func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	if q.Get("code") == "" && q.Get("error") == "" {
		http.Error(w, "Not an authorization response.", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	want := r.state
	r.mu.Unlock()
	if want != "" && q.Get("state") != want {
		http.Error(w, "This response does not belong to the sign-in in progress.", http.StatusBadRequest)
		return
	}
	delivered := false
	r.once.Do(func() {
		r.ch <- q
		delivered = true
	})
	w.Header().Set("Cache-Control", "no-store")
	if !delivered {
		http.Error(w, "This sign-in was already completed.", http.StatusConflict)
		return
	}
	var verdict error
	select {
	case verdict = <-r.verdict:
	case <-req.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if verdict != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, page("Sign-in failed", failureText(verdict)+" You can close this tab; Spyglass shows the details."))
		return
	}
	fmt.Fprint(w, page("Signed in", "You can close this tab and return to Spyglass."))
}

// failureText says on the loopback page why the sign-in failed.
func failureText(err error) string {
	var ae *AuthorizationError
	var ee *EndpointError
	switch {
	case errors.Is(err, ErrIssuerMismatch):
		return "The answer did not come from the authorization server Spyglass signed in with (the issuer check failed), so it was refused."
	case errors.As(err, &ae):
		return "The authorization server refused the sign-in: " + html.EscapeString(strings.TrimPrefix(ae.Error(), "oauth: authorization denied: ")) + "."
	case errors.As(err, &ee):
		return "The authorization server did not issue a token: " + html.EscapeString(strings.TrimPrefix(ee.Error(), "oauth: ")) + "."
	}
	return "Spyglass could not complete the sign-in."
}

// wait returns the authorization response. It gives up when ctx ends or
// when opened (the browser's Open) delivers an error first.
func (r *receiver) wait(ctx context.Context, opened <-chan error) (url.Values, error) {
	for {
		select {
		case q := <-r.ch:
			return q, nil
		case err := <-opened:
			opened = nil
			if err == nil || ctx.Err() != nil {
				continue
			}
			select {
			case q := <-r.ch: // the response came in the meantime
				return q, nil
			default:
			}
			if !errors.Is(err, ErrBrowser) {
				err = fmt.Errorf("%w: %w", ErrBrowser, err)
			}
			return nil, fmt.Errorf("oauth: authorize: %w", err)
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), ErrSignInTimeout) {
				return nil, fmt.Errorf("oauth: waiting for the authorization response: %w", context.Cause(ctx))
			}
			return nil, fmt.Errorf("oauth: waiting for the authorization response: %w", ctx.Err())
		}
	}
}

func (r *receiver) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := r.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = r.srv.Close()
	}
}

func page(title, text string) string {
	return `<!doctype html><html><head><meta charset="utf-8"><title>` + title +
		`</title></head><body style="font-family:sans-serif;margin:3em"><h1>` + title +
		`</h1><p>` + text + `</p></body></html>`
}

// portOf returns the port of a loopback redirect URI, or 0.
func portOf(redirectURI string) int {
	u, err := url.Parse(redirectURI)
	if err != nil {
		return 0
	}
	p, _ := strconv.Atoi(u.Port())
	return p
}
