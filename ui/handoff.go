package ui

// OpenServer selects the named server and connects to it, as a click on
// its card and Connect would (a server handed over by a second start). It
// runs on the UI thread; an unknown name does nothing.
func (w *Window) OpenServer(name string) {
	s := w.server(name)
	if s == nil {
		return
	}
	w.selectServer(s)
	if s.state.State != StateConnected && s.state.State != StateConnecting {
		s.onConnect()
	}
}
