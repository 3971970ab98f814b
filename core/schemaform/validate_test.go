package schemaform

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func mustCompileSchema(t *testing.T, schema string) *Schema {
	t.Helper()
	s, err := CompileSchema([]byte(schema))
	if err != nil {
		t.Fatalf("compile %s: %v", schema, err)
	}
	return s
}

func issueTexts(issues []Issue) []string {
	out := []string{}
	for _, is := range issues {
		out = append(out, is.String())
	}
	return out
}

// TestValidateAdvisories checks what whole-document validation says: one
// plain sentence per problem, at the JSON pointer of the value, in
// instance order.
func TestValidateAdvisories(t *testing.T) {
	s := mustCompileSchema(t, `{
		"type": "object",
		"properties": {
			"name": {"type": "string", "minLength": 3},
			"age": {"type": "integer", "minimum": 3},
			"tags": {"type": "array", "items": {"type": "string", "pattern": "^a"}},
			"color": {"oneOf": [{"const": "red", "title": "Red"}, {"const": "green"}]},
			"size": {"anyOf": [{"const": 1}, {"const": 2.5}]},
			"kind": {"enum": ["x", "y"]},
			"mail": {"type": "string", "format": "email"},
			"a/b": {"type": "null"}
		},
		"required": ["name", "a", "b"],
		"additionalProperties": false
	}`)
	got := issueTexts(s.Validate([]byte(`{"name": "ab", "age": 1.5, "tags": ["ab", 3, "b"], "color": "blue", "size": 3,
		"kind": "z", "mail": "nope", "a/b": 1, "extra": 1, "more": 2}`)))
	want := []string{
		"(root): additional properties not allowed: extra, more",
		"/a: required",
		"/age: must be integer, not number",
		"/a~1b: must be null, not number",
		"/b: required",
		`/color: value must be one of "red", "green"`,
		`/kind: value must be one of "x", "y"`,
		"/mail: not an email address",
		"/name: must be at least 3 characters",
		`/size: value must be one of 1, 2.5`,
		"/tags/1: must be string, not number",
		"/tags/2: does not match ^a",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, is := range s.Validate([]byte(`{"name": "abc"}`)) {
		if is.Code != CodeRequired {
			t.Errorf("%v: code %s, want %s", is, is.Code, CodeRequired)
		}
	}
}

func TestValidateMessages(t *testing.T) {
	for _, tc := range []struct{ schema, inst, want string }{
		{`{"type": ["string", "null"]}`, `1`, "(root): must be null or string, not number"},
		{`{"maximum": 3}`, `4`, "(root): must be at most 3"},
		{`{"exclusiveMaximum": 3}`, `3`, "(root): must be less than 3"},
		{`{"exclusiveMinimum": 3}`, `3`, "(root): must be greater than 3"},
		{`{"multipleOf": 0.01}`, `19.991`, "(root): must be a multiple of 0.01"},
		{`{"maxLength": 1}`, `"ab"`, "(root): must be at most 1 character"},
		{`{"const": {"a": 1}}`, `{"a": 2}`, `(root): value must be {"a":1}`},
		{`{"minItems": 2}`, `[1]`, "(root): must have at least 2 items"},
		{`{"maxItems": 1}`, `[1, 2]`, "(root): must have at most 1 item"},
		{`{"uniqueItems": true}`, `[1, 2, 1.0]`, "(root): items 1 and 3 are equal"},
		{`{"minProperties": 1}`, `{}`, "(root): must have at least 1 property"},
		{`{"maxProperties": 0}`, `{"a": 1}`, "(root): must have at most 0 properties"},
		{`{"properties": {"p": {"required": ["a"]}}}`, `{"p": {}}`, "/p/a: required"},
		{`{"not": {"type": "string"}}`, `"x"`, "(root): must not match the schema"},
		{`false`, `1`, "(root): not allowed"},
		{`{"oneOf": [{"type": "number"}, {"minimum": 0}]}`, `1`, "(root): must match exactly one schema, but matches 2"},
		{`{"contains": {"type": "string"}, "minContains": 2}`, `["a", 1]`, "(root): must contain at least 2 matching items"},
		{`{"contains": {"type": "string"}, "maxContains": 1}`, `["a", "b"]`, "(root): must contain at most 1 matching item"},
		{`{"dependentRequired": {"a": ["b"]}}`, `{"a": 1}`, "(root): missing property: b (required by a)"},
		{`{"propertyNames": {"maxLength": 2}}`, `{"abc": 1}`, "/abc: property name must be at most 2 characters"},
		{`{"additionalProperties": false}`, `{"other": 1}`, "(root): additional property not allowed: other"},
		{`{"unevaluatedProperties": false}`, `{"a": 1}`, "/a: not allowed"},
		{`{"format": "date-time"}`, `"2024-13-01T00:00:00Z"`, "(root): not a date-time (YYYY-MM-DDThh:mm:ssZ)"},
		{`{"format": "hostname"}`, `"-a.com"`, "(root): must be a valid hostname"},
		{`{"anyOf": [{"type": "string"}, {"type": "object", "required": ["a"]}]}`, `{}`, "(root): must be string, not object; /a: required"},
	} {
		s := mustCompileSchema(t, tc.schema)
		if got := strings.Join(issueTexts(s.Validate([]byte(tc.inst))), "; "); got != tc.want {
			t.Errorf("%s on %s:\n got %q\nwant %q", tc.schema, tc.inst, got, tc.want)
		}
	}
}

// TestValidateDrafts checks that $schema picks the draft (2020-12 without
// one) and that a form falls back to older drafts for schemas that mix
// them without saying so.
func TestValidateDrafts(t *testing.T) {
	for _, tc := range []struct {
		schema string
		valid  bool
	}{
		// $ref siblings are ignored up to draft 7 and applied from 2019-09.
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/a", "maximum": 0, "definitions": {"a": {}}}`, true},
		{`{"$schema": "http://json-schema.org/draft-06/schema#", "$ref": "#/definitions/a", "maximum": 0, "definitions": {"a": {}}}`, true},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$ref": "#/$defs/a", "maximum": 0, "$defs": {"a": {}}}`, false},
		{`{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/a", "maximum": 0, "$defs": {"a": {}}}`, false},
		{`{"$ref": "#/$defs/a", "maximum": 0, "$defs": {"a": {}}}`, false},
		// Draft 4: boolean exclusiveMaximum.
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 1, "exclusiveMaximum": true}`, false},
	} {
		s := mustCompileSchema(t, tc.schema)
		if got := s.Validate([]byte(`1`)) == nil; got != tc.valid {
			t.Errorf("%s: valid=%v, want %v", tc.schema, got, tc.valid)
		}
	}
	// A boolean exclusiveMaximum is invalid in 2020-12: the form falls
	// back to draft-04, where it is one.
	form, err := Build([]byte(`{"type": "object", "properties": {"n": {"type": "number", "maximum": 3, "exclusiveMaximum": true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := issueTexts(form.Validate([]byte(`{"n": 3}`))); !slices.Equal(got, []string{"/n: must be less than 3"}) {
		t.Errorf("draft-04 fallback: %q", got)
	}
	if _, err := CompileSchema([]byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "exclusiveMaximum": true}`)); !errors.Is(err, ErrNoValidator) {
		t.Errorf("2020-12 boolean exclusiveMaximum: err = %v", err)
	}
}

// TestValidateRefs checks $ref inside the tool schema, and that nothing
// outside it is ever loaded.
func TestValidateRefs(t *testing.T) {
	s := mustCompileSchema(t, `{"properties": {"p": {"$ref": "#/$defs/pos"}, "q": {"$ref": "#/$defs/a%25b~1c"}},
		"$defs": {"pos": {"minimum": 0}, "a%b/c": {"type": "null"}}}`)
	if got := issueTexts(s.Validate([]byte(`{"p": -1, "q": 1}`))); !slices.Equal(got, []string{"/p: must be at least 0", "/q: must be null, not number"}) {
		t.Errorf("got %q", got)
	}
	// A relative $id at the root.
	s = mustCompileSchema(t, `{"$id": "tool-input", "properties": {"a": {"$ref": "tool-input#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}`)
	if got := s.Validate([]byte(`{"a": 1}`)); len(got) != 1 {
		t.Errorf("relative $id: %v", got)
	}
	// A recursive schema checks a tree.
	s = mustCompileSchema(t, `{"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}, "additionalProperties": false}`)
	if got := issueTexts(s.Validate([]byte(`{"kids": [{"kids": []}, {"kidz": 1}]}`))); !slices.Equal(got, []string{"/kids/1: additional property not allowed: kidz"}) {
		t.Errorf("tree: %q", got)
	}
	for _, schema := range []string{
		`{"$ref": "#/$defs/missing"}`,
		`{"$ref": "other.json"}`,
		`{"$ref": "http://example.com/other.json"}`,
		`{"$ref": "file:///etc/passwd"}`,
		`{"type": "strin"}`,
		`{"pattern": "("}`,
		`{"minimum": 1e100000}`,
		`{`,
	} {
		if _, err := CompileSchema([]byte(schema)); !errors.Is(err, ErrNoValidator) {
			t.Errorf("%s: err = %v, want ErrNoValidator", schema, err)
		}
	}
}

// TestFormatsAgree checks that a form field and whole-document validation
// judge every format the same way, with the same words: "23:59:60Z" (a
// leap second) once failed one and passed the other.
func TestFormatsAgree(t *testing.T) {
	samples := map[string][]string{
		"time":          {"23:59:60Z", "10:00:00Z", "08:30:06.5+05:30", "12:00:60Z", "25:00:00Z", "10:00:00"},
		"date-time":     {"1998-12-31T23:59:60Z", "2024-01-01t10:00:00.5+02:00", "2024-01-01T00:00:00Z", "1998-12-31T23:58:60Z", "2024-01-01 10:00", "2023-02-29T00:00:00Z"},
		"date":          {"2024-02-29", "2023-02-29", "2024-1-1"},
		"email":         {"a@example.com", `"joe bloggs"@example.com`, "A <a@example.com>", "a@"},
		"uri":           {"https://example.com/a?b#c", "mailto:a@b.c", "example.com", "http://exa mple.com"},
		"iri":           {"http://ƒøø.ßår/?∂éœ=πîx", "/relative"},
		"url":           {"https://example.com", "example.com"},
		"uri-reference": {"/a/b", "#frag", `\\WINDOWS\fileshare`},
		"uuid":          {"123e4567-e89b-12d3-a456-426614174000", "123"},
		"ipv4":          {"10.0.0.1", "::1", "256.0.0.1"},
		"ipv6":          {"::1", "10.0.0.1"},
	}
	for format := range formatHints {
		if samples[format] == nil {
			t.Errorf("no samples for %s", format)
		}
	}
	for format, values := range samples {
		s := mustCompileSchema(t, fmt.Sprintf(`{"format": %q}`, format))
		for _, v := range values {
			doc, _ := json.Marshal(v)
			field := CheckFormat(format, v)
			var whole string
			if issues := s.Validate(doc); len(issues) > 0 {
				whole = issues[0].Message
			}
			if field != whole {
				t.Errorf("%s %q: field check %q, whole document %q", format, v, field, whole)
			}
		}
	}
	if CheckFormat("time", "23:59:60Z") != "" || CheckFormat("time", "12:00:60Z") == "" {
		t.Error("leap seconds: only 23:59:60 in UTC is a valid time")
	}
	if CheckFormat("unknown-format", "anything") != "" {
		t.Error("an unknown format was checked")
	}
}

// TestFormatAssertions checks that the library is wired with format
// assertions in every draft (2019-09 and 2020-12 make them annotations by
// default) and that formats apply to strings only.
func TestFormatAssertions(t *testing.T) {
	for _, draft := range []string{"", `"$schema": "http://json-schema.org/draft-04/schema#",`,
		`"$schema": "http://json-schema.org/draft-07/schema#",`, `"$schema": "https://json-schema.org/draft/2019-09/schema",`} {
		s := mustCompileSchema(t, `{`+draft+`"format": "date"}`)
		if s.Validate([]byte(`"2021-02-29"`)) == nil {
			t.Errorf("%s: format not asserted", draft)
		}
		if got := s.Validate([]byte(`12`)); got != nil {
			t.Errorf("%s: a number was checked: %v", draft, got)
		}
	}
}

func TestExactNumbers(t *testing.T) {
	for _, tc := range []struct {
		schema, inst string
		valid        bool
	}{
		{`{"multipleOf": 0.01}`, `19.99`, true},
		{`{"multipleOf": 0.01}`, `0.075`, false},
		{`{"maximum": 123456789012345678901234567890}`, `123456789012345678901234567890`, true},
		{`{"maximum": 123456789012345678901234567890}`, `123456789012345678901234567891`, false},
		{`{"const": 1}`, `1.0`, true},
		{`{"type": "integer"}`, `1.0`, true},
		{`{"type": "integer"}`, `1.5`, false},
		{`{"uniqueItems": true}`, `[{"a": 1, "b": 2}, {"b": 2, "a": 1}]`, false},
	} {
		s := mustCompileSchema(t, tc.schema)
		if got := s.Validate([]byte(tc.inst)) == nil; got != tc.valid {
			t.Errorf("%s on %s: valid=%v, want %v", tc.schema, tc.inst, got, tc.valid)
		}
	}
}

// TestHostileSchemas checks that what a hostile server can send ends in
// an error or an issue, never a panic or an endless check.
func TestHostileSchemas(t *testing.T) {
	// $ref cycles that never consume the instance.
	for _, schema := range []string{
		`{"$ref": "#"}`,
		`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`,
	} {
		s := mustCompileSchema(t, schema)
		if got := s.Validate([]byte(`1`)); len(got) == 0 || !strings.Contains(got[0].Message, "refers to itself") {
			t.Errorf("%s: %v", schema, got)
		}
	}
	// Exponential fan-out through shared subschemas is refused.
	var sb strings.Builder
	sb.WriteString(`{"$defs": {"d0": {"type": "integer"}`)
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&sb, `, "d%d": {"anyOf": [{"$ref": "#/$defs/d%d"}, {"$ref": "#/$defs/d%d"}], "allOf": [{"$ref": "#/$defs/d%d"}]}`, i, i-1, i-1, i-1)
	}
	sb.WriteString(`}, "$ref": "#/$defs/d40"}`)
	if _, err := CompileSchema([]byte(sb.String())); !errors.Is(err, ErrNoValidator) {
		t.Errorf("fan-out: err = %v, want ErrNoValidator", err)
	}
	// Huge numbers are refused, not computed.
	s := mustCompileSchema(t, `{"multipleOf": 3}`)
	for _, inst := range []string{`1e1000000000`, `1` + strings.Repeat("0", 20000)} {
		if got := s.Validate([]byte(inst)); len(got) != 1 || got[0].Code != CodeSchema {
			t.Errorf("%.20s: %v", inst, got)
		}
	}
	// Invalid instances.
	for _, inst := range []string{``, `{`, `[1,]`, `1 2`, `nul`} {
		if got := s.Validate([]byte(inst)); len(got) != 1 || got[0].Code != CodeJSON {
			t.Errorf("%q: %v", inst, got)
		}
	}
	// A deep instance through a recursive schema.
	s = mustCompileSchema(t, `{"items": {"$ref": "#"}, "type": "array"}`)
	deep := strings.Repeat("[", 900) + `1` + strings.Repeat("]", 900)
	if got := s.Validate([]byte(deep)); len(got) != 1 || got[0].Code != CodeSchema {
		t.Errorf("deep: %v", got)
	}
}
