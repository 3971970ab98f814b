package schemaform

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// ErrNoValidator is wrapped by the error of CompileSchema and
// Form.Validator when the schema cannot be compiled for whole-document
// validation (an external $ref, an invalid keyword value, ...). A form
// still works without it.
var ErrNoValidator = errors.New("schemaform: schema cannot be compiled for validation")

// Schema is a JSON Schema compiled for whole-document validation by
// github.com/santhosh-tekuri/jsonschema/v6. It is safe for concurrent use.
type Schema struct {
	s    *jsonschema.Schema
	root *Value // the schema as parsed, for the work estimate (see tooMuchWork)
}

// schemaURL names the compiled document; relative $ref and $id resolve
// against it, and nothing is ever loaded from it.
const schemaURL = "https://spyglass.invalid/schema.json"

// CompileSchema compiles a schema for Schema.Validate. The draft is the one
// named by $schema (4, 6, 7, 2019-09 or 2020-12), 2020-12 without one;
// "format" is an assertion; $ref is resolved inside the document only:
// nothing is read from disk or the network, so a $ref to another document
// is an error. Errors wrap ErrNoValidator.
func CompileSchema(raw []byte) (*Schema, error) {
	v, err := ParseValue(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoValidator, err)
	}
	return compileValue(v, jsonschema.Draft2020)
}

// noLoader refuses every document outside the schema (the meta-schemas
// are built into the library and never loaded).
type noLoader struct{}

func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema, and schemas are never loaded from disk or the network", u)
}

// newCompiler returns a compiler that asserts formats, knows the "url"
// format and loads nothing.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(noLoader{})
	c.RegisterFormat(&jsonschema.Format{Name: "url", Validate: func(v any) error {
		if s, ok := v.(string); ok {
			if u, err := url.Parse(s); err != nil || !u.IsAbs() {
				return errors.New("not an absolute URL")
			}
		}
		return nil
	}})
	return c
}

// compileValue compiles a parsed schema with draft as the default.
func compileValue(v *Value, draft *jsonschema.Draft) (s *Schema, err error) {
	if hugeNumbers(v, 0) {
		return nil, fmt.Errorf("%w: a number in the schema is too large to check", ErrNoValidator)
	}
	if tooComplex(v) {
		return nil, fmt.Errorf("%w: the schema applies its subschemas to one value more than %d times", ErrNoValidator, maxEvaluations)
	}
	defer func() {
		// The schema comes from a server: a bug in the library it
		// finds must not take the application down.
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("%w: the validator failed: %v", ErrNoValidator, r)
		}
	}()
	c := newCompiler()
	c.DefaultDraft(draft)
	if err := c.AddResource(schemaURL, toAny(v)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoValidator, err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoValidator, err)
	}
	return &Schema{s: sch, root: v}, nil
}

// Validate checks a JSON document and returns its problems in instance
// order; nil when it is valid. Invalid JSON yields one CodeJSON issue. A
// missing required property is reported at the property's own path with
// CodeRequired; every other problem has CodeSchema.
func (s *Schema) Validate(doc []byte) []Issue {
	v, err := ParseValue(doc)
	if err != nil {
		return []Issue{{Code: CodeJSON, Message: "invalid JSON: " + err.Error()}}
	}
	return s.validate(v)
}

func (s *Schema) validate(v *Value) (out []Issue) {
	if hugeNumbers(v, 0) {
		return []Issue{{Code: CodeSchema, Message: "a number is too large to check"}}
	}
	if tooMuchWork(s.root, v) {
		return []Issue{{Code: CodeSchema, Message: fmt.Sprintf("the schema would apply its subschemas to this document more than %d times: too costly to check", maxWork)}}
	}
	defer func() {
		if r := recover(); r != nil {
			out = []Issue{{Code: CodeSchema, Message: fmt.Sprintf("the validator failed: %v", r)}}
		}
	}()
	err := s.s.Validate(toAny(v))
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Code: CodeSchema, Message: err.Error()}}
	}
	collect(ve, &out)
	// The library visits properties in map order: sort by location.
	slices.SortStableFunc(out, func(a, b Issue) int { return comparePaths(a.Path, b.Path) })
	return dedupe(out)
}

// collect appends the leaf failures of e, worded for people.
func collect(e *jsonschema.ValidationError, out *[]Issue) {
	path := pointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, Issue{Path: path + "/" + escapeToken(m), Code: CodeRequired, Message: "required"})
		}
		return
	case *kind.AnyOf, *kind.OneOf:
		if choices := constChoices(e); choices != "" {
			*out = append(*out, Issue{Path: path, Code: CodeSchema, Message: "value must be one of " + choices})
			return
		}
	case *kind.Contains, *kind.MinContains, *kind.MaxContains:
		// The causes are the items that do not match: not the problem.
		*out = append(*out, Issue{Path: path, Code: CodeSchema, Message: message(e.ErrorKind)})
		return
	case *kind.PropertyNames:
		var leaves []Issue
		for _, c := range e.Causes {
			collect(c, &leaves)
		}
		for _, l := range leaves {
			*out = append(*out, Issue{Path: path + "/" + escapeToken(k.Property), Code: CodeSchema,
				Message: "property name " + strings.TrimPrefix(l.Message, "value ")})
		}
		return
	}
	if len(e.Causes) == 0 {
		*out = append(*out, Issue{Path: path, Code: CodeSchema, Message: message(e.ErrorKind)})
		return
	}
	for _, c := range e.Causes {
		collect(c, out)
	}
}

// constChoices lists the allowed values when every branch of a failed
// anyOf or oneOf is a {"const": ...} alternative, else "".
func constChoices(e *jsonschema.ValidationError) string {
	if len(e.Causes) == 0 {
		return ""
	}
	vals := make([]string, len(e.Causes))
	for i, c := range e.Causes {
		k, ok := c.ErrorKind.(*kind.Const)
		if !ok || len(c.Causes) > 0 {
			return ""
		}
		vals[i] = render(k.Want)
	}
	return strings.Join(vals, ", ")
}

// message words one leaf failure.
func message(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("must be %s, not %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		vals := make([]string, len(k.Want))
		for i, w := range k.Want {
			vals[i] = render(w)
		}
		return "value must be one of " + strings.Join(vals, ", ")
	case *kind.Const:
		return "value must be " + render(k.Want)
	case *kind.Format:
		if hint := formatHints[k.Want]; hint != "" {
			return hint
		}
		return "must be a valid " + k.Want
	case *kind.Minimum:
		return "must be at least " + ratText(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be greater than " + ratText(k.Want)
	case *kind.Maximum:
		return "must be at most " + ratText(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be less than " + ratText(k.Want)
	case *kind.MultipleOf:
		return "must be a multiple of " + ratText(k.Want)
	case *kind.MinLength:
		return "must be at least " + count(k.Want, "character")
	case *kind.MaxLength:
		return "must be at most " + count(k.Want, "character")
	case *kind.Pattern:
		return "does not match " + k.Want
	case *kind.MinItems:
		return "must have at least " + count(k.Want, "item")
	case *kind.MaxItems:
		return "must have at most " + count(k.Want, "item")
	case *kind.AdditionalItems:
		return "the last " + count(k.Count, "item") + " not allowed"
	case *kind.UniqueItems:
		return fmt.Sprintf("items %d and %d are equal", k.Duplicates[0]+1, k.Duplicates[1]+1)
	case *kind.Contains:
		return "must contain a matching item"
	case *kind.MinContains:
		return "must contain at least " + count(k.Want, "matching item")
	case *kind.MaxContains:
		return "must contain at most " + count(k.Want, "matching item")
	case *kind.MinProperties:
		return fmt.Sprintf("must have at least %d %s", k.Want, properties(k.Want))
	case *kind.MaxProperties:
		return fmt.Sprintf("must have at most %d %s", k.Want, properties(k.Want))
	case *kind.AdditionalProperties:
		names := slices.Sorted(slices.Values(k.Properties)) // found in map order
		return "additional " + properties(len(names)) + " not allowed: " + strings.Join(names, ", ")
	case *kind.Dependency:
		return missing(k.Missing, k.Prop)
	case *kind.DependentRequired:
		return missing(k.Missing, k.Prop)
	case *kind.Not:
		return "must not match the schema"
	case *kind.FalseSchema:
		return "not allowed"
	case *kind.OneOf:
		return fmt.Sprintf("must match exactly one schema, but matches %d", len(k.Subschemas))
	case *kind.RefCycle:
		return "the schema refers to itself without end ($ref " + k.URL + ")"
	}
	return "does not satisfy " + strings.Join(k.KeywordPath(), "/")
}

// properties is "property" or "properties", for n of them.
func properties(n int) string {
	if n == 1 {
		return "property"
	}
	return "properties"
}

func missing(names []string, by string) string {
	return "missing " + properties(len(names)) + ": " + strings.Join(names, ", ") + " (required by " + by + ")"
}

// render writes a value from a schema as JSON.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ratText writes a bound from the schema: integers exactly, others as the
// shortest float64 that names them.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// comparePaths orders JSON pointers token by token, array indices by
// value, a parent before its members.
func comparePaths(a, b string) int {
	ta, tb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if ta[i] == tb[i] {
			continue
		}
		x, errx := strconv.Atoi(ta[i])
		y, erry := strconv.Atoi(tb[i])
		if errx == nil && erry == nil {
			return cmp.Compare(x, y)
		}
		return strings.Compare(ta[i], tb[i])
	}
	return cmp.Compare(len(ta), len(tb))
}

// maxEvaluations bounds how many times a schema may apply its subschemas
// to one value.
const maxEvaluations = 1 << 16

// tooComplex reports whether validation could apply the subschemas of
// root to one value more than maxEvaluations times: a subschema shared
// through $ref by several branches of allOf, anyOf or oneOf is applied
// once per branch, so a chain of them doubles the work at each link, and
// forty links keep a check busy for hours.
func tooComplex(root *Value) bool {
	b := builder{root: root}
	memo := map[*Value]int{}
	var cost func(s *Value) int
	cost = func(s *Value) int {
		if s == nil || s.Type != TypeObject {
			return 1
		}
		if c, ok := memo[s]; ok {
			return c
		}
		memo[s] = 1 // a cycle counts once: the library stops cycles that consume nothing
		c := 1
		add := func(sub *Value) { c = min(c+cost(sub), maxEvaluations+1) }
		for _, m := range s.Members {
			switch m.Key {
			case "allOf", "anyOf", "oneOf":
				for _, it := range m.Value.Items {
					add(it)
				}
			case "not", "if", "then", "else":
				add(m.Value)
			case "dependentSchemas", "dependencies":
				for _, d := range m.Value.Members {
					add(d.Value)
				}
			case "$ref", "$dynamicRef", "$recursiveRef":
				if m.Value.Type == TypeString {
					add(b.pointer(m.Value.Str))
				}
			}
		}
		memo[s] = c
		return c
	}
	var walk func(v *Value, depth int) bool
	walk = func(v *Value, depth int) bool {
		if v == nil || depth > maxNesting {
			return false
		}
		if v.Type == TypeObject && cost(v) > maxEvaluations {
			return true
		}
		for _, it := range v.Items {
			if walk(it, depth+1) {
				return true
			}
		}
		for _, m := range v.Members {
			if walk(m.Value, depth+1) {
				return true
			}
		}
		return false
	}
	return walk(root, 0)
}

// maxWork bounds how many times validating one document may apply a
// subschema to one of its values.
const maxWork = 1 << 21

// tooMuchWork reports whether validating inst against root would apply
// subschemas to its values more than maxWork times. The library has no
// step budget, and tooComplex looks at one value only: a schema that
// applies itself twice to a child ({"allOf": [A, A]}, A's properties
// pointing back at the root) doubles the work at each level of the
// document, so twenty-odd levels of a hostile structuredContent would
// keep a check busy for hours. The count over-approximates (every
// property and item keyword is taken to apply to every member or item)
// and is memoized per (subschema, value), so it is itself cheap.
func tooMuchWork(root, inst *Value) bool {
	b := builder{root: root}
	type pair struct{ s, v *Value }
	memo := map[pair]int{}
	var count func(s, v *Value) int
	count = func(s, v *Value) int {
		if s == nil || s.Type != TypeObject {
			return 1
		}
		k := pair{s, v}
		if c, ok := memo[k]; ok {
			return c
		}
		memo[k] = 1 // a cycle at one value counts once (the library stops it)
		c := 1
		add := func(sub, at *Value) { c = min(c+count(sub, at), maxWork+1) }
		each := func(sub *Value) { // sub applies to every member or item of v
			for _, m := range v.Members {
				add(sub, m.Value)
			}
			for _, it := range v.Items {
				add(sub, it)
			}
		}
		for _, m := range s.Members {
			switch m.Key {
			case "allOf", "anyOf", "oneOf":
				for _, it := range m.Value.Items {
					add(it, v)
				}
			case "not", "if", "then", "else":
				add(m.Value, v)
			case "dependentSchemas", "dependencies":
				for _, d := range m.Value.Members {
					add(d.Value, v)
				}
			case "$ref", "$dynamicRef", "$recursiveRef":
				if m.Value.Type == TypeString {
					add(b.pointer(m.Value.Str), v)
				}
			case "properties":
				for _, p := range m.Value.Members {
					if mv := v.Get(p.Key); mv != nil {
						add(p.Value, mv)
					}
				}
			case "patternProperties", "prefixItems":
				for _, p := range m.Value.Members {
					each(p.Value)
				}
				for _, p := range m.Value.Items {
					each(p)
				}
			case "items":
				if m.Value.Type == TypeArray { // draft 4-2019 tuple form
					for _, p := range m.Value.Items {
						each(p)
					}
				} else {
					each(m.Value)
				}
			case "additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems", "contains", "propertyNames":
				each(m.Value)
			}
		}
		memo[k] = c
		return c
	}
	return count(root, inst) > maxWork
}

// toAny converts a Value to what the library validates: nil, bool,
// json.Number, string, []any and map[string]any (the last member of a
// name wins, as in JSON decoding).
func toAny(v *Value) any {
	switch v.Type {
	case TypeBool:
		return v.Bool
	case TypeNumber:
		return v.Num()
	case TypeString:
		return v.Str
	case TypeArray:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = toAny(it)
		}
		return out
	case TypeObject:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			out[m.Key] = toAny(m.Value)
		}
		return out
	}
	return nil
}

// formatHints say what each format a form field checks expects; they word
// format failures of whole-document validation too.
var formatHints = map[string]string{
	"uri":           "not an absolute URI (like https://example.com/path)",
	"iri":           "not an absolute IRI (like https://example.com/path)",
	"url":           "not an absolute URL (like https://example.com/path)",
	"uri-reference": "not a URI reference",
	"date":          "not a date (YYYY-MM-DD)",
	"date-time":     "not a date-time (YYYY-MM-DDThh:mm:ssZ)",
	"time":          "not a time (hh:mm:ssZ)",
	"email":         "not an email address",
	"uuid":          "not a UUID",
	"ipv4":          "not an IPv4 address",
	"ipv6":          "not an IPv6 address",
}

// formatSchemas holds {"format": name} compiled for each format of
// formatHints, made on first use: field checks ask the same checker as
// whole-document validation.
var formatSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	out := make(map[string]*jsonschema.Schema, len(formatHints))
	for name := range formatHints {
		c := newCompiler()
		if c.AddResource(schemaURL, map[string]any{"format": name}) != nil {
			continue
		}
		if s, err := c.Compile(schemaURL); err == nil {
			out[name] = s
		}
	}
	return out
})

// CheckFormat checks s against a string format; it returns "" when s is
// valid or the format is not one a form field checks, else a short
// description of what is expected. Whole-document validation judges
// formats the same way.
func CheckFormat(format, s string) string {
	if sch := formatSchemas()[format]; sch != nil && sch.Validate(s) != nil {
		return formatHints[format]
	}
	return ""
}

// Validator compiles the schema (once) for whole-document validation (see
// CompileSchema). Servers without $schema often mix drafts (a boolean
// exclusiveMaximum, array items): such a schema is tried as 2020-12, then
// draft-07, then draft-04 before giving up.
func (f *Form) Validator() error {
	f.vOnce.Do(func() {
		var first error
		for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7, jsonschema.Draft4} {
			sch, err := compileValue(f.Schema, d)
			if err == nil {
				f.validator = sch
				return
			}
			if first == nil {
				first = err
			}
			if f.Schema.Has("$schema") || hugeNumbers(f.Schema, 0) {
				break // the schema names its draft, or no draft helps
			}
		}
		f.vErr = first
	})
	return f.vErr
}

// hugeNumbers reports whether v holds a number beyond exact arithmetic.
func hugeNumbers(v *Value, depth int) bool {
	if v == nil || depth > maxNesting {
		return false
	}
	switch v.Type {
	case TypeNumber:
		_, ok := ratOf(v.Num())
		return !ok
	case TypeArray:
		for _, it := range v.Items {
			if hugeNumbers(it, depth+1) {
				return true
			}
		}
	case TypeObject:
		for _, m := range v.Members {
			if hugeNumbers(m.Value, depth+1) {
				return true
			}
		}
	}
	return false
}

// Validate checks a whole argument document against the schema (see
// Schema.Validate). A schema that cannot be compiled yields one CodeSchema
// issue at the root.
func (f *Form) Validate(doc []byte) []Issue {
	v, err := ParseValue(doc)
	if err != nil {
		return []Issue{{Code: CodeJSON, Message: "invalid JSON: " + err.Error()}}
	}
	if err := f.Validator(); err != nil {
		return []Issue{{Code: CodeSchema, Message: "the schema cannot be checked: " + err.Error()}}
	}
	return f.validator.validate(v)
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func dedupe(in []Issue) []Issue {
	out := in[:0]
	for _, is := range in {
		if !slices.Contains(out, is) {
			out = append(out, is)
		}
	}
	return out
}

// Check returns every problem of the arguments a form state would send:
// the per-field issues of s, then the whole-document issues at locations
// that have no per-field issue (so nothing is reported twice). A schema
// that cannot be compiled only turns the whole-document part off (see
// Validator). The arguments can still be sent; the caller decides.
func (f *Form) Check(s *State) []Issue {
	if f.Validator() != nil {
		return s.Issues()
	}
	out := s.Issues()
	seen := make(map[string]bool, len(out))
	for _, is := range out {
		seen[is.Path] = true
	}
	v := s.Value()
	if v == nil {
		v = Object()
	}
	for _, is := range f.validator.validate(v) {
		if !seen[is.Path] {
			out = append(out, is)
		}
	}
	return out
}
