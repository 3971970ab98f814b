package schemacheck

import (
	"encoding/json"
	"fmt"
)

// Draft names a JSON Schema specification version.
type Draft int

// The supported drafts. The zero value of Draft means Draft2020.
const (
	Draft4    Draft = 4
	Draft6    Draft = 6
	Draft7    Draft = 7
	Draft2019 Draft = 2019
	Draft2020 Draft = 2020
)

// String returns the draft's name, such as "draft-07" or "2020-12".
func (d Draft) String() string {
	switch d {
	case Draft4:
		return "draft-04"
	case Draft6:
		return "draft-06"
	case Draft7:
		return "draft-07"
	case Draft2019:
		return "2019-09"
	case Draft2020, 0:
		return "2020-12"
	}
	return fmt.Sprintf("Draft(%d)", int(d))
}

// Options adjust Compile.
type Options struct {
	// Draft is used when a schema has no $schema naming a known draft.
	// The zero value means Draft2020.
	Draft Draft
	// AssertFormat makes "format" an assertion rather than an annotation.
	AssertFormat bool
	// Resources holds extra schema documents by absolute URL (a trailing
	// "#" is ignored), for $ref to other documents. Nothing is ever
	// fetched from the network or read from disk.
	Resources map[string][]byte
}

// sentinel is the type of this package's sentinel errors. They are
// pointers to static data rather than errors.New results so that the
// package needs no initialisation code at all.
type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }

// Sentinel errors; the errors returned by this package wrap one of them.
var (
	// ErrSchema means the schema cannot be compiled: invalid JSON, an
	// invalid keyword value, a regular expression that does not compile,
	// a $ref that cannot be resolved, or (from Validate) a $ref cycle that
	// never consumes any of the instance.
	ErrSchema error = &sentinel{"schemacheck: invalid schema"}
	// ErrInstance means the instance is not valid JSON, holds a value of a
	// type that is not JSON, or holds a number too large to check.
	ErrInstance error = &sentinel{"schemacheck: invalid instance"}
	// ErrLimit means validation stopped because it nested too deeply,
	// did too much work or found too many failures.
	ErrLimit error = &sentinel{"schemacheck: evaluation limit exceeded"}
)

// Error is one leaf validation failure.
type Error struct {
	// InstanceLocation holds the JSON-pointer tokens, unescaped, of the
	// value that failed (for propertyNames, of the property whose name
	// failed); empty, not nil, for the root.
	InstanceLocation []string
	// KeywordLocation is the JSON pointer of the failing keyword, through
	// the evaluation path (references show as "/$ref/...").
	KeywordLocation string
	// Keyword is the failing keyword, such as "minimum", "required",
	// "type", "format" or "oneOf"; "false" for the false schema.
	Keyword string
	// Message is a short English description, such as "must be >= 3".
	Message string
	// Missing names the missing properties, for "required",
	// "dependentRequired" and "dependencies".
	Missing []string
	// Choices holds the allowed values when a failed anyOf or oneOf has
	// only {"const": ...} branches (with optional title and description);
	// the branch failures are then reported as this one Error.
	Choices []json.RawMessage
}

// Schema is a compiled schema. It is safe for concurrent use.
type Schema struct {
	root *schema
}

// Compile parses and compiles a schema. Errors wrap ErrSchema.
func Compile(raw []byte, opts Options) (*Schema, error) {
	switch opts.Draft {
	case 0, Draft4, Draft6, Draft7, Draft2019, Draft2020:
	default:
		return nil, fmt.Errorf("%w: unknown draft %d", ErrSchema, int(opts.Draft))
	}
	c := newCompiler(opts)
	root, err := c.compileRoot(raw)
	if err != nil {
		return nil, err
	}
	return &Schema{root: root}, nil
}

// Validate checks a JSON instance. It returns the leaf failures, nil when
// the instance is valid; the error (wrapping ErrInstance, ErrLimit or
// ErrSchema) is set only when the instance could not be checked.
func (s *Schema) Validate(instance []byte) ([]Error, error) {
	v, err := parseInstance(instance)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInstance, err)
	}
	return s.validate(v)
}

// ValidateValue checks an instance already decoded with
// json.Decoder.UseNumber: nil, bool, string, json.Number, []any and
// map[string]any (float64 and Go integers are accepted as numbers too).
func (s *Schema) ValidateValue(v any) ([]Error, error) {
	return s.validate(v)
}

func (s *Schema) validate(v any) ([]Error, error) {
	if err := checkInstance(v, 0); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInstance, err)
	}
	e := &evaluator{}
	errs := e.eval(s.root, v, "", nil)
	if e.fatal != nil {
		return nil, e.fatal
	}
	return dedup(errs), nil
}

func dedup(errs []Error) []Error {
	if len(errs) < 2 {
		return errs
	}
	seen := make(map[string]bool, len(errs))
	out := errs[:0]
	for _, e := range errs {
		k := e.KeywordLocation + "\x00" + fmt.Sprintf("%q", e.InstanceLocation) + "\x00" + e.Message
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	return out
}
