package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ErrNoValidator is wrapped by the error of Validator when the schema
// cannot be compiled for whole-document validation (an external $ref, an
// invalid keyword value, ...). The form itself still works.
var ErrNoValidator = errors.New("schemaform: schema cannot be compiled for validation")

type validatorFunc func(inst any) error

// schemaURL is the location the schema is compiled under. Nothing is ever
// loaded from it or from any other URL: external references fail.
const schemaURL = "urn:spyglass:input-schema"

type noLoader struct{}

// Load refuses every URL: schemas never reach out of the document.
func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %s is not loaded", url)
}

// Validator compiles the schema (once) for whole-document validation with
// santhosh-tekuri/jsonschema (draft 2020-12 by default; draft-07 and the
// others through $schema). Format assertions are on.
func (f *Form) Validator() error {
	f.vOnce.Do(func() {
		if hugeNumbers(f.Schema, 0) {
			f.vErr = fmt.Errorf("%w: a number in the schema is too large to check", ErrNoValidator)
			return
		}
		// Servers without $schema often mix drafts (a boolean
		// exclusiveMaximum, array items): try 2020-12, then draft-07,
		// then draft-04 before giving up.
		var first error
		for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7, jsonschema.Draft4} {
			sch, err := compile(f.raw, d)
			if err == nil {
				f.validator = sch.Validate
				return
			}
			if first == nil {
				first = err
			}
			if f.Schema.Has("$schema") {
				break // the schema names its draft
			}
		}
		f.vErr = fmt.Errorf("%w: %w", ErrNoValidator, first)
	})
	return f.vErr
}

func compile(raw []byte, draft *jsonschema.Draft) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseLoader(noLoader{})
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

// hugeNumbers reports whether v holds a number beyond exact arithmetic.
func hugeNumbers(v *Value, depth int) bool {
	if v == nil || depth > maxNesting {
		return false
	}
	switch v.Type {
	case TypeNumber:
		_, ok := ratOf(v.Num)
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

var printer = message.NewPrinter(language.English)

// Validate checks a whole argument document against the schema and
// returns its problems, each at the instance location it concerns (a
// missing required property is reported at the property's own path).
// Invalid JSON yields one CodeJSON issue; a schema that cannot be
// compiled yields one CodeSchema issue at the root.
func (f *Form) Validate(doc []byte) []Issue {
	v, err := ParseValue(doc)
	if err != nil {
		return []Issue{{Code: CodeJSON, Message: "invalid JSON: " + err.Error()}}
	}
	if err := f.Validator(); err != nil {
		return []Issue{{Code: CodeSchema, Message: "the schema cannot be checked: " + err.Error()}}
	}
	if hugeNumbers(v, 0) {
		return []Issue{{Code: CodeSchema, Message: "a number is too large to check"}}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return []Issue{{Code: CodeJSON, Message: "invalid JSON: " + err.Error()}}
	}
	err = f.validator(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Code: CodeSchema, Message: err.Error()}}
	}
	var out []Issue
	leaves(ve, &out)
	return dedupe(out)
}

// leaves flattens a validation error tree into its leaf issues.
func leaves(e *jsonschema.ValidationError, out *[]Issue) {
	if msg, ok := constChoice(e); ok {
		*out = append(*out, Issue{Path: pointer(e.InstanceLocation), Code: CodeSchema, Message: msg})
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			leaves(c, out)
		}
		return
	}
	path := pointer(e.InstanceLocation)
	if r, ok := e.ErrorKind.(*kind.Required); ok {
		for _, m := range r.Missing {
			*out = append(*out, Issue{Path: path + "/" + escapeToken(m), Code: CodeRequired, Message: "required"})
		}
		return
	}
	*out = append(*out, Issue{Path: path, Code: CodeSchema, Message: e.ErrorKind.LocalizedString(printer)})
}

// constChoice words a failed oneOf/anyOf whose branches are all consts
// (a titled enum) as one issue: "value must be one of 'a', 'b'".
func constChoice(e *jsonschema.ValidationError) (string, bool) {
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
	default:
		return "", false
	}
	if len(e.Causes) == 0 {
		return "", false
	}
	var vals []string
	for _, c := range e.Causes {
		k, ok := c.ErrorKind.(*kind.Const)
		if !ok || len(c.Causes) > 0 {
			return "", false
		}
		b, err := json.Marshal(k.Want)
		if err != nil {
			return "", false
		}
		vals = append(vals, string(b))
	}
	return "value must be one of " + strings.Join(vals, ", "), true
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
	for _, is := range f.Validate(v.JSON()) {
		if !seen[is.Path] {
			out = append(out, is)
		}
	}
	return out
}
