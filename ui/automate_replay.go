//go:build screenshots

package ui

import (
	"fmt"
	"strings"
	"time"
)

// Screenshot helpers for the recorded screens and the replay view (see
// automate.go).

// ShowRecordedTool opens the Tools screen of the recorded entry server
// and selects tool there, its recorded call shown.
func (w *Window) ShowRecordedTool(server, tool string, timeout time.Duration) error {
	var t *toolsScreen
	Sync(func() {
		s := w.server(server)
		if s == nil || s.screens == nil {
			return
		}
		w.selectServer(s)
		s.screens.tabs.SelectIndex(0)
		t = s.screens.tools
	})
	if t == nil {
		return fmt.Errorf("%s has no recorded screens", server)
	}
	if err := poll(timeout, "the recorded tools", func() bool { return len(t.all) > 0 }); err != nil {
		return err
	}
	var found bool
	Sync(func() {
		for _, tl := range t.all {
			if tl.Name == tool {
				t.onSelect(tl)
				found = true
			}
		}
	})
	if !found {
		return fmt.Errorf("%s's recording lists no tool %s", server, tool)
	}
	return poll(timeout, "the recorded call", func() bool { return len(t.result.Objects) > 0 })
}

// ReplayWait replays the session of from against to (without asking:
// the shots replay read-only calls) and waits for its comparison.
func (w *Window) ReplayWait(from, to string, timeout time.Duration) error {
	var v *replayView
	Sync(func() {
		if r, ok := w.be.(Replayer); ok {
			v = w.startReplay(r, from, to)
		}
	})
	if v == nil {
		return fmt.Errorf("this build cannot replay")
	}
	return poll(timeout, "the replay", func() bool { return !strings.HasPrefix(v.status.Text, "Replaying") })
}
