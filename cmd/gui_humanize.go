package cmd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// humanError is an engine error worded for a person: the window shows
// Headline and keeps Detail (the whole chain) behind "Show full error".
// It implements ui.PlainError; errors.Is/As still see the cause.
type humanError struct {
	err  error
	text string // the headline, cause first
	// kind is the error's section in docs/TROUBLESHOOTING.md (its
	// anchor), "" when it has none.
	kind string
	// permanent: another attempt would fail the same way (a command
	// that does not exist, HTTP 404), so the window does not retry.
	permanent bool
}

// Error implements error: the headline.
func (e *humanError) Error() string { return e.text }

// Unwrap implements error.
func (e *humanError) Unwrap() error { return e.err }

// Headline implements ui.PlainError.
func (e *humanError) Headline() string { return sentence(e.text) }

// Detail implements ui.PlainError: the technical chain.
func (e *humanError) Detail() string { return e.err.Error() }

// Anchor implements ui.Troubleshooter: the section of
// docs/TROUBLESHOOTING.md about this kind of error.
func (e *humanError) Anchor() string { return e.kind }

// Permanent implements ui.PermanentError.
func (e *humanError) Permanent() bool { return e.permanent }

// worded returns a humanError for err with text as its headline and the
// kind and permanence err has.
func worded(err error, text string) *humanError {
	return &humanError{err: err, text: text, kind: errorKind(err), permanent: deterministic(err)}
}

// humanize words err for the window (nil and cancellations stay as they
// are). The words are the CLI's describeError, with the window's own
// phrasing where the CLI's names a flag or the chain would lead.
func humanize(err error) error {
	var h *humanError
	if errors.Is(err, session.ErrInputCancelled) && !errors.As(err, &h) {
		return &humanError{err: err, text: "You cancelled the call in the request queue while the server waited for your input; it was not sent again."}
	}
	if err == nil || errors.Is(err, context.Canceled) || errors.As(err, &h) {
		return err
	}
	return worded(err, guiHeadline(err))
}

// errorHeadline is err as the window words it, the words the error event
// recording a failed connection says first (session.Options.WordError;
// the window's connections word theirs as their card does, guiConn.word).
func errorHeadline(err error) string { return headlineOf(humanize(err)) }

// headlineOf is the headline of an error humanize or worded made ("" for
// any other).
func headlineOf(err error) string {
	var h *humanError
	if errors.As(err, &h) {
		return h.Headline()
	}
	return ""
}

// Humanize implements ui.Humanizer: the window's own operations (a
// catalog save, a trace file, the keyring) are worded as the engine's.
func (b *guiBackend) Humanize(err error) error { return humanize(err) }

// troubleshootingKinds are the anchors errorKind returns: each is a
// heading of docs/TROUBLESHOOTING.md (a test reads the file).
var troubleshootingKinds = []string{
	"command-not-found", "could-not-start", "the-server-exited", "http-error", "unreachable",
	"tls-certificate", "timed-out", "no-response", "sign-in", "protocol-version", "invalid-result",
	"the-server-reported-an-error",
}

// errorKind is the section of docs/TROUBLESHOOTING.md about err ("" when
// none fits).
func errorKind(err error) string {
	var (
		start   *wire.StartError
		exit    *wire.ExitError
		httpErr *wire.HTTPError
		rpc     *session.RPCError
		timeout *session.TimeoutError
		legacy  *session.LegacyServerError
		authz   *oauth.AuthorizationError
	)
	switch {
	case errors.As(err, &legacy), errors.Is(err, session.ErrUnsupportedVersion):
		return "protocol-version"
	case errors.Is(err, wire.ErrCommandNotFound):
		return "command-not-found"
	case errors.As(err, &start):
		return "could-not-start"
	case errors.As(err, &exit):
		return "the-server-exited"
	case errors.Is(err, wire.ErrUnauthorized), errors.As(err, &authz), errors.Is(err, oauth.ErrNotAuthorized),
		errors.Is(err, oauth.ErrSignInTimeout), errors.Is(err, oauth.ErrBrowser), errors.Is(err, oauth.ErrInsufficientScope):
		return "sign-in"
	case errors.As(err, &httpErr):
		return "http-error"
	case tlsProblem(err):
		return "tls-certificate"
	case errors.Is(err, wire.ErrUnreachable):
		return "unreachable"
	case errors.As(err, &timeout), errors.Is(err, session.ErrTimeout):
		return "timed-out"
	case errors.Is(err, session.ErrNoResponse), errors.Is(err, session.ErrConnectionClosed),
		errors.Is(err, wire.ErrResponseLost), errors.Is(err, wire.ErrBadBody):
		return "no-response"
	case errors.Is(err, session.ErrDecode), errors.Is(err, session.ErrInvalidMessage):
		return "invalid-result"
	case errors.As(err, &rpc):
		return "the-server-reported-an-error"
	}
	return ""
}

// deterministic reports whether another attempt would fail the same way:
// a command that cannot be started (not found, not executable), an HTTP
// 4xx other than 408 and 429 (a 401 or 403 that a sign-in did not get
// past included), a host name that does not exist, a TLS certificate
// that is not trusted, a protocol version the server refuses. A refused
// connection (a server still starting), a 5xx, a timeout and a crash
// are worth retrying.
func deterministic(err error) bool {
	var (
		start   *wire.StartError
		httpErr *wire.HTTPError
		dns     *net.DNSError
		legacy  *session.LegacyServerError
	)
	switch {
	case errors.As(err, &start):
		return true
	case errors.As(err, &httpErr):
		s := httpErr.Status
		return s >= 400 && s < 500 && s != http.StatusRequestTimeout && s != http.StatusTooManyRequests
	case errors.As(err, &dns):
		return dns.IsNotFound
	case tlsProblem(err):
		return true
	case errors.As(err, &legacy), errors.Is(err, session.ErrUnsupportedVersion), errors.Is(err, wire.ErrBadBody):
		return true
	}
	return false
}

// tlsProblem reports whether err is a TLS failure: a certificate that is
// not trusted or not for this host, or a TLS handshake with a server that
// does not speak TLS.
func tlsProblem(err error) bool {
	var (
		unknown  x509.UnknownAuthorityError
		host     x509.HostnameError
		invalid  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
		header   tls.RecordHeaderError
		alertErr tls.AlertError
	)
	return errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) ||
		errors.As(err, &verify) || errors.As(err, &header) || errors.As(err, &alertErr)
}

// guiHeadline is the window's cause-first sentence for err.
func guiHeadline(err error) string {
	var (
		rpc     *session.RPCError
		start   *wire.StartError
		exit    *wire.ExitError
		timeout *session.TimeoutError
		legacy  *session.LegacyServerError
		dns     *net.DNSError
		path    *fs.PathError
	)
	switch {
	case errors.As(err, &legacy), errors.Is(err, wire.ErrCommandNotFound):
		// describeCause's words below
	case errors.As(err, &rpc):
		msg := strings.TrimSpace(rpc.Message)
		if msg == "" {
			msg = "(no message)"
		}
		return fmt.Sprintf("The server reported an error: %s (JSON-RPC %d)", msg, rpc.Code)
	case errors.As(err, &start) && errors.Is(err, os.ErrPermission):
		return fmt.Sprintf("Permission denied: %s is not executable (chmod +x it, or start it through its interpreter)", start.Command)
	case errors.As(err, &start):
		return fmt.Sprintf("Could not start %s: %v", start.Command, start.Err)
	case errors.As(err, &exit):
		how := fmt.Sprintf("exited with status %d", exit.Code)
		if exit.Signal != 0 {
			how = "was killed by signal " + exit.Signal.String()
		}
		// "before answering" only where a request of ours was waiting
		// (a call, the handshake): a server that went away while idle
		// left nothing unanswered
		var closed *session.ClosedError
		msg := "The server process " + how + "."
		if errors.As(err, &closed) {
			msg = "The server process " + how + " before answering."
		}
		switch said, isErr := tellingLine(exit.Stderr); {
		case isErr: // the cause: first, where a card's one line shows it
			msg = said + " — t" + msg[1:]
		case said != "":
			msg += " Its last words on stderr: " + said
		}
		return msg
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Sprintf("No such host: %s does not resolve (check the URL's host name)", dns.Name)
	case tlsProblem(err):
		return "TLS failed: " + tlsCause(err)
	case errors.Is(err, wire.ErrUnreachable):
		return "Could not reach the server: is it running, and is the URL right?"
	case errors.As(err, &timeout):
		return fmt.Sprintf("No answer after %s: the request timed out (Spyglass sent notifications/cancelled).", timeout.After.Round(1e6))
	case errors.As(err, &path):
		// a file of the window's own: the cause, then which file
		return fmt.Sprintf("%s (%s)", sentence(path.Err.Error()), path.Path)
	}
	msg := describeError(err)
	if msg == err.Error() { // no words for it: at least drop the chain's prefixes
		msg = stripPrefixes(msg)
	}
	return sentence(msg)
}

// stripPrefixes drops the package and operation prefixes of a wrapped
// error ("session: tools/call: boom" → "boom").
func stripPrefixes(s string) string {
	for {
		i := strings.Index(s, ": ")
		if i < 0 || strings.ContainsAny(s[:i], " \t") {
			return s
		}
		s = s[i+2:]
	}
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tellingLine is the line of a program's output that says why it failed:
// the last one that starts as an error does ("Error: connect
// ECONNREFUSED …", "ValueError: …", "panic: …"), else the last that
// mentions one (isErr), else the last line. Stack frames, source
// pointers ("    ^"), the runtime's version line ("Node.js v22.1.0") and
// exit lines are never it, and a log line's prefix of process, time and
// source ("[123:123:1203/182507.945739:ERROR:zygote_host.cc:103] ",
// "2026/12/03 18:49:54 ") is dropped. Node's crash ended "at TCPConnectWrap.afterConnect …" and
// "Node.js v22…", which the window quoted as the server's last words.
func tellingLine(s string) (line string, isErr bool) {
	var kept []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(logPrefix.ReplaceAllString(strings.TrimSpace(l), ""))
		if l == "" || noiseLine.MatchString(l) {
			continue
		}
		kept = append(kept, l)
	}
	for _, re := range []*regexp.Regexp{errorHead, errorLine} {
		for i := len(kept) - 1; i >= 0; i-- {
			if re.MatchString(kept[i]) {
				return kept[i], true
			}
		}
	}
	if len(kept) == 0 {
		return "", false
	}
	return kept[len(kept)-1], false
}

var (
	// noiseLine: a stack frame (Node, Python, Go, Java), a source
	// pointer, a runtime's version line or an exit line.
	noiseLine = regexp.MustCompile(`^(at [^ ]|File "|goroutine \d+ \[|[\^~ ]+$|Node\.js v\d|exit status \d|\.\.\. \d+ more|Traceback \(most recent call last\))` +
		`|^[\w./-]+\.go:\d+|^[\w.$]+\(.*\)$`)
	// errorHead starts as an error does: "Error: …", "ValueError: …",
	// "panic: …", "fatal: …", "error[E0425]: …" (before a line that only
	// mentions one, as Node's "code: 'ECONNREFUSED'," after its error)
	errorHead = regexp.MustCompile(`^(\w*(Error|Exception)\b[^:]*:|(?i:panic|fatal|error)\b)`)
	// errorLine mentions one.
	errorLine = regexp.MustCompile(`(?i)(error|exception|panic|fatal|refused|denied|not found|no such|cannot|can't|failed|ECONN|EADDR|ENOENT|EACCES)`)
	// logPrefix is the prefix of a line of Chromium's log or of Go's
	// log package: when, and where from.
	logPrefix = regexp.MustCompile(`^(\[\d+:\d+:[^\]]*\]|\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(\.\d+)?)\s*`)
)

// tlsCause words a TLS failure cause first.
func tlsCause(err error) string {
	var (
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		header  tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &unknown):
		return "the server's certificate is signed by an authority this machine does not trust (a self-signed or private CA certificate)"
	case errors.As(err, &host):
		return "the server's certificate is not for this host (" + host.Host + ")"
	case errors.As(err, &invalid):
		return "the server's certificate is not valid (" + invalid.Error() + ")"
	case errors.As(err, &header):
		return "the server does not speak TLS on this port (try http:// instead of https://)"
	}
	return stripPrefixes(err.Error())
}
