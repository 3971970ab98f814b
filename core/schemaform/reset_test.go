package schemaform

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// checkReset checks that a fresh state of form holds exactly what loading
// Defaults into an empty state gives (the one-pass reset against the
// definition).
func checkReset(t *testing.T, form *Form) {
	t.Helper()
	got := form.NewState()
	want := newEmpty(form.Root)
	want.set(Defaults(form.Root), false)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("NewState differs from the defaults loaded:\n got %s\nwant %s", valueJSON(got), valueJSON(want))
	}
	got.Set(Object())
	got.Reset()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Reset differs from the defaults loaded:\n got %s\nwant %s", valueJSON(got), valueJSON(want))
	}
}

func valueJSON(s *State) string {
	if v := s.Value(); v != nil {
		return string(v.JSON())
	}
	return "<nil>"
}

// TestResetMatchesDefaults runs checkReset over every schema in testdata
// and over some hand-picked defaults.
func TestResetMatchesDefaults(t *testing.T) {
	var schemas [][]byte
	files, _ := filepath.Glob("testdata/*/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, data)
		if c, err := ParseValue(data); err == nil && c.Get("schema") != nil {
			schemas = append(schemas, c.Get("schema").JSON())
		}
	}
	schemas = append(schemas, wideSchema(100),
		[]byte(`{"type":"object","default":{"a":1,"a":2,"z":3},"properties":{"a":{"type":"integer","default":5},"b":{"type":"string","default":"x"}}}`),
		[]byte(`{"type":"object","default":{},"properties":{"a":{"type":"integer"}}}`),
		[]byte(`{"type":"object","default":{},"properties":{"a":{"type":"integer","default":1}}}`),
		[]byte(`{"type":"object","default":"no","properties":{"a":{"type":"integer"}}}`),
		[]byte(`{"type":"object","default":"no","properties":{"a":{"type":"integer","default":1}}}`),
		[]byte(`{"type":"object","properties":{"a":{"type":"integer"},"a":{"type":"string","default":"d"}}}`),
		[]byte(`{"type":"object","properties":{"n":{"type":["object","null"],"properties":{"a":{"type":"integer","default":2}}}}}`),
		[]byte(`{"type":"object","properties":{"n":{"anyOf":[{"type":"null"},{"type":"object","default":{"q":1},"properties":{"a":{"default":2}}}]}}}`),
		[]byte(`{"type":"object","properties":{"o":{"type":"object","default":{"b":{"c":1}},"properties":{"b":{"type":"object","properties":{"c":{"type":"integer"},"d":{"default":4}}}}}}}`))
	for _, s := range schemas {
		form, err := Build(s)
		if err != nil {
			continue
		}
		checkReset(t, form)
	}
}
