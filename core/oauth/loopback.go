package oauth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// CallbackPath is the path of the loopback redirect URI.
const CallbackPath = "/callback"

// receiver is the loopback redirect receiver (RFC 8252 §7.3): an HTTP
// server on 127.0.0.1 that waits for the one authorization response.
type receiver struct {
	ln          net.Listener
	srv         *http.Server
	redirectURI string
	once        sync.Once
	ch          chan url.Values

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
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if !delivered {
		http.Error(w, "This sign-in was already completed.", http.StatusConflict)
		return
	}
	if q.Get("error") != "" {
		fmt.Fprint(w, page("Sign-in did not complete", "Spyglass received an error from the authorization server. You can close this tab and return to Spyglass."))
		return
	}
	fmt.Fprint(w, page("Signed in", "You can close this tab and return to Spyglass."))
}

// wait returns the authorization response, or ctx's error.
func (r *receiver) wait(ctx context.Context) (url.Values, error) {
	select {
	case q := <-r.ch:
		return q, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("oauth: waiting for the authorization response: %w", ctx.Err())
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
