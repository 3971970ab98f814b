package cmd

import (
	"bufio"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// troubleshootingAnchors are the anchors of docs/TROUBLESHOOTING.md's
// headings, made the way GitHub makes them (lower case, spaces to
// hyphens, punctuation dropped).
func troubleshootingAnchors(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open("../docs/TROUBLESHOOTING.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "## ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(line[3:])) {
			switch {
			case r == ' ' || r == '-':
				b.WriteRune('-')
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// kindSamples are engine errors of every kind the window words, as the
// engine returns them (wrapped the way core wraps them).
func kindSamples() []struct {
	name      string
	err       error
	kind      string
	permanent bool
} {
	notFound := &wire.StartError{Command: "nope"}
	// a StartError matches ErrCommandNotFound only when made by Start;
	// ask the real wire for one
	if err := wire.NewStdio(wire.StdioConfig{Command: "/nonexistent/spyglass-missing"}, nil).Start(context.Background(), wire.Handler{}); err != nil {
		notFound = nil
		var se *wire.StartError
		if errors.As(err, &se) {
			notFound = se
		}
	}
	return []struct {
		name      string
		err       error
		kind      string
		permanent bool
	}{
		{"command not found", fmt.Errorf("session: connect: %w", notFound), "command-not-found", true},
		{"permission denied", &wire.StartError{Command: "./server.sh", Err: &os.PathError{Op: "fork/exec", Path: "./server.sh", Err: os.ErrPermission}}, "could-not-start", true},
		{"crash", fmt.Errorf("session: initialize: %w", &wire.ExitError{Code: 1, Stderr: "Error: listen EADDRINUSE"}), "the-server-exited", false},
		{"404", fmt.Errorf("session: initialize: %w", &wire.HTTPError{Method: "POST", URL: "http://h/x", Status: 404}), "http-error", true},
		{"401 without OAuth", fmt.Errorf("session: initialize: %w", &wire.HTTPError{Method: "POST", URL: "http://h/x", Status: 401}), "sign-in", true},
		{"429", &wire.HTTPError{Method: "POST", URL: "http://h/x", Status: 429}, "http-error", false},
		{"503", &wire.HTTPError{Method: "POST", URL: "http://h/x", Status: 503}, "http-error", false},
		{"refused", fmt.Errorf("wire: POST http://127.0.0.1:1/mcp: %w: %w", wire.ErrUnreachable, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", errors.New("connection refused"))}), "unreachable", false},
		{"no such host", fmt.Errorf("wire: POST http://nohost.invalid/mcp: %w: %w", wire.ErrUnreachable, &net.DNSError{Err: "no such host", Name: "nohost.invalid", IsNotFound: true}), "unreachable", true},
		{"untrusted certificate", fmt.Errorf("wire: POST https://h/mcp: %w: %w", wire.ErrUnreachable, x509.UnknownAuthorityError{}), "tls-certificate", true},
		{"timeout", fmt.Errorf("session: tools/call: %w", &session.TimeoutError{Method: "tools/call", After: time.Minute}), "timed-out", false},
		{"no response", fmt.Errorf("session: tools/call: %w", session.ErrNoResponse), "no-response", false},
		{"sign-in timeout", fmt.Errorf("oauth: %w", oauth.ErrSignInTimeout), "sign-in", false},
		{"legacy server", &session.LegacyServerError{Version: "2026-07-28", Refusal: &session.RPCError{Code: -32601, Message: "Method not found"}}, "protocol-version", true},
		{"invalid result", fmt.Errorf("session: tools/list: %w", session.ErrDecode), "invalid-result", false},
		{"server error", fmt.Errorf("session: tools/call: %w", &session.RPCError{Code: -32603, Message: "boom"}), "the-server-reported-an-error", false},
	}
}

// TestTroubleshootingAnchors: every kind of error the window words links
// to a heading that exists in docs/TROUBLESHOOTING.md, and the sample
// errors get the kind and the retry decision they should.
func TestTroubleshootingAnchors(t *testing.T) {
	anchors := troubleshootingAnchors(t)
	for _, k := range troubleshootingKinds {
		if !anchors[k] {
			t.Errorf("kind %q has no heading in docs/TROUBLESHOOTING.md (anchors: %v)", k, anchors)
		}
	}
	seen := map[string]bool{}
	for _, c := range kindSamples() {
		if c.err == nil {
			t.Fatalf("%s: no sample error", c.name)
		}
		h := humanize(c.err).(*humanError)
		if h.Anchor() != c.kind {
			t.Errorf("%s: kind %q, want %q", c.name, h.Anchor(), c.kind)
		}
		if !slices.Contains(troubleshootingKinds, h.Anchor()) {
			t.Errorf("%s: kind %q is not in troubleshootingKinds", c.name, h.Anchor())
		}
		if h.Permanent() != c.permanent {
			t.Errorf("%s: permanent = %v, want %v", c.name, h.Permanent(), c.permanent)
		}
		seen[h.Anchor()] = true
	}
	for _, k := range troubleshootingKinds {
		if !seen[k] {
			t.Errorf("kind %q has no sample: add one", k)
		}
	}
}
