package cmd

import (
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// DiffSessions implements ui.SessionDiffer: the two server entries'
// events as the log holds them (a recorded session's, or a live one's so
// far), compared by core/sessiondiff with the ignore list given.
func (b *guiBackend) DiffSessions(a, bName string, ignore []string) (*sessiondiff.Result, error) {
	var ea, eb []events.Event
	for _, e := range b.log.Events() {
		switch e.Conn {
		case a:
			ea = append(ea, e)
		case bName:
			eb = append(eb, e)
		}
	}
	return sessiondiff.Sessions(ea, eb, &sessiondiff.Options{Ignore: ignore})
}
