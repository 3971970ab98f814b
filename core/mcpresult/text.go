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

// setText sets c's text from s (a JSON string kept as its span): Text,
// or for a text of more than LazyText bytes with escapes the span itself
// and its decoded length, after a pass that checks it without a copy.
func (ps *Problems) setText(c *Content, path string, s span) {
	if len(s) > LazyText && s[0] == '"' {
		if in, ok := quoted(s); ok && !plain(in) {
			u := unquoter{count: true}
			if _, ok := u.run(in, -1); ok {
				c.lazy, c.textLen = s, u.n
				return
			}
		}
	}
	c.Text = ps.text(path, s)
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
	in, ok := quoted(q)
	if !ok {
		return "", false
	}
	if plain(in) {
		return bytesString(in), true
	}
	u := unquoter{out: make([]byte, 0, len(in))} // unescaping only shortens valid text
	if _, ok := u.run(in, -1); !ok {
		return "", false
	}
	return bytesString(u.out), true
}

// quoted is q's content between its quotes.
func quoted(q []byte) ([]byte, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return nil, false
	}
	return q[1 : len(q)-1], true
}

// plain reports a string's content that decodes to itself.
func plain(in []byte) bool {
	return bytes.IndexByte(in, '\\') < 0 && !hasQuoteOrControl(in) && utf8.Valid(in)
}

// bytesString is b as a string without a copy (b is never modified).
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// unquoter decodes a JSON string's content into out, or only counts the
// bytes it decodes to (count), so that a huge text can be checked and
// measured without a copy and decoded later, whole or its head.
type unquoter struct {
	out   []byte
	n     int // bytes decoded
	count bool
}

func (u *unquoter) put(b ...byte) {
	u.n += len(b)
	if !u.count {
		u.out = append(u.out, b...)
	}
}

func (u *unquoter) putRune(r rune) {
	u.n += utf8.RuneLen(r)
	if !u.count {
		u.out = utf8.AppendRune(u.out, r)
	}
}

// run decodes in (a JSON string's content, quotes stripped) until its
// end, or until at least max bytes are decoded when max >= 0; it returns
// how much of in it read, and false for what is not well-formed.
func (u *unquoter) run(in []byte, max int) (int, bool) {
	i := 0
	for i < len(in) && (max < 0 || u.n < max) {
		c := in[i]
		switch {
		case c == '\\':
			if i+1 >= len(in) {
				return i, false
			}
			switch e := in[i+1]; e {
			case '"', '\\', '/':
				u.put(e)
			case 'b':
				u.put('\b')
			case 'f':
				u.put('\f')
			case 'n':
				u.put('\n')
			case 'r':
				u.put('\r')
			case 't':
				u.put('\t')
			case 'u':
				r, ok := hex4(in[i+2:])
				if !ok {
					return i, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := lowSurrogate(in[i:]); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							u.putRune(d)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				u.putRune(r)
				continue
			default:
				return i, false
			}
			i += 2
		case c == '"' || c < ' ':
			return i, false
		case c < utf8.RuneSelf:
			// a run of plain ASCII at once, no further than max
			end := len(in)
			if max >= 0 {
				end = min(end, i+max-u.n)
			}
			j := i + 1
			for j < end && in[j] >= ' ' && in[j] < utf8.RuneSelf && in[j] != '\\' && in[j] != '"' {
				j++
			}
			u.put(in[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				u.putRune(utf8.RuneError)
			} else {
				u.put(in[i : i+size]...)
			}
			i += size
		}
	}
	return i, true
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
