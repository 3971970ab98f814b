package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
)

// Type is the JSON type of a Value.
type Type uint8

// The JSON types.
const (
	TypeNull Type = iota
	TypeBool
	TypeNumber
	TypeString
	TypeArray
	TypeObject
)

// String returns the JSON Schema name of the type ("null", "boolean", ...).
func (t Type) String() string {
	switch t {
	case TypeNull:
		return "null"
	case TypeBool:
		return "boolean"
	case TypeNumber:
		return "number"
	case TypeString:
		return "string"
	case TypeArray:
		return "array"
	case TypeObject:
		return "object"
	}
	return "unknown"
}

// Value is one JSON value, kept losslessly: numbers keep their literal
// text (so integers stay integers and large ones keep every digit) and
// object members keep their order, duplicates included.
type Value struct {
	Type    Type
	Bool    bool     // TypeBool
	Str     string   // TypeString: the decoded string; TypeNumber: the literal as written (see Num)
	Items   []*Value // TypeArray
	Members []Member // TypeObject, in document order

	raw   []byte                      // compact text as typed; encodes verbatim when set
	index atomic.Pointer[memberIndex] // see Get
}

// indexAbove is the member count above which Get looks names up in a map.
const indexAbove = 32

// memberIndex maps each member name of a large object to its last index,
// for the n members the object had when it was made.
type memberIndex struct {
	n  int
	at map[string]int
}

// Member is one name/value pair of a JSON object.
type Member struct {
	Key   string
	Value *Value
}

// Num returns the literal of a number as written ("" for other types).
func (v *Value) Num() json.Number {
	if v == nil || v.Type != TypeNumber {
		return ""
	}
	return json.Number(v.Str)
}

// Null returns a new JSON null.
func Null() *Value { return &Value{Type: TypeNull} }

// String returns a new JSON string.
func String(s string) *Value { return &Value{Type: TypeString, Str: s} }

// Bool returns a new JSON boolean.
func Bool(b bool) *Value { return &Value{Type: TypeBool, Bool: b} }

// Number returns a new JSON number with the given literal, which the
// caller has checked with IsNumber.
func Number(lit string) *Value { return &Value{Type: TypeNumber, Str: lit} }

// Object returns a new JSON object.
func Object(members ...Member) *Value { return &Value{Type: TypeObject, Members: members} }

// Get returns the value of the last member named key of an object, or nil
// when v is not an object or has no such member. Objects of more than a
// few dozen members build a map of their names on first use (rebuilt when
// members are added or removed; rename members of such an object only
// before the first Get). Get is safe for concurrent use.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Type != TypeObject {
		return nil
	}
	if len(v.Members) > indexAbove {
		ix := v.index.Load()
		if ix == nil || ix.n != len(v.Members) {
			ix = &memberIndex{n: len(v.Members), at: make(map[string]int, len(v.Members))}
			for i, m := range v.Members {
				ix.at[m.Key] = i
			}
			v.index.Store(ix) // racing callers store equal indexes
		}
		i, ok := ix.at[key]
		if !ok {
			return nil
		}
		return v.Members[i].Value
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Has reports whether an object has a member named key.
func (v *Value) Has(key string) bool { return v.Get(key) != nil }

// GetString returns the string member key, or "" when absent or not a string.
func (v *Value) GetString(key string) string {
	if m := v.Get(key); m != nil && m.Type == TypeString {
		return m.Str
	}
	return ""
}

// Clone returns a deep copy of v.
func (v *Value) Clone() *Value {
	if v == nil {
		return nil
	}
	c := &Value{Type: v.Type, Bool: v.Bool, Str: v.Str, raw: v.raw}
	if v.Items != nil {
		c.Items = make([]*Value, len(v.Items))
		for i, it := range v.Items {
			c.Items[i] = it.Clone()
		}
	}
	if v.Members != nil {
		c.Members = make([]Member, len(v.Members))
		for i, m := range v.Members {
			c.Members[i] = Member{m.Key, m.Value.Clone()}
		}
	}
	return c
}

// Equal reports whether a and b are the same JSON value: numbers compare
// by value (1.0 equals 1), objects compare as sets of members.
func Equal(a, b *Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case TypeNull:
		return true
	case TypeBool:
		return a.Bool == b.Bool
	case TypeString:
		return a.Str == b.Str
	case TypeNumber:
		if a.Num() == b.Num() {
			return true
		}
		x, ok1 := ratOf(a.Num())
		y, ok2 := ratOf(b.Num())
		return ok1 && ok2 && x.Cmp(y) == 0
	case TypeArray:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case TypeObject:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			if !Equal(m.Value, b.Get(m.Key)) {
				return false
			}
		}
		return true
	}
	return false
}

// maxExponent bounds the exponent of numbers this package does arithmetic
// on; larger ones are compared as text only (so no input can make it
// allocate huge integers).
const maxExponent = 400

// ratOf converts a JSON number literal to a big.Rat, refusing literals
// whose exponent is out of range.
func ratOf(n json.Number) (*big.Rat, bool) {
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > maxExponent || e < -maxExponent {
			return nil, false
		}
	}
	if len(s) > 1000 {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// IsNumber reports whether s is a JSON number literal.
func IsNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// IsInteger reports whether s is a JSON integer literal written without a
// fraction or exponent (what an integer field accepts).
func IsInteger(s string) bool {
	if !IsNumber(s) {
		return false
	}
	return !strings.ContainsAny(s, ".eE")
}

// SyntaxError is a JSON syntax error with its position.
type SyntaxError struct {
	Msg    string
	Offset int // byte offset of the error
	Line   int // 1-based line
	Col    int // 1-based column, in characters
}

// Error returns "line L, column C: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// ErrSyntax is wrapped by every *SyntaxError's Unwrap.
var ErrSyntax = errors.New("invalid JSON")

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// maxNesting bounds the nesting depth the parser accepts.
const maxNesting = 1000

// ParseValue parses one JSON text (surrounding whitespace allowed) into a
// Value. Errors are *SyntaxError with line and column.
func ParseValue(data []byte) (*Value, error) {
	// One copy of the text: member names, strings and number literals
	// are substrings of it rather than an allocation each.
	return parse(string(data))
}

// parse parses the JSON text src; see ParseValue.
func parse(src string) (*Value, error) {
	p := parser{data: src}
	p.skip()
	v := p.value(0)
	if p.err == nil {
		p.skip()
		if p.pos < len(p.data) {
			p.fail("unexpected text after the value")
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return v, nil
}

type parser struct {
	data   string // the text; keys, strings and numbers are substrings of it
	pos    int
	err    *SyntaxError
	mstack []Member // members of the objects being parsed
	vstack []*Value // items of the arrays being parsed
}

func (p *parser) fail(msg string) {
	if p.err != nil {
		return
	}
	line, col := 1, 1
	end := min(p.pos, len(p.data))
	last := 0
	for i := 0; i < end; i++ {
		if p.data[i] == '\n' {
			line++
			last = i + 1
		}
	}
	col = utf8.RuneCountInString(p.data[last:end]) + 1
	p.err = &SyntaxError{Msg: msg, Offset: p.pos, Line: line, Col: col}
}

func (p *parser) skip() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) *Value {
	if depth > maxNesting {
		p.fail("nested too deeply")
		return nil
	}
	if p.pos >= len(p.data) {
		p.fail("unexpected end of JSON")
		return nil
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		start := p.pos
		s, ok := p.str()
		if !ok {
			return nil
		}
		v := &Value{Type: TypeString, Str: s}
		if p.pos-start != len(s)+2 {
			// Escapes were used: keep the literal so that encoding
			// writes it as typed.
			v.raw = []byte(p.data[start:p.pos])
		}
		return v
	case c == 't':
		return p.lit("true", &Value{Type: TypeBool, Bool: true})
	case c == 'f':
		return p.lit("false", &Value{Type: TypeBool})
	case c == 'n':
		return p.lit("null", &Value{Type: TypeNull})
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		for p.pos < len(p.data) {
			c := p.data[p.pos]
			if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
				p.pos++
				continue
			}
			break
		}
		lit := p.data[start:p.pos]
		if !IsNumber(lit) {
			p.pos = start
			p.fail("invalid number " + strconv.Quote(lit))
			return nil
		}
		return &Value{Type: TypeNumber, Str: lit}
	default:
		r, _ := utf8.DecodeRuneInString(p.data[p.pos:])
		p.fail(fmt.Sprintf("unexpected character %q", r))
		return nil
	}
}

func (p *parser) lit(word string, v *Value) *Value {
	if strings.HasPrefix(p.data[p.pos:], word) {
		p.pos += len(word)
		return v
	}
	p.fail("invalid literal (expected " + word + ")")
	return nil
}

func (p *parser) object(depth int) *Value {
	p.pos++ // {
	v := &Value{Type: TypeObject, Members: []Member{}}
	p.skip()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v
	}
	mark := len(p.mstack)
	defer func() { p.mstack = p.mstack[:mark] }()
	for {
		p.skip()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			p.fail("expected a member name in double quotes")
			return nil
		}
		key, ok := p.str()
		if !ok {
			return nil
		}
		p.skip()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			p.fail("expected ':' after the member name")
			return nil
		}
		p.pos++
		p.skip()
		m := p.value(depth + 1)
		if m == nil {
			return nil
		}
		p.mstack = append(p.mstack, Member{key, m})
		p.skip()
		if p.pos >= len(p.data) {
			p.fail("unexpected end of JSON: missing '}'")
			return nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			v.Members = slices.Clone(p.mstack[mark:])
			return v
		default:
			p.fail("expected ',' or '}'")
			return nil
		}
	}
}

func (p *parser) array(depth int) *Value {
	p.pos++ // [
	v := &Value{Type: TypeArray, Items: []*Value{}}
	p.skip()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v
	}
	mark := len(p.vstack)
	defer func() { p.vstack = p.vstack[:mark] }()
	for {
		p.skip()
		it := p.value(depth + 1)
		if it == nil {
			return nil
		}
		p.vstack = append(p.vstack, it)
		p.skip()
		if p.pos >= len(p.data) {
			p.fail("unexpected end of JSON: missing ']'")
			return nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			v.Items = slices.Clone(p.vstack[mark:])
			return v
		default:
			p.fail("expected ',' or ']'")
			return nil
		}
	}
}

// str parses a string literal at p.pos.
func (p *parser) str() (string, bool) {
	p.pos++ // "
	start := p.pos
	// Fast path: no escapes.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := p.data[start:p.pos]
			p.pos++
			return s, true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			p.fail("control character in string (use an escape such as \\n)")
			return "", false
		}
		p.pos++
	}
	var b strings.Builder
	b.WriteString(p.data[start:p.pos])
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), true
		case c < 0x20:
			p.fail("control character in string (use an escape such as \\n)")
			return "", false
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				p.pos++
				p.fail("unexpected end of JSON in a string")
				return "", false
			}
			e := p.data[p.pos+1]
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := p.hex4(p.pos + 2)
				if !ok {
					p.fail("invalid \\u escape")
					return "", false
				}
				p.pos += 6
				if utf16.IsSurrogate(r) {
					if p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
						if r2, ok := p.hex4(p.pos + 2); ok {
							if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
								p.pos += 6
								b.WriteRune(d)
								continue
							}
						}
					}
					r = utf8.RuneError
				}
				b.WriteRune(r)
				continue
			default:
				p.pos++
				p.fail(fmt.Sprintf("invalid escape \\%c", e))
				return "", false
			}
			p.pos += 2
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	p.fail("unexpected end of JSON: unterminated string")
	return "", false
}

func (p *parser) hex4(at int) (rune, bool) {
	if at+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for i := at; i < at+4; i++ {
		c := p.data[i]
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// JSON returns the compact encoding of v. Strings are escaped minimally
// (no HTML escaping); numbers are written exactly as their literal.
func (v *Value) JSON() []byte {
	var b bytes.Buffer
	v.encode(&b, "", "")
	return b.Bytes()
}

// Indent returns the encoding of v indented with two spaces, as shown in
// JSON editors.
func (v *Value) Indent() []byte {
	var b bytes.Buffer
	v.encode(&b, "\n", "  ")
	return b.Bytes()
}

// MarshalJSON implements json.Marshaler with the compact encoding.
func (v *Value) MarshalJSON() ([]byte, error) { return v.JSON(), nil }

func (v *Value) encode(b *bytes.Buffer, nl, ind string) {
	if v == nil {
		b.WriteString("null")
		return
	}
	if v.raw != nil {
		if nl == "" || json.Indent(b, v.raw, strings.TrimPrefix(nl, "\n"), ind) != nil {
			b.Write(v.raw)
		}
		return
	}
	switch v.Type {
	case TypeNull:
		b.WriteString("null")
	case TypeBool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case TypeNumber:
		if v.Num() == "" {
			b.WriteString("0")
		} else {
			b.WriteString(string(v.Num()))
		}
	case TypeString:
		writeString(b, v.Str)
	case TypeArray:
		if len(v.Items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		inner := nl
		if nl != "" {
			inner = nl + ind
		}
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			it.encode(b, inner, ind)
		}
		b.WriteString(nl)
		b.WriteByte(']')
	case TypeObject:
		if len(v.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		inner := nl
		if nl != "" {
			inner = nl + ind
		}
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			writeString(b, m.Key)
			b.WriteByte(':')
			if nl != "" {
				b.WriteByte(' ')
			}
			m.Value.encode(b, inner, ind)
		}
		b.WriteString(nl)
		b.WriteByte('}')
	}
}

const hexDigits = "0123456789abcdef"

func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20 || c == 0x7f:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
