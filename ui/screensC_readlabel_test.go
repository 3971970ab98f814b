package ui

import (
	"strings"
	"testing"
)

// headLine is the first label's text under a content view: the line
// that names it.
func headLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestC_ReadContentsNamedByURIAndType: what resources/read returned is the
// resource itself, not a resource embedded in something, so each item is
// named by its URI and MIME type — in the Resources screen's pane, in the
// dialog a resource link opens, for a text, a blob and a text beyond
// bigText alike; "Embedded resource" appears nowhere.
func TestC_ReadContentsNamedByURIAndType(t *testing.T) {
	w, _, ss := connected(t, nil)
	r := ss.resources
	Sync(func() {
		for _, tc := range []struct {
			c    Content
			want string
		}{
			{Content{Type: "text", URI: "demo://readme", MIMEType: "text/markdown", Text: "# Readme\n\nhello"}, "demo://readme · text/markdown"},
			{Content{Type: "resource", URI: "demo://logo", MIMEType: "image/x-raw", Data: []byte{1, 2}}, "demo://logo · image/x-raw"},
			{Content{Type: "text", URI: "demo://big", MIMEType: "text/plain", Text: strings.Repeat("line of text\n", bigText/10)}, "demo://big · text/plain"},
			{Content{Type: "text", URI: "demo://untyped", Text: "plain"}, "demo://untyped"},
		} {
			s := texts(ss.readContentView(tc.c))
			if got := headLine(s); got != tc.want {
				t.Errorf("%s is named %q, want %q", tc.c.URI, got, tc.want)
			}
			if strings.Contains(s, "Embedded resource") {
				t.Errorf("%s read is called an embedded resource:\n%.300s", tc.c.URI, s)
			}
		}
		_ = w.ShowScreenNow("Resources")
		r.list.Select(1) // fake://bin, a blob
	})
	waitFor(t, "the blob read", func() bool { return strings.Contains(texts(r.content), "3 bytes") })
	Sync(func() {
		s := texts(r.content)
		if !strings.Contains(s, "fake://bin · application/octet-stream\n") || strings.Contains(s, "Embedded resource") {
			t.Errorf("the Resources pane shows the read blob as\n%s", s)
		}
		ss.openResource("fake://bin") // a resource link's Open
	})
	waitFor(t, "the resource link's dialog", func() bool {
		o := w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "3 bytes")
	})
	Sync(func() {
		s := texts(w.win.Canvas().Overlays().Top())
		if !strings.Contains(s, "fake://bin · application/octet-stream\n") || strings.Contains(s, "Embedded resource") {
			t.Errorf("the resource link's dialog shows the read blob as\n%s", s)
		}
	})
}

// TestC_EmbeddedResourceKeepsItsLabel: a resource embedded in a tool
// result or a prompt message is still called one, small or beyond
// bigText, text or bytes.
func TestC_EmbeddedResourceKeepsItsLabel(t *testing.T) {
	_, _, ss := connected(t, nil)
	Sync(func() {
		for _, c := range []Content{
			{Type: "resource", URI: "demo://readme", MIMEType: "text/markdown", Text: "# Readme"},
			{Type: "resource", URI: "demo://blob", MIMEType: "application/octet-stream", Data: []byte{1}},
			{Type: "resource", URI: "demo://big", MIMEType: "text/plain", Text: strings.Repeat("line of text\n", bigText/10)},
		} {
			want := "Embedded resource " + c.URI
			if got := headLine(texts(ss.resultContentView(c))); got != want {
				t.Errorf("in a tool result %s is named %q, want %q", c.URI, got, want)
			}
			if got := headLine(texts(ss.contentView(c))); got != want {
				t.Errorf("in a prompt message %s is named %q, want %q", c.URI, got, want)
			}
		}
	})
}
