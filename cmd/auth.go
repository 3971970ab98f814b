package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
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
// request carries the stored token (refreshed when due), and the sign-in
// runs when the server answers 401 or 403. Tokens live in store; every
// secret the flow meets is masked in the event log; the flow's own HTTP
// exchanges are recorded (headers masked) so the inspector shows them.
// base bounds the sign-ins (the run's context: interrupting the program
// stops a sign-in in progress). Stdio connections are left alone.
//
// Where the sign-in runs: a refusal of the handshake is passed up, and
// connect (below) signs in outside the session's connection timeout — a
// person in a browser takes longer than a server should — then connects
// again. Once connected, a refusal (a step-up 403, an expired grant on a
// restarted server) is handled on the wire by authConn, which signs in and
// resends the same bytes: the server refused before processing anything;
// the request's timeout is paused meanwhile (wire.SendOptions.Hold).
func (c *connection) enableOAuth(base context.Context, store secrets.Store, log *events.Log, red *wire.Redactor, opts oauth.Options) {
	if c.http == nil {
		return
	}
	settings := oauthSettings(c)
	kctx, kcancel := context.WithTimeout(base, 10*time.Second)
	idpSecret := keyringSecrets(kctx, store, c.name, &settings)
	kcancel()
	if settings.EnterpriseManaged && opts.Enterprise == nil {
		e, err := enterpriseFrom(settings, idpSecret, os.ReadFile, os.Getenv)
		opts.Enterprise = e
		if red != nil && e.IDToken != "" {
			red.Add(e.IDToken)
		}
		if err != nil && log != nil {
			log.Append(events.Event{Kind: events.KindWarning, Conn: c.name, Text: "sign-in: " + err.Error()})
		}
	}
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
	if jwt, ok, err := workloadJWT(settings, os.ReadFile, os.Getenv); ok {
		opts.Grant, opts.Assertion = oauth.GrantJWTBearer, jwt
		if red != nil && jwt != "" {
			red.Add(jwt)
		}
		if err != nil && log != nil {
			// the sign-in then fails saying it has no workload JWT; this says why
			log.Append(events.Event{Kind: events.KindWarning, Conn: c.name, Text: "sign-in: " + err.Error()})
		}
	}
	c.auth = oauth.New(c.name, c.http.URL, settings, store, &opts)
	c.authBase = base
	c.http.Prepare = c.auth.Prepare
	dial := c.dial
	c.dial = func(ctx context.Context) (wire.Conn, error) {
		conn, err := dial(ctx)
		if err != nil {
			return nil, err
		}
		return &authConn{Conn: conn, owner: c, redial: dial}, nil
	}
}

// signIn runs the authorizer for a refusal of a request sent at token
// generation gen (refusals that arrive together sign in once), bounded by
// signInTimeout and told to onAuthorizing (the window shows the OAuth
// state meanwhile).
func (c *connection) signIn(refusal error, gen uint64) error {
	if c.onAuthorizing != nil {
		c.onAuthorizing(true)
		defer c.onAuthorizing(false)
	}
	actx, cancel := context.WithTimeout(c.authBase, signInTimeout)
	defer cancel()
	return c.auth.HandleUnauthorizedSince(actx, refusal, gen)
}

// connect connects the session to the connection's server, signing in
// between attempts when the server asks for authorization (at most
// maxAuthorize times).
func (c *connection) connect(ctx context.Context, sess interface{ Connect(context.Context) error }) error {
	for i := 0; ; i++ {
		gen := c.generation()
		err := sess.Connect(ctx)
		if err == nil {
			c.connected.Store(true)
			return nil
		}
		if c.auth == nil || i == maxAuthorize || !errors.Is(err, wire.ErrUnauthorized) {
			return err
		}
		if herr := c.signIn(err, gen); herr != nil {
			return errors.Join(err, herr)
		}
	}
}

// generation is the authorizer's token generation (0 without OAuth).
func (c *connection) generation() uint64 {
	if c.auth == nil {
		return 0
	}
	return c.auth.Generation()
}

// signInTimeout bounds one sign-in in the browser.
const signInTimeout = 5 * time.Minute

// authConn handles refusals on the wire once the connection has been
// established (see enableOAuth): it signs in and resends.
type authConn struct {
	wire.Conn
	owner  *connection
	redial func(ctx context.Context) (wire.Conn, error)
}

// Start implements wire.Conn. A legacy SSE server asks for authorization
// on the GET that opens its stream; after the first connection (a
// reconnect) sign in here and start a fresh conn (a conn starts once).
func (c *authConn) Start(ctx context.Context, h wire.Handler) error {
	for i := 0; ; i++ {
		gen := c.owner.generation()
		err := c.Conn.Start(ctx, h)
		if err == nil || !c.owner.connected.Load() || i == maxAuthorize || !errors.Is(err, wire.ErrUnauthorized) {
			return err
		}
		if herr := c.owner.signIn(err, gen); herr != nil {
			return errors.Join(err, herr)
		}
		fresh, derr := c.redial(ctx)
		if derr != nil {
			return derr
		}
		c.Conn = fresh
	}
}

// Send implements wire.Conn.
func (c *authConn) Send(ctx context.Context, msg []byte, opts *wire.SendOptions) error {
	for i := 0; ; i++ {
		gen := c.owner.generation()
		err := c.Conn.Send(ctx, msg, opts)
		if err == nil || !c.owner.connected.Load() || i == maxAuthorize || !errors.Is(err, wire.ErrUnauthorized) {
			return err
		}
		// The request's timeout does not run while a person signs in.
		resume := wire.HoldOf(opts)
		herr := c.owner.signIn(err, gen)
		resume()
		if herr != nil {
			return errors.Join(err, herr)
		}
	}
}

// commandBrowser opens the authorization URL with a user-given command
// (--browser CMD): CMD URL, or CMD with %s replaced by the URL; CMD is
// split into words as a shell would.
func commandBrowser(command string, stderr io.Writer) oauth.Browser {
	return oauth.SystemBrowser{Command: command, Output: stderr}
}

// cliBrowser tells the user what is happening, then opens the page; a
// browser command that fails says how to choose another.
func cliBrowser(inner oauth.Browser, stderr io.Writer) oauth.Browser {
	return oauth.BrowserFunc(func(ctx context.Context, url string) error {
		fmt.Fprintf(stderr, "The server asks you to sign in. Opening your browser at:\n  %s\n", url)
		err := inner.Open(ctx, url)
		if errors.Is(err, oauth.ErrBrowser) {
			return fmt.Errorf("%w (set --browser or $BROWSER to a command that opens a web page)", err)
		}
		return err
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
		if w.Code == oauth.WarnNoChallenge {
			fmt.Fprintf(stderr, "warning: %s answered 401 without an OAuth challenge (WWW-Authenticate: Bearer), as a proxy or firewall might; trying OAuth discovery at its origin anyway\n", w.Detail)
			return
		}
		fmt.Fprintf(stderr, "warning: sign-in: %s: %s\n", w.Code, w.Detail)
	}
}

// oauthSettings returns the OAuth settings of the connection's catalog
// entry (the zero value when it has none).
// workloadJWT reads the workload JWT of workload identity federation from
// where oauth.assertionFile or oauth.assertionEnv says it is (the file wins).
// ok is false when neither is set; err says why no JWT could be read.
func workloadJWT(o catalog.OAuth, readFile func(string) ([]byte, error), getenv func(string) string) (jwt string, ok bool, err error) {
	switch {
	case o.AssertionFile != "":
		b, err := readFile(o.AssertionFile)
		if err != nil {
			return "", true, fmt.Errorf("cannot read the workload JWT from oauth.assertionFile: %w", err)
		}
		if jwt = strings.TrimSpace(string(b)); jwt == "" {
			return "", true, fmt.Errorf("oauth.assertionFile %s is empty: it should hold the workload JWT", o.AssertionFile)
		}
		return jwt, true, nil
	case o.AssertionEnv != "":
		if jwt = strings.TrimSpace(getenv(o.AssertionEnv)); jwt == "" {
			return "", true, fmt.Errorf("the environment variable %s (oauth.assertionEnv) is not set or empty: it should hold the workload JWT", o.AssertionEnv)
		}
		return jwt, true, nil
	}
	return "", false, nil
}

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

// Abandon forwards to the conn underneath (see wire.Abandoner), which then
// releases the response stream of a request the session gave up on.
func (c *authConn) Abandon(id string) {
	if a, ok := c.Conn.(wire.Abandoner); ok {
		a.Abandon(id)
	}
}
