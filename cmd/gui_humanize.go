package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// humanError is an engine error worded for a person: the window shows
// Headline and keeps Detail (the whole chain) behind "Show full error".
// It implements ui.PlainError; errors.Is/As still see the cause.
type humanError struct {
	err  error
	text string // the headline, cause first
}

// Error implements error: the headline.
func (e *humanError) Error() string { return e.text }

// Unwrap implements error.
func (e *humanError) Unwrap() error { return e.err }

// Headline implements ui.PlainError.
func (e *humanError) Headline() string { return sentence(e.text) }

// Detail implements ui.PlainError: the technical chain.
func (e *humanError) Detail() string { return e.err.Error() }

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
	return &humanError{err: err, text: guiHeadline(err)}
}

// guiHeadline is the window's cause-first sentence for err.
func guiHeadline(err error) string {
	var (
		rpc     *session.RPCError
		start   *wire.StartError
		exit    *wire.ExitError
		timeout *session.TimeoutError
		legacy  *session.LegacyServerError
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
	case errors.As(err, &start):
		return fmt.Sprintf("Could not start %s: %v", start.Command, start.Err)
	case errors.As(err, &exit):
		how := fmt.Sprintf("exited with status %d", exit.Code)
		if exit.Signal != 0 {
			how = "was killed by signal " + exit.Signal.String()
		}
		msg := "The server process " + how + " before answering."
		if last := lastLine(exit.Stderr); last != "" {
			msg += " Its last words on stderr: " + last
		}
		return msg
	case errors.Is(err, wire.ErrUnreachable):
		return "Could not reach the server: is it running, and is the URL right?"
	case errors.As(err, &timeout):
		return fmt.Sprintf("No answer after %s: the request timed out (Spyglass sent notifications/cancelled).", timeout.After.Round(1e6))
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

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
