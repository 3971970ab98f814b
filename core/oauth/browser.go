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

	"github.com/kballard/go-shellquote"
)

// Browser opens the authorization URL for the user. The Authorizer calls
// Open while it waits for the redirect: an error ends the sign-in at once,
// a nil return leaves it waiting for the redirect, and ctx ends once the
// redirect arrived or the sign-in gave up.
type Browser interface {
	Open(ctx context.Context, url string) error
}

// BrowserFunc adapts a function to Browser.
type BrowserFunc func(ctx context.Context, url string) error

// Open calls f.
func (f BrowserFunc) Open(ctx context.Context, url string) error { return f(ctx, url) }

// SystemBrowser opens URLs in the user's browser: with Command when set
// (the --browser flag), else with $BROWSER, a ':'-separated list of
// commands tried in turn, else with xdg-open (Linux, BSD), open (macOS),
// rundll32 (Windows). A command is split into words as a shell would
// (quotes and backslashes honoured); %s in a word is replaced by the URL,
// or the URL is appended when no word has %s. The OAuth sign-in and
// URL-mode elicitation both open pages through it.
type SystemBrowser struct {
	// Command replaces $BROWSER when set.
	Command string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Output receives the command's stdout and stderr; nil discards them.
	Output io.Writer
}

// BrowserError is a browser command that could not be started or that
// failed. It matches ErrBrowser.
type BrowserError struct {
	Command string // the command as configured, without the URL
	Err     error  // why: not found, exit status, a quoting mistake
}

// Error names the command and the reason.
func (e *BrowserError) Error() string {
	return fmt.Sprintf("oauth: cannot open the browser with %q: %v", e.Command, e.Err)
}

// Unwrap returns the reason.
func (e *BrowserError) Unwrap() error { return e.Err }

// Is matches ErrBrowser.
func (e *BrowserError) Is(target error) bool { return target == ErrBrowser }

// Open runs the commands in turn until one hands the URL over: it waits
// for the command to exit, so a command that is not found or exits with
// a failure is reported (a *BrowserError); the next one is tried then.
// When ctx ends first, the command keeps running and Open returns ctx's
// error (a browser started afresh may run for as long as it is open).
func (b SystemBrowser) Open(ctx context.Context, u string) error { return b.run(ctx, u, true) }

// Start runs the first command that starts and does not wait for it (for
// a caller that cannot wait, such as a button on the UI thread); a
// failure after the start goes unseen.
func (b SystemBrowser) Start(u string) error { return b.run(context.Background(), u, false) }

func (b SystemBrowser) run(ctx context.Context, u string, wait bool) error {
	getenv := b.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	cmds, err := browserCommands(b.Command, getenv("BROWSER"), runtime.GOOS, u)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range cmds {
		cmd := exec.Command(c.argv[0], c.argv[1:]...)
		cmd.Stdout, cmd.Stderr = b.Output, b.Output
		if err := cmd.Start(); err != nil {
			errs = append(errs, &BrowserError{Command: c.source, Err: err})
			continue
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		if !wait {
			return nil
		}
		select {
		case err := <-done:
			if err == nil {
				return nil
			}
			errs = append(errs, &BrowserError{Command: c.source, Err: err})
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return errors.Join(errs...)
}

// browserCommand is one command line to try, with the text it came from.
type browserCommand struct {
	source string
	argv   []string
}

// browserCommands lists the command lines to try for url, given the
// --browser command (or ""), $BROWSER and the operating system. A command
// with unbalanced quotes is an error (a *BrowserError).
func browserCommands(command, browserEnv, goos, url string) ([]browserCommand, error) {
	sources := []string{command}
	if strings.TrimSpace(command) == "" {
		sources = strings.Split(browserEnv, ":")
	}
	var out []browserCommand
	for _, src := range sources {
		words, err := shellquote.Split(src)
		if err != nil {
			return nil, &BrowserError{Command: src, Err: err}
		}
		if len(words) == 0 {
			continue
		}
		replaced := false
		for i, w := range words {
			if strings.Contains(w, "%s") {
				words[i] = strings.ReplaceAll(w, "%s", url)
				replaced = true
			}
		}
		if !replaced {
			words = append(words, url)
		}
		out = append(out, browserCommand{source: src, argv: words})
	}
	if len(out) > 0 {
		return out, nil
	}
	switch goos {
	case "darwin":
		return []browserCommand{{"open", []string{"open", url}}}, nil
	case "windows":
		return []browserCommand{{"rundll32", []string{"rundll32", "url.dll,FileProtocolHandler", url}}}, nil
	default:
		return []browserCommand{{"xdg-open", []string{"xdg-open", url}}}, nil
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
