package cmd

import "github.com/spyglass-mcp/spyglass/core/sessiondiff"

// DiffSessions implements ui.SessionDiffer: the two server entries'
// events as the log holds them (a recorded session's, or a live one's so
// far), compared by core/sessiondiff with the ignore list given.
func (b *guiBackend) DiffSessions(a, bName string, ignore []string) (*sessiondiff.Result, error) {
	return sessiondiff.Sessions(b.log.EventsOf(a), b.log.EventsOf(bName), &sessiondiff.Options{Ignore: ignore})
}
