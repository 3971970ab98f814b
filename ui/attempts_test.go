package ui

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestArgumentDiffs: the hops of a tool call's arguments are compared the
// way core/sessiondiff compares messages, one line a path; a form field
// whose text is not what was parsed says so, one that was not sent too.
func TestArgumentDiffs(t *testing.T) {
	got := jsonDiffs(json.RawMessage(`{"message":"a","n":1,"list":[1,2]}`), json.RawMessage(`{"message":"b","x":true,"list":[1,2],"n":1.0}`))
	want := []string{`added /x: true`, `changed /message: "a" → "b"`, `changed /n: 1 → 1.0`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("jsonDiffs = %q, want %q", got, want)
	}
	if got := jsonDiffs(json.RawMessage(`{"a":1}`), json.RawMessage(` {"a": 1} `)); len(got) != 0 {
		t.Errorf("the same arguments differ: %q", got)
	}
	if got := jsonDiffs(nil, json.RawMessage(`{}`)); !reflect.DeepEqual(got, []string{`added (the whole message): {}`}) {
		t.Errorf("no arguments against {}: %q", got)
	}

	ent := &enteredArgs{Mode: "form", Parsed: json.RawMessage(`{"n":7.50,"s":"x","o":{"k~/":"v"}}`), Fields: []enteredField{
		{"/n", "7.5"}, {"/s", "x"}, {"/o/k~0~1", "v"}, {"/gone", "y"},
	}}
	want = []string{`/n: entered "7.5", parsed 7.50`, `/gone: entered "y", not sent`}
	if got := enteredDiffs(ent); !reflect.DeepEqual(got, want) {
		t.Errorf("enteredDiffs = %q, want %q", got, want)
	}
}
