package ui

// EventClearer is an EventSource that can drop the events of one server
// from the log when the window clears that server (the inspector's Clear),
// so that memory goes back to what it was before they came.
type EventClearer interface {
	// ClearEvents drops the events of server up to Seq upTo from the log,
	// leaving every other event (another server's, and the server's newer
	// ones). It reports whether it dropped them. Any goroutine; it may
	// take a while (it looks through the log).
	ClearEvents(server string, upTo uint64) bool
}

// releaseServer forgets what the window holds of a server's events up to
// Seq upTo (the inspector's Clear): the Logs screen's messages and stderr
// lines, the History's calls of this session (what the CallStore keeps on
// disk stays and is shown again), and asks the log to drop the events too.
// UI thread.
func (w *Window) releaseServer(name string, upTo uint64) {
	if s := w.server(name); s != nil {
		s.bootStderr = nil
		if ss := s.screens; ss != nil {
			ss.logs.release()
			ss.history.release()
		}
	}
	if c, ok := w.be.Events().(EventClearer); ok && name != "" {
		go c.ClearEvents(name, upTo)
	}
}
