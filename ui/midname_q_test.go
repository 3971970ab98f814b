package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// TestMiddleFit: a name that fits is whole; one that does not keeps its
// head and tail around "…", as long as fits, never wider than allowed.
func TestMiddleFit(t *testing.T) {
	perRune := func(s string) float32 { return float32(utf8.RuneCountInString(s)) * 10 }
	cases := []struct {
		s     string
		width float32
		want  string
	}{
		{"memory", 100, "memory"},
		{"filesystem-server-demo", 220, "filesystem-server-demo"},
		{"filesystem-server-demo", 120, "filesy…-demo"},
		{"everything-server-demo", 100, "every…demo"},
		{"äöü-server-ß", 60, "äöü…-ß"},
	}
	for _, c := range cases {
		got := middleFit(c.s, c.width, perRune)
		if got != c.want {
			t.Errorf("middleFit(%q, %v) = %q, want %q", c.s, c.width, got, c.want)
		}
		if perRune(got) > c.width && got != c.s {
			t.Errorf("middleFit(%q, %v) = %q is wider than allowed", c.s, c.width, got)
		}
	}
}

// TestDistinctFit: a cut spends its room on the runes that tell a name
// from the others beside it, and is an even split when nothing is shared.
func TestDistinctFit(t *testing.T) {
	perRune := func(s string) float32 { return float32(utf8.RuneCountInString(s)) * 10 }
	cases := []struct {
		s      string
		others []string
		width  float32
		want   string
	}{
		{"filesystem-server-default", []string{"everything-server-default"}, 170, "filesystem-serve…"},
		{"everything-default", []string{"filesystem-default", "everything-default"}, 90, "everythi…"},
		{"mcp-filesystem-default", []string{"mcp-everything-default"}, 130, "mcp-filesyst…"},
		{"server-filesystem", []string{"server-everything"}, 120, "…-filesystem"},
		{"filesystem-server-demo", []string{"memory"}, 120, "filesy…-demo"},
		{"slack", []string{"sentry"}, 40, "sl…k"},
		{"memory", []string{"memory-two"}, 50, "me…ry"},
	}
	for _, c := range cases {
		head, tail := sharedEnds(c.s, c.others)
		got := distinctFit(c.s, head, tail, c.width, perRune)
		if got != c.want {
			t.Errorf("distinctFit(%q beside %q, %v) = %q, want %q", c.s, c.others, c.width, got, c.want)
		}
		if perRune(got) > c.width {
			t.Errorf("distinctFit(%q, %v) = %q is wider than allowed", c.s, c.width, got)
		}
	}
}

// TestServerCardNamesCutApart: at 1024×700 two names that end alike are
// cut where they differ, not in the part they share.
func TestServerCardNamesCutApart(t *testing.T) {
	names := []string{"filesystem-for-the-team-default", "everything-for-the-team-default"}
	w := newTestWindow(t, newFakeBackend(names...), nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1024, 700)) })
	Sync(func() {
		for _, n := range names {
			got := w.list.cards[w.server(n)].name.Text
			if !strings.Contains(got, "…") || !strings.HasPrefix(got, n[:len("filesystem")]) {
				t.Errorf("%q shows as %q, want its whole head, which tells it from the other", n, got)
			}
		}
	})
}

// TestServerCardLongName: at 1280×800 a long server name that does not
// fit its card keeps both ends ("everything…team-demo"), a short one is
// whole, and the pointer over the cut one shows the whole name.
func TestServerCardLongName(t *testing.T) {
	long := "everything-server-for-the-whole-team-demo"
	w := newTestWindow(t, newFakeBackend(long, "memory"), nil)
	Sync(func() {
		c := w.list.cards[w.server(long)]
		got := c.name.Text
		if got == long || !strings.HasPrefix(got, "everything") || !strings.HasSuffix(got, "-demo") || !strings.Contains(got, "…") {
			t.Errorf("the long name shows as %q, want its head and tail around …", got)
		}
		if need := fyne.MeasureText(got, theme.TextSize(), c.name.TextStyle).Width + 2*theme.InnerPadding(); c.name.Size().Width+0.5 < need {
			t.Errorf("%q needs %.0f px, has %.0f", got, need, c.name.Size().Width)
		}
		short := w.list.cards[w.server("memory")]
		if short.name.Text != "memory" {
			t.Errorf("the short name shows as %q", short.name.Text)
		}
		h := c.nameFit.MinSize().Height
		c.nameFit.MouseIn(nil)
		if c.name.SizeName != theme.SizeNameCaptionText || len([]rune(c.name.Text)) <= len([]rune(got)) {
			t.Errorf("under the pointer the name reads %q at %q, want more of it in the caption size", c.name.Text, c.name.SizeName)
		}
		if c.nameFit.MinSize().Height != h {
			t.Errorf("the name's row changes height under the pointer: %v → %v", h, c.nameFit.MinSize().Height)
		}
		c.nameFit.MouseOut()
		if c.name.Text != got || c.name.SizeName == theme.SizeNameCaptionText {
			t.Errorf("after the pointer left the name reads %q at %q, want %q as before", c.name.Text, c.name.SizeName, got)
		}
	})
}
