package ui

import "testing"

// TestAutoConnectWaitsForTheApp: a server given on the command line is
// connected when the app says its request handlers are in place
// (Window.AutoConnect, after ready), not while the window is being built —
// connected then, a server asking for elicitation at once got "Method not
// found".
func TestAutoConnectWaitsForTheApp(t *testing.T) {
	b := newFakeBackend("a", "b")
	w := newTestWindow(t, b, &Options{Select: "b", AutoConnect: true})
	state := func() ConnState {
		var st ConnState
		Sync(func() { st = w.server("b").state.State })
		return st
	}
	if st := state(); st == StateConnected || st == StateConnecting {
		t.Fatalf("b is %s before the app called AutoConnect", st)
	}
	Sync(w.AutoConnect)
	waitFor(t, "b connected", func() bool { return w.server("b").state.State == StateConnected })
	if st := func() ConnState { var s ConnState; Sync(func() { s = w.server("a").state.State }); return s }(); st == StateConnected {
		t.Errorf("a, not selected, is %s", st)
	}
}
