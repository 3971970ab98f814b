package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// maxAuthorize bounds the sign-ins one operation may trigger (a 401, then
// a step-up 403, then one more).
const maxAuthorize = 3

// enableOAuth gives an http/sse connection an OAuth authorizer: every
// request carries the stored token (refreshed when due), and withAuth runs
// the sign-in when the server answers 401 or 403. Tokens live in store;
// every secret the flow meets is masked in the event log; the flow's own
// HTTP exchanges are recorded (headers masked) so the inspector shows them.
// Stdio connections are left alone.
// base bounds the sign-ins (the run's context: interrupting the program
// stops a sign-in in progress).
func (c *connection) enableOAuth(base context.Context, store secrets.Store, log *events.Log, red *wire.Redactor, opts oauth.Options) {
	if c.http == nil {
		return
	}
	settings := oauthSettings(c)
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 30 * time.Second, Transport: &wire.Tap{Rec: log, Conn: c.name, Redactor: red}}
	}
	if opts.OnSecret == nil && red != nil {
		opts.OnSecret = func(secret string) { red.Add(secret) }
	}
	if opts.ClientName == "" {
		opts.ClientName = "Spyglass"
	}
	if opts.SoftwareVersion == "" {
		opts.SoftwareVersion = version
	}
	c.auth = oauth.New(c.name, c.http.URL, settings, store, &opts)
	c.http.Prepare = c.auth.Prepare
	dial := c.dial
	c.dial = func(ctx context.Context) (wire.Conn, error) {
		conn, err := dial(ctx)
		if err != nil {
			return nil, err
		}
		return &authConn{Conn: conn, auth: c.auth, base: base, redial: dial}, nil
	}
}

// authConn resends a message that an http/sse server refused with 401 or
// 403 after the authorizer signed in (or stepped up): the refusal came
// before the server processed anything, so the same bytes go again. Being
// on the wire, it covers the handshake and every request of every surface
// alike. The sign-in runs under base (not the request's context, whose
// timeout is for the server, not for a person in a browser), bounded by
// signInTimeout.
type authConn struct {
	wire.Conn
	auth   *oauth.Authorizer
	base   context.Context
	redial func(ctx context.Context) (wire.Conn, error)
}

// Start implements wire.Conn. A legacy SSE server asks for authorization
// on the GET that opens its stream: sign in, then start a fresh conn (a
// conn starts once).
func (c *authConn) Start(ctx context.Context, h wire.Handler) error {
	for i := 0; ; i++ {
		err := c.Conn.Start(ctx, h)
		if err == nil || i == maxAuthorize || !errors.Is(err, wire.ErrUnauthorized) {
			return err
		}
		if herr := c.signIn(err); herr != nil {
			return errors.Join(err, herr)
		}
		fresh, derr := c.redial(ctx)
		if derr != nil {
			return derr
		}
		c.Conn = fresh
	}
}

// signIn runs the authorizer for a refusal, bounded by signInTimeout.
func (c *authConn) signIn(refusal error) error {
	actx, cancel := context.WithTimeout(c.base, signInTimeout)
	defer cancel()
	return c.auth.HandleUnauthorized(actx, refusal)
}

// signInTimeout bounds one sign-in in the browser.
const signInTimeout = 5 * time.Minute

// Send implements wire.Conn.
func (c *authConn) Send(ctx context.Context, msg []byte, opts *wire.SendOptions) error {
	for i := 0; ; i++ {
		err := c.Conn.Send(ctx, msg, opts)
		if err == nil || i == maxAuthorize || !errors.Is(err, wire.ErrUnauthorized) {
			return err
		}
		if herr := c.signIn(err); herr != nil {
			return errors.Join(err, herr)
		}
	}
}

// commandBrowser opens the authorization URL with a user-given command
// (--browser CMD): CMD URL, or CMD with %s replaced by the URL.
func commandBrowser(command string, stderr io.Writer) oauth.Browser {
	return oauth.BrowserFunc(func(ctx context.Context, url string) error {
		fields := strings.Fields(command)
		if len(fields) == 0 {
			return fmt.Errorf("%w: empty --browser command", oauth.ErrBrowser)
		}
		replaced := false
		for i, f := range fields {
			if strings.Contains(f, "%s") {
				fields[i] = strings.ReplaceAll(f, "%s", url)
				replaced = true
			}
		}
		if !replaced {
			fields = append(fields, url)
		}
		cmd := exec.Command(fields[0], fields[1:]...)
		cmd.Stdout, cmd.Stderr = stderr, stderr
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("%w: %v", oauth.ErrBrowser, err)
		}
		go cmd.Wait()
		return nil
	})
}

// cliBrowser tells the user what is happening, then opens the page.
func cliBrowser(inner oauth.Browser, stderr io.Writer) oauth.Browser {
	return oauth.BrowserFunc(func(ctx context.Context, url string) error {
		fmt.Fprintf(stderr, "The server asks you to sign in. Opening your browser at:\n  %s\n", url)
		return inner.Open(ctx, url)
	})
}

// cliStore is the secret store of --cli: the OS keyring. On Linux and
// the BSDs the keyring is reached over the D-Bus session bus; without one
// (a script, a CI job, an ssh session) go-keyring would try to launch a
// bus of its own, so the tokens are kept in memory for this run instead,
// and the user is told once, when a sign-in stores something.
func cliStore(goos string, getenv func(string) string, stderr io.Writer) secrets.Store {
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		if getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
			return &runOnlyStore{Memory: secrets.NewMemory(), stderr: stderr}
		}
	}
	return secrets.NewKeyring(nil)
}

// runOnlyStore is an in-memory store that says, on the first write, that
// nothing outlives the run.
type runOnlyStore struct {
	*secrets.Memory
	stderr io.Writer
	once   sync.Once
}

// Set implements secrets.Store.
func (s *runOnlyStore) Set(ctx context.Context, key, value string) error {
	s.once.Do(func() {
		fmt.Fprintln(s.stderr, "note: no keyring here (no D-Bus session bus): the sign-in lasts for this run only")
	})
	return s.Memory.Set(ctx, key, value)
}

// oauthWarning words an OAuth warning for stderr.
func oauthWarning(stderr io.Writer) func(oauth.Warning) {
	return func(w oauth.Warning) {
		fmt.Fprintf(stderr, "warning: sign-in: %s: %s\n", w.Code, w.Detail)
	}
}

// oauthSettings returns the OAuth settings of the connection's catalog
// entry (the zero value when it has none).
func oauthSettings(c *connection) catalog.OAuth {
	if c.server.OAuth == nil {
		return catalog.OAuth{}
	}
	return *c.server.OAuth
}

// SetProtocolVersion forwards to the HTTP conn underneath, which sends the
// negotiated version on every later request.
func (c *authConn) SetProtocolVersion(v string) {
	if pv, ok := c.Conn.(interface{ SetProtocolVersion(string) }); ok {
		pv.SetProtocolVersion(v)
	}
}
