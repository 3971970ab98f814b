package ui

import "testing"

// TestTailFit: the end of a command line or URL is kept, and a label with
// no room shows nothing rather than its whole text over its neighbours
// (the failed HTTP card at 1024×700 drew its URL across the state beside it).
func TestTailFit(t *testing.T) {
	measure := func(s string) float32 { return float32(len([]rune(s))) * 10 }
	for _, tc := range []struct {
		s     string
		width float32
		want  string
	}{
		{"http://127.0.0.1:9/mcp", 300, "http://127.0.0.1:9/mcp"},
		{"http://127.0.0.1:9/mcp", 60, "…9/mcp"},
		{"http://127.0.0.1:9/mcp", 5, ""},
		{"http://127.0.0.1:9/mcp", 0, ""},
		{"http://127.0.0.1:9/mcp", -12, ""},
		{"", 0, ""},
		// the text's own ellipsis is the cut's: not "……/b/c.js x"
		{"node …/b/c.js x", 120, "…/b/c.js x"},
		{"ab cdef", 50, "…cdef"}, // not "… cdef"
	} {
		if got := tailFit(tc.s, tc.width, measure); got != tc.want {
			t.Errorf("tailFit(%q, %v) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// TestHeadFit: the start of a row's title is kept, cut with "…", within
// the width; a text that fits stays whole.
func TestHeadFit(t *testing.T) {
	measure := func(s string) float32 { return float32(len([]rune(s))) * 10 }
	for _, tc := range []struct {
		s     string
		width float32
		want  string
	}{
		{"tools/call #7", 300, "tools/call #7"},
		{"tools/call #7", 60, "tools…"},
		{"tools/call #7", 5, "…"},
		{"", 0, ""},
	} {
		if got := headFit(tc.s, tc.width, measure); got != tc.want {
			t.Errorf("headFit(%q, %v) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
