package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// SetRequestInliner gives the window the way to move a pending server
// request's panel out of the request queue: the queue's Inline. A request
// that the Tools screen's running call sent is then answered in that
// call's panel (ShowRequestInline). UI thread.
func (w *Window) SetRequestInliner(inline func(server, id string) (fyne.CanvasObject, bool)) {
	w.inliner = inline
}

// ShowRequestInline shows the pending server request (server, id) in the
// panel of the tool call running on the Tools screen of that server, when
// the request belongs to an operation (run is not "") while that call runs
// — seed 000: inline when the tool triggered it, the queue and its modal
// otherwise. It reports whether it did. UI thread.
func (w *Window) ShowRequestInline(server, id, run string) bool {
	if w.inliner == nil || run == "" {
		return false
	}
	s := w.server(server)
	if s == nil || s.screens == nil || s.screens.tools == nil || s.screens.tools.running == nil {
		return false
	}
	obj, ok := w.inliner(server, id)
	if !ok {
		return false
	}
	t := s.screens.tools
	t.inline.Add(obj)
	w.SetRequestCount(w.reqCount) // the queue below need not take room for it
	// the request and its answers in view, under the running call
	t.formObj.(*container.Scroll).ScrollToBottom()
	return true
}

// inlineRequests counts the requests shown in running tools' panels.
func (w *Window) inlineRequests() int {
	n := 0
	for _, s := range w.servers {
		n += w.InlineRequests(s.cfg.Name)
	}
	return n
}

// InlineRequests is the number of server requests shown in the running
// tool call's panel of server (tests and the screenshot script). UI
// thread.
func (w *Window) InlineRequests(server string) int {
	s := w.server(server)
	if s == nil || s.screens == nil || s.screens.tools == nil {
		return 0
	}
	n := 0
	for _, o := range s.screens.tools.inline.Objects {
		if o.Visible() {
			n++
		}
	}
	return n
}
