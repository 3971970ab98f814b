package ui

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// plainError words err for a person, cause first ("The server reported an
// error: boom"), and returns the full technical chain for "Show full
// error". Every screen's error display goes through it (errorBox.SetErr).
func plainError(err error) (headline, full string) {
	if err == nil {
		return "", ""
	}
	full = err.Error()
	var detail interface{ Detail() string }
	if errors.As(err, &detail) && detail.Detail() != "" && detail.Detail() != full {
		full += "\n\nDetails:\n" + detail.Detail()
	}
	return headlineOf(err), full
}

func headlineOf(err error) string {
	var (
		rpc     *session.RPCError
		start   *wire.StartError
		exit    *wire.ExitError
		httpErr *wire.HTTPError
		timeout *session.TimeoutError
		human   interface{ Detail() string }
	)
	switch {
	case errors.As(err, &human):
		// cmd already worded it (the connection errors)
		return sentence(err.Error())
	case errors.As(err, &rpc):
		msg := strings.TrimSpace(rpc.Message)
		if msg == "" {
			msg = "(no message)"
		}
		return fmt.Sprintf("The server reported an error: %s (JSON-RPC %d)", msg, rpc.Code)
	case errors.As(err, &start) && errors.Is(err, wire.ErrCommandNotFound):
		return fmt.Sprintf("Command not found: %s. Check the command in the server's settings, or give its full path.", start.Command)
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
	case errors.As(err, &httpErr):
		return fmt.Sprintf("The server answered HTTP %d to %s %s: is this the server's MCP endpoint?", httpErr.Status, httpErr.Method, httpErr.URL)
	case errors.Is(err, wire.ErrUnreachable):
		return "Could not reach the server: is it running, and is the URL right?"
	case errors.As(err, &timeout):
		return fmt.Sprintf("No answer after %s: the request timed out (Spyglass sent notifications/cancelled).", timeout.After.Round(1e6))
	case errors.Is(err, session.ErrNoResponse):
		return "The connection closed before the answer came: the server may have crashed."
	}
	return sentence(stripPrefixes(err.Error()))
}

// stripPrefixes drops the package and operation prefixes of a wrapped
// error ("session: tools/call: boom" → "boom").
func stripPrefixes(s string) string {
	for {
		i := strings.Index(s, ": ")
		if i < 0 {
			return s
		}
		head := s[:i]
		if strings.ContainsAny(head, " \t") && !strings.HasPrefix(head, "JSON-RPC error") {
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

// SetErr shows err's plain headline, with "Show full error" opening the
// whole chain in win (nil hides the box).
func (e *errorBox) SetErr(err error, title string, win fyne.Window) {
	if err == nil {
		e.Set("")
		return
	}
	head, full := plainError(err)
	e.Set(head)
	if e.fullBtn == nil {
		e.fullBtn = widget.NewButton("Show full error", nil)
		e.fullBtn.Importance = widget.LowImportance
		e.box.Objects[1].(*fyne.Container).Add(e.fullBtn)
	}
	e.fullBtn.OnTapped = func() { showTextDialog(title, full, win) }
	e.fullBtn.Show()
}

// errorView is a one-off error display: the plain headline and "Show full
// error" (the screens' failed operations).
func errorView(err error, title string, win fyne.Window) fyne.CanvasObject {
	eb := newErrorBox()
	eb.SetErr(err, title, win)
	return container.NewVBox(eb.box)
}
