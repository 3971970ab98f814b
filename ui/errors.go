package ui

import (
	"errors"
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/plain"
)

// PlainError is an error already worded for a person (cmd words the
// engine's errors): Headline says the cause first, Detail is the whole
// technical chain for "Show full error". Its home is ui/plain, which
// ui/requests shares.
type PlainError = plain.Error

// Troubleshooter is an error with a section in docs/TROUBLESHOOTING.md:
// Anchor is the section's anchor ("command-not-found"), "" for none. The
// error display links to it ("Troubleshooting guide →").
type Troubleshooter interface {
	Anchor() string
}

// PermanentError is an error that another attempt would meet again (a
// command that does not exist, HTTP 404, an untrusted certificate): the
// window does not retry a connection that failed with it.
type PermanentError interface {
	Permanent() bool
}

// retryable reports whether a connection that failed with err is worth
// another attempt.
func retryable(err error) bool {
	var p PermanentError
	return !errors.As(err, &p) || !p.Permanent()
}

// troubleshootingLink is the address of err's section of the
// troubleshooting page, "" when it has none.
func troubleshootingLink(err error) string {
	var t Troubleshooter
	if !errors.As(err, &t) || t.Anchor() == "" {
		return ""
	}
	return TroubleshootingURL + "#" + t.Anchor()
}

// NotOfferedError says the window did not send a request because the
// server did not advertise the capability it needs (a server without
// prompts is not asked for prompts/list).
type NotOfferedError struct {
	Server string // the server's name in the catalog
	What   string // what it lacks, for a person: "prompts"
}

// Error implements error: "memory does not offer prompts".
func (e *NotOfferedError) Error() string { return e.Server + " does not offer " + e.What }

// listFailure words a failed list for a screen's status line; a server
// that never advertised the list says so plainly ("memory does not offer
// prompts.").
func listFailure(what string, err error) string {
	var no *NotOfferedError
	if errors.As(err, &no) {
		return no.Error() + "."
	}
	head, _ := plainError(err)
	return "Could not list " + what + ". " + head
}

// plainError returns err's headline and the full text behind "Show full
// error" (plain.Words). Every screen's error display goes through it
// (errorBox.SetErr); ui only displays, the wording is the PlainError's
// (or, for the window's own errors, the message itself).
func plainError(err error) (headline, full string) { return plain.Words(err) }

// plainHeadline is plainError's headline alone, for a line that has no
// room for Show full error.
func plainHeadline(err error) string { return plain.Headline(err) }

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
	if saysAll(head, full) {
		e.fullBtn.Hide() // our own sentence: there is nothing more to show
	} else {
		e.fullBtn.Show()
	}
	link := troubleshootingLink(err)
	if link == "" {
		if e.guide != nil {
			e.guide.Hide()
		}
		return
	}
	u, _ := url.Parse(link)
	if e.guide == nil {
		e.guide = widget.NewHyperlink("Troubleshooting guide →", u)
		e.box.Objects[1].(*fyne.Container).Add(e.guide)
	}
	e.guide.SetURL(u)
	e.guide.Show()
}

// saysAll reports whether an error's headline already says its full text
// (the window's own plain sentences, which plain.Words only capitalises).
func saysAll(head, full string) bool {
	trim := func(s string) string { return strings.TrimRight(strings.TrimSpace(s), ".") }
	return full == "" || strings.EqualFold(trim(head), trim(full))
}

// errorView is a one-off error display: the plain headline and "Show full
// error" (the screens' failed operations).
func errorView(err error, title string, win fyne.Window) fyne.CanvasObject {
	eb := newErrorBox()
	eb.SetErr(err, title, win)
	return container.NewVBox(eb.box)
}

// Humanizer is an optional Backend interface: it words an error of the
// window's own operations (a catalog save, a trace file, a keyring call)
// for a person, cause first, as it words the engine's (cmd's humanizer).
type Humanizer interface {
	Humanize(err error) error
}

// toastErr toasts a failure: what did not happen ("Could not remove
// one"), then the cause in plain words; the whole chain is behind Show
// full error. level is "error" or "warning".
func (w *Window) toastErr(level, what string, err error) {
	if h, ok := w.be.(Humanizer); ok {
		err = h.Humanize(err)
	}
	head, full := plainError(err)
	w.toasts.showAction(level, what+": "+head, "Show full error", toastLife, func() {
		showTextDialog(what, full, w.win)
	})
}

// statusLine is a dialog's bold status line that can also tell a failure:
// what did not happen, then the cause in the window's plain words (as
// toastErr words it), with "Show full error" for the whole chain.
type statusLine struct {
	*widget.Label
	w    *Window
	full *widget.Button
	obj  *fyne.Container
}

func newStatusLine(w *Window, text string) *statusLine {
	s := &statusLine{Label: wrapLabel(text), w: w}
	s.TextStyle.Bold = true
	s.full = widget.NewButton("Show full error", nil)
	s.full.Importance = widget.LowImportance
	s.full.Hide()
	s.obj = container.NewVBox(s.Label, wrapRow(s.full))
	return s
}

// SetText shows text, a failure's Show full error hidden.
func (s *statusLine) SetText(text string) {
	s.full.Hide()
	s.Label.SetText(text)
}

// SetErr shows "what: cause" in plain words, the chain behind Show full
// error.
func (s *statusLine) SetErr(what string, err error) {
	if h, ok := s.w.be.(Humanizer); ok {
		err = h.Humanize(err)
	}
	head, full := plainError(err)
	s.Label.SetText(what + ": " + head)
	s.full.OnTapped = func() { showTextDialog(what, full, s.w.win) }
	s.full.Show()
}
