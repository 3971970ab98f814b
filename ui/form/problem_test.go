package form

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestProblemsInWords: a problem reads in words wherever the form or its
// owner shows it — at the field ("message is required", not the bare
// "required"), in the list a tool's "Send invalid arguments?" asks about
// and under the JSON editor ("message is required", not "/message:
// required"), naming a nested value by the labels the form shows.
func TestProblemsInWords(t *testing.T) {
	const schema = `{
	  "type": "object",
	  "properties": {
	    "message": {"type": "string"},
	    "count":   {"type": "integer", "minimum": 1},
	    "events":  {"type": "array", "title": "Events", "items": {"type": "object",
	      "properties": {"when": {"type": "string", "format": "date"}}}}
	  },
	  "required": ["message"],
	  "additionalProperties": false
	}`
	f, _ := newForm(t, schema, nil)
	if err := f.SetValues(json.RawMessage(`{"count":0,"events":[{"when":"2024-01-02"},{"when":"soon"}]}`)); err != nil {
		t.Fatal(err)
	}
	issues := f.Validate()
	var words []string
	for _, is := range issues {
		words = append(words, f.Problem(is))
	}
	got := strings.Join(words, "\n")
	for _, want := range []string{"message is required", "count must be at least 1", "Events › #2 › when: not a date (YYYY-MM-DD)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the problems read\n%s\nwant %q among them", got, want)
		}
	}
	if strings.Contains(got, "/") {
		t.Errorf("a problem names its value by a JSON pointer:\n%s", got)
	}
	msg, _ := f.state.Find("/message")
	if r := f.rows[msg]; r.err.Text != "message is required" {
		t.Errorf("under the message field: %q, want %q", r.err.Text, "message is required")
	}

	// the JSON editor's list names values the same way
	if err := f.setMode(true); err != nil {
		t.Fatal(err)
	}
	f.setJSONText(`{"count": 1, "other": true}`)
	f.Validate()
	if s := f.jsonErr.Text; !strings.Contains(s, "message is required") || strings.Contains(s, "/message") ||
		!strings.Contains(s, "additional property not allowed: other") {
		t.Errorf("under the JSON editor: %q", s)
	}
}
