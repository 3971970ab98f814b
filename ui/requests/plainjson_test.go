package requests

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// goWords are encoding/json's words, which no message of the panel says.
var goWords = []string{"invalid character", "looking for", "JSON input", "unmarshal", "Go struct", "unexpected EOF"}

func inGoWords(s string) bool {
	for _, g := range goWords {
		if strings.Contains(s, g) {
			return true
		}
	}
	return false
}

// brokenStore is a profile store whose file is not valid JSON.
type brokenStore struct{ fakeStore }

func (s *brokenStore) Load() (ProfileSet, error) {
	var v any
	err := json.Unmarshal([]byte(`{"active": "Quick Mock",}`), &v)
	return s.set.clone(), fmt.Errorf("read sampling profiles: %w", err)
}

// TestRequestsJSONErrorsInPlainWords: a sampling request whose params
// are not what MCP says, a tool call's arguments that are not a JSON
// object and a profiles file that is not JSON each say what is wrong in
// plain words (ui/plain, as the window does), never in Go's.
func TestRequestsJSONErrorsInPlainWords(t *testing.T) {
	p, _ := newSampling(t, SamplingRequest{Server: "s", ID: "1", Params: json.RawMessage(`{"messages": [], "maxTokens": "many"}`)}, testProfiles())
	shown := texts(p.Object())
	if !strings.Contains(shown, `The params could not be read. "maxTokens" is text where a number is expected`) || inGoWords(shown) {
		t.Errorf("bad params read:\n%s", shown)
	}
	test.Tap(button(t, p.Object(), "View Details"))
	if d := texts(p.Details()); !strings.Contains(d, `"maxTokens" is text where a number is expected`) || inGoWords(d) {
		t.Errorf("the details of bad params read:\n%s", d)
	}

	p, got := newSampling(t, toolSampling(), testProfiles())
	p.stop.SetSelected(StopToolUse)
	test.Tap(button(t, p.Object(), "Add tool call"))
	for args, want := range map[string]string{
		`{"city": `:        "Tool call 1 (get_weather): the arguments are not a JSON object. This is not valid JSON: it ends too early",
		`{"city": Paris}`:  "This is not valid JSON: unexpected character 'P'",
		`["Paris"]`:        "A value is a list where an object is expected",
		`{"city" "Paris"}`: "expected ':' after the member name",
	} {
		p.callRows[0].args.SetText(args)
		test.Tap(button(t, p.Object(), "Edit & Send"))
		if len(*got) != 0 || !strings.Contains(p.errLbl.Text, want) || inGoWords(p.errLbl.Text) {
			t.Errorf("arguments %s: sent %d, the panel says %q, want %q", args, len(*got), p.errLbl.Text, want)
		}
	}

	newApp(t)
	e := NewProfilesEditor(&brokenStore{fakeStore{set: testProfiles()}})
	if msg := e.errLbl.Text; !strings.Contains(msg, "The saved profiles could not be read. This is not valid JSON: expected a member name in double quotes, found '}'") || inGoWords(msg) {
		t.Errorf("a profiles file that is not JSON reads %q", msg)
	}
}
