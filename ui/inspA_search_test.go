package ui

import (
	"slices"
	"testing"
)

// TestInspectorSearchPerServer: the inspector's search is each server's
// own. Selecting another server shows that server's query (none at
// first), not the one typed for the server before: carried over, it left
// the other server's list empty or filtered with no word why. Coming
// back puts the first server's query back, and its rows filtered by it
// (#12).
func TestInspectorSearchPerServer(t *testing.T) {
	b := newFakeBackend("a", "b")
	w := newTestWindow(t, b, nil)
	in := w.inspector
	b.ev.send(
		EventView{Server: "a", Kind: "stderr", Title: "stderr · needle", Text: "needle", Categories: []string{"logs"}},
		EventView{Server: "a", Kind: "stderr", Title: "stderr · hay", Text: "hay", Categories: []string{"logs"}},
		EventView{Server: "b", Kind: "stderr", Title: "stderr · bee", Text: "bee", Categories: []string{"logs"}},
		EventView{Server: "b", Kind: "stderr", Title: "stderr · wasp", Text: "wasp", Categories: []string{"logs"}},
	)
	selectAndSee := func(server, query string, want ...string) {
		t.Helper()
		Sync(func() { w.selectServer(w.server(server)) })
		Sync(func() {
			if in.search.Text != query {
				t.Errorf("server %s selected: the search box holds %q, want %q", server, in.search.Text, query)
			}
		})
		shownWhen(t, in, "the rows of "+server, func(titles []string) bool { return slices.Equal(titles, want) })
	}
	selectAndSee("a", "", "stderr · needle", "stderr · hay")
	Sync(func() { in.search.SetText("needle") }) // typed
	shownWhen(t, in, "a's search", func(titles []string) bool { return slices.Equal(titles, []string{"stderr · needle"}) })

	selectAndSee("b", "", "stderr · bee", "stderr · wasp")
	Sync(func() { in.search.SetText("wasp") })
	shownWhen(t, in, "b's search", func(titles []string) bool { return slices.Equal(titles, []string{"stderr · wasp"}) })

	selectAndSee("a", "needle", "stderr · needle")
	selectAndSee("b", "wasp", "stderr · wasp")
	Sync(func() { in.search.SetText("") }) // cleared for b only
	shownWhen(t, in, "b unfiltered", func(titles []string) bool { return slices.Equal(titles, []string{"stderr · bee", "stderr · wasp"}) })
	selectAndSee("a", "needle", "stderr · needle")
	selectAndSee("b", "", "stderr · bee", "stderr · wasp")
}
