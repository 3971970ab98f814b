package ui

import (
	"strings"
	"testing"
	"time"
)

// recordedFake is a recorded session over the fake connection.
type recordedFake struct{ *fakeConn }

func (recordedFake) RecordedAt() time.Time                { return time.Date(2026, 12, 1, 23, 28, 0, 0, time.UTC) }
func (recordedFake) ToolCalls(name string) []RecordedCall { return nil }

// recordedBackend opens its entries' recordings as recordedFake.
type recordedBackend struct{ *fakeBackend }

func (b recordedBackend) OpenRecorded(name string) (RecordedConn, error) {
	c, _ := b.Open(name, nil)
	return recordedFake{c.(*fakeConn)}, nil
}

// TestRecordedToolPaneSaysRecorded: a recorded session's Tools pane
// does not invite the user to run a tool (#12: it said "Select a tool to
// see its arguments and run it"); it says the session is recorded.
func TestRecordedToolPaneSaysRecorded(t *testing.T) {
	fb := newFakeBackend()
	fb.servers = append(fb.servers, ServerConfig{Name: "demo (recorded)", Transport: "stdio", Command: "spyglass", Recorded: "/tmp/demo.spyglass-trace"})
	w := newTestWindowBackend(t, recordedBackend{fb})
	Sync(func() {
		s := w.server("demo (recorded)")
		w.selectServer(s)
		w.showRecorded(s)
		if s.screens == nil {
			t.Fatal("the recorded entry has no screens")
		}
		got := texts(s.screens.tools.detail)
		if strings.Contains(got, "and run it") || !strings.Contains(got, "A recorded session") {
			t.Errorf("the recorded Tools pane reads:\n%s", got)
		}
	})
}
