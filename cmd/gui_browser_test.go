package cmd

import (
	"net/url"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/ui"
)

// TestOpenBrowserSaysWhy: the window's opener reports, in plain words,
// why a real browser command did not take the URL — a command that is
// not on $PATH, one that exits with a failure (its last line of output
// kept) — and nil for one that did.
func TestOpenBrowserSaysWhy(t *testing.T) {
	test.NewTempApp(t)
	u, _ := url.Parse("https://example.com/consent")
	for _, c := range []struct{ browser, want string }{
		{"true", ""},
		{"spyglass-no-such-browser", "The command spyglass-no-such-browser was not found (set $BROWSER to your browser's command)"},
		{"/nonexistent/browser", "The command /nonexistent/browser was not found (set $BROWSER to your browser's command)"},
		{`sh -c 'echo first; echo "no browser here" >&2; exit 3'`, `The command sh -c 'echo first; echo "no browser here" >&2; exit 3' exited with status 3: no browser here`},
	} {
		t.Run(c.browser, func(t *testing.T) {
			t.Setenv("BROWSER", c.browser)
			got := make(chan error, 1)
			ui.Sync(func() { openBrowser(u, func(err error) { got <- err }) })
			err := <-got
			switch {
			case c.want == "" && err != nil:
				t.Errorf("error %q, want the URL taken", err)
			case c.want != "" && (err == nil || err.Error() != c.want):
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}
