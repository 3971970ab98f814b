package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/sahilm/fuzzy"

	"github.com/spyglass-mcp/spyglass/core/demo"
)

// demoPaletteItems are the palette's lines for the demo server's tools
// (named as the Tools screen and the palette name them) and the menu
// actions of a window.
func demoPaletteItems(t *testing.T) []paletteItem {
	t.Helper()
	var items []paletteItem
	tools := demo.New(&demo.Options{NotesDir: t.TempDir()}).ListTools()
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		items = append(items, paletteItem{"Tool", labelWithTitle(tools[n].Tool.Title, n), nil})
	}
	w := newTestWindow(t, newFakeBackend(), nil)
	Sync(func() {
		// every action, as with a server connected and a tool selected
		// (with none, Run tool and the like are off and not listed)
		for _, m := range w.win.MainMenu().Items {
			for _, it := range m.Items {
				it.Disabled = false
			}
		}
		items = append(items, w.paletteItems()...)
	})
	return items
}

func lines(items []paletteItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.kind+": "+it.label)
	}
	return out
}

// The palette lists what a user calls a match, best first, on the demo
// server's tools and the menu actions (issue #12: "echo" and "time"
// listed lines whose letters were merely scattered in order).
func TestPaletteMatchesDemoItems(t *testing.T) {
	items := demoPaletteItems(t)
	for _, c := range []struct {
		q     string
		first string   // the first line
		all   []string // exactly these lines, when set
	}{
		{q: "echo", all: []string{"Tool: Echo (echo)"}},
		{q: "time", all: []string{}}, // no tool or action about time
		{q: "theme dark", first: "Action: View › Theme › Dark"},
		{q: "vtd", first: "Action: View › Theme › Dark"},
		{q: "add", first: "Action: Servers › Add server"},
		{q: "insp", first: "Action: View › Inspector"},
		{q: "clear n", all: []string{"Tool: Clear notes (clear_notes)"}},
		{q: "read notes", first: "Tool: Read notes (read_notes)"},
		{q: "tool", first: "Action: Tools › Run tool"},
		{q: "weather", all: []string{"Tool: Weather (get_weather)"}},
		{q: "get weather", all: []string{"Tool: Weather (get_weather)"}},
		{q: "ample", first: "Tool: Sample (sample)"}, // inside a word
	} {
		got := lines(paletteMatches(c.q, items))
		switch {
		case c.all != nil && !slices.Equal(got, c.all):
			t.Errorf("%q lists %q, want %q", c.q, got, c.all)
		case c.first != "" && (len(got) == 0 || got[0] != c.first):
			t.Errorf("%q lists %q, want %q first", c.q, got, c.first)
		}
	}
	// the library alone lists lines for "time" and "echo" that are none
	if n := len(fuzzy.FindFrom("time", paletteSource(items))); n == 0 {
		t.Errorf("the library lists nothing for time: the test above proves nothing")
	}
}

// Every line listed matches in one of the ways paletteMatches names,
// ranked in their order; what the library found and the palette left
// out has the letters scattered.
func TestPaletteMatchRanks(t *testing.T) {
	items := demoPaletteItems(t)
	for _, q := range []string{"e", "t", "ex", "to", "log", "list", "run", "set", "sa", "fo", "th", "con", "re", "ser", "ion"} {
		words := strings.Fields(q)
		shown := paletteMatches(q, items)
		listed := map[string]bool{}
		last := tierPrefix
		for _, it := range shown {
			s := it.label + " " + it.kind
			listed[s] = true
			tier := matchTier(words, s)
			if tier == tierScattered {
				t.Errorf("%q lists %q, whose letters are scattered", q, s)
			}
			if tier < last {
				t.Errorf("%q lists %q (rank %d) after a line of rank %d", q, s, tier, last)
			}
			last = tier
		}
		for _, m := range fuzzy.FindFrom(q, paletteSource(items)) {
			if !listed[m.Str] && matchTier(words, m.Str) != tierScattered {
				t.Errorf("%q leaves out %q, a match", q, m.Str)
			}
		}
	}
}

// How each way of matching reads, on one line.
func TestPaletteMatchTier(t *testing.T) {
	for _, c := range []struct {
		q, s string
		want int
	}{
		{"echo", "Echo (echo) Tool", tierPrefix},
		{"dark", "View › Theme › Dark Action", tierWordStart},
		{"weather", "Weather (get_weather) Tool", tierPrefix},
		{"bar", "fooBar Tool", tierWordStart}, // a capital after a small letter
		{"theme dark", "View › Theme › Dark Action", tierWords},
		{"vtd", "View › Theme › Dark Action", tierWords},
		{"get time", "get_time Tool", tierWords},
		{"th dk", "View › Theme › Dark Action", tierScattered}, // k is inside Dark
		{"eat", "Weather Tool", tierInside},
		{"time", "Image (get_image) Tool", tierScattered},
		{"time", "Settings › Event log memory Action", tierScattered},
		{"échec", "Échec Tool", tierPrefix},
	} {
		if got := matchTier(strings.Fields(strings.ToLower(c.q)), c.s); got != c.want {
			t.Errorf("%q in %q: rank %d, want %d", c.q, c.s, got, c.want)
		}
	}
}
