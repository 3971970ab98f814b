package catalog

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// This file scans JSON objects while keeping every byte's position, so the
// writer can copy untouched members verbatim and re-render only what changed.

// member is one "key": value pair of an object, with absolute byte offsets
// into the scanned document.
type member struct {
	key      string // decoded key
	preStart int    // just after the preceding '{' or ','
	keyStart int    // opening quote of the key
	keyEnd   int    // just after the closing quote
	valStart int
	valEnd   int
	postEnd  int // just before the following ',' or '}' (whitespace after the value)
}

// object is a scanned JSON object.
type object struct {
	start, end int // '{' and just after '}'
	members    []member
	closeStart int // start of the whitespace before '}' (after the last value)
}

func (o *object) find(key string) int {
	for i := range o.members {
		if o.members[i].key == key {
			return i
		}
	}
	return -1
}

// checkSyntax returns a *SyntaxError if data is not one valid JSON value.
func checkSyntax(file string, data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v any
	err := json.Unmarshal(data, &v)
	off := int64(len(data))
	msg := "invalid JSON"
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
		msg = se.Error()
		if off > 0 && off <= int64(len(data)) && se.Error() != "unexpected end of JSON input" {
			off-- // Offset counts the bytes read, the bad one included
		}
	} else if err != nil {
		msg = err.Error()
	}
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := position(data, int(off))
	return &SyntaxError{File: file, Line: line, Column: col, Offset: off, Msg: msg}
}

// position turns a byte offset into a 1-based line and column (in runes).
func position(data []byte, off int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < off && i < len(data); {
		if data[i] == '\n' {
			line++
			col = 1
			i++
			continue
		}
		_, n := utf8.DecodeRune(data[i:])
		i += n
		col++
	}
	return line, col
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

var errScan = errors.New("scan: malformed JSON")

// skipString returns the offset just after the string starting at data[i].
func skipString(data []byte, i int) (int, error) {
	if i >= len(data) || data[i] != '"' {
		return 0, errScan
	}
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errScan
}

// skipValue returns the offset just after the value starting at data[i].
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errScan
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				j, err := skipString(data, i)
				if err != nil {
					return 0, err
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, errScan
	default:
		j := i
		for j < len(data) && !isSpace(data[j]) && data[j] != ',' && data[j] != '}' && data[j] != ']' {
			j++
		}
		if j == i {
			return 0, errScan
		}
		return j, nil
	}
}

// scanObject scans the object starting at data[start] (which must be '{').
// data must already be known to be valid JSON; errors only guard against
// misuse.
func scanObject(data []byte, start int) (*object, error) {
	if start >= len(data) || data[start] != '{' {
		return nil, errScan
	}
	o := &object{start: start}
	i := start + 1
	for {
		pre := i
		i = skipSpace(data, i)
		if i >= len(data) {
			return nil, errScan
		}
		if data[i] == '}' && len(o.members) == 0 {
			o.closeStart = pre
			o.end = i + 1
			return o, nil
		}
		m := member{preStart: pre, keyStart: i}
		j, err := skipString(data, i)
		if err != nil {
			return nil, err
		}
		m.keyEnd = j
		if err := json.Unmarshal(data[m.keyStart:m.keyEnd], &m.key); err != nil {
			return nil, errScan
		}
		i = skipSpace(data, j)
		if i >= len(data) || data[i] != ':' {
			return nil, errScan
		}
		i = skipSpace(data, i+1)
		m.valStart = i
		if m.valEnd, err = skipValue(data, i); err != nil {
			return nil, err
		}
		i = skipSpace(data, m.valEnd)
		if i >= len(data) {
			return nil, errScan
		}
		switch data[i] {
		case ',':
			m.postEnd = i
			o.members = append(o.members, m)
			i++
		case '}':
			m.postEnd = m.valEnd
			o.members = append(o.members, m)
			o.closeStart = m.valEnd
			o.end = i + 1
			return o, nil
		default:
			return nil, errScan
		}
	}
}

// valueKind returns the JSON kind of a raw value by its first byte.
func valueKind(raw []byte) string {
	i := skipSpace(raw, 0)
	if i >= len(raw) {
		return ""
	}
	switch raw[i] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

func quote(s string) string { return strconv.Quote(s) }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// shorten trims a JSON text for an error message.
func shorten(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func jsonUnmarshalString(raw []byte, s *string) bool {
	return json.Unmarshal(raw, s) == nil
}

// bomLen returns 3 when data starts with a UTF-8 byte order mark, else 0.
func bomLen(data []byte) int {
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		return 3
	}
	return 0
}
