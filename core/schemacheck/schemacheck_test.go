package schemacheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func mustCompile(t testing.TB, schema string, opts Options) *Schema {
	t.Helper()
	s, err := Compile([]byte(schema), opts)
	if err != nil {
		t.Fatalf("compile %s: %v", schema, err)
	}
	return s
}

func validate(t testing.TB, s *Schema, inst string) []Error {
	t.Helper()
	errs, err := s.Validate([]byte(inst))
	if err != nil {
		t.Fatalf("validate %s: %v", inst, err)
	}
	return errs
}

func TestErrorFields(t *testing.T) {
	s := mustCompile(t, `{
		"type": "object",
		"properties": {
			"name": {"type": "string", "minLength": 3},
			"age": {"type": "integer", "minimum": 3},
			"tags": {"type": "array", "items": {"type": "string", "pattern": "^a"}},
			"color": {"oneOf": [{"const": "red", "title": "Red"}, {"const": "green"}]},
			"size": {"anyOf": [{"const": 1}, {"const": 2.5}]},
			"kind": {"enum": ["x", "y"]},
			"mail": {"type": "string", "format": "email"}
		},
		"required": ["name", "a", "b"],
		"additionalProperties": false
	}`, Options{AssertFormat: true})
	errs := validate(t, s, `{"name": "ab", "age": 1.5, "tags": ["ab", 3, "b"], "color": "blue", "size": 3,
		"kind": "z", "mail": "nope", "extra": 1, "more": 2}`)
	type want struct {
		loc     string
		kw      string
		msg     string
		kwLoc   string
		missing []string
		choices []string
	}
	wants := []want{
		{"/name", "minLength", "must be at least 3 characters", "/properties/name/minLength", nil, nil},
		{"/age", "type", "must be integer, not number", "/properties/age/type", nil, nil},
		{"/age", "minimum", "must be >= 3", "/properties/age/minimum", nil, nil},
		{"/tags/1", "type", "must be string, not number", "/properties/tags/items/type", nil, nil},
		{"/tags/2", "pattern", "must match pattern ^a", "/properties/tags/items/pattern", nil, nil},
		{"/color", "oneOf", `value must be one of "red", "green"`, "/properties/color/oneOf", nil, []string{`"red"`, `"green"`}},
		{"/size", "anyOf", `value must be one of 1, 2.5`, "/properties/size/anyOf", nil, []string{`1`, `2.5`}},
		{"/kind", "enum", `value must be one of "x", "y"`, "/properties/kind/enum", nil, nil},
		{"/mail", "format", "must be a valid email", "/properties/mail/format", nil, nil},
		{"", "required", "missing properties: a, b", "/required", []string{"a", "b"}, nil},
		{"", "additionalProperties", "additional properties not allowed: extra, more", "/additionalProperties", nil, nil},
	}
	if len(errs) != len(wants) {
		t.Fatalf("got %d errors, want %d: %+v", len(errs), len(wants), errs)
	}
	for i, w := range wants {
		e := errs[i]
		loc := ""
		for _, tok := range e.InstanceLocation {
			loc += "/" + tok
		}
		var choices []string
		for _, c := range e.Choices {
			choices = append(choices, string(c))
		}
		if loc != w.loc || e.Keyword != w.kw || e.Message != w.msg || e.KeywordLocation != w.kwLoc ||
			!reflect.DeepEqual(e.Missing, w.missing) || !reflect.DeepEqual(choices, w.choices) {
			t.Errorf("error %d = %+v (choices %q), want %+v", i, e, choices, w)
		}
	}
	if errs[9].InstanceLocation == nil || len(errs[9].InstanceLocation) != 0 {
		t.Errorf("root location = %#v, want empty non-nil slice", errs[9].InstanceLocation)
	}
}

func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		schema, inst, kw, msg string
	}{
		{`{"type": ["string", "null"]}`, `1`, "type", "must be string or null, not number"},
		{`{"maximum": 3}`, `4`, "maximum", "must be <= 3"},
		{`{"exclusiveMaximum": 3}`, `3`, "exclusiveMaximum", "must be < 3"},
		{`{"exclusiveMinimum": 3}`, `3`, "exclusiveMinimum", "must be > 3"},
		{`{"multipleOf": 0.01}`, `19.991`, "multipleOf", "must be a multiple of 0.01"},
		{`{"maxLength": 1}`, `"ab"`, "maxLength", "must be at most 1 character"},
		{`{"const": {"a": 1}}`, `{"a": 2}`, "const", `value must be {"a":1}`},
		{`{"minItems": 2}`, `[1]`, "minItems", "must have at least 2 items"},
		{`{"maxItems": 1}`, `[1, 2]`, "maxItems", "must have at most 1 item"},
		{`{"uniqueItems": true}`, `[1, 2, 1.0]`, "uniqueItems", "items at 0 and 2 must not be equal"},
		{`{"minProperties": 1}`, `{}`, "minProperties", "must have at least 1 property"},
		{`{"maxProperties": 0}`, `{"a": 1}`, "maxProperties", "must have at most 0 properties"},
		{`{"required": ["a"]}`, `{}`, "required", "missing property: a"},
		{`{"not": {"type": "string"}}`, `"x"`, "not", "must not match the schema"},
		{`false`, `1`, "false", "not allowed"},
		{`{"oneOf": [{"type": "number"}, {"minimum": 0}]}`, `1`, "oneOf", "must match exactly one schema, but matches 2"},
		{`{"contains": {"type": "string"}}`, `[1]`, "contains", "must contain at least 1 matching item"},
		{`{"contains": {"type": "string"}, "maxContains": 1}`, `["a", "b"]`, "maxContains", "must contain at most 1 matching item"},
		{`{"dependentRequired": {"a": ["b"]}}`, `{"a": 1}`, "dependentRequired", "missing property: b (required by a)"},
		{`{"propertyNames": {"maxLength": 2}}`, `{"abc": 1}`, "maxLength", "property name must be at most 2 characters"},
		{`{"prefixItems": [{}], "items": false}`, `[1, 2]`, "items", "must have at most 1 item"},
		{`{"unevaluatedProperties": false}`, `{"a": 1}`, "unevaluatedProperties", "unevaluated property not allowed: a"},
		{`{"format": "date-time"}`, `"2024-13-01T00:00:00Z"`, "format", "must be a valid date-time"},
	} {
		s := mustCompile(t, tc.schema, Options{AssertFormat: true})
		errs := validate(t, s, tc.inst)
		if len(errs) != 1 || errs[0].Keyword != tc.kw || errs[0].Message != tc.msg {
			t.Errorf("%s on %s: got %+v, want one %s error %q", tc.schema, tc.inst, errs, tc.kw, tc.msg)
		}
	}
}

func TestFailedAnyOfReportsBranchLeaves(t *testing.T) {
	s := mustCompile(t, `{"anyOf": [{"type": "string"}, {"type": "object", "required": ["a"]}]}`, Options{})
	errs := validate(t, s, `{}`)
	if len(errs) != 2 || errs[0].Keyword != "type" || errs[0].KeywordLocation != "/anyOf/0/type" ||
		errs[1].Keyword != "required" || !reflect.DeepEqual(errs[1].Missing, []string{"a"}) {
		t.Fatalf("got %+v", errs)
	}
	// Through $ref, the keyword location names the reference.
	s = mustCompile(t, `{"properties": {"p": {"$ref": "#/$defs/pos"}}, "$defs": {"pos": {"minimum": 0}}}`, Options{})
	errs = validate(t, s, `{"p": -1}`)
	if len(errs) != 1 || errs[0].KeywordLocation != "/properties/p/$ref/minimum" || !reflect.DeepEqual(errs[0].InstanceLocation, []string{"p"}) {
		t.Fatalf("got %+v", errs)
	}
}

func TestInstanceLocationUnescaped(t *testing.T) {
	s := mustCompile(t, `{"properties": {"a/b~c": {"type": "string"}}}`, Options{})
	errs := validate(t, s, `{"a/b~c": 1}`)
	if len(errs) != 1 || !reflect.DeepEqual(errs[0].InstanceLocation, []string{"a/b~c"}) || errs[0].KeywordLocation != "/properties/a~1b~0c/type" {
		t.Fatalf("got %+v", errs)
	}
}

func TestDocumentOrder(t *testing.T) {
	s := mustCompile(t, `{"required": ["z"], "properties": {"b": {"type": "string"}, "a": {"type": "string"}}, "type": "object", "minProperties": 5}`, Options{})
	errs := validate(t, s, `{"a": 1, "b": 2}`)
	var got []string
	for _, e := range errs {
		got = append(got, e.KeywordLocation)
	}
	want := []string{"/required", "/properties/b/type", "/properties/a/type", "/minProperties"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order %q, want %q", got, want)
	}
}

func TestDraft4(t *testing.T) {
	s := mustCompile(t, `{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 3, "exclusiveMaximum": true, "minimum": 1, "exclusiveMinimum": false}`, Options{})
	if errs := validate(t, s, `3`); len(errs) != 1 || errs[0].Keyword != "exclusiveMaximum" || errs[0].Message != "must be < 3" {
		t.Fatalf("3: %+v", errs)
	}
	if errs := validate(t, s, `2.999`); errs != nil {
		t.Fatalf("2.999: %+v", errs)
	}
	if errs := validate(t, s, `1`); errs != nil {
		t.Fatalf("1: %+v", errs)
	}
	// A number exclusiveMaximum is a schema error in draft 4.
	if _, err := Compile([]byte(`{"exclusiveMaximum": 3}`), Options{Draft: Draft4}); !errors.Is(err, ErrSchema) {
		t.Fatalf("draft 4 numeric exclusiveMaximum: %v", err)
	}
	// Draft 4 uses "id", and "const" is not a keyword.
	s = mustCompile(t, `{"id": "http://x.test/a.json", "const": 1, "properties": {"p": {"$ref": "a.json#/definitions/s"}}, "definitions": {"s": {"type": "string"}}}`, Options{Draft: Draft4})
	if errs := validate(t, s, `{"p": 1}`); len(errs) != 1 || errs[0].Keyword != "type" {
		t.Fatalf("draft 4 id: %+v", errs)
	}
}

func TestDraftSelection(t *testing.T) {
	// $ref siblings are ignored up to draft 7 and applied from 2019-09.
	for _, tc := range []struct {
		schema string
		valid  bool
	}{
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/a", "maximum": 0, "definitions": {"a": {}}}`, true},
		{`{"$schema": "http://json-schema.org/draft-07/schema", "$ref": "#/definitions/a", "maximum": 0, "definitions": {"a": {}}}`, true},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$ref": "#/$defs/a", "maximum": 0, "$defs": {"a": {}}}`, false},
		{`{"$schema": "http://json-schema.org/draft/2020-12/schema#", "$ref": "#/$defs/a", "maximum": 0, "$defs": {"a": {}}}`, false},
		{`{"$ref": "#/$defs/a", "maximum": 0, "$defs": {"a": {}}}`, false},
	} {
		s := mustCompile(t, tc.schema, Options{})
		if got := validate(t, s, `1`) == nil; got != tc.valid {
			t.Errorf("%s: valid=%v, want %v", tc.schema, got, tc.valid)
		}
	}
	s := mustCompile(t, `{"$ref": "#/definitions/a", "maximum": 0, "definitions": {"a": {}}}`, Options{Draft: Draft7})
	if validate(t, s, `1`) != nil {
		t.Error("Options.Draft=Draft7 not applied")
	}
}

func TestExactNumbers(t *testing.T) {
	for _, tc := range []struct {
		schema, inst string
		valid        bool
	}{
		{`{"multipleOf": 0.01}`, `19.99`, true},
		{`{"multipleOf": 0.01}`, `0.075`, false},
		{`{"multipleOf": 0.1}`, `1e308`, true},
		{`{"maximum": 123456789012345678901234567890}`, `123456789012345678901234567890`, true},
		{`{"maximum": 123456789012345678901234567890}`, `123456789012345678901234567891`, false},
		{`{"exclusiveMinimum": 123456789012345678901234567890}`, `123456789012345678901234567890.0000000001`, true},
		{`{"const": 123456789012345678901234567890}`, `123456789012345678901234567891`, false},
		{`{"const": 1}`, `1.0`, true},
		{`{"const": 1}`, `1e0`, true},
		{`{"enum": [{"a": [1, 2], "b": null}]}`, `{"b": null, "a": [1.0, 2e0]}`, true},
		{`{"type": "integer"}`, `1.0`, true},
		{`{"type": "integer"}`, `1e2`, true},
		{`{"type": "integer"}`, `1.5`, false},
		{`{"type": "integer"}`, `123456789012345678901234567890`, true},
		{`{"uniqueItems": true}`, `[1, 1.0]`, false},
		{`{"uniqueItems": true}`, `[{"a": 1, "b": 2}, {"b": 2, "a": 1}]`, false},
		{`{"uniqueItems": true}`, `[[1], [true]]`, true},
	} {
		s := mustCompile(t, tc.schema, Options{})
		if got := validate(t, s, tc.inst) == nil; got != tc.valid {
			t.Errorf("%s on %s: valid=%v, want %v", tc.schema, tc.inst, got, tc.valid)
		}
	}
}

func TestFormats(t *testing.T) {
	cases := map[string]struct{ good, bad []string }{
		"date-time": {[]string{"1963-06-19T08:30:06.283185Z", "1990-12-31T15:59:60-08:00", "1998-12-31T23:59:60Z", "2024-02-29t10:00:00+01:00"},
			[]string{"1990-12-31T23:59:60+01:00", "2023-02-29T00:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T24:00:00Z"}},
		"date":                  {[]string{"2020-02-29", "2021-12-31"}, []string{"2021-02-29", "2021-1-01", "2021-04-31", "20210101"}},
		"time":                  {[]string{"08:30:06Z", "23:59:60Z", "08:30:06.5+05:30"}, []string{"08:30:06", "24:00:00Z", "12:00:60Z", "08:30:06+5:30"}},
		"duration":              {[]string{"P4DT12H30M5S", "P1Y", "PT1M", "P2W", "P1Y2M3DT4H5M6S"}, []string{"P", "PT", "P1D2H", "P1H", "PT1D", "P2W1D", "1Y", "P1M1Y"}},
		"email":                 {[]string{"joe.bloggs@example.com", "te~st@example.com", `"joe bloggs"@example.com`, "joe@[127.0.0.1]", "joe@[IPv6:::1]"}, []string{"joe", ".joe@example.com", "jo..e@example.com", "joe@", "joe@-x.com", "jöe@example.com"}},
		"idn-email":             {[]string{"실례@실례.테스트", "joe@example.com"}, []string{"joe", "@example.com"}},
		"hostname":              {[]string{"www.example.com", "a", "xn--4gbwdl.xn--wgbh1c", "example.com."}, []string{"-a.com", "a-.com", "a..b", strings.Repeat("a", 64) + ".com", "ex ample.com", "ab--cd.com", ""}},
		"idn-hostname":          {[]string{"실례.테스트", "www.example.com"}, []string{"-실례.테스트", "a..b", "〮실례.테스트"}},
		"ipv4":                  {[]string{"192.168.0.1", "0.0.0.0"}, []string{"256.0.0.1", "1.2.3", "01.2.3.4", "::1", "1.2.3.4 "}},
		"ipv6":                  {[]string{"::1", "::ffff:1.2.3.4", "2001:db8::ff00:42:8329"}, []string{"1.2.3.4", "::1%eth0", "12345::", ":::"}},
		"uri":                   {[]string{"http://example.com/a?b#c", "urn:isbn:0451450523", "mailto:a@b.c", "http://[2001:db8::1]:80/"}, []string{"/relative", "http://exa mple.com", "http://example.com/ä", "1http://x", "http://x/%zz", "http://[::1/"}},
		"uri-reference":         {[]string{"/relative", "#frag", "", "a/b?c"}, []string{`\\WINDOWS\fileshare`, "a b", "#a#b"}},
		"iri":                   {[]string{"http://ƒøø.ßår/?∂éœ=πîx#πîüx", "http://example.com"}, []string{"/relative", "http://exa mple.com"}},
		"iri-reference":         {[]string{"http://ƒøø.ßår/", "//ƒøø.ßår/", "#ƒrägmênt"}, []string{`\\WINDOWS\filëshare`}},
		"uri-template":          {[]string{"http://example.com/dictionary/{term:1}/{term}", "plain", "{a,b}"}, []string{"http://example.com/dictionary/{term:1}/{term", "{}", "{{a}}"}},
		"json-pointer":          {[]string{"", "/foo/bar~0/baz~1/%a", "/"}, []string{"foo", "/foo~", "/~2"}},
		"relative-json-pointer": {[]string{"1", "0#", "0/foo/bar", "2+3/x"}, []string{"", "-1/foo", "01/a", "/foo", "0##"}},
		"regex":                 {[]string{"^[a-z]+$", "([abc])+\\s+$"}, []string{"^(abc]", "(?<!x)y"}},
		"uuid":                  {[]string{"2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2EB8AA08-AA98-11EA-B4AA-73B441D16380"}, []string{"2eb8aa08-aa98-11ea-b4aa-73b441d1638", "2eb8aa08aa9811eab4aa73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638g"}},
	}
	for name, tc := range cases {
		s := mustCompile(t, fmt.Sprintf(`{"format": %q}`, name), Options{AssertFormat: true})
		for _, g := range tc.good {
			b, _ := json.Marshal(g)
			if errs := validate(t, s, string(b)); errs != nil {
				t.Errorf("%s: %q rejected: %v", name, g, errs)
			}
		}
		for _, x := range tc.bad {
			b, _ := json.Marshal(x)
			if errs := validate(t, s, string(b)); errs == nil {
				t.Errorf("%s: %q accepted", name, x)
			}
		}
		// Formats only apply to strings.
		if errs := validate(t, s, `12`); errs != nil {
			t.Errorf("%s: a number was checked: %v", name, errs)
		}
		// Without AssertFormat, format is an annotation.
		ann := mustCompile(t, fmt.Sprintf(`{"format": %q}`, name), Options{})
		for _, x := range tc.bad {
			b, _ := json.Marshal(x)
			if errs := validate(t, ann, string(b)); errs != nil {
				t.Errorf("%s: asserted without AssertFormat: %v", name, errs)
			}
		}
	}
	s := mustCompile(t, `{"format": "made-up"}`, Options{AssertFormat: true})
	if errs := validate(t, s, `"anything"`); errs != nil {
		t.Errorf("unknown format: %v", errs)
	}
}

func TestSchemaErrors(t *testing.T) {
	for _, schema := range []string{
		`{`,
		`{} {}`,
		`{"type": "strin"}`,
		`{"type": 1}`,
		`{"minimum": "1"}`,
		`{"minLength": -1}`,
		`{"minLength": 1.5}`,
		`{"multipleOf": 0}`,
		`{"pattern": "("}`,
		`{"pattern": "(?=a)"}`,
		`{"patternProperties": {"[": {}}}`,
		`{"required": [1]}`,
		`{"properties": {"a": 1}}`,
		`{"allOf": []}`,
		`{"items": [{}]}`,
		`{"$ref": "#/$defs/missing"}`,
		`{"$ref": "#nope"}`,
		`{"$ref": "http://example.com/other.json"}`,
		`{"$ref": "other.json"}`,
		`{"$ref": "#/a~2b", "a~b": {}}`,
		`{"$anchor": "1bad"}`,
		`{"$id": "http://x.test/a#frag"}`,
		`{"$defs": {"a": {"$id": "http://x.test/a"}, "b": {"$id": "http://x.test/a"}}}`,
		`{"minimum": 1e100000}`,
		`{"const": 1` + strings.Repeat("0", 20000) + `}`,
		`{"dependentRequired": {"a": [1]}}`,
		`{"$defs": {"unused": {"type": 5}}}`,
	} {
		_, err := Compile([]byte(schema), Options{})
		if !errors.Is(err, ErrSchema) {
			t.Errorf("%.80s: err = %v, want ErrSchema", schema, err)
		}
	}
}

func TestResources(t *testing.T) {
	res := map[string][]byte{
		"https://example.com/defs.json#": []byte(`{"$defs": {"name": {"type": "string", "minLength": 1}}, "$anchor": "top"}`),
		"https://example.com/item.json":  []byte(`{"$id": "https://example.com/item.json", "properties": {"n": {"$ref": "defs.json#/$defs/name"}}}`),
	}
	s := mustCompile(t, `{"$id": "https://example.com/root.json", "items": {"$ref": "item.json"}}`, Options{Resources: res})
	errs := validate(t, s, `[{"n": "x"}, {"n": ""}]`)
	if len(errs) != 1 || !reflect.DeepEqual(errs[0].InstanceLocation, []string{"1", "n"}) || errs[0].Keyword != "minLength" {
		t.Fatalf("got %+v", errs)
	}
	// The root without $id can still refer to absolute resources.
	s = mustCompile(t, `{"$ref": "https://example.com/defs.json#/$defs/name"}`, Options{Resources: res})
	if errs := validate(t, s, `""`); len(errs) != 1 {
		t.Fatalf("got %+v", errs)
	}
	// A relative $id at the root without a base still works.
	s = mustCompile(t, `{"$id": "tool-input", "properties": {"a": {"$ref": "tool-input#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}`, Options{})
	if errs := validate(t, s, `{"a": 1}`); len(errs) != 1 {
		t.Fatalf("got %+v", errs)
	}
	// Percent-escapes and ~ escapes in pointers.
	s = mustCompile(t, `{"$ref": "#/$defs/a%25b~1c", "$defs": {"a%b/c": {"type": "null"}}}`, Options{})
	if errs := validate(t, s, `1`); len(errs) != 1 || errs[0].Keyword != "type" {
		t.Fatalf("got %+v", errs)
	}
}

func TestDynamicAndRecursiveRefs(t *testing.T) {
	// 2019-09 $recursiveRef: the extension's $recursiveAnchor wins.
	res := map[string][]byte{
		"https://example.com/tree": []byte(`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/tree", "$recursiveAnchor": true,
			"type": "object", "properties": {"kids": {"type": "array", "items": {"$recursiveRef": "#"}}}}`),
	}
	s := mustCompile(t, `{"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/strict", "$recursiveAnchor": true,
		"$ref": "tree", "unevaluatedProperties": false}`, Options{Resources: res})
	if errs := validate(t, s, `{"kids": [{"kids": []}]}`); errs != nil {
		t.Fatalf("valid tree: %+v", errs)
	}
	errs := validate(t, s, `{"kids": [{"kidz": []}]}`)
	if len(errs) != 1 || errs[0].Keyword != "unevaluatedProperties" || !reflect.DeepEqual(errs[0].InstanceLocation, []string{"kids", "0"}) {
		t.Fatalf("strict tree: %+v", errs)
	}
	// The same with 2020-12 $dynamicRef.
	res = map[string][]byte{
		"https://example.com/tree": []byte(`{"$id": "https://example.com/tree", "$dynamicAnchor": "node",
			"type": "object", "properties": {"kids": {"type": "array", "items": {"$dynamicRef": "#node"}}}}`),
	}
	s = mustCompile(t, `{"$id": "https://example.com/strict", "$dynamicAnchor": "node", "$ref": "tree", "unevaluatedProperties": false}`, Options{Resources: res})
	if errs := validate(t, s, `{"kids": [{"kids": []}]}`); errs != nil {
		t.Fatalf("valid tree: %+v", errs)
	}
	if errs := validate(t, s, `{"kids": [{"kidz": []}]}`); len(errs) != 1 || errs[0].Keyword != "unevaluatedProperties" {
		t.Fatalf("strict tree: %+v", errs)
	}
}

func TestHostile(t *testing.T) {
	// A $ref cycle that never consumes the instance.
	for _, schema := range []string{
		`{"$ref": "#"}`,
		`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`,
		`{"anyOf": [{"not": {"$ref": "#"}}]}`,
	} {
		s := mustCompile(t, schema, Options{})
		if _, err := s.Validate([]byte(`1`)); !errors.Is(err, ErrSchema) {
			t.Errorf("%s: err = %v, want ErrSchema", schema, err)
		}
	}
	// Deep instance through a recursive schema.
	s := mustCompile(t, `{"items": {"$ref": "#"}}`, Options{})
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	if _, err := s.Validate([]byte(deep)); !errors.Is(err, ErrLimit) {
		t.Errorf("deep instance: err = %v, want ErrLimit", err)
	}
	shallow := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if _, err := s.Validate([]byte(shallow)); err != nil {
		t.Errorf("100 levels: %v", err)
	}
	// Exponential fan-out is cut by the step budget.
	var sb strings.Builder
	sb.WriteString(`{"$defs": {"d0": {"type": "integer"}`)
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&sb, `, "d%d": {"anyOf": [{"$ref": "#/$defs/d%d"}, {"$ref": "#/$defs/d%d"}], "allOf": [{"$ref": "#/$defs/d%d"}]}`, i, i-1, i-1, i-1)
	}
	sb.WriteString(`}, "$ref": "#/$defs/d40"}`)
	s = mustCompile(t, sb.String(), Options{})
	if _, err := s.Validate([]byte(`"x"`)); !errors.Is(err, ErrLimit) {
		t.Errorf("fan-out: err = %v, want ErrLimit", err)
	}
	// The same fan-out without failures is cut by the step budget.
	sb.Reset()
	sb.WriteString(`{"$defs": {"d0": {"type": "integer"}`)
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&sb, `, "d%d": {"allOf": [{"$ref": "#/$defs/d%d"}, {"$ref": "#/$defs/d%d"}]}`, i, i-1, i-1)
	}
	sb.WriteString(`}, "$ref": "#/$defs/d40"}`)
	s = mustCompile(t, sb.String(), Options{})
	if _, err := s.Validate([]byte(`1`)); !errors.Is(err, ErrLimit) {
		t.Errorf("valid fan-out: err = %v, want ErrLimit", err)
	}
	// Huge exponents are refused, not computed.
	s = mustCompile(t, `{"multipleOf": 3}`, Options{})
	for _, inst := range []string{`1e1000000000`, `1e-99999`, `1` + strings.Repeat("0", 20000)} {
		if _, err := s.Validate([]byte(inst)); !errors.Is(err, ErrInstance) {
			t.Errorf("%.20s: err = %v, want ErrInstance", inst, err)
		}
	}
	if errs := validate(t, s, `3e9999`); errs != nil {
		t.Errorf("3e9999: %v", errs)
	}
	// Invalid instances.
	for _, inst := range []string{``, `{`, `[1,]`, `1 2`, `nul`} {
		if _, err := s.Validate([]byte(inst)); !errors.Is(err, ErrInstance) {
			t.Errorf("%q: err = %v, want ErrInstance", inst, err)
		}
	}
	if _, err := s.ValidateValue(struct{}{}); !errors.Is(err, ErrInstance) {
		t.Errorf("struct value: err = %v, want ErrInstance", err)
	}
	if _, err := s.ValidateValue(json.Number("1e99999")); !errors.Is(err, ErrInstance) {
		t.Errorf("big json.Number: err = %v, want ErrInstance", err)
	}
}

func TestValidateValue(t *testing.T) {
	s := mustCompile(t, `{"properties": {"n": {"type": "integer", "maximum": 10}, "f": {"multipleOf": 0.5}}, "required": ["n"]}`, Options{})
	errs, err := s.ValidateValue(map[string]any{"n": json.Number("11"), "f": 1.5})
	if err != nil || len(errs) != 1 || errs[0].Keyword != "maximum" {
		t.Fatalf("got %+v, %v", errs, err)
	}
	errs, err = s.ValidateValue(map[string]any{"n": 3})
	if err != nil || errs != nil {
		t.Fatalf("got %+v, %v", errs, err)
	}
}

func TestConcurrentUse(t *testing.T) {
	s := mustCompile(t, mcpToolSchema, Options{AssertFormat: true})
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() {
			for j := 0; j < 50; j++ {
				errs, err := s.Validate([]byte(mcpToolInstanceBad))
				if err != nil || len(errs) == 0 {
					t.Error("expected errors")
				}
			}
			done <- true
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
}

const mcpToolSchema = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"properties": {
		"query": {"type": "string", "minLength": 1, "description": "Search query"},
		"limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
		"offset": {"type": "integer", "minimum": 0},
		"sort": {"type": "string", "enum": ["relevance", "date", "name"]},
		"order": {"oneOf": [{"const": "asc", "title": "Ascending"}, {"const": "desc", "title": "Descending"}]},
		"since": {"type": "string", "format": "date-time"},
		"email": {"type": "string", "format": "email"},
		"tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9-]+$"}, "uniqueItems": true, "maxItems": 10},
		"price": {"type": "number", "multipleOf": 0.01, "exclusiveMinimum": 0},
		"includeArchived": {"type": "boolean"},
		"filters": {"type": "object", "additionalProperties": {"type": "string"}},
		"mode": {"type": ["string", "null"]}
	},
	"required": ["query"],
	"additionalProperties": false
}`

const mcpToolInstanceGood = `{"query": "go json schema", "limit": 20, "offset": 0, "sort": "date", "order": "asc",
	"since": "2026-01-02T03:04:05Z", "email": "dev@example.com", "tags": ["go", "mcp"], "price": 19.99,
	"includeArchived": false, "filters": {"lang": "go"}, "mode": null}`

const mcpToolInstanceBad = `{"query": "", "limit": 0, "sort": "size", "order": "up", "since": "yesterday",
	"tags": ["Go", "Go"], "price": 19.999, "extra": true}`

func BenchmarkCompileValidate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := Compile([]byte(mcpToolSchema), Options{AssertFormat: true})
		if err != nil {
			b.Fatal(err)
		}
		if errs, err := s.Validate([]byte(mcpToolInstanceGood)); err != nil || errs != nil {
			b.Fatal(errs, err)
		}
		if errs, err := s.Validate([]byte(mcpToolInstanceBad)); err != nil || len(errs) == 0 {
			b.Fatal(errs, err)
		}
	}
}

func TestDraftKeywords(t *testing.T) {
	for _, tc := range []struct {
		draft        Draft
		schema, inst string
		valid        bool
	}{
		// Array form of items with additionalItems up to 2019-09.
		{Draft2019, `{"items": [{"type": "string"}], "additionalItems": {"type": "integer"}}`, `["a", 1, 2]`, true},
		{Draft2019, `{"items": [{"type": "string"}], "additionalItems": {"type": "integer"}}`, `["a", 1, "b"]`, false},
		{Draft2019, `{"items": [{"type": "string"}], "additionalItems": false}`, `["a", 1]`, false},
		{Draft2019, `{"items": [{}], "unevaluatedItems": false}`, `[1, 2]`, false},
		{Draft2019, `{"items": [{}], "additionalItems": true, "unevaluatedItems": false}`, `[1, 2]`, true},
		{Draft2019, `{"contains": {"type": "string"}, "unevaluatedItems": false}`, `["a"]`, false},
		{Draft2020, `{"contains": {"type": "string"}, "unevaluatedItems": false}`, `["a"]`, true},
		{Draft2020, `{"additionalItems": false}`, `[1]`, true},
		{Draft2019, `{"contains": {"type": "string"}, "minContains": 2, "maxContains": 3}`, `["a", 1]`, false},
		{Draft2019, `{"contains": {"type": "string"}, "minContains": 0}`, `[1]`, true},
		{Draft7, `{"contains": {"type": "string"}, "minContains": 0}`, `[1]`, false},
		// dependencies (draft 4-7) against dependentRequired/dependentSchemas.
		{Draft7, `{"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}`, `{"a": 1, "b": 2, "c": 3, "d": 4}`, true},
		{Draft7, `{"dependencies": {"a": ["b"]}}`, `{"a": 1}`, false},
		{Draft7, `{"dependencies": {"c": {"required": ["d"]}}}`, `{"c": 1}`, false},
		{Draft2020, `{"dependencies": {"a": ["b"]}}`, `{"a": 1}`, true},
		{Draft7, `{"dependentRequired": {"a": ["b"]}}`, `{"a": 1}`, true},
		{Draft2020, `{"dependentSchemas": {"a": {"required": ["b"]}}, "unevaluatedProperties": false, "properties": {"a": {}}}`, `{"a": 1, "b": 2}`, false},
		{Draft2020, `{"dependentSchemas": {"a": {"properties": {"b": {}}}}, "unevaluatedProperties": false, "properties": {"a": {}}}`, `{"a": 1, "b": 2}`, true},
		// if/then/else from draft 7 only.
		{Draft6, `{"if": {"type": "string"}, "then": {"minLength": 3}}`, `"a"`, true},
		{Draft7, `{"if": {"type": "string"}, "then": {"minLength": 3}}`, `"a"`, false},
		{Draft7, `{"if": {"type": "string"}, "else": {"minimum": 3}}`, `1`, false},
		// const and contains from draft 6, not draft 4.
		{Draft4, `{"const": 1}`, `2`, true},
		{Draft6, `{"const": 1}`, `2`, false},
		{Draft6, `{"exclusiveMinimum": 1}`, `1`, false},
		// Boolean schemas.
		{Draft6, `{"properties": {"a": false}}`, `{"a": 1}`, false},
		{Draft6, `{"properties": {"a": false}}`, `{"b": 1}`, true},
		{Draft2020, `true`, `{"b": 1}`, true},
		// $ref in draft 7 and with $defs (not a draft-7 keyword, but a
		// JSON pointer reaches it).
		{Draft7, `{"properties": {"a": {"$ref": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}`, `{"a": 1}`, false},
	} {
		s := mustCompile(t, tc.schema, Options{Draft: tc.draft})
		if got := validate(t, s, tc.inst) == nil; got != tc.valid {
			t.Errorf("%v %s on %s: valid=%v, want %v", tc.draft, tc.schema, tc.inst, got, tc.valid)
		}
	}
}
