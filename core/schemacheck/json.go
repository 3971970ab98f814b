package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// maxNumberLen is the longest number literal accepted, in bytes.
const maxNumberLen = 10000

// maxExponent is the largest exponent magnitude accepted in a number literal.
const maxExponent = 10000

// maxNesting is the deepest nesting of arrays and objects accepted in a schema.
const maxNesting = 10000

// obj is a JSON object that remembers the order of its keys; schemas are
// parsed into it so that errors can follow the schema's document order.
type obj struct {
	keys []string
	m    map[string]any
}

// errNumber is the cause of a refused number literal.
var errNumber error = &sentinel{"number literal out of range"}

// checkNumber reports whether lit is a JSON number literal small enough to
// be converted to a big.Rat cheaply.
func checkNumber(lit string) error {
	if len(lit) > maxNumberLen {
		return fmt.Errorf("%w: %d characters", errNumber, len(lit))
	}
	if !IsNumber(lit) {
		return fmt.Errorf("invalid number literal %q", truncate(lit))
	}
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		exp := strings.TrimLeft(lit[i+1:], "+-")
		exp = strings.TrimLeft(exp, "0")
		if len(exp) > 5 {
			return fmt.Errorf("%w: exponent of %s", errNumber, truncate(lit))
		}
		if n, _ := strconv.Atoi(exp); n > maxExponent {
			return fmt.Errorf("%w: exponent of %s", errNumber, truncate(lit))
		}
	}
	return nil
}

// IsNumber reports whether s is a JSON number literal (RFC 8259 grammar:
// no leading zeros, no "+", no bare ".").
func IsNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// parseSchemaJSON parses a schema document, keeping key order.
func parseSchemaJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readOrdered(dec, 0)
	if err != nil {
		return nil, err
	}
	if err := atEnd(dec); err != nil {
		return nil, err
	}
	return v, nil
}

// atEnd fails when dec holds more than the one value it has read.
func atEnd(dec *json.Decoder) error {
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the top-level value")
		}
		return err
	}
	return nil
}

func readOrdered(dec *json.Decoder, depth int) (any, error) {
	if depth > maxNesting {
		return nil, errors.New("nesting too deep")
	}
	t, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &obj{m: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := readOrdered(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := o.m[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := readOrdered(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case json.Number:
		if err := checkNumber(string(t)); err != nil {
			return nil, err
		}
		return t, nil
	default:
		return t, nil
	}
}

// parseInstance parses an instance document into plain values.
func parseInstance(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if err := atEnd(dec); err != nil {
		return nil, err
	}
	return v, nil
}

// checkInstance walks a plain value and reports a value of a type this
// package does not accept or a number out of range.
func checkInstance(v any, depth int) error {
	if depth > maxNesting {
		return errors.New("nesting too deep")
	}
	switch v := v.(type) {
	case nil, bool, string:
	case json.Number:
		return checkNumber(string(v))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("number %v", v)
		}
	case float32:
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("number %v", v)
		}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
	case []any:
		for _, x := range v {
			if err := checkInstance(x, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, x := range v {
			if err := checkInstance(x, depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unsupported value of type %T", v)
	}
	return nil
}

// plain turns a parsed schema value into plain Go values (map[string]any).
func plain(v any) any {
	switch v := v.(type) {
	case *obj:
		m := make(map[string]any, len(v.m))
		for k, x := range v.m {
			m[k] = plain(x)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plain(x)
		}
		return out
	}
	return v
}

// isNumber reports whether v is a number.
func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return true
	}
	return false
}

// toRat converts a number to an exact rational.
func toRat(v any) (*big.Rat, bool) {
	r := new(big.Rat)
	switch v := v.(type) {
	case json.Number:
		if _, ok := r.SetString(string(v)); !ok {
			return nil, false
		}
	case float64:
		if r.SetFloat64(v) == nil {
			return nil, false
		}
	case float32:
		if r.SetFloat64(float64(v)) == nil {
			return nil, false
		}
	case int:
		r.SetInt64(int64(v))
	case int8:
		r.SetInt64(int64(v))
	case int16:
		r.SetInt64(int64(v))
	case int32:
		r.SetInt64(int64(v))
	case int64:
		r.SetInt64(v)
	case uint:
		r.SetUint64(uint64(v))
	case uint8:
		r.SetUint64(uint64(v))
	case uint16:
		r.SetUint64(uint64(v))
	case uint32:
		r.SetUint64(uint64(v))
	case uint64:
		r.SetUint64(v)
	default:
		return nil, false
	}
	return r, true
}

// isIntegerLit reports whether a number is mathematically an integer.
func isInteger(v any) bool {
	if n, ok := v.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") {
		return true
	}
	r, ok := toRat(v)
	return ok && r.IsInt()
}

// typeName names the JSON type of a plain value.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	if isNumber(v) {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// equal compares two plain JSON values with JSON semantics.
func equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case []any:
		bb, ok := b.([]any)
		if !ok || len(a) != len(bb) {
			return false
		}
		for i := range a {
			if !equal(a[i], bb[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bb, ok := b.(map[string]any)
		if !ok || len(a) != len(bb) {
			return false
		}
		for k, x := range a {
			y, ok := bb[k]
			if !ok || !equal(x, y) {
				return false
			}
		}
		return true
	}
	if !isNumber(a) || !isNumber(b) {
		return false
	}
	if na, ok := a.(json.Number); ok {
		if nb, ok := b.(json.Number); ok && na == nb {
			return true
		}
	}
	ra, ok1 := toRat(a)
	rb, ok2 := toRat(b)
	return ok1 && ok2 && ra.Cmp(rb) == 0
}

// canonical writes a key that is equal for JSON-equal values.
func canonical(sb *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		sb.WriteByte('n')
	case bool:
		if v {
			sb.WriteByte('t')
		} else {
			sb.WriteByte('f')
		}
	case string:
		sb.WriteByte('s')
		sb.WriteString(strconv.Quote(v))
	case []any:
		sb.WriteByte('[')
		for _, x := range v {
			canonical(sb, x)
			sb.WriteByte(',')
		}
		sb.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		sb.WriteByte('{')
		for _, k := range keys {
			sb.WriteString(strconv.Quote(k))
			sb.WriteByte(':')
			canonical(sb, v[k])
			sb.WriteByte(',')
		}
		sb.WriteByte('}')
	default:
		r, ok := toRat(v)
		sb.WriteByte('#')
		if ok {
			sb.WriteString(r.RatString())
		}
	}
}

// render formats a plain value as compact JSON for a message.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// renderList formats values as a comma-separated list of JSON texts.
func renderList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = render(v)
	}
	return strings.Join(parts, ", ")
}

// sortedKeys returns the keys of m in sorted order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// escapeToken escapes one JSON-pointer token.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapeToken reverses escapeToken; ok is false for a bad ~ escape.
func unescapeToken(s string) (string, bool) {
	if !strings.Contains(s, "~") {
		return s, true
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			sb.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		switch s[i+1] {
		case '0':
			sb.WriteByte('~')
		case '1':
			sb.WriteByte('/')
		default:
			return "", false
		}
		i++
	}
	return sb.String(), true
}
