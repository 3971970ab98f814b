package schemaform

import "fmt"

// elicitFormats are the string formats the elicitation schema allows.
var elicitFormats = map[string]bool{"": true, "email": true, "uri": true, "date": true, "date-time": true}

// CheckElicitation checks the form of a requestedSchema of
// elicitation/create against the restriction of the MCP specification: a
// flat object whose properties are primitives (string with an optional
// email, uri, date or date-time format; number; integer; boolean; enum,
// titled enum, and the 2025-11-25 multi-select enum arrays). It returns
// one CodeElicitation issue per departure; none means the schema is within
// the restriction. A form can still be built from a schema outside it (the
// UI warns and lets the user decline).
func (f *Form) CheckElicitation() []Issue {
	var out []Issue
	add := func(path, format string, a ...any) {
		out = append(out, Issue{Path: path, Code: CodeElicitation, Message: fmt.Sprintf(format, a...)})
	}
	if t := f.Schema.GetString("type"); t != "object" {
		add("", "the schema must be an object (type: object)")
	}
	if f.Root.Kind != KindObject {
		return out
	}
	props := f.Schema.Get("properties")
	for _, p := range f.Root.Properties {
		var raw *Value
		if props != nil {
			raw = props.Get(p.Name)
		}
		if raw != nil && raw.Has("$ref") {
			add(p.Path, "%s: references ($ref) are not allowed", p.Name)
			continue
		}
		switch p.Kind {
		case KindString, KindText, KindNumber, KindInteger, KindBoolean, KindEnum, KindTitledEnum, KindMultiSelect:
			if p.Kind == KindString && !elicitFormats[p.Format] {
				add(p.Path, "%s: format %q is not allowed", p.Name, p.Format)
			}
		case KindFormat:
			if !elicitFormats[p.Format] {
				add(p.Path, "%s: format %q is not allowed", p.Name, p.Format)
			}
		case KindObject:
			add(p.Path, "%s: nested objects are not allowed", p.Name)
		case KindArray:
			add(p.Path, "%s: arrays are only allowed as multi-select enums", p.Name)
		case KindNullable:
			add(p.Path, "%s: nullable values are not allowed", p.Name)
		default:
			add(p.Path, "%s: not a primitive (%s)", p.Name, p.Reason)
		}
	}
	return out
}
