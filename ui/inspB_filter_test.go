package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// tapInspectorTab taps the inspector's filter tab labelled label.
func tapInspectorTab(t *testing.T, in *inspector, label string) {
	t.Helper()
	Sync(func() {
		for i, tb := range inspectorTabs {
			if tb.label == label {
				test.Tap(in.tabBtns[i])
				return
			}
		}
		t.Fatalf("no inspector tab %q", label)
	})
}

// seeInspector checks, for the server selected, the search box's text,
// the filter tab standing out and the rows listed.
func seeInspector(t *testing.T, w *Window, server, query, tab string, want ...string) {
	t.Helper()
	in := w.inspector
	Sync(func() {
		if w.selected == nil || w.selected.cfg.Name != server {
			t.Errorf("selected %v, want %s", w.selected, server)
		}
		if in.search.Text != query {
			t.Errorf("server %s: the search box holds %q, want %q", server, in.search.Text, query)
		}
		var on []string
		for i, tb := range inspectorTabs {
			if in.tabBtns[i].Importance == widget.HighImportance {
				on = append(on, tb.label)
			}
		}
		if !slices.Equal(on, []string{tab}) {
			t.Errorf("server %s: the tabs standing out are %q, want %q", server, on, tab)
		}
	})
	shownWhen(t, in, "the rows of "+server, func(titles []string) bool { return slices.Equal(titles, want) })
}

// TestInspectorFilterPerServer: the inspector's filter tab is each
// server's own, as its search is. Tools chosen for one server stayed on
// for the next one selected and showed only its tool calls with no word
// why; a server starts at All and gets its own tab back when selected
// again (#12).
func TestInspectorFilterPerServer(t *testing.T) {
	b := newFakeBackend("a", "b")
	w := newTestWindow(t, b, nil)
	in := w.inspector
	b.ev.send(
		EventView{Server: "a", Kind: "stderr", Title: "stderr · a", Text: "a", Categories: []string{"logs"}},
		EventView{Server: "a", Kind: "request", Title: "tools/call · a", Categories: []string{"tools", "rpc"}},
		EventView{Server: "b", Kind: "stderr", Title: "stderr · b", Text: "b", Categories: []string{"logs"}},
		EventView{Server: "b", Kind: "request", Title: "tools/call · b", Categories: []string{"tools", "rpc"}},
	)
	sel := func(name string) { Sync(func() { w.selectServer(w.server(name)) }) }
	sel("a")
	seeInspector(t, w, "a", "", "All", "stderr · a", "tools/call · a")
	tapInspectorTab(t, in, "Tools")
	seeInspector(t, w, "a", "", "Tools", "tools/call · a")

	sel("b")
	seeInspector(t, w, "b", "", "All", "stderr · b", "tools/call · b")
	Sync(func() {
		if got := in.counters.Text; got != "0 tool calls · 0 errors · 2 events" {
			t.Errorf("b's counters %q: they count b's events unfiltered", got)
		}
	})
	tapInspectorTab(t, in, "Logs")
	seeInspector(t, w, "b", "", "Logs", "stderr · b")

	sel("a")
	seeInspector(t, w, "a", "", "Tools", "tools/call · a")
	tapInspectorTab(t, in, "All") // back to All for a only
	seeInspector(t, w, "a", "", "All", "stderr · a", "tools/call · a")
	sel("b")
	seeInspector(t, w, "b", "", "Logs", "stderr · b")
	sel("a")
	seeInspector(t, w, "a", "", "All", "stderr · a", "tools/call · a")
}

// TestInspectorViewSurvivesRename: a server renamed in its form keeps
// its inspector search and filter under the new name — they were lost,
// the renamed server starting with none — whether it was the server
// shown or another; the old name keeps nothing. Removing a server and
// undoing it keeps them too, and a server added later under a removed
// one's name starts with none (#12).
func TestInspectorViewSurvivesRename(t *testing.T) {
	b := &undoBackend{fakeBackend: newFakeBackend("a", "b")}
	w := newTestWindowBackend(t, b)
	in := w.inspector
	ev := func(server string) []EventView {
		return []EventView{
			{Server: server, Kind: "stderr", Title: "stderr · needle", Text: "needle", Categories: []string{"logs"}},
			{Server: server, Kind: "stderr", Title: "stderr · hay", Text: "hay", Categories: []string{"logs"}},
			{Server: server, Kind: "request", Title: "tools/call · needle", Text: "needle", Categories: []string{"tools", "rpc"}},
		}
	}
	b.ev.send(append(append(ev("a2"), ev("b2")...), ev("b")...)...)
	sel := func(name string) { Sync(func() { w.selectServer(w.server(name)) }) }
	rename := func(from, to string) {
		t.Helper()
		o := openForm(t, w, from)
		Sync(func() {
			formEntry(t, o, 0).SetText(to)
			tapButton(t, o, "Save")
		})
		waitFor(t, to+" listed", func() bool { return w.server(to) != nil && w.server(from) == nil })
	}

	// renamed while shown
	sel("a")
	Sync(func() { in.search.SetText("needle") })
	tapInspectorTab(t, in, "Logs")
	rename("a", "a2")
	seeInspector(t, w, "a2", "needle", "Logs", "stderr · needle")

	// renamed while another is shown
	sel("b")
	Sync(func() { in.search.SetText("hay") })
	sel("a2")
	rename("b", "b2")
	seeInspector(t, w, "b2", "hay", "All", "stderr · hay")
	sel("a2")
	seeInspector(t, w, "a2", "needle", "Logs", "stderr · needle")
	Sync(func() {
		for _, old := range []string{"a", "b"} {
			if v, ok := in.views[old]; ok {
				t.Errorf("the old name %s keeps %+v", old, v)
			}
		}
	})

	// removed and put back
	Sync(func() { w.removeServer("a2") })
	seeInspector(t, w, "b2", "hay", "All", "stderr · hay")
	tapToastAction(t, w, "Removed a2", "Undo")
	seeInspector(t, w, "a2", "needle", "Logs", "stderr · needle")

	// removed for good: a server added under its name starts afresh
	Sync(func() { w.removeServer("b2") })
	if err := b.SaveServer("", ServerConfig{Name: "b2", Transport: "stdio", Command: "other"}); err != nil {
		t.Fatal(err)
	}
	Sync(func() { w.reloadServers() })
	sel("b2")
	seeInspector(t, w, "b2", "", "All", "stderr · needle", "stderr · hay", "tools/call · needle")
}
