package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// TestJSONContentIsMonospace: a JSON resource's contents (typed
// application/json, or untyped text that is a JSON object or array, as a
// tool's text result often is) are shown indented in the monospace text
// style, as raw JSON is everywhere; prose and markdown are not.
func TestJSONContentIsMonospace(t *testing.T) {
	_, _, ss := connected(t, nil)
	// the label that shows the content (an embedded resource's has its
	// URI's above)
	labelOf := func(o fyne.CanvasObject) *widget.Label {
		var l *widget.Label
		walkVisible(o, func(o fyne.CanvasObject) {
			if x, ok := o.(*widget.Label); ok && l == nil && !strings.HasPrefix(x.Text, "Embedded resource") {
				l = x
			}
		})
		return l
	}
	Sync(func() {
		for _, c := range []Content{
			{Type: "resource", URI: "file:///config.json", MIMEType: "application/json", Text: `{"name":"demo","tags":["a","b"]}`},
			{Type: "resource", URI: "file:///v.json", MIMEType: "application/vnd.api+json; charset=utf-8", Text: `{"name":"demo"}`},
			{Type: "text", Text: `[{"name":"demo"}]`},
		} {
			l := labelOf(ss.resultContentView(c))
			switch {
			case l == nil:
				t.Errorf("%s: no label", c.Text)
			case !l.TextStyle.Monospace:
				t.Errorf("%s is shown in the proportional font", c.Text)
			case !strings.Contains(l.Text, "\n  "):
				t.Errorf("%s is not indented: %q", c.Text, l.Text)
			}
		}
		for _, c := range []Content{
			{Type: "text", Text: "Echo: hello"},
			{Type: "text", Text: "{not json, a sentence in braces}"},
		} {
			if l := labelOf(ss.resultContentView(c)); l == nil || l.TextStyle.Monospace || l.Text != c.Text {
				t.Errorf("%q is shown as %+v, want its text in the proportional font", c.Text, l)
			}
		}
		if _, ok := textView("# Title\n\nsome **bold** text", "text/markdown").(*widget.RichText); !ok {
			t.Error("markdown is not rendered")
		}
	})
}
