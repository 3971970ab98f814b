package catalog

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"
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
	if !bytes.Contains(data, []byte("\n")) && len(data) > 0 {
		st.multiline = false
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

// format lays out a compact, valid JSON value: objects one member per line
// (when st.multiline), arrays of scalars on one line while short.
func format(raw []byte, indent string, st style) []byte {
	var b bytes.Buffer
	if err := formatTo(&b, raw, indent, st); err != nil {
		// raw was not valid JSON; fall back to the compact text
		var c bytes.Buffer
		if json.Compact(&c, raw) == nil {
			return c.Bytes()
		}
		return raw
	}
	return b.Bytes()
}

func formatTo(b *bytes.Buffer, raw []byte, indent string, st style) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return errScan
	}
	switch raw[0] {
	case '{':
		obj, err := scanObject(raw, 0)
		if err != nil {
			return err
		}
		if len(obj.members) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		inner := indent + st.unit
		for i, m := range obj.members {
			if i > 0 {
				b.WriteByte(',')
				if !st.multiline {
					b.WriteString(strings.TrimPrefix(st.comma, ","))
				}
			}
			if st.multiline {
				b.WriteString(st.nl)
				b.WriteString(inner)
			}
			b.Write(raw[m.keyStart:m.keyEnd])
			b.WriteString(st.colon)
			if err := formatTo(b, raw[m.valStart:m.valEnd], inner, st); err != nil {
				return err
			}
		}
		if st.multiline {
			b.WriteString(st.nl)
			b.WriteString(indent)
		}
		b.WriteByte('}')
		return nil
	case '[':
		elems, err := scanArray(raw)
		if err != nil {
			return err
		}
		if len(elems) == 0 {
			b.WriteString("[]")
			return nil
		}
		inline := !st.multiline
		if !inline {
			total := 0
			inline = true
			for _, e := range elems {
				if c := e[0]; c == '{' || c == '[' {
					inline = false
				}
				total += len(e) + 2
			}
			if total > 72 {
				inline = false
			}
		}
		b.WriteByte('[')
		inner := indent + st.unit
		for i, e := range elems {
			if i > 0 {
				b.WriteByte(',')
				if inline {
					b.WriteString(strings.TrimPrefix(st.comma, ","))
				}
			}
			if !inline {
				b.WriteString(st.nl)
				b.WriteString(inner)
			}
			if err := formatTo(b, e, inner, st); err != nil {
				return err
			}
		}
		if !inline {
			b.WriteString(st.nl)
			b.WriteString(indent)
		}
		b.WriteByte(']')
		return nil
	default:
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return err
		}
		b.Write(c.Bytes())
		return nil
	}
}

// scanArray returns the raw elements of a JSON array.
func scanArray(raw []byte) ([][]byte, error) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, errScan
	}
	var out [][]byte
	i := skipSpace(raw, 1)
	if i < len(raw) && raw[i] == ']' {
		return nil, nil
	}
	for i < len(raw) {
		j, err := skipValue(raw, i)
		if err != nil {
			return nil, err
		}
		out = append(out, raw[i:j])
		i = skipSpace(raw, j)
		if i >= len(raw) {
			return nil, errScan
		}
		if raw[i] == ']' {
			return out, nil
		}
		if raw[i] != ',' {
			return nil, errScan
		}
		i = skipSpace(raw, i+1)
	}
	return nil, errScan
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
	raw = bytes.TrimSpace(raw)
	obj, err := scanObject(raw, 0)
	if err != nil {
		return nil
	}
	keys := make([]string, len(obj.members))
	for i, m := range obj.members {
		keys[i] = m.key
	}
	return keys
}

// compact returns raw without insignificant whitespace.
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return slices.Clone(raw)
	}
	return b.Bytes()
}
