package schemaform

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FuzzBuild feeds arbitrary schemas and values to the parser, the field
// model builder, the value builder and both validators. None may panic or
// hang; a document loaded into a form must come back out unchanged.
func FuzzBuild(f *testing.F) {
	files, _ := filepath.Glob("testdata/cases/*.json")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		c, err := ParseValue(data)
		if err != nil {
			continue
		}
		schema := c.Get("schema").JSON()
		f.Add(schema, []byte(`{}`))
		for _, r := range c.Get("runs").Items {
			if set := r.Get("set"); set != nil {
				f.Add(schema, set.JSON())
			}
		}
	}
	f.Add([]byte(`{"$ref":"#"}`), []byte(`{"a":[1,2,{"b":null}]}`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"number","multipleOf":1e-300}}}`), []byte(`{"a":1e300}`))
	f.Add([]byte(`{"anyOf":[{"$ref":"#/anyOf/0"}]}`), []byte(`"x"`))
	f.Add([]byte(`[`), []byte(`"\ud800"`))
	f.Fuzz(func(t *testing.T, schema, doc []byte) {
		if len(schema) > 1<<16 || len(doc) > 1<<16 {
			return
		}
		form, err := Build(schema)
		if err != nil {
			return
		}
		_ = form.CheckElicitation()
		checkReset(t, form)
		st := form.NewState()
		_ = st.Value()
		v, err := ParseValue(doc)
		if err != nil {
			if json.Valid(doc) {
				t.Fatalf("ParseValue rejected valid JSON %q: %v", doc, err)
			}
			return
		}
		st.Set(v)
		out := st.Value()
		if out == nil {
			out = Object()
		}
		if !json.Valid(out.JSON()) || !json.Valid(out.Indent()) {
			t.Fatalf("invalid JSON produced: %s", out.JSON())
		}
		// Loading a document and sending it back loses and changes
		// nothing (the form may add empty required values).
		if v.Type == TypeObject && form.Root.Kind == KindObject && !subset(v, out) {
			t.Fatalf("round trip changed the document:\n in %s\nout %s", v.JSON(), out.JSON())
		}
		again := form.NewState()
		again.Set(out)
		if got := again.Value(); got == nil || !bytes.Equal(got.JSON(), out.JSON()) {
			t.Fatalf("second round trip changed the document:\n in %s\nout %s", out.JSON(), got.JSON())
		}
		_ = st.Issues()
		_ = form.Check(st)
		_ = form.Validate(doc)
	})
}

// subset reports whether everything in a is in b unchanged.
func subset(a, b *Value) bool {
	if bytes.Equal(a.JSON(), b.JSON()) {
		return true
	}
	if a.Type == TypeObject && b.Type == TypeObject {
		// The k-th member named x in a must be within the k-th member
		// named x in b (duplicate keys are kept, in order).
		seen := map[string]int{}
		for _, m := range a.Members {
			k := seen[m.Key]
			seen[m.Key]++
			var bm *Value
			for _, n := range b.Members {
				if n.Key == m.Key {
					if k == 0 {
						bm = n.Value
						break
					}
					k--
				}
			}
			if bm == nil || !subset(m.Value, bm) {
				return false
			}
		}
		return true
	}
	if a.Type == TypeArray && b.Type == TypeArray {
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !subset(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	}
	return bytes.Equal(a.JSON(), b.JSON())
}

// TestParseValueAgreesWithEncodingJSON checks the parser against
// encoding/json on valid and invalid inputs.
func TestParseValueAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `null`, `true`, `0`, `-0.5e+10`, `"a\u00e9\ud83d\ude00\n"`, ` {"a" : [1, {"b": "c"}]} `,
		`{"a":1,"a":2}`, `12345678901234567890123`,
		``, `{`, `{"a"}`, `[1,]`, `01`, `1.`, `"\x"`, "\"\t\"", `tru`, `{} {}`, `"\ud800"`,
	} {
		v, err := ParseValue([]byte(in))
		if (err == nil) != json.Valid([]byte(in)) {
			t.Errorf("%q: ParseValue error %v, json.Valid %v", in, err, json.Valid([]byte(in)))
			continue
		}
		if err != nil {
			continue
		}
		var a, b any
		_ = json.Unmarshal([]byte(in), &a)
		if err := json.Unmarshal(v.JSON(), &b); err != nil {
			t.Errorf("%q: re-encoded %s is not JSON", in, v.JSON())
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%q: re-encoded as %s", in, v.JSON())
		}
	}
}

// TestSyntaxErrorPosition checks line and column of JSON errors.
func TestSyntaxErrorPosition(t *testing.T) {
	_, err := ParseValue([]byte("{\n  \"é\": [1,\n   2 3]\n}"))
	se, ok := err.(*SyntaxError)
	if !ok {
		t.Fatalf("got %v", err)
	}
	if se.Line != 3 || se.Col != 6 {
		t.Errorf("position %d:%d, want 3:6 (%v)", se.Line, se.Col, se)
	}
}

// TestJSONFieldKeepsTypedText checks that a JSON field sends the tokens
// the user typed (escapes and number spellings included).
func TestJSONFieldKeepsTypedText(t *testing.T) {
	form, err := Build([]byte(`{"type":"object","properties":{"x":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	st := form.NewState()
	x, _ := st.Find("/x")
	x.SetText("{ \"k\" : \"\\u00e9\\/\", \"n\": 1.50E+2 }")
	if got, want := string(st.Value().JSON()), `{"x":{"k":"\u00e9\/","n":1.50E+2}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestStringsSchema checks the schema made for prompt arguments.
func TestStringsSchema(t *testing.T) {
	s := StringsSchema([]StringParam{{Name: "name", Description: "Who", Required: true}, {Name: "style"}})
	want := `{"type":"object","properties":{"name":{"type":"string","description":"Who"},"style":{"type":"string"}},"required":["name"]}`
	if string(s) != want {
		t.Fatalf("got %s", s)
	}
	form, _ := Build(s)
	if len(form.CheckElicitation()) != 0 || form.Root.Properties[0].Kind != KindString || !form.Root.Properties[0].Required {
		t.Fatal("prompt schema does not build a flat string form")
	}
}

// TestReset checks reset to defaults after edits.
func TestReset(t *testing.T) {
	form, _ := Build([]byte(`{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"integer"}}}`))
	st := form.NewState()
	st.Set(&Value{Type: TypeObject, Members: []Member{{"b", Number("2")}, {"a", String("y")}, {"c", Null()}}})
	if got := string(st.Value().JSON()); got != `{"b":2,"a":"y","c":null}` {
		t.Fatalf("loaded: %s", got)
	}
	st.Reset()
	if got := string(st.Value().JSON()); got != `{"a":"x"}` {
		t.Fatalf("after reset: %s", got)
	}
}

// TestCheckFormat checks the format checks on valid and invalid text.
func TestCheckFormat(t *testing.T) {
	for _, c := range []struct {
		format, s string
		ok        bool
	}{
		{"uri", "https://example.com/a?b#c", true}, {"uri", "example.com", false}, {"uri", "mailto:a@b.c", true},
		{"uri-reference", "/a/b", true},
		{"date", "2024-02-29", true}, {"date", "2023-02-29", false}, {"date", "2024-1-1", false},
		{"date-time", "2024-01-01T10:00:00Z", true}, {"date-time", "2024-01-01t10:00:00.5+02:00", true}, {"date-time", "2024-01-01 10:00", false},
		{"time", "10:00:00Z", true}, {"time", "25:00:00Z", false},
		{"email", "a@example.com", true}, {"email", "A <a@example.com>", false}, {"email", "a@", false},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", true}, {"uuid", "123", false},
		{"ipv4", "10.0.0.1", true}, {"ipv4", "::1", false}, {"ipv6", "::1", true}, {"ipv6", "10.0.0.1", false},
		{"unknown-format", "anything", true},
	} {
		if got := CheckFormat(c.format, c.s) == ""; got != c.ok {
			t.Errorf("CheckFormat(%q, %q) ok=%v, want %v", c.format, c.s, got, c.ok)
		}
	}
}

// TestEqualNumbers checks number equality by value and the guard against
// huge exponents.
func TestEqualNumbers(t *testing.T) {
	if !Equal(Number("1"), Number("1.0")) || !Equal(Number("1e2"), Number("100")) || Equal(Number("1"), Number("2")) {
		t.Error("number equality")
	}
	if Equal(Number("1e999999999"), Number("1e999999998")) {
		t.Error("huge numbers compared equal")
	}
	if _, ok := ratOf("1e999999"); ok {
		t.Error("ratOf accepted a huge exponent")
	}
}

// TestLoadedEscapesSurvive checks that strings loaded from JSON are sent
// with their original escapes while unchanged.
func TestLoadedEscapesSurvive(t *testing.T) {
	form, _ := Build([]byte(`{"type":"object","properties":{"s":{"type":"string"},"t":{"type":"string"}}}`))
	st := form.NewState()
	v, err := ParseValue([]byte(`{"s":"caf\u00e9 \/ \"q\"","t":"x\u0041"}`))
	if err != nil {
		t.Fatal(err)
	}
	st.Set(v)
	tst, _ := st.Find("/t")
	tst.SetText(tst.Text + "!")
	if got, want := string(st.Value().JSON()), `{"s":"caf\u00e9 \/ \"q\"","t":"xA!"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestFind checks instance paths to states.
func TestFind(t *testing.T) {
	form, _ := Build([]byte(`{"type":"object","properties":{"a/b":{"type":"array","items":{"type":"object","properties":{"c":{"type":["string","null"]}}}}}}`))
	st := form.NewState()
	v, _ := ParseValue([]byte(`{"a/b":[{"c":"x"},{"c":null}]}`))
	st.Set(v)
	if s, ok := st.Find("/a~1b/1/c"); !ok || s.Field.Kind != KindNullable || !s.Null {
		t.Errorf("Find /a~1b/1/c: %v %v", s.Field.Kind, ok)
	}
	if s, ok := st.Find("/a~1b/5/c"); ok || s.Field.Kind != KindArray {
		t.Errorf("Find of a missing item: %v %v", s.Field.Kind, ok)
	}
	var paths []string
	st.Walk(func(p string, _ *State) { paths = append(paths, p) })
	if got := strings.Join(paths, " "); got != " /a~1b /a~1b/0 /a~1b/0/c /a~1b/0/c /a~1b/1 /a~1b/1/c /a~1b/1/c" {
		t.Errorf("walk: %s", got)
	}
}

// TestAdversarialSchemas builds schemas meant to blow up: exponential
// $ref fan-out, deep nesting, self references. Each must finish and stay
// bounded.
func TestAdversarialSchemas(t *testing.T) {
	var fan strings.Builder
	fan.WriteString(`{"$defs":{`)
	for i := 0; i < 30; i++ {
		if i > 0 {
			fan.WriteByte(',')
		}
		fan.WriteString(`"d` + strconv.Itoa(i) + `":{"type":"object","properties":{`)
		for j := 0; j < 40; j++ {
			if j > 0 {
				fan.WriteByte(',')
			}
			fan.WriteString(`"p` + strconv.Itoa(j) + `":{"$ref":"#/$defs/d` + strconv.Itoa(i+1) + `"}`)
		}
		fan.WriteString(`}}`)
	}
	fan.WriteString(`,"d30":{"type":"string"}},"$ref":"#/$defs/d0"}`)
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 500) + `{}` + strings.Repeat(`}}`, 500)
	for name, schema := range map[string]string{
		"fan-out": fan.String(),
		"deep":    deep,
		"self":    `{"$ref":"#","properties":{"x":{"$ref":"#"}}}`,
		"nested":  strings.Repeat(`[`, 1001) + strings.Repeat(`]`, 1001),
	} {
		form, err := Build([]byte(schema))
		if err != nil {
			continue // too deeply nested JSON is an error, as it should be
		}
		n := 0
		var count func(f *Field)
		count = func(f *Field) {
			n++
			for _, p := range f.Properties {
				count(p)
			}
			if f.Items != nil {
				count(f.Items)
			}
			if f.Inner != nil {
				count(f.Inner)
			}
		}
		count(form.Root)
		if n > maxFields+1 {
			t.Errorf("%s: %d fields", name, n)
		}
		st := form.NewState()
		_ = st.Value()
		_ = form.Check(st)
	}
}
