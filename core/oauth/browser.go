package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Browser opens the authorization URL for the user. It returns once the
// URL is handed over; the Authorizer then waits for the redirect.
type Browser interface {
	Open(ctx context.Context, url string) error
}

// BrowserFunc adapts a function to Browser.
type BrowserFunc func(ctx context.Context, url string) error

// Open calls f.
func (f BrowserFunc) Open(ctx context.Context, url string) error { return f(ctx, url) }

// SystemBrowser opens URLs in the user's browser. $BROWSER, when set, is
// honoured: a ':'-separated list of commands tried in turn, each with %s
// replaced by the URL (or the URL appended when there is no %s). Without
// it: xdg-open (Linux, BSD), open (macOS), rundll32 (Windows).
type SystemBrowser struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
}

// Open starts the browser and does not wait for it to exit.
func (b SystemBrowser) Open(ctx context.Context, u string) error {
	getenv := b.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var errs []error
	for _, argv := range BrowserCommands(getenv("BROWSER"), runtime.GOOS, u) {
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Start(); err != nil {
			errs = append(errs, err)
			continue
		}
		go func() { _ = cmd.Wait() }()
		return nil
	}
	return fmt.Errorf("%w: %w", ErrBrowser, errors.Join(errs...))
}

// BrowserCommands lists the command lines SystemBrowser tries for url,
// given $BROWSER and the operating system.
func BrowserCommands(browserEnv, goos, url string) [][]string {
	var out [][]string
	for _, c := range strings.Split(browserEnv, ":") {
		f := strings.Fields(c)
		if len(f) == 0 {
			continue
		}
		replaced := false
		for i, a := range f {
			if strings.Contains(a, "%s") {
				f[i] = strings.ReplaceAll(a, "%s", url)
				replaced = true
			}
		}
		if !replaced {
			f = append(f, url)
		}
		out = append(out, f)
	}
	if len(out) > 0 {
		return out
	}
	switch goos {
	case "darwin":
		return [][]string{{"open", url}}
	case "windows":
		return [][]string{{"rundll32", "url.dll,FileProtocolHandler", url}}
	default:
		return [][]string{{"xdg-open", url}}
	}
}

// HTTPBrowser is a headless stand-in for the user's browser: it GETs the
// URL and follows redirects (with a cookie jar) until the loopback
// receiver answers. It suits authorization servers that approve without
// a person (tests, the conformance suite, automation).
type HTTPBrowser struct {
	// Client does the requests; nil means a client with a fresh cookie
	// jar that follows up to 20 redirects.
	Client *http.Client
}

// Open fetches url and follows its redirects.
func (b HTTPBrowser) Open(ctx context.Context, u string) error {
	c := b.Client
	if c == nil {
		jar, _ := cookiejar.New(nil)
		c = &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 20 {
				return errors.New("too many redirects")
			}
			return nil
		}}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBrowser, err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBrowser, err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
	return nil
}
