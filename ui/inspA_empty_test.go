package ui

import "testing"

// TestInspectorEmptyWithNoServers: with no server at all the inspector's
// empty state says what to do first, not "Select a server…" with nothing
// to select; once a server exists and none is shown, it says to select
// one (#12).
func TestInspectorEmptyWithNoServers(t *testing.T) {
	b := newFakeBackend()
	w := newTestWindow(t, b, nil)
	in := w.inspector
	const want = "No servers yet. Add a server to see its traffic here."
	Sync(func() {
		if !in.empty.Visible() || in.empty.Text != want {
			t.Errorf("with no servers the inspector says %q (shown: %v), want %q", in.empty.Text, in.empty.Visible(), want)
		}
	})
	// the catalog gets a server and loses it again: the words follow
	Sync(func() {
		_ = b.SaveServer("", ServerConfig{Name: "a", Transport: "stdio", Command: "server-a"})
		w.ServersChanged()
	})
	waitFor(t, "server a's empty state", func() bool { return in.server == "a" && in.empty.Text == "No events yet for a." })
	Sync(func() {
		_ = b.RemoveServer("a")
		w.ServersChanged()
	})
	Sync(func() {
		if in.empty.Text != want {
			t.Errorf("with its last server removed the inspector says %q, want %q", in.empty.Text, want)
		}
	})
}
