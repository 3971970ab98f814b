package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

// Without a TesterStore or a RawConn (the fake backend), the Experimental
// screen still shows the server's capabilities and pre-fills the tester,
// says why the client capabilities cannot be saved, and Send says the
// connection cannot send raw requests instead of doing nothing.
func TestExperimentalScreenWithoutStore(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		if len(ss.exp.server.Objects) != 1 {
			t.Fatalf("%d server capabilities shown, want 1", len(ss.exp.server.Objects))
		}
		if c, ok := ss.exp.server.Objects[0].(*widget.Card); !ok || c.Title != "x.y" || !strings.Contains(texts(c), "Test") {
			t.Fatalf("server capability card %#v", ss.exp.server.Objects[0])
		}
		if c := texts(ss.exp.client); !strings.Contains(c, "cannot save") {
			t.Fatalf("client capabilities show %q", c)
		}
		ss.exp.onTest("x.y")
		if !strings.Contains(ss.tester.editor.Text, `"method": "x.y"`) {
			t.Fatalf("editor %q", ss.tester.editor.Text)
		}
		ss.tester.editor.SetText("{\n  \"method\": \"x.y\",,\n}")
		if !ss.tester.jsonErr.Visible() || !strings.HasPrefix(ss.tester.jsonErr.Text, "line 2, column 19:") {
			t.Fatalf("JSON error %q (shown %v)", ss.tester.jsonErr.Text, ss.tester.jsonErr.Visible())
		}
		if l, c := ss.tester.jsonEd.Problem(); l != 2 || c != 19 {
			t.Fatalf("the editor marks %d:%d, want the message's 2:19", l, c)
		}
		ss.tester.editor.SetText(`{"method": "x.y"}`)
		if ss.tester.jsonErr.Visible() {
			t.Fatal("the error stays on valid JSON")
		}
		if l, c := ss.tester.jsonEd.Problem(); l != 0 || c != 0 {
			t.Fatalf("the editor still marks %d:%d on valid JSON", l, c)
		}
		ss.tester.onSend()
	})
	waitFor(t, "the toast", func() bool {
		return strings.Contains(strings.Join(w.toasts.texts(), "\n"), "cannot send raw requests")
	})
	Sync(func() {
		if ss.tester.send.Disabled() {
			t.Fatal("Send stays disabled after a refused send")
		}
	})
}
