package schemaform

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Code says what kind of problem an Issue is, for callers that branch.
type Code string

// The issue codes.
const (
	CodeRequired    Code = "required"     // a required field is empty
	CodeNotNumber   Code = "not-number"   // the text is not a number
	CodeNotInteger  Code = "not-integer"  // the text is not an integer
	CodeMinimum     Code = "minimum"      // below the (exclusive) minimum
	CodeMaximum     Code = "maximum"      // above the (exclusive) maximum
	CodeMultipleOf  Code = "multiple-of"  // not a multiple of multipleOf
	CodeMinLength   Code = "min-length"   // too short
	CodeMaxLength   Code = "max-length"   // too long
	CodePattern     Code = "pattern"      // does not match the pattern
	CodeFormat      Code = "format"       // not a valid uri, date, email, ...
	CodeMinItems    Code = "min-items"    // too few items
	CodeMaxItems    Code = "max-items"    // too many items
	CodeUniqueItems Code = "unique-items" // duplicate items
	CodeJSON        Code = "json"         // text is not valid JSON
	CodeSchema      Code = "schema"       // reported by whole-document validation
	CodeElicitation Code = "elicitation"  // outside the elicitation restriction
)

// Issue is one problem with the arguments, attached to the instance
// location it concerns. Message is a short English sentence; UIs may word
// their own from Code.
type Issue struct {
	Path    string // JSON pointer of the value ("" for the whole document)
	Code    Code
	Message string
}

// String returns "path: message".
func (i Issue) String() string {
	p := i.Path
	if p == "" {
		p = "(root)"
	}
	return p + ": " + i.Message
}

// Check returns the problems of this state's own control (not of the
// states below it), with empty paths.
func (s *State) Check() []Issue {
	var out []Issue
	add := func(c Code, format string, a ...any) {
		out = append(out, Issue{Code: c, Message: fmt.Sprintf(format, a...)})
	}
	f := s.Field
	if s.Raw || f.Kind == KindJSON {
		if strings.TrimSpace(s.Text) == "" {
			if f.Required {
				add(CodeRequired, "required")
			}
			return out
		}
		if _, err := parse(s.Text); err != nil {
			add(CodeJSON, "invalid JSON: %v", err)
		}
		return out
	}
	switch f.Kind {
	case KindString, KindText, KindFormat:
		if s.Text == "" && !s.keep {
			if f.Required {
				add(CodeRequired, "required")
			}
			return out
		}
		return append(out, f.checkString(s.Text)...)
	case KindNumber, KindInteger:
		t := strings.TrimSpace(s.Text)
		switch {
		case t == "":
			if f.Required {
				add(CodeRequired, "required")
			}
		case !IsNumber(t):
			add(CodeNotNumber, "not a number")
		case f.Kind == KindInteger && !IsInteger(t):
			add(CodeNotInteger, "not an integer")
		default:
			out = append(out, f.checkNumber(Number(t))...)
		}
	case KindEnum, KindTitledEnum:
		if s.Index < 0 && f.Required {
			add(CodeRequired, "required")
		}
	case KindMultiSelect:
		out = append(out, f.checkCount(len(s.Checked), len(s.Checked) > 0 || s.keep || f.Required)...)
	case KindArray:
		n := len(s.Items)
		out = append(out, f.checkCount(n, n > 0 || s.keep || f.Required)...)
		if f.UniqueItems && n > 1 {
			vals := make([]*Value, n)
			for i, it := range s.Items {
				vals[i] = it.value(true)
			}
		dup:
			for i := range vals {
				for j := i + 1; j < n; j++ {
					if vals[i] != nil && Equal(vals[i], vals[j]) {
						add(CodeUniqueItems, "items %d and %d are equal", i+1, j+1)
						break dup
					}
				}
			}
		}
	case KindNullable:
		if f.Required && !s.Null && s.Inner.value(false) == nil {
			add(CodeRequired, "required")
		}
	}
	return out
}

// Issues returns the problems of s and every state below it, with paths
// relative to s. Array items are checked as required values.
func (s *State) Issues() []Issue {
	var out []Issue
	s.Walk(func(path string, st *State) {
		for _, is := range st.Check() {
			is.Path = path
			out = append(out, is)
		}
	})
	return out
}

func (f *Field) checkCount(n int, sent bool) []Issue {
	if !sent {
		return nil
	}
	switch {
	case f.MinItems >= 0 && n < f.MinItems:
		return []Issue{{Code: CodeMinItems, Message: "at least " + count(f.MinItems, "item")}}
	case f.MaxItems >= 0 && n > f.MaxItems:
		return []Issue{{Code: CodeMaxItems, Message: "at most " + count(f.MaxItems, "item")}}
	}
	return nil
}

// checkString checks a string against the field's length, pattern and
// format constraints.
func (f *Field) checkString(s string) []Issue {
	var out []Issue
	n := utf8.RuneCountInString(s)
	if f.MinLength >= 0 && n < f.MinLength {
		out = append(out, Issue{Code: CodeMinLength, Message: "at least " + count(f.MinLength, "character")})
	}
	if f.MaxLength >= 0 && n > f.MaxLength {
		out = append(out, Issue{Code: CodeMaxLength, Message: "at most " + count(f.MaxLength, "character")})
	}
	if re := f.regexp(); re != nil && !re.MatchString(s) {
		out = append(out, Issue{Code: CodePattern, Message: "does not match " + f.Pattern})
	}
	if f.Kind == KindFormat {
		if msg := CheckFormat(f.Format, s); msg != "" {
			out = append(out, Issue{Code: CodeFormat, Message: msg})
		}
	}
	return out
}

// count words a number of things: "1 item", "3 items".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// checkNumber checks a number against bounds and multipleOf. Numbers too
// large for exact arithmetic are not checked here (whole-document
// validation still sees them).
func (f *Field) checkNumber(v *Value) []Issue {
	var out []Issue
	x, ok := ratOf(v.Num())
	if !ok {
		return nil
	}
	if f.Kind == KindInteger && !x.IsInt() {
		out = append(out, Issue{Code: CodeNotInteger, Message: "not an integer"})
	}
	if b := f.Min; b != nil {
		if m, ok := ratOf(b.Value); ok {
			c := x.Cmp(m)
			if b.Exclusive && c <= 0 {
				out = append(out, Issue{Code: CodeMinimum, Message: "must be greater than " + string(b.Value)})
			} else if !b.Exclusive && c < 0 {
				out = append(out, Issue{Code: CodeMinimum, Message: "must be at least " + string(b.Value)})
			}
		}
	}
	if b := f.Max; b != nil {
		if m, ok := ratOf(b.Value); ok {
			c := x.Cmp(m)
			if b.Exclusive && c >= 0 {
				out = append(out, Issue{Code: CodeMaximum, Message: "must be less than " + string(b.Value)})
			} else if !b.Exclusive && c > 0 {
				out = append(out, Issue{Code: CodeMaximum, Message: "must be at most " + string(b.Value)})
			}
		}
	}
	if f.MultipleOf != "" {
		if m, ok := ratOf(f.MultipleOf); ok && m.Sign() > 0 {
			q := x.Quo(x, m) // x is ours to modify
			if !q.IsInt() {
				out = append(out, Issue{Code: CodeMultipleOf, Message: "must be a multiple of " + string(f.MultipleOf)})
			}
		}
	}
	return out
}
