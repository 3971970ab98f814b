package mcpresult

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// text decodes a JSON string kept as its span in the message. A 50 MB
// text cost encoding/json two copies of it (it unquotes into a buffer,
// then copies that into the string) and the garbage collector's
// headroom over both (issue #17). Here a string without escapes is the
// message's own bytes (which are immutable: the log keeps them), and
// one with escapes is unquoted once into a buffer that becomes the
// string. A value that is not a string is a problem at path and decodes
// to "", as encoding/json would leave the field; null is "".
func (ps *Problems) text(path string, s span) string {
	if len(s) == 0 || string(s) == "null" {
		return ""
	}
	if s[0] != '"' {
		*ps = append(*ps, Problem{path, "must be a string, not " + jsonValueKind(s[0])})
		return ""
	}
	if out, ok := unquote(s); ok {
		return out
	}
	var str string // not valid JSON as we read it: let encoding/json say
	if err := json.Unmarshal(s, &str); err != nil {
		*ps = append(*ps, Problem{path, "must be a string"})
		return ""
	}
	return str
}

// jsonValueKind names the kind of a JSON value by its first byte, as
// encoding/json's UnmarshalTypeError does.
func jsonValueKind(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case '"':
		return "string"
	}
	return "number"
}

// unquote decodes the quoted JSON string q as encoding/json does
// (invalid UTF-8 and lone surrogates become U+FFFD) with at most one
// allocation: none when q has nothing to unescape, then the result
// aliases q. It reports false for what is not a well-formed string.
func unquote(q []byte) (string, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false
	}
	in := q[1 : len(q)-1]
	if bytes.IndexByte(in, '\\') < 0 && !hasQuoteOrControl(in) && utf8.Valid(in) {
		if len(in) == 0 {
			return "", true
		}
		return unsafe.String(&in[0], len(in)), true
	}
	out := make([]byte, 0, len(in)) // unescaping only shortens valid text
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '\\':
			if i+1 >= len(in) {
				return "", false
			}
			switch e := in[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(in[i+2:])
				if !ok {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := lowSurrogate(in[i:]); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							out = utf8.AppendRune(out, d)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return "", false
			}
			i += 2
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, in[i:i+size]...)
			}
			i += size
		}
	}
	if len(out) == 0 {
		return "", true
	}
	return unsafe.String(&out[0], len(out)), true
}

// hasQuoteOrControl reports a byte no JSON string holds unescaped.
func hasQuoteOrControl(b []byte) bool {
	for _, c := range b {
		if c == '"' || c < ' ' {
			return true
		}
	}
	return false
}

// lowSurrogate reads a \uXXXX escape at the start of b.
func lowSurrogate(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	return hex4(b[2:])
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
