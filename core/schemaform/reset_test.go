package schemaform

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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

// TestGetIndexed checks Get on objects large enough to be indexed,
// duplicate names included (the last one wins).
func TestGetIndexed(t *testing.T) {
	for _, n := range []int{17, 100, 3000} {
		var b []byte
		b = append(b, '{')
		for i := range n {
			b = fmt.Appendf(b, `"k%d":%d,"dup":%d,`, i, i, i)
		}
		b = append(b, `"":"empty"}`...)
		v, err := ParseValue(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if g := v.Get(fmt.Sprintf("k%d", i)); g == nil || string(g.Num()) != strconv.Itoa(i) {
				t.Fatalf("n=%d: Get(k%d) = %v", n, i, g)
			}
		}
		if g := v.Get("dup"); g == nil || string(g.Num()) != strconv.Itoa(n-1) {
			t.Fatalf("n=%d: Get(dup) = %v", n, g)
		}
		if g := v.Get(""); g == nil || g.Str != "empty" {
			t.Fatalf("n=%d: Get(\"\") = %v", n, g)
		}
		if v.Get("absent") != nil || v.Get("k") != nil {
			t.Fatalf("n=%d: Get of a missing name", n)
		}
	}
}

// TestParseShortWideObject parses objects of 17 to 64 members written
// in fewer than 32 bytes per member, which once overran the member slab.
func TestParseShortWideObject(t *testing.T) {
	for n := 17; n <= 70; n++ {
		b := []byte{'{'}
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `"%d":0`, i)
		}
		b = append(b, '}')
		v, err := ParseValue(b)
		if err != nil || len(v.Members) != n || v.Get(strconv.Itoa(n-1)) == nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if _, err := Build(fmt.Appendf(nil, `{"type":"object","properties":%s}`, b)); err != nil {
			t.Fatal(err)
		}
	}
}
