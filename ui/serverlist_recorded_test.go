package ui

import (
	"testing"
)

// TestRecordedCardIsNotConnected: a trace opened in the window is marked
// Recorded, with a box that is not ticked and a dot that is not the green
// of a live connection, even though its screens show what was recorded.
func TestRecordedCardIsNotConnected(t *testing.T) {
	b := newFakeBackend()
	b.servers = append(b.servers, ServerConfig{Name: "demo (recorded)", Transport: "stdio", Command: "spyglass", Recorded: "/tmp/demo.spyglass-trace"})
	w := newTestWindow(t, b, nil)
	Sync(func() {
		s := w.server("demo (recorded)")
		if s == nil {
			t.Fatal("the recorded entry is not listed")
		}
		s.state.State = StateConnected // as its recorded screens set it
		c := w.list.cards[s]
		if c == nil {
			t.Fatal("the recorded entry has no card")
		}
		c.update()
		if c.toggle.Checked || c.toggle.Text != "Recorded" || !c.toggle.Disabled() {
			t.Errorf("toggle = checked %v, %q, disabled %v; want unticked, \"Recorded\", disabled", c.toggle.Checked, c.toggle.Text, c.toggle.Disabled())
		}
		if c.dot.level == "green" {
			t.Errorf("the recorded entry's dot is %q, the colour of a live connection", c.dot.level)
		}
	})
}
