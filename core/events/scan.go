package events

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// header is what the log needs from a JSON-RPC message: its type, its id
// (normalised JSON text) and its method. It is found by scanning only the
// top-level keys of the message and skipping every value it does not need,
// so a 10 MB result costs a quick byte scan, not a full decode.
type header struct {
	Type   MessageType
	ID     string
	Method string
}

// scanHeader derives the JSON-RPC header of raw. It never panics; on input
// that is not a JSON object it returns a zero header and false. When a key
// occurs more than once the first occurrence counts. Scanning stops as soon
// as the type is certain (a request once "method" and "id" are seen, a
// response once "id" and "result" or "error" are seen), so big payloads
// after the id are never read.
func scanHeader(raw []byte) (header, bool) {
	var h header
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return h, false
	}
	i++
	var (
		idRaw                                 []byte
		hasID, hasMethod, hasResult, hasError bool
		methodRaw                             []byte
	)
	done := func() bool {
		if hasMethod && hasID {
			return true
		}
		return hasID && (hasResult || hasError) && !hasMethod
	}
	for first := true; ; first = false {
		i = skipWS(raw, i)
		if i >= len(raw) {
			return h, false
		}
		if raw[i] == '}' {
			break
		}
		if !first {
			if raw[i] != ',' {
				return h, false
			}
			i = skipWS(raw, i+1)
		}
		if i >= len(raw) || raw[i] != '"' {
			return h, false
		}
		ks := i
		ke := skipString(raw, i)
		if ke < 0 {
			return h, false
		}
		key := keyText(raw[ks:ke])
		i = skipWS(raw, ke)
		if i >= len(raw) || raw[i] != ':' {
			return h, false
		}
		i = skipWS(raw, i+1)
		if hasID && !hasMethod && (string(key) == "result" || string(key) == "error") {
			// The type is certain: do not read the (maybe huge) value.
			if string(key) == "result" {
				hasResult = true
			} else {
				hasError = true
			}
			break
		}
		vs := i
		ve := skipValue(raw, i)
		if ve < 0 {
			return h, false
		}
		i = ve
		switch string(key) {
		case "id":
			if !hasID {
				hasID, idRaw = true, raw[vs:ve]
			}
		case "method":
			if !hasMethod {
				hasMethod, methodRaw = true, raw[vs:ve]
			}
		case "result":
			hasResult = true
		case "error":
			hasError = true
		}
		if done() {
			break
		}
	}
	switch {
	case hasMethod && hasID:
		h.Type = MsgRequest
	case hasMethod:
		h.Type = MsgNotification
	case hasError:
		h.Type = MsgError
	case hasResult:
		h.Type = MsgResult
	default:
		return h, false
	}
	if hasMethod {
		h.Method = decodeMethod(methodRaw)
	}
	if hasID {
		h.ID = normalizeID(idRaw)
	}
	return h, true
}

// knownMethods interns the common method names so that deriving them
// allocates nothing.
var knownMethods = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{
		"initialize", "ping", "server/discover",
		"tools/list", "tools/call",
		"resources/list", "resources/templates/list", "resources/read",
		"resources/subscribe", "resources/unsubscribe",
		"prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
		"tasks/list", "tasks/get", "tasks/result", "tasks/cancel",
		"sampling/createMessage", "elicitation/create", "roots/list",
		"notifications/initialized", "notifications/cancelled", "notifications/progress",
		"notifications/message", "notifications/tools/list_changed",
		"notifications/resources/list_changed", "notifications/resources/updated",
		"notifications/prompts/list_changed", "notifications/roots/list_changed",
		"notifications/tasks/status", "notifications/elicitation/complete",
	} {
		m[s] = s
	}
	return m
}()

// decodeMethod returns the string value of a JSON string token; a method
// that is not a string yields its raw text.
func decodeMethod(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return string(v)
	}
	inner := v[1 : len(v)-1]
	if s, ok := knownMethods[string(inner)]; ok {
		return s
	}
	return decodeString(v)
}

// decodeString decodes a JSON string token the way encoding/json does
// (invalid UTF-8 becomes U+FFFD). v must be a complete string token.
func decodeString(v []byte) string {
	inner := v[1 : len(v)-1]
	plain := true
	for _, c := range inner {
		if c == '\\' || c >= utf8.RuneSelf || c < 0x20 {
			plain = false
			break
		}
	}
	if plain {
		return string(inner)
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return string(inner)
	}
	return s
}

// smallIDs holds the text of small integer ids so they cost no allocation.
var smallIDs = func() []string {
	s := make([]string, 1024)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

// normalizeID returns the canonical JSON text of an id: strings are
// re-quoted minimally, integral numbers are written as plain integers,
// anything else is kept as written (trimmed). 1 and "1" stay different.
func normalizeID(v []byte) string {
	v = trimWS(v)
	if len(v) == 0 {
		return ""
	}
	switch c := v[0]; {
	case c == '"':
		if len(v) < 2 || v[len(v)-1] != '"' {
			return string(v)
		}
		for _, b := range v[1 : len(v)-1] {
			if b == '\\' || b >= utf8.RuneSelf || b < 0x20 {
				return quoteID(decodeString(v))
			}
		}
		return string(v)
	case c == '-' || (c >= '0' && c <= '9'):
		return normalizeNumber(v)
	}
	return string(v)
}

// normalizeNumber canonicalises a JSON number token.
func normalizeNumber(v []byte) string {
	integer := true
	for _, b := range v {
		if b == '.' || b == 'e' || b == 'E' {
			integer = false
			break
		}
	}
	if integer {
		if len(v) <= 4 && (len(v) == 1 || v[0] != '0') {
			n := 0
			for _, b := range v {
				if b < '0' || b > '9' {
					n = -1
					break
				}
				n = n*10 + int(b-'0')
			}
			if n >= 0 && n < len(smallIDs) {
				return smallIDs[n]
			}
		}
		if string(v) == "-0" {
			return "0"
		}
		return string(v)
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		if f == 0 {
			return "0"
		}
		return strconv.FormatInt(int64(f), 10)
	}
	return string(v)
}

// quoteID writes s as a minimal JSON string.
func quoteID(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// NormalizeID returns the canonical text of a JSON-RPC id as the log
// compares ids: `5`, `"abc"`. Callers of MarkCancelled and MarkTimedOut
// may pass either form; the log normalises both sides.
func NormalizeID(id string) string {
	if idCanonical(id) {
		return id
	}
	return normalizeID([]byte(id))
}

// idCanonical reports whether id is already in normal form: a plain
// integer or a string without escapes, control or non-ASCII bytes.
func idCanonical(id string) bool {
	if len(id) == 0 {
		return true
	}
	if id[0] == '"' {
		if len(id) < 2 || id[len(id)-1] != '"' {
			return false
		}
		for i := 1; i < len(id)-1; i++ {
			if c := id[i]; c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	start := 0
	if id[0] == '-' {
		start = 1
	}
	if start == len(id) || (id[start] == '0' && len(id) > start+1) || id == "-0" {
		return false
	}
	for i := start; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

// keyText returns the text of an object key token; keys are short, and
// only those with escapes are decoded.
func keyText(tok []byte) []byte {
	inner := tok[1 : len(tok)-1]
	for _, c := range inner {
		if c == '\\' {
			return []byte(decodeString(tok))
		}
	}
	return inner
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

func trimWS(b []byte) []byte {
	for len(b) > 0 && isWS(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isWS(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// skipString returns the index just past the string token starting at
// b[i] == '"', or -1 if it is not terminated.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index just past the JSON value starting at b[i],
// or -1 on malformed input. Objects and arrays are skipped by counting
// brackets outside strings; scalars up to the next delimiter.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				j := skipString(b, i)
				if j < 0 {
					return -1
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	case '}', ']', ',', ':':
		return -1
	default:
		j := i
		for j < len(b) {
			c := b[j]
			if c == ',' || c == '}' || c == ']' || isWS(c) {
				break
			}
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

// valueAt returns raw from the start of the value of the top-level key
// name to the end of raw (not just the value), or nil. Nested lookups use
// it to avoid skipping over the whole value first.
func valueAt(raw []byte, name string) []byte {
	_, start := findKey(raw, name, false)
	if start < 0 {
		return nil
	}
	return raw[start:]
}

// scanKey finds the value of a top-level key in the JSON object raw and
// returns it (trimmed), or nil. It is used for occasional lookups such as
// params.requestId of a cancellation or result.isError of a tool result.
func scanKey(raw []byte, name string) []byte {
	end, start := findKey(raw, name, true)
	if start < 0 || end < 0 {
		return nil
	}
	return raw[start:end]
}

// findKey locates the value of the top-level key name in the object raw:
// start is its first byte (-1 if absent), end is just past it (-1 when
// the value is malformed or needEnd is false, in which case the value
// itself is not read).
func findKey(raw []byte, name string, needEnd bool) (end, start int) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return -1, -1
	}
	i++
	for first := true; ; first = false {
		i = skipWS(raw, i)
		if i >= len(raw) || raw[i] == '}' {
			return -1, -1
		}
		if !first {
			if raw[i] != ',' {
				return -1, -1
			}
			i = skipWS(raw, i+1)
		}
		if i >= len(raw) || raw[i] != '"' {
			return -1, -1
		}
		ke := skipString(raw, i)
		if ke < 0 {
			return -1, -1
		}
		key := keyText(raw[i:ke])
		i = skipWS(raw, ke)
		if i >= len(raw) || raw[i] != ':' {
			return -1, -1
		}
		i = skipWS(raw, i+1)
		if i >= len(raw) {
			return -1, -1
		}
		if string(key) == name {
			if !needEnd {
				return -1, i
			}
			return skipValue(raw, i), i
		}
		ve := skipValue(raw, i)
		if ve < 0 {
			return -1, -1
		}
		i = ve
	}
}
