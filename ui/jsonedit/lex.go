package jsonedit

// Kind is what a token of JSON text is, for colouring.
type Kind int

// The token kinds.
const (
	Space   Kind = iota // spaces and tabs
	Key                 // a string followed by ':' (an object member's name)
	String              // any other string
	Number              // a number
	Literal             // true, false or null
	Punct               // { } [ ] : ,
	Other               // anything else (not JSON)
)

// Token is a run of one line's bytes of one kind.
type Token struct {
	Kind       Kind
	Start, End int // byte offsets in the line
}

// Line cuts one line of JSON text into tokens. It needs no other line:
// JSON strings cannot hold a raw line break, so a line is lexed alone and
// only the rows in view are ever lexed. A string is a Key when ':' follows
// it on the same line (a name whose colon is on the next line is coloured
// as a string). An unterminated string runs to the end of the line.
func Line(s string) []Token {
	var out []Token
	i := 0
	for i < len(s) {
		c := s[i]
		start := i
		var k Kind
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
				i++
			}
			k = Space
		case c == '"':
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			if i < len(s) {
				i++ // the closing quote
			}
			if i > len(s) {
				i = len(s)
			}
			k = String
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j < len(s) && s[j] == ':' {
				k = Key
			}
		case c == '-' || (c >= '0' && c <= '9'):
			for i < len(s) && isNumberByte(s[i]) {
				i++
			}
			k = Number
		case c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',':
			i++
			k = Punct
		case isWordByte(c):
			for i < len(s) && isWordByte(s[i]) {
				i++
			}
			switch s[start:i] {
			case "true", "false", "null":
				k = Literal
			default:
				k = Other
			}
		default:
			i++
			for i < len(s) && s[i]&0xc0 == 0x80 { // the rest of a UTF-8 sequence
				i++
			}
			k = Other
		}
		if n := len(out); n > 0 && out[n-1].Kind == k && (k == Other || k == Space) {
			out[n-1].End = i
			continue
		}
		out = append(out, Token{Kind: k, Start: start, End: i})
	}
	return out
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
