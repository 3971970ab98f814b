package catalog

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
)

// style is how freshly rendered JSON is laid out, guessed from the file so
// that re-rendered entries look like their neighbours.
type style struct {
	multiline bool   // objects one member per line
	unit      string // one level of indentation
	colon     string // ": " or ":"
	comma     string // separator on one line: ", " or ","
	nl        string // line break: "\n" or "\r\n"
}

var defaultStyle = style{multiline: true, unit: "  ", colon: ": ", comma: ", ", nl: "\n"}

// detectStyle guesses the layout of a document.
func detectStyle(data []byte, top *object) style {
	st := defaultStyle
	if top == nil || len(top.members) == 0 {
		return st // nothing to imitate
	}
	if !bytes.Contains(data[top.start:top.end], []byte("\n")) {
		st.multiline = false // a minified file, maybe with a final line break
	}
	if bytes.Contains(data, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	if !bytes.Contains(data, []byte(": ")) && bytes.Contains(data, []byte(":")) {
		st.colon = ":"
	}
	if !st.multiline && !bytes.Contains(data, []byte(", ")) {
		st.comma = ","
	}
	if top != nil && len(top.members) > 0 {
		if ind, ok := lineIndent(data[top.members[0].preStart:top.members[0].keyStart]); ok && ind != "" {
			st.unit = ind
		}
	}
	return st
}

// lineIndent returns the text after the last newline of a whitespace run,
// and whether there was a newline at all.
func lineIndent(ws []byte) (string, bool) {
	i := bytes.LastIndexByte(ws, '\n')
	if i < 0 {
		return "", false
	}
	return string(ws[i+1:]), true
}

// indentOfLine returns the indentation of the line holding data[pos].
func indentOfLine(data []byte, pos int) string {
	start := bytes.LastIndexByte(data[:pos], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// format lays out a JSON value: objects one member per line (when
// st.multiline), arrays of scalars on one line while short.
func format(raw []byte, indent string, st style) []byte {
	v, err := hujson.Parse(raw)
	if err != nil {
		return raw
	}
	v.Minimize()
	layout(&v, indent, st)
	return v.Pack()
}

// layout sets the whitespace of a minimized value.
func layout(v *hujson.Value, indent string, st style) {
	inner := indent + st.unit
	comma := []byte(strings.TrimPrefix(st.comma, ","))
	var elems []*hujson.Value // members' values or array elements
	var before []*hujson.Extra
	var after *hujson.Extra
	inline := !st.multiline
	switch x := v.Value.(type) {
	case *hujson.Object:
		for i := range x.Members {
			m := &x.Members[i]
			m.Value.BeforeExtra = []byte(strings.TrimPrefix(st.colon, ":"))
			elems, before = append(elems, &m.Value), append(before, &m.Name.BeforeExtra)
		}
		after = &x.AfterExtra
	case *hujson.Array:
		total := 0
		for i := range x.Elements {
			e := &x.Elements[i]
			if k := e.Value.Kind(); k == '{' || k == '[' {
				total = math.MaxInt / 2
			}
			total += len(e.Pack()) + 2
			elems, before = append(elems, e), append(before, &e.BeforeExtra)
		}
		inline = inline || total <= 72
		after = &x.AfterExtra
	default:
		return
	}
	for i, e := range elems {
		switch {
		case !inline:
			*before[i] = []byte(st.nl + inner)
		case i > 0:
			*before[i] = comma
		}
		layout(e, inner, st)
	}
	if !inline && len(elems) > 0 {
		*after = []byte(st.nl + indent)
	}
}

// mustJSON marshals v (a value known to marshal) without HTML escaping.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// orderedMap renders a string map with the keys of order first (in that
// order), then the others sorted.
func orderedMap(m map[string]string, order []string) []byte {
	keys := make([]string, 0, len(m))
	seen := map[string]bool{}
	for _, k := range order {
		if _, ok := m[k]; ok && !seen[k] {
			keys = append(keys, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	keys = append(keys, rest...)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustJSON(k))
		b.WriteByte(':')
		b.Write(mustJSON(m[k]))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// objectKeys returns the keys of a raw JSON object in order (nil if raw is
// not an object).
func objectKeys(raw []byte) []string {
	obj, err := scanObject(raw, 0, len(raw))
	if err != nil {
		return nil
	}
	keys := make([]string, len(obj.members))
	for i, m := range obj.members {
		keys[i] = m.key
	}
	return keys
}

// compact returns raw without whitespace, comments or trailing commas.
func compact(raw []byte) []byte {
	v, err := hujson.Parse(raw)
	if err != nil {
		return slices.Clone(raw)
	}
	v.Minimize()
	return v.Pack()
}
