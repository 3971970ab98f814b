package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// RequestInliner lends a pending server request's panel to a place
// outside the request queue and takes it back (ui/requests' Queue).
type RequestInliner interface {
	// Inline returns the request's panel, to be shown in the caller's
	// place; ok is false when no such request waits.
	Inline(server, id string) (obj fyne.CanvasObject, ok bool)
	// Uninline gives it back to the queue, where it stays answerable.
	Uninline(server, id string)
	// Answers returns the row of the lent request's answer buttons, which
	// the window keeps in view; nil when it has none to show there.
	Answers(server, id string) fyne.CanvasObject
}

// SetRequestInliner gives the window the way to move a pending server
// request's panel out of the request queue and back. A request that the
// Tools screen's running call sent is answered in that call's panel
// (ShowRequestInline); when the call ends while the request still waits,
// the queue below the screens shows it in full again. UI thread.
func (w *Window) SetRequestInliner(r RequestInliner) {
	w.inliner = r
}

// ShowRequestInline shows the pending server request (server, id) in the
// panel of the tool call running on the Tools screen of that server, when
// the request belongs to an operation (run is not "") while that call runs
// — seed 000: inline when the tool triggered it, the queue and its modal
// otherwise. Each tool has its own call (#12); while calls of several
// tools run, which one sent the request is not known here, and it waits
// in the queue. A request of a call whose tool is not shown waits in that
// call's panel (the queue below the screens shows it meanwhile, the tool's
// row says "waiting for you"). It reports whether it did. UI thread.
func (w *Window) ShowRequestInline(server, id, run string) bool {
	if w.inliner == nil || run == "" {
		return false
	}
	s := w.server(server)
	if s == nil || s.screens == nil || s.screens.tools == nil {
		return false
	}
	t := s.screens.tools
	var c *toolCall
	for _, x := range t.calls {
		if x.cancel == nil {
			continue
		}
		if c != nil {
			return false // several run: whose is it?
		}
		c = x
	}
	if c == nil {
		return false
	}
	obj, ok := w.inliner.Inline(server, id)
	if !ok {
		return false
	}
	place := container.New(&holdLayout{}, obj)
	c.requests.Add(place)
	c.sent = append(c.sent, id)
	t.list.Refresh()              // the row says the call waits for an answer
	w.SetRequestCount(w.reqCount) // the queue below need not take room for it
	if t.shownCall() == c {
		t.revealRequests()
	}
	return true
}

// revealRequests scrolls the tool's form so that the newest server
// request in the shown call's panel is in view with its answer buttons:
// the whole request when it fits; else its head at the top when its
// answers show then, else its answers at the foot of the view — a
// sampling request's card is taller than the form's view at 1024×700,
// and revealed from its head its Edit & Send lay below the fold (#12).
// UI thread.
func (t *toolsScreen) revealRequests() {
	c := t.shownCall()
	s, ok := t.formObj.(*container.Scroll)
	if c == nil || c.requests == nil || len(c.sent) == 0 || !ok || s.Content == nil || fyne.CurrentApp() == nil {
		return
	}
	var card fyne.CanvasObject
	for i := len(c.requests.Objects) - 1; i >= 0 && card == nil; i-- {
		if o := c.requests.Objects[i]; anyVisible(o.(*fyne.Container).Objects) {
			card = o
		}
	}
	if card == nil {
		return
	}
	var answers fyne.CanvasObject
	if w := t.ss.s.w; w.inliner != nil {
		answers = w.inliner.Answers(t.ss.s.cfg.Name, c.sent[len(c.sent)-1])
	}
	// the form takes the request's height first: laid out again until it
	// stays, as wrapped text knows its height only once laid out at its
	// width (the canvas knows no new object before it is drawn)
	esc.Settle(s)
	top := esc.OffsetIn(s, card)
	bottom := top + card.Size().Height
	off, view, pad := s.Offset.Y, s.Size().Height, theme.Padding()
	if top >= off && bottom <= off+view {
		return // all of it in view
	}
	want := top - pad
	switch {
	case bottom-top+2*pad <= view && top >= off:
		want = bottom + pad - view // below: scroll just enough
	case answers != nil && answers.Visible():
		foot := esc.OffsetIn(s, answers) + answers.Size().Height
		want = max(want, foot+pad-view)
	}
	want = max(0, min(want, s.Content.Size().Height-view))
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, want))
}

// giveBackRequests hands the server requests c's panel shows back to the
// queue: c ended, and a request the server has not cancelled stays
// answerable there. UI thread.
func (t *toolsScreen) giveBackRequests(c *toolCall) {
	w := t.ss.s.w
	sent := c.sent
	c.sent, c.requests = nil, nil
	if w.inliner == nil || len(sent) == 0 {
		return
	}
	for _, id := range sent {
		w.inliner.Uninline(t.ss.s.cfg.Name, id)
	}
	w.SetRequestCount(w.reqCount) // the queue below takes room for them
}

// holdLayout holds a server request's place in a call's panel (Inline's
// object) at the tallest it was while the request waits. View Details
// moves the panel into a modal and leaves a one-line note behind: the
// form shrank under the modal, its scroll followed, and when the modal
// closed the panel came back below the fold (#12). Held, the panel comes
// back where it was. A request that left (its object hidden) takes no
// room.
type holdLayout struct{ held float32 }

// MinSize implements fyne.Layout.
func (h *holdLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if !anyVisible(objs) {
		h.held = 0
		return fyne.Size{}
	}
	m := layout.NewStackLayout().MinSize(objs)
	h.held = max(h.held, m.Height)
	return fyne.NewSize(m.Width, h.held)
}

// Layout implements fyne.Layout: the request at the top of its place.
func (h *holdLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	m := layout.NewStackLayout().MinSize(objs)
	layout.NewStackLayout().Layout(objs, fyne.NewSize(size.Width, min(size.Height, m.Height)))
}

func anyVisible(objs []fyne.CanvasObject) bool {
	for _, o := range objs {
		if o.Visible() {
			return true
		}
	}
	return false
}

// visibleRequests counts the waiting requests in a call's panel (requests
// made by ShowRequestInline; nil: none).
func visibleRequests(requests *fyne.Container) int {
	if requests == nil {
		return 0
	}
	n := 0
	for _, place := range requests.Objects {
		if anyVisible(place.(*fyne.Container).Objects) {
			n++
		}
	}
	return n
}

// shownRequests counts the waiting requests in the shown tool's call.
func (t *toolsScreen) shownRequests() int {
	c := t.shownCall()
	if c == nil || c.cancel == nil {
		return 0
	}
	return visibleRequests(c.requests)
}

// inlineRequests counts the requests shown in running tools' panels.
func (w *Window) inlineRequests() int {
	n := 0
	for _, s := range w.servers {
		n += w.InlineRequests(s.cfg.Name)
	}
	return n
}

// InlineRequests is the number of server requests shown in the panel of
// the running tool call of server whose tool is shown (tests and the
// screenshot script). UI thread.
func (w *Window) InlineRequests(server string) int {
	s := w.server(server)
	if s == nil || s.screens == nil || s.screens.tools == nil {
		return 0
	}
	return s.screens.tools.shownRequests()
}
