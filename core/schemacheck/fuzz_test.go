package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
)

// refCompile compiles a schema with santhosh-tekuri/jsonschema, the
// validator this package replaces, with no loader (nothing is read from
// disk or network; its built-in meta-schemas stay available). ok is false
// when it does not compile or panics.
func refCompile(schema []byte, draft Draft) (s *santhosh.Schema, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	doc, err := santhosh.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, false
	}
	c := santhosh.NewCompiler()
	c.DefaultDraft(map[Draft]*santhosh.Draft{Draft4: santhosh.Draft4, Draft6: santhosh.Draft6, Draft7: santhosh.Draft7,
		Draft2019: santhosh.Draft2019, Draft2020: santhosh.Draft2020}[draft])
	c.UseLoader(santhosh.SchemeURLLoader{})
	if err := c.AddResource("http://fuzz.invalid/schema.json", doc); err != nil {
		return nil, false
	}
	s, err = c.Compile("http://fuzz.invalid/schema.json")
	return s, err == nil
}

// refValid validates with santhosh-tekuri; ok is false when it cannot
// tell (bad instance, panic, or an error that is not a validation error,
// such as its infinite-loop detection).
func refValid(s *santhosh.Schema, instance []byte) (valid, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	inst, err := santhosh.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		return false, false
	}
	err = s.Validate(inst)
	if err == nil {
		return true, true
	}
	var ve *santhosh.ValidationError
	if !errors.As(err, &ve) {
		return false, false
	}
	if strings.Contains(err.Error(), "infinite loop") {
		return false, false
	}
	return false, true
}

// comparable reports whether the two validators are expected to agree on
// a schema. Excluded are:
//   - "format": the format checkers are written independently and differ
//     on corner cases (santhosh-tekuri also asserts format in draft 4-7
//     even when not asked to);
//   - "dependencies" where 2019-09/2020-12 may apply: santhosh-tekuri
//     still applies it there, where it is no longer a keyword;
//   - "$vocabulary" and "content*": not implemented here (annotations);
//   - an object with "$ref" and one of const, contains, propertyNames,
//     if, then, else: in draft 6 and 7 santhosh-tekuri applies these
//     siblings of $ref (it skips only the draft-4 keywords), where the
//     specification says every sibling of $ref is ignored.
//
// Regular expressions are compared: both sides use Go's regexp package.
func comparable(schema []byte, draft Draft) bool {
	s := string(schema)
	for _, w := range []string{`"format"`, `"$vocabulary"`, `"contentSchema"`, `"contentMediaType"`, `"contentEncoding"`} {
		if strings.Contains(s, w) {
			return false
		}
	}
	if strings.Contains(s, `"dependencies"`) && (draft > Draft7 || strings.Contains(s, "json-schema.org/draft/20")) {
		return false
	}
	if strings.Contains(s, `"$ref"`) {
		var v any
		if json.Unmarshal(schema, &v) != nil || refWithDraft6Siblings(v) {
			return false
		}
	}
	return true
}

// refWithDraft6Siblings reports whether v holds an object with "$ref" and
// a keyword introduced in draft 6 or 7.
func refWithDraft6Siblings(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["$ref"]; ok {
			for _, k := range []string{"const", "contains", "propertyNames", "if", "then", "else"} {
				if _, ok := v[k]; ok {
					return true
				}
			}
		}
		for _, x := range v {
			if refWithDraft6Siblings(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if refWithDraft6Siblings(x) {
				return true
			}
		}
	}
	return false
}

// FuzzValidate compiles schema/instance pairs with this package and with
// santhosh-tekuri/jsonschema and checks that nothing panics or hangs and
// that, when both compile and both can decide, the verdicts agree.
func FuzzValidate(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed.schema, seed.instance, seed.draft)
	}
	for _, seed := range [][2]string{
		{`{"$ref": "#"}`, `1`},
		{`{"items": {"$ref": "#"}}`, `[[[[[[[[[[]]]]]]]]]]`},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 3, "exclusiveMaximum": true}`, `3`},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "items": [{}], "additionalItems": false, "unevaluatedItems": false}`, `[1, 2]`},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}`, `{"a": 1, "c": 2}`},
		{`{"multipleOf": 0.01, "maximum": 123456789012345678901234567890}`, `19.99`},
		{`{"oneOf": [{"const": "a"}, {"const": "b", "title": "B"}]}`, `"c"`},
		{`{"properties": {"a": {"pattern": "^x+$"}}, "patternProperties": {"^b": {"minLength": 2}}, "additionalProperties": false}`, `{"a": "xy", "bc": "1", "z": 0}`},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]), uint8(4))
	}
	f.Fuzz(func(t *testing.T, schema, instance []byte, draft uint8) {
		differential(t, schema, instance, fuzzDrafts[int(draft)%len(fuzzDrafts)])
	})
}

// TestDifferentialSeeds runs the fuzz seeds through the differential
// check and makes sure most of them are actually compared.
func TestDifferentialSeeds(t *testing.T) {
	seeds := fuzzSeeds(t)
	compared := 0
	for _, seed := range seeds {
		if differential(t, seed.schema, seed.instance, fuzzDrafts[seed.draft]) {
			compared++
		}
	}
	t.Logf("%d of %d suite pairs compared with santhosh-tekuri/jsonschema", compared, len(seeds))
	if compared < len(seeds)/2 {
		t.Errorf("only %d of %d pairs compared", compared, len(seeds))
	}
	// The same pairs with every other draft as the default (schemas
	// without $schema are then read as that draft).
	for i, d := range fuzzDrafts {
		n := 0
		for _, seed := range seeds {
			if int(seed.draft) != i && differential(t, seed.schema, seed.instance, d) {
				n++
			}
		}
		t.Logf("default %v: %d pairs compared", d, n)
	}
}

// differential checks one pair; it reports whether the verdicts were
// compared.
func differential(t *testing.T, schema, instance []byte, draft Draft) bool {
	t.Helper()
	if len(schema) > 4096 || len(instance) > 4096 {
		return false
	}
	start := time.Now()
	defer func() {
		if d := time.Since(start); d > time.Second {
			t.Fatalf("slow (%v): schema %q instance %q", d, schema, instance)
		}
	}()
	ours, err := Compile(schema, Options{Draft: draft})
	if err != nil {
		if !errors.Is(err, ErrSchema) {
			t.Fatalf("compile error does not wrap ErrSchema: %v", err)
		}
		return false
	}
	errs, verr := ours.Validate(instance)
	if verr != nil {
		if !errors.Is(verr, ErrInstance) && !errors.Is(verr, ErrLimit) && !errors.Is(verr, ErrSchema) {
			t.Fatalf("validate error wraps no sentinel: %v", verr)
		}
		return false
	}
	for _, e := range errs {
		if e.Message == "" || e.Keyword == "" {
			t.Fatalf("error without message or keyword: %+v", e)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("schemacheck slow (%v): schema %q instance %q", d, schema, instance)
	}
	if !comparable(schema, draft) {
		return false
	}
	ref, ok := refCompile(schema, draft)
	if !ok {
		return false
	}
	want, ok := refValid(ref, instance)
	if !ok {
		return false
	}
	if got := len(errs) == 0; got != want {
		t.Fatalf("schema %s\ninstance %s\nschemacheck valid=%v (errors %+v), santhosh-tekuri valid=%v", schema, instance, got, errs, want)
	}
	return true
}

// fuzzDrafts maps the fuzz input's draft byte to the default draft.
var fuzzDrafts = [...]Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}

type fuzzSeed struct {
	schema, instance []byte
	draft            uint8 // index into fuzzDrafts
}

// fuzzSeeds takes schema/instance pairs from the official test suite,
// with the suite's draft as the default draft.
func fuzzSeeds(t testing.TB) []fuzzSeed {
	base := filepath.Join(moduleDir(t, "github.com/google/jsonschema-go"), "jsonschema", "testdata")
	var seeds []fuzzSeed
	for _, dir := range []struct {
		name  string
		draft uint8
	}{{"draft2020-12", 4}, {"draft7", 2}} {
		files, err := filepath.Glob(filepath.Join(base, dir.name, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var groups []suiteGroup
			if err := json.Unmarshal(b, &groups); err != nil {
				t.Fatal(err)
			}
			for _, g := range groups {
				for _, tc := range g.Tests {
					seeds = append(seeds, fuzzSeed{g.Schema, tc.Data, dir.draft})
				}
			}
		}
	}
	return seeds
}
