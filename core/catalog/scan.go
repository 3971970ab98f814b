package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// This file reads JSONC — JSON with comments and trailing commas, as VS Code
// writes mcp.json — with github.com/tailscale/hujson, keeping every byte's
// position so that the writer can copy untouched members verbatim and
// re-render only what changed.

// member is one "key": value pair of an object, with absolute byte offsets
// into the scanned document.
type member struct {
	key      string // decoded key
	preStart int    // after the preceding '{', or ',' and the trail of the member before
	keyStart int    // opening quote of the key
	keyEnd   int    // just after the closing quote
	valStart int
	valEnd   int
	postEnd  int // just before the following ',' or '}' (whitespace and comments after the value)
	// trail is a comment on the member's line after its comma
	// (`"a": 1, // about a`): data[trail[0]:trail[1]], empty when none.
	trail [2]int
}

// object is a scanned JSON object.
type object struct {
	start, end int // '{' and just after '}'
	members    []member
	closeStart int // after the last value and its trail (or after '{'): kept up to '}'
	comma      int // offset of a trailing comma, -1 when there is none
}

func (o *object) find(key string) int {
	for i := range o.members {
		if o.members[i].key == key {
			return i
		}
	}
	return -1
}

var errNotObject = errors.New("not a JSON object")

// parseJSONC parses data as one JSONC value. A malformed document is a
// *SyntaxError with its line and column.
func parseJSONC(file string, data []byte) (hujson.Value, error) {
	v, err := hujson.Parse(data)
	if err == nil {
		return v, nil
	}
	// hujson says "hujson: line L, column C: what" with C counted in bytes.
	var line, col int
	msg := err.Error()
	if _, serr := fmt.Sscanf(msg, "hujson: line %d, column %d:", &line, &col); serr == nil {
		if _, rest, ok := strings.Cut(msg, fmt.Sprintf("column %d: ", col)); ok {
			msg = rest
		}
	} else {
		line, col = 1, 1
	}
	off := 0
	for l := 1; l < line && off < len(data); l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	start := off
	off = min(off+col-1, len(data))
	return v, &SyntaxError{File: file, Line: line, Column: utf8.RuneCount(data[start:off]) + 1, Offset: int64(off), Msg: shorten(msg)}
}

// standard returns data with its comments and trailing commas blanked out
// (hujson keeps every offset), for encoding/json to decode. v is data[bom:]
// parsed.
func standard(data []byte, bom int, v hujson.Value) []byte {
	if v.IsStandard() {
		return data
	}
	// Parsed again rather than cloned: Value.Clone loses trailing commas.
	v, _ = hujson.Parse(slices.Clone(data[bom:]))
	v.Standardize()
	return append(data[:bom:bom], v.Pack()...)
}

// scanObject scans the JSONC object in data[start:end].
func scanObject(data []byte, start, end int) (*object, error) {
	v, err := hujson.Parse(data[start:end])
	if err != nil {
		return nil, err
	}
	return objectOf(data, &v, start)
}

// objectOf maps a parsed object onto offsets into data, the document it
// was parsed from, base being where the parsed text starts.
func objectOf(data []byte, v *hujson.Value, base int) (*object, error) {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, errNotObject
	}
	o := &object{start: base + v.StartOffset, end: base + v.EndOffset, closeStart: base + v.StartOffset + 1, comma: -1}
	for i, m := range obj.Members {
		om := member{
			key:      m.Name.Value.(hujson.Literal).String(),
			preStart: base + m.Name.StartOffset - len(m.Name.BeforeExtra),
			keyStart: base + m.Name.StartOffset, keyEnd: base + m.Name.EndOffset,
			valStart: base + m.Value.StartOffset, valEnd: base + m.Value.EndOffset,
		}
		om.postEnd = om.valEnd + len(m.Value.AfterExtra)
		if i > 0 { // a comment on the line of the member before, after its comma
			prev := &o.members[i-1]
			prev.trail = lineTrail(data, prev.postEnd+1, om.keyStart)
			om.preStart = max(om.preStart, prev.trail[1])
		}
		if i == len(obj.Members)-1 {
			from := om.valEnd
			if m.Value.AfterExtra != nil {
				o.comma = om.postEnd
				from = o.comma + 1
			}
			om.postEnd = om.valEnd
			om.trail = lineTrail(data, from, o.end-1)
			o.closeStart = max(from, om.trail[1])
		}
		o.members = append(o.members, om)
	}
	return o, nil
}

// lineTrail returns the span of data[from:to] (whitespace and comments)
// up to its first line break outside a block comment when it holds a
// comment, else an empty span at from. A line break inside /* … */ does
// not end the line: cut there, the trail split the comment, and an entry
// added after it landed inside the comment (found by FuzzParse).
func lineTrail(data []byte, from, to int) [2]int {
	for i := from; i < to; i++ {
		switch {
		case data[i] == '\n':
			if isBlank(data[from:i]) {
				return [2]int{from, from}
			}
			return [2]int{from, i}
		case data[i] == '/' && i+1 < to && data[i+1] == '/':
			nl := bytes.IndexByte(data[i:to], '\n')
			if nl < 0 {
				return [2]int{from, from}
			}
			i += nl - 1 // the loop comes to the line break next
		case data[i] == '/' && i+1 < to && data[i+1] == '*':
			end := bytes.Index(data[i+2:to], []byte("*/"))
			if end < 0 {
				return [2]int{from, from}
			}
			i += 2 + end + 1 // the comment's last '/'
		}
	}
	return [2]int{from, from}
}

// closing returns what the object holds after its last value, trailing
// comma and trail up to the '}' (whitespace, comments).
func (o *object) closing(data []byte) []byte { return data[o.closeStart : o.end-1] }

// trailText returns the member's trail comment, if any.
func (m *member) trailText(data []byte) []byte { return data[m.trail[0]:m.trail[1]] }

// isBlank reports whether b holds only JSON whitespace (no comment, no comma).
func isBlank(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

// valueKind returns the JSON kind of a raw value by its first byte.
func valueKind(raw []byte) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
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

// bomLen returns 3 when data starts with a UTF-8 byte order mark, else 0.
func bomLen(data []byte) int {
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		return 3
	}
	return 0
}
