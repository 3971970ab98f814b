package ui

import (
	"errors"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// What the list screens (Tools, Resources, Prompts, Tasks) say alike:
// how many rows a search leaves, and that the server does not offer what
// the screen lists (issue #12).

// listCount is a list's count line: how many it holds ("26 tools"), or
// while a search hides some, how many of them it shows ("4 of 26
// tools"). noun is the singular ("tool").
func listCount(shown, total int, noun string) string {
	if shown < total {
		return fmt.Sprintf("%d of %s", shown, plural(total, noun))
	}
	return plural(total, noun)
}

// noMatch is a search's line when it hides every row: No tool matches "x".
func noMatch(noun, query string) string {
	return "No " + noun + " matches \"" + query + "\"."
}

// offerPane is a list screen's detail pane while its server does not
// offer what the screen lists: in place of "Select a …" it says what that
// means, in a developer's words (the initialize result has no such
// capability, so the list is not asked for), and the screen's search box
// or Poll button is hidden, as there is nothing to search or poll.
type offerPane struct {
	detail *fyne.Container
	prompt fyne.CanvasObject   // the pane's "Select a …", put back once offered
	chrome []fyne.CanvasObject // hidden while not offered
	absent bool
}

// newOfferPane is detail's offerPane; detail shows its prompt now.
func newOfferPane(detail *fyne.Container, chrome ...fyne.CanvasObject) *offerPane {
	return &offerPane{detail: detail, prompt: detail.Objects[0], chrome: chrome}
}

// failed shows err on the screen's status line (listFailure's words) and,
// when err is a NotOfferedError, explains it in the pane: capability is
// the initialize result's capability ("prompts", "tasks.list"), method
// the request not sent ("prompts/list"). It reports whether the server
// does not offer the list.
func (o *offerPane) failed(status *widget.Label, what string, err error, capability, method string) bool {
	status.SetText(listFailure(what, err))
	var no *NotOfferedError
	if !errors.As(err, &no) {
		return false
	}
	o.absent = true
	for _, c := range o.chrome {
		c.Hide()
	}
	o.detail.Objects = []fyne.CanvasObject{notOfferedState(capability, method)}
	o.detail.Refresh()
	return true
}

// offered puts the pane back as it was once a list came (a reconnect to
// a server that offers it now).
func (o *offerPane) offered() {
	if !o.absent {
		return
	}
	o.absent = false
	for _, c := range o.chrome {
		c.Show()
	}
	o.detail.Objects = []fyne.CanvasObject{o.prompt}
	o.detail.Refresh()
}

// notOfferedState is the pane's words for a capability the server did
// not declare.
func notOfferedState(capability, method string) *widget.Label {
	return emptyState("The server's initialize result declares no \"" + capability + "\" capability, so Spyglass does not send " + method + ".")
}
