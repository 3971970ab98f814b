package schemaform

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/schemacheck"
)

// ErrNoValidator is wrapped by the error of Validator when the schema
// cannot be compiled for whole-document validation (an external $ref, an
// invalid keyword value, ...). The form itself still works.
var ErrNoValidator = errors.New("schemaform: schema cannot be compiled for validation")

// Validator compiles the schema (once) for whole-document validation with
// core/schemacheck (draft 2020-12 by default; draft-07 and the others
// through $schema). Format assertions are on. Nothing is ever loaded from
// outside the schema: an external $ref makes the schema uncheckable.
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
		for _, d := range []schemacheck.Draft{schemacheck.Draft2020, schemacheck.Draft7, schemacheck.Draft4} {
			sch, err := schemacheck.Compile(f.raw, schemacheck.Options{Draft: d, AssertFormat: true})
			if err == nil {
				f.validator = sch
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
	errs, err := f.validator.Validate(doc)
	if err != nil {
		if errors.Is(err, schemacheck.ErrInstance) {
			return []Issue{{Code: CodeJSON, Message: "invalid JSON: " + err.Error()}}
		}
		return []Issue{{Code: CodeSchema, Message: err.Error()}}
	}
	var out []Issue
	for _, e := range errs {
		path := pointer(e.InstanceLocation)
		switch {
		case len(e.Choices) > 0:
			vals := make([]string, len(e.Choices))
			for i, c := range e.Choices {
				vals[i] = string(c)
			}
			out = append(out, Issue{Path: path, Code: CodeSchema, Message: "value must be one of " + strings.Join(vals, ", ")})
		case e.Keyword == "required" && len(e.Missing) > 0:
			for _, m := range e.Missing {
				out = append(out, Issue{Path: path + "/" + escapeToken(m), Code: CodeRequired, Message: "required"})
			}
		default:
			out = append(out, Issue{Path: path, Code: CodeSchema, Message: e.Message})
		}
	}
	return dedupe(out)
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
