package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

func TestJSONErrorText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": 1}`, ""},
		{"{\n  \"a\": ,\n}", "line 2, column 8: unexpected character ','"},
		{"{\n  \"a\": 1\n", "line 3, column 1: it ends too early (a closing bracket, brace or quote is missing)"},
		{`{"a" 1}`, "line 1, column 6: expected ':' after the member name, found '1'"},
		{"", "line 1, column 1: the request is empty"},
		{"{\"é\": x}", "line 1, column 7: unexpected character 'x'"},
	} {
		got := jsonErrorText(c.in)
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("jsonErrorText(%q) = %q, want %q…", c.in, got, c.want)
		}
	}
}

func TestParseRequest(t *testing.T) {
	m, p, err := parseRequest(`{"jsonrpc":"2.0","id":99,"method":"x/y","params":{"_meta":{"progressToken":"t"}}}`)
	if err != nil || m != "x/y" || string(p) != `{"_meta":{"progressToken":"t"}}` {
		t.Fatalf("got %q %s %v", m, p, err)
	}
	if m, p, err = parseRequest(`{"method":"ping","params":null}`); err != nil || m != "ping" || p != nil {
		t.Fatalf("null params: %q %s %v", m, p, err)
	}
	for in, want := range map[string]string{
		`{"params":{}}`:  `no "method"`,
		`[1]`:            "must be a JSON object",
		`{"method": 1,}`: "line 1, column 14",
	} {
		if _, _, err := parseRequest(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseRequest(%s) = %v, want %q", in, err, want)
		}
	}
}

func TestRequestTemplate(t *testing.T) {
	got := requestTemplate("tools/call")
	m, p, err := parseRequest(got)
	if err != nil || m != "tools/call" || !strings.Contains(string(p), `"arguments"`) {
		t.Fatalf("template %s: %q %s %v", got, m, p, err)
	}
	if m, _, _ := parseRequest(requestTemplate("vendor/custom")); m != "vendor/custom" {
		t.Fatalf("custom method template: %q", m)
	}
}

func TestExperimentalCaps(t *testing.T) {
	caps := experimentalCaps([]byte(`{"tools":{},"experimental":{"z.stream":{"description":"Enhanced streaming","methods":["stream/start","stream/stop"]},"a.plain":{"on":true}}}`))
	if len(caps) != 2 || caps[0].Name != "a.plain" || caps[1].Description != "Enhanced streaming" || strings.Join(caps[1].Methods, ",") != "stream/start,stream/stop" {
		t.Fatalf("%+v", caps)
	}
	if n := len(experimentalCaps([]byte(`{"tools":{}}`))); n != 0 {
		t.Fatalf("%d experimental capabilities in none", n)
	}
}

// TestTesterSendHoldsStill: Send Request stays where it was when the live
// parse error appears under the editor, so a click aimed at it lands (the
// new-user walk missed it by 39 px).
func TestTesterSendHoldsStill(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		if ss.tester.obj == nil {
			t.Fatal("the tester has no content")
		}
		w.win.SetContent(ss.tester.obj)
		w.win.Resize(fyne.NewSize(900, 1400))
		d := fyne.CurrentApp().Driver()
		before := d.AbsolutePositionForObject(ss.tester.send)
		ss.tester.editor.SetText("{\n  \"method\": \"ping\",,\n}")
		if !ss.tester.jsonErr.Visible() {
			t.Fatal("no parse error shown for broken JSON")
		}
		w.win.Content().Refresh()
		if after := d.AbsolutePositionForObject(ss.tester.send); after != before {
			t.Errorf("Send Request moved from %v to %v when the parse error appeared", before, after)
		}
		ss.tester.editor.SetText(`{"method": "ping"}`)
		if after := d.AbsolutePositionForObject(ss.tester.send); after != before {
			t.Errorf("Send Request moved from %v to %v when the parse error went", before, after)
		}
	})
}
