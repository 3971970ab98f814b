package ui

import (
	"strings"
	"testing"
)

// TestArgumentProblemsInWords: a missing argument reads "who is
// required" at the prompt's field, and the list a tool's "Send invalid
// arguments?" asks about says "message is required", not the JSON
// pointer and schema word "/message: required".
func TestArgumentProblemsInWords(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		ss.prompts.list.Select(0) // p, whose who is required
		ss.prompts.onGet()
		if s := texts(ss.prompts.formBox); !strings.Contains(s, "who is required") {
			t.Errorf("the prompt's form says\n%s\nwant \"who is required\" at the field", s)
		}
		ed := w.newArgsEditor([]byte(`{"type":"object","properties":{"message":{"type":"string"},"n":{"type":"integer","minimum":1}},"required":["message"]}`), []byte(`{"n":0}`), func() {})
		probs := ed.(interface{ Problems() []string }).Problems()
		if got := strings.Join(probs, "\n"); got != "message is required\nn must be at least 1" {
			t.Errorf("the tool's problems read\n%s", got)
		}
	})
}
