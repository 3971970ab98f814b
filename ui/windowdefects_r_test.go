package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/spyglass-mcp/spyglass/ui/fit"
)

// TestIdentLinesBreakOnlyAfterSeparators: a name is cut only after a
// '_', '-' or '.', and a part wider than the line alone by character.
func TestIdentLinesBreakOnlyAfterSeparators(t *testing.T) {
	ten := func(s string) float32 { return float32(10 * len([]rune(s))) } // 10 px a character
	for _, c := range []struct {
		name  string
		width float32
		want  []string
	}{
		{"trigger-elicitation-request", 1000, []string{"trigger-elicitation-request"}},
		{"trigger-elicitation-request", 150, []string{"trigger-", "elicitation-", "request"}},
		{"get_weather.v2-beta", 120, []string{"get_weather.", "v2-beta"}},
		{"abcdefghij", 40, []string{"abcd", "efgh", "ij"}}, // no separator: no choice
		{"file:///docs/architecture.md", 150, []string{"file:///docs/", "architecture.md"}},
		{"→ demo://items/7?view=full", 140, []string{"→ demo://", "items/7?view=", "full"}},
		{"", 100, []string{""}},
	} {
		got := fit.IdentLines(c.name, c.width, ten)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q at %v px: %q, want %q", c.name, c.width, got, c.want)
		}
	}
}

// TestToolHeadingKeepsTheNameWhole: at 1024×700 a tool with a title and a
// long name heads its form with the title, and the name under it breaks
// only after its separators — the heading "Weather (trigger-elicitation-
// reques t)" broke inside a word (#12). A name with no title is the
// heading itself, broken the same way.
func TestToolHeadingKeepsTheNameWhole(t *testing.T) {
	w, _, ss := connected(t, nil)
	long := "trigger-elicitation-request_with_a_rather_long.name-that-does-not-fit-on-one-line-of-the-form-at-this-width"
	for _, tool := range []Tool{{Name: long, Title: "Weather"}, {Name: "untitled-" + long}} {
		Sync(func() {
			w.win.Resize(fyne.NewSize(1024, 700))
			ss.tools.onSelect(tool)
		})
		Sync(func() {
			tl := ss.tools
			if tool.Title != "" && (!tl.name.Visible() || tl.name.Text != "Weather" || tl.ident.Heading) {
				t.Errorf("the title reads %q (shown %v), the name as a heading %v", tl.name.Text, tl.name.Visible(), tl.ident.Heading)
			}
			if tool.Title == "" && (tl.name.Visible() || !tl.ident.Heading) {
				t.Errorf("a tool without a title: title label shown %v, name as heading %v", tl.name.Visible(), tl.ident.Heading)
			}
			if tl.ident.Size().Width <= 0 || tl.ident.Size().Width > 1024 {
				t.Fatalf("the name is %v px wide", tl.ident.Size().Width)
			}
			lines := tl.ident.Lines()
			if len(lines) < 2 || strings.Join(lines, "") != tool.Name {
				t.Fatalf("at %v px the name is laid out as %q", tl.ident.Size().Width, lines)
			}
			for _, l := range lines[:len(lines)-1] {
				if !strings.ContainsAny(l[len(l)-1:], "_-.") {
					t.Errorf("the name breaks inside a word: %q", lines)
					break
				}
			}
			for _, l := range lines {
				if wd := tl.ident.Measure(l) + 2*theme.InnerPadding(); wd > tl.ident.Size().Width+0.5 {
					t.Errorf("the line %q needs %v px of %v", l, wd, tl.ident.Size().Width)
				}
			}
			if h := tl.ident.MinSize().Height; h < float32(len(lines))*tl.ident.LineHeight() {
				t.Errorf("%d lines get %v px: they overlap what follows", len(lines), h)
			}
		})
	}
}

// TestHeaderNamesTheActiveScreen: the server's header names the screen
// shown, so one picked from the tab bar's "…" (Logs, Roots, Server info,
// Experimental, History at 1024 px, which Fyne's overflow button never
// names) is still named on screen (#12).
func TestHeaderNamesTheActiveScreen(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() { w.win.Resize(fyne.NewSize(1024, 700)) })
	for _, name := range []string{"Tools", "Logs", "Server info", "History", "Resources"} {
		Sync(func() {
			for _, ti := range ss.tabs.Items {
				if ti.Text == name {
					ss.tabs.Select(ti)
				}
			}
			if got := ss.where.Text; !ss.where.Visible() || got != "› "+name {
				t.Errorf("with %s shown the header names %q", name, got)
			}
			if !strings.Contains(texts(ss.obj), "› "+name+"\n") {
				t.Errorf("the header with %s shown is not on screen: %q", name, texts(ss.obj))
			}
		})
	}
}

// TestTemplateBadgesClearTheScrollBar: the Resources list's rows end a
// scroll bar's width before the list's edge, so the bar Fyne draws over
// the list does not cover a row's "template" badge (#12).
func TestTemplateBadgesClearTheScrollBar(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		w.win.Resize(fyne.NewSize(1024, 700))
		ss.tabs.SelectIndex(1)
	})
	Sync(func() {
		r := ss.resources
		d := fyne.CurrentApp().Driver()
		n := 0
		walkVisible(r.list, func(o fyne.CanvasObject) {
			b, ok := o.(*badge)
			if !ok || b.text != "template" {
				return
			}
			n++
			end := d.AbsolutePositionForObject(b).X + b.Size().Width - d.AbsolutePositionForObject(r.list).X
			if edge := r.list.Size().Width - theme.ScrollBarSize(); end > edge {
				t.Errorf("a template badge ends at %v, past %v where the scroll bar starts", end, edge)
			}
		})
		if n == 0 {
			t.Fatal("no template badge in the list")
		}
	})
}

// TestResourceURIBreaksAfterItsSlashes: at 1024×700 a resource's long URI
// under its name wraps after a '/' (or another separator), never inside a
// name: "file:///…/documen" and "t/architecture.md" read as two wrong
// paths (#12). Its description is a line of its own, wrapped at words.
func TestResourceURIBreaksAfterItsSlashes(t *testing.T) {
	w, _, ss := connected(t, nil)
	uri := "file:///home/someone/projects/a-rather-long-folder-name/documentation/architecture/overview-of-the-system.md"
	res := Resource{URI: uri, Name: "overview", Description: "How the parts fit together"}
	Sync(func() {
		w.win.Resize(fyne.NewSize(1024, 700))
		ss.selectTab("Resources")
	})
	Sync(func() { ss.resources.onSelect(resRow{res: &res}) })
	Sync(func() {
		r := ss.resources
		lines := r.uri.Lines()
		if len(lines) < 2 || strings.Join(lines, "") != uri {
			t.Fatalf("at %v px the URI is laid out as %q", r.uri.Size().Width, lines)
		}
		for _, l := range lines[:len(lines)-1] {
			if !strings.ContainsAny(l[len(l)-1:], fit.IdentSeparators) {
				t.Errorf("a line of the URI ends inside a name: %q (lines %q)", l, lines)
			}
		}
		if r.desc.Text != res.Description || !r.desc.Visible() {
			t.Errorf("the description reads %q (shown %v)", r.desc.Text, r.desc.Visible())
		}
	})
}
