// Package plain words an error for a person: the cause first, in the
// developer's words, with the whole technical chain kept for "Show full
// error". It is the one home of that wording for the window (package ui)
// and the requests panel (ui/requests), which cannot import ui; it needs
// no Fyne.
package plain

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// Error is an error already worded for a person (cmd words the engine's
// errors): Headline says the cause first, Detail is the whole technical
// chain for "Show full error".
type Error interface {
	error
	Headline() string
	Detail() string
}

// Words returns err's headline and the full text behind "Show full
// error": an Error's own words; a JSON parse error of encoding/json in
// plain words (JSON); else the message itself, its first letter a
// capital.
func Words(err error) (headline, full string) {
	if err == nil {
		return "", ""
	}
	var pe Error
	if errors.As(err, &pe) {
		if d := pe.Detail(); d != "" {
			return pe.Headline(), d
		}
		return pe.Headline(), err.Error()
	}
	msg := err.Error()
	if words, ok := JSON(err); ok {
		return words, msg
	}
	if msg == "" {
		return msg, msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:], msg
}

// Headline is Words' headline alone, for a line that has no room for
// Show full error.
func Headline(err error) string {
	head, _ := Words(err)
	return head
}

// JSON words a JSON parse error of encoding/json (a *json.SyntaxError, a
// *json.UnmarshalTypeError, JSON cut short) for a person, in
// core/schemaform's words for the same faults, and reports whether err is
// one. Go's own ("invalid character 'x' looking for beginning of value",
// "unexpected end of JSON input", "cannot unmarshal string into Go struct
// field …") names the decoder's states and types.
func JSON(err error) (string, bool) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return "This is not valid JSON: " + Syntax(se) + at(se.Offset) + ".", true
	case errors.As(err, &te):
		what := "A value"
		if te.Field != "" {
			what = "\"" + te.Field + "\""
		}
		return what + " is " + jsonKind(te.Value) + " where " + goKind(te.Type) + " is expected" + at(te.Offset) + ".", true
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "This is not valid JSON: it ends too early (a closing bracket, brace or quote is missing).", true
	}
	return "", false
}

// Syntax words a syntax error of encoding/json as core/schemaform words
// the same fault, without where it is ("expected ':' after the member
// name, found '1'"), for a line that says where in its own terms.
func Syntax(se *json.SyntaxError) string {
	msg := se.Error()
	if msg == "unexpected end of JSON input" {
		return "it ends too early (a closing bracket, brace or quote is missing)"
	}
	c, rest, ok := strings.Cut(strings.TrimPrefix(msg, "invalid character "), " ")
	if !ok || !strings.HasPrefix(msg, "invalid character ") {
		return "unexpected text"
	}
	switch {
	case strings.HasPrefix(rest, "looking for beginning of object key"):
		return "expected a member name in double quotes, found " + c
	case rest == "after object key":
		return "expected ':' after the member name, found " + c
	case strings.HasPrefix(rest, "after object key:value"):
		return "expected ',' or '}', found " + c
	case strings.HasPrefix(rest, "after array element"):
		return "expected ',' or ']', found " + c
	case strings.HasPrefix(rest, "after top-level value"):
		return "unexpected text after the value, from " + c
	case strings.HasPrefix(rest, "in string"):
		return "control character in a string (use an escape such as \\n)"
	}
	return "unexpected character " + c
}

// at says where a JSON fault is, from the decoder's byte offset (0:
// unknown).
func at(off int64) string {
	if off <= 0 {
		return ""
	}
	return " (at character " + strconv.FormatInt(off, 10) + ")"
}

// jsonKind names a JSON value's kind as encoding/json's
// UnmarshalTypeError.Value gives it ("string", "number 5", "array").
func jsonKind(v string) string {
	kind, _, _ := strings.Cut(v, " ")
	switch kind {
	case "string":
		return "text"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	return v
}

// goKind names what a Go type holds in JSON's words.
func goKind(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another kind of value"
}
