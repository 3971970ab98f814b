package catalog

import (
	"errors"
	"strings"
	"testing"
)

func TestRootURI(t *testing.T) {
	for _, tc := range []struct{ path, uri string }{
		{"/home/me/project", "file:///home/me/project"},
		{"/home/me/My Project ä", "file:///home/me/My%20Project%20%C3%A4"},
		{"/tmp/a#b", "file:///tmp/a%23b"},
		{"/tmp/100%", "file:///tmp/100%25"},
		{"/tmp/q?x", "file:///tmp/q%3Fx"},
	} {
		if got := RootURI(tc.path); got != tc.uri {
			t.Errorf("RootURI(%q) = %q, want %q", tc.path, got, tc.uri)
		}
		if got, err := RootPath(tc.uri); err != nil || got != tc.path {
			t.Errorf("RootPath(%q) = %q, %v; want %q", tc.uri, got, err, tc.path)
		}
	}
}

func TestRootPathOldAndForeign(t *testing.T) {
	// written the old way: the path as is after file://
	for raw, path := range map[string]string{
		"file:///home/me/My Project ä": "/home/me/My Project ä",
		"file:///tmp/a#b":              "/tmp/a#b",
		"file:///tmp/100%":             "/tmp/100%",
		"file:///tmp/50%off":           "/tmp/50%off",
	} {
		if got, err := RootPath(raw); err != nil || got != path {
			t.Errorf("RootPath(%q) = %q, %v; want %q", raw, got, err, path)
		}
		if got, want := NormalizeRootURI(raw), RootURI(path); got != want {
			t.Errorf("NormalizeRootURI(%q) = %q, want %q", raw, got, want)
		}
	}
	for _, uri := range []string{"https://example.com/x", "file://server/share", "/plain/path"} {
		if _, err := RootPath(uri); !errors.Is(err, ErrNotFileURI) {
			t.Errorf("RootPath(%q): %v, want ErrNotFileURI", uri, err)
		}
		if got := NormalizeRootURI(uri); got != uri {
			t.Errorf("NormalizeRootURI(%q) = %q, want it unchanged", uri, got)
		}
	}
	if got := NormalizeRootURI("file://localhost/a%20b"); got != "file:///a%20b" {
		t.Errorf("localhost form: %q", got)
	}
}

func TestRawRootsReadEncodedAndRewritten(t *testing.T) {
	doc := `{"mcpServers": {"a": {"command": "x", "roots": [{"uri": "file:///home/me/My Project ä", "name": "p"}, {"uri": "file:///ok%20already"}]}}}`
	c := mustParse(t, doc)
	s, _ := c.Get("a")
	want := []Root{{URI: "file:///home/me/My%20Project%20%C3%A4", Name: "p"}, {URI: "file:///ok%20already"}}
	if len(s.Roots) != 2 || s.Roots[0] != want[0] || s.Roots[1] != want[1] {
		t.Fatalf("roots read as %+v, want %+v", s.Roots, want)
	}
	if string(c.Bytes()) != doc {
		t.Fatal("an untouched entry must keep its bytes")
	}
	s.Cwd = "/w"
	if err := c.Put("a", s); err != nil {
		t.Fatal(err)
	}
	got := string(c.Bytes())
	if strings.Contains(got, "My Project") || !strings.Contains(got, `"file:///home/me/My%20Project%20%C3%A4"`) {
		t.Fatalf("an edited entry must write its roots encoded:\n%s", got)
	}
	c2 := mustParse(t, got)
	if s2, _ := c2.Get("a"); s2.Roots[0] != want[0] {
		t.Fatalf("re-read: %+v", s2.Roots)
	}
}
