package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind is the kind of control a Field needs.
type Kind uint8

// The field kinds. KindJSON is the fallback for anything the form cannot
// express with a dedicated control.
const (
	KindJSON        Kind = iota // raw JSON editor
	KindString                  // single-line text
	KindText                    // multi-line text
	KindEnum                    // select over Options (legacy enum, no titles)
	KindTitledEnum              // select showing Option titles, sending their values
	KindMultiSelect             // array of enum values: one checkbox per Option
	KindFormat                  // string with a checked Format (uri, date, date-time, email, ...)
	KindNumber                  // JSON number
	KindInteger                 // JSON integer
	KindBoolean                 // check box
	KindArray                   // list of Items with add, remove, reorder
	KindObject                  // fieldset of Properties
	KindNullable                // Inner control plus an explicit null switch
)

var kindNames = [...]string{"json", "string", "text", "enum", "titled-enum", "multi-select", "format",
	"number", "integer", "boolean", "array", "object", "nullable"}

// String returns a short lower-case name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Option is one choice of an enum field.
type Option struct {
	Value *Value // the value sent (enum member or const)
	Title string // what the user sees
}

// Bound is a numeric bound (minimum or maximum).
type Bound struct {
	Value     json.Number
	Exclusive bool
}

// Field is one node of the field model: the control a schema needs and the
// constraints it checks.
type Field struct {
	Kind        Kind
	Required    bool // required by the parent object
	UniqueItems bool
	// uniq: Build made Properties, whose names are then distinct.
	uniq        bool
	Name        string // property name; "" for the root and array items
	Path        string // JSON pointer of the instance; array items use "*" as index
	Title       string
	Description string
	Default     *Value // nil when the schema has none
	Options     []Option
	Format      string // KindFormat (and informational on KindString)
	Min, Max    *Bound
	MultipleOf  json.Number
	MinLength   int // -1 when absent
	MaxLength   int // -1 when absent
	Pattern     string
	MinItems    int      // -1 when absent
	MaxItems    int      // -1 when absent
	Items       *Field   // KindArray
	Properties  []*Field // KindObject, in schema order
	Inner       *Field   // KindNullable
	Schema      *Value   // the sub-schema (with $ref resolved)
	Reason      string   // KindJSON: why the form has no dedicated control

	// ext holds what few fields need (made on first use), out of line:
	// every field of a large form would otherwise carry it.
	ext atomic.Pointer[fieldExt]
}

// fieldExt is the rarely needed part of a Field.
type fieldExt struct {
	// re is the compiled Pattern (noRegexp when it does not compile),
	// made on first use: most fields are never checked.
	re atomic.Pointer[regexp.Regexp]
	// idx maps property names to their index in Properties when there
	// are many; Build makes it, or it is made on first use.
	idx atomic.Pointer[map[string]int]
}

// extra returns the side part of f, making it on first use.
func (f *Field) extra() *fieldExt {
	if e := f.ext.Load(); e != nil {
		return e
	}
	e := new(fieldExt)
	if f.ext.CompareAndSwap(nil, e) {
		return e
	}
	return f.ext.Load()
}

// noRegexp marks a pattern that Go cannot compile.
var noRegexp = new(regexp.Regexp)

// propIndex returns the index of the property named name, or -1.
func (f *Field) propIndex(name string) int {
	if len(f.Properties) <= 16 {
		return slices.IndexFunc(f.Properties, func(p *Field) bool { return p.Name == name })
	}
	var idx *map[string]int
	if e := f.ext.Load(); e != nil {
		idx = e.idx.Load()
	}
	if idx == nil {
		m := make(map[string]int, len(f.Properties))
		for i, p := range f.Properties {
			m[p.Name] = i
		}
		idx = &m
		f.extra().idx.Store(idx) // racing callers store equal maps
	}
	if i, ok := (*idx)[name]; ok {
		return i
	}
	return -1
}

// Label is the text shown next to the control: the title, else the name.
func (f *Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Property returns the property field named name, or nil.
func (f *Field) Property(name string) *Field {
	for _, p := range f.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// regexp returns the compiled pattern, or nil when there is none or Go
// cannot compile it (ECMA-262 syntax that RE2 lacks).
func (f *Field) regexp() *regexp.Regexp {
	if f.Pattern == "" {
		return nil
	}
	e := f.extra()
	re := e.re.Load()
	if re == nil {
		var err error
		if re, err = regexp.Compile(f.Pattern); err != nil {
			re = noRegexp
		}
		e.re.Store(re) // racing callers store equivalent regexps
	}
	if re == noRegexp {
		return nil
	}
	return re
}

// Form is a parsed schema: the field model plus what whole-document
// validation needs.
type Form struct {
	Root   *Field
	Schema *Value // the parsed schema
	raw    []byte

	vOnce     sync.Once
	validator *Schema
	vErr      error
}

// ErrSchema is wrapped by Build's error when the schema is not JSON.
var ErrSchema = errors.New("schemaform: schema is not valid JSON")

// Limits of $ref expansion: a reference already open this many times on
// the current path, a chain this deep, or more expansions than this in
// one schema become JSON fields.
const (
	maxRefRepeat    = 2
	maxRefChain     = 32
	maxExpansions   = 5000
	maxFieldDepth   = 64
	maxMultiOptions = 1000
	// maxFields bounds the fields of one form: $ref expansion can
	// multiply a small schema; past this, fields become JSON editors.
	maxFields = 20000
)

// Build parses a JSON Schema, as the server sent it, into a Form. An empty
// schema stands for an object with no properties. Only invalid JSON is an
// error; whatever the form cannot express becomes a JSON field.
func Build(schema []byte) (*Form, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		schema = []byte(`{"type":"object"}`)
	}
	root, err := ParseValue(schema)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSchema, err)
	}
	b := builder{root: root}
	f := &Field{Path: ""}
	b.field(root, f, 0, true)
	return &Form{Root: f, Schema: root, raw: schema}, nil
}

type builder struct {
	root       *Value
	refs       []string
	expansions int
	fields     int
}

// resolve follows $ref chains from s. It returns the schema to build
// (siblings of $ref merged over the target), how many refs were pushed
// onto b.refs, and a reason when the reference cannot be followed.
func (b *builder) resolve(s *Value) (*Value, int, string) {
	pushed := 0
	for s != nil && s.Type == TypeObject {
		ref := s.Get("$ref")
		if ref == nil {
			break
		}
		if ref.Type != TypeString {
			return s, pushed, "$ref is not a string"
		}
		n := 0
		for _, r := range b.refs {
			if r == ref.Str {
				n++
			}
		}
		if n >= maxRefRepeat || len(b.refs) >= maxRefChain {
			return s, pushed, "recursive $ref " + ref.Str
		}
		b.expansions++
		if b.expansions > maxExpansions {
			return s, pushed, "too many $ref expansions"
		}
		target := b.pointer(ref.Str)
		if target == nil {
			return s, pushed, "unresolved $ref " + ref.Str
		}
		b.refs = append(b.refs, ref.Str)
		pushed++
		s = overlay(target, s, "$ref")
	}
	return s, pushed, ""
}

// overlay returns target with the members of over (except skip) laid on
// top; when over only holds skip it returns target itself.
func overlay(target, over *Value, skip string) *Value {
	if target.Type != TypeObject || (len(over.Members) == 1 && over.Members[0].Key == skip) {
		return target
	}
	m := make([]Member, 0, len(target.Members)+len(over.Members))
	for _, t := range target.Members {
		if over.Get(t.Key) == nil {
			m = append(m, t)
		}
	}
	for _, o := range over.Members {
		if o.Key != skip {
			m = append(m, o)
		}
	}
	return &Value{Type: TypeObject, Members: m}
}

// pointer resolves a same-document reference ("#", "#/$defs/x", ...).
func (b *builder) pointer(ref string) *Value {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	ptr := ref[1:]
	cur := b.root
	if ptr == "" {
		return cur
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil // anchors are not supported
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(unescapePercent(tok), "~1", "/"), "~0", "~")
		switch cur.Type {
		case TypeObject:
			cur = cur.Get(tok)
		case TypeArray:
			i, ok := atoi(tok)
			if !ok || i >= len(cur.Items) {
				return nil
			}
			cur = cur.Items[i]
		default:
			return nil
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

func unescapePercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if h, ok := unhex(s[i+1]); ok {
				if l, ok := unhex(s[i+2]); ok {
					b.WriteByte(h<<4 | l)
					i += 2
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// escapeToken escapes a JSON pointer token.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// hasString reports whether items holds the string s.
func hasString(items []*Value, s string) bool {
	return slices.ContainsFunc(items, func(it *Value) bool { return it.Type == TypeString && it.Str == s })
}

// jsonField turns f into a JSON fallback.
func jsonField(f *Field, reason string) {
	f.Kind = KindJSON
	f.Reason = reason
	f.Items, f.Properties, f.Inner, f.Options = nil, nil, nil, nil
}

// field fills f from schema s. f.Name, f.Path and f.Required are set by
// the caller.
func (b *builder) field(s *Value, f *Field, depth int, root bool) {
	f.MinLength, f.MaxLength, f.MinItems, f.MaxItems = -1, -1, -1, -1
	f.Schema = s
	b.fields++
	if b.fields > maxFields {
		jsonField(f, "the schema is too large for a form")
		return
	}
	rs, pushed, reason := b.resolve(s)
	defer func() { b.refs = b.refs[:len(b.refs)-pushed] }()
	if rs != nil && rs.Type == TypeObject {
		// Annotations apply even when the reference cannot be followed.
		f.Title = rs.GetString("title")
		f.Description = rs.GetString("description")
		f.Default = rs.Get("default")
	}
	if reason != "" {
		jsonField(f, reason)
		return
	}
	s = rs
	f.Schema = s
	if s.Type == TypeBool {
		jsonField(f, "boolean schema")
		return
	}
	if s.Type != TypeObject {
		jsonField(f, "schema is not an object")
		return
	}
	if depth > maxFieldDepth {
		jsonField(f, "nested too deeply")
		return
	}
	if unsupported(s) {
		for _, k := range unsupportedKeywords {
			if s.Has(k) {
				jsonField(f, k+" is not expressible as a form")
				return
			}
		}
	}
	if all := s.Get("allOf"); all != nil {
		if all.Type == TypeArray && len(all.Items) == 1 && all.Items[0].Type == TypeObject {
			// A lone allOf is a wrapper (often around a $ref): merge it.
			br, p2, reason := b.resolve(all.Items[0])
			defer func() { b.refs = b.refs[:len(b.refs)-p2] }()
			if reason != "" {
				jsonField(f, reason)
				return
			}
			merged := mergeSchemas(br, s, "allOf")
			b.field(merged, f, depth+1, root)
			return
		}
		jsonField(f, "allOf is not expressible as a form")
		return
	}
	for _, comb := range [...]string{"anyOf", "oneOf"} {
		alt := s.Get(comb)
		if alt == nil {
			continue
		}
		b.alternatives(s, comb, alt, f, depth)
		return
	}

	var one [1]string
	types := typeNames(s, one[:0])
	if len(types) > 1 {
		var rest []string
		for _, t := range types {
			if t != "null" {
				rest = append(rest, t)
			}
		}
		if len(rest) == 1 && len(rest) < len(types) {
			inner := withType(s, rest[0])
			b.nullable(f, inner, depth)
			return
		}
		jsonField(f, "several types: "+strings.Join(types, ", "))
		return
	}
	if e := s.Get("enum"); e != nil {
		if e.Type != TypeArray || len(e.Items) == 0 {
			jsonField(f, "enum is not a non-empty array")
			return
		}
		names := s.Get("enumNames")
		titled := names != nil && names.Type == TypeArray && len(names.Items) == len(e.Items)
		f.Kind = KindEnum
		if titled {
			f.Kind = KindTitledEnum
		}
		for i, it := range e.Items {
			o := Option{Value: it, Title: display(it)}
			if titled && names.Items[i].Type == TypeString {
				o.Title = names.Items[i].Str
			}
			if f.Options == nil {
				f.Options = make([]Option, 0, len(e.Items))
			}
			f.Options = append(f.Options, o)
		}
		return
	}
	if c := s.Get("const"); c != nil {
		f.Kind = KindEnum
		f.Options = []Option{{Value: c, Title: display(c)}}
		return
	}
	typ := ""
	if len(types) == 1 {
		typ = types[0]
	} else {
		typ = inferType(s, root)
	}
	switch typ {
	case "string":
		b.stringField(s, f)
	case "number", "integer":
		f.Kind = KindNumber
		if typ == "integer" {
			f.Kind = KindInteger
		}
		f.Min = bound(s, "minimum", "exclusiveMinimum", false)
		f.Max = bound(s, "maximum", "exclusiveMaximum", true)
		if m := s.Get("multipleOf"); m != nil && m.Type == TypeNumber {
			f.MultipleOf = m.Num()
		}
	case "boolean":
		f.Kind = KindBoolean
	case "array":
		b.arrayField(s, f, depth)
	case "object":
		b.objectField(s, f, depth, root)
	case "null":
		f.Kind = KindEnum
		f.Options = []Option{{Value: Null(), Title: "null"}}
	default:
		jsonField(f, "no type")
	}
}

// unsupportedKeywords are the keywords a form cannot express, in the
// order their reasons are reported.
var unsupportedKeywords = [...]string{"if", "then", "else", "not", "prefixItems", "dependentSchemas",
	"dependencies", "patternProperties", "contains", "unevaluatedProperties"}

// unsupported reports, in one pass over the members of s, whether it has
// one of unsupportedKeywords.
func unsupported(s *Value) bool {
	for _, m := range s.Members {
		switch m.Key {
		case "if", "then", "else", "not", "prefixItems", "dependentSchemas",
			"dependencies", "patternProperties", "contains", "unevaluatedProperties":
			return true
		}
	}
	return false
}

// mergeSchemas lays the members of over (except skip) on base.
func mergeSchemas(base, over *Value, skip string) *Value {
	if base.Type != TypeObject {
		return base
	}
	return overlay(base, over, skip)
}

// withType returns s with its "type" replaced by t.
func withType(s *Value, t string) *Value {
	m := make([]Member, 0, len(s.Members))
	for _, x := range s.Members {
		if x.Key == "type" {
			m = append(m, Member{"type", String(t)})
			continue
		}
		m = append(m, x)
	}
	return &Value{Type: TypeObject, Members: m}
}

// without returns s without the member key.
func without(s *Value, key string) *Value {
	m := make([]Member, 0, len(s.Members))
	for _, x := range s.Members {
		if x.Key != key {
			m = append(m, x)
		}
	}
	return &Value{Type: TypeObject, Members: m}
}

func (b *builder) nullable(f *Field, inner *Value, depth int) {
	f.Kind = KindNullable
	in := new(Field)
	in.Name, in.Path = f.Name, f.Path
	b.field(inner, in, depth+1, false)
	in.Title, in.Description = "", ""
	if in.Default != nil && in.Default.Type == TypeNull {
		in.Default = nil
	}
	f.Inner = in
}

// alternatives handles anyOf/oneOf: titled enums, nullable wrappers, or
// a JSON fallback.
func (b *builder) alternatives(s *Value, comb string, alt *Value, f *Field, depth int) {
	if alt.Type != TypeArray || len(alt.Items) == 0 {
		jsonField(f, comb+" is not a non-empty array")
		return
	}
	var branches []*Value
	hasNull := false
	for _, br := range alt.Items {
		r, pushed, reason := b.resolve(br)
		b.refs = b.refs[:len(b.refs)-pushed]
		if reason != "" {
			jsonField(f, reason)
			return
		}
		if r.Type == TypeObject && len(r.Members) == 1 && r.GetString("type") == "null" {
			hasNull = true
			continue
		}
		branches = append(branches, br)
	}
	rest := without(s, comb)
	if hasNull && len(branches) == 1 {
		// The outer keywords become siblings of the branch (and of its
		// $ref, which the inner field then resolves).
		b.nullable(f, mergeSchemas(branches[0], rest, ""), depth)
		return
	}
	if len(branches) == 0 {
		jsonField(f, comb+" of null only")
		return
	}
	// All branches const → titled enum.
	opts := make([]Option, 0, len(branches))
	for _, br := range branches {
		r, pushed, _ := b.resolve(br)
		b.refs = b.refs[:len(b.refs)-pushed]
		c := r.Get("const")
		if r.Type != TypeObject || c == nil {
			jsonField(f, comb+" of different schemas")
			return
		}
		t := r.GetString("title")
		if t == "" {
			t = display(c)
		}
		opts = append(opts, Option{Value: c, Title: t})
	}
	if hasNull {
		inner := &Field{Name: f.Name, Path: f.Path, Kind: KindTitledEnum, Options: opts,
			Schema: rest, MinLength: -1, MaxLength: -1, MinItems: -1, MaxItems: -1}
		f.Kind = KindNullable
		f.Inner = inner
		return
	}
	f.Kind = KindTitledEnum
	f.Options = opts
}

// display is how an enum value is shown when it has no title.
func display(v *Value) string {
	if v.Type == TypeString {
		return v.Str
	}
	return string(v.JSON())
}

// typeNames returns the names in "type" (string or array of strings).
func typeNames(s *Value, buf []string) []string {
	t := s.Get("type")
	if t == nil {
		return nil
	}
	switch t.Type {
	case TypeString:
		return append(buf, t.Str)
	case TypeArray:
		out := make([]string, 0, len(t.Items))
		for _, it := range t.Items {
			if it.Type == TypeString {
				out = append(out, it.Str)
			}
		}
		return out
	}
	return nil
}

// inferType guesses the type of a schema without "type" from its keywords.
func inferType(s *Value, root bool) string {
	switch {
	case s.Has("properties") || root:
		return "object"
	case s.Has("items"):
		return "array"
	case s.Has("minimum") || s.Has("maximum") || s.Has("exclusiveMinimum") || s.Has("exclusiveMaximum") || s.Has("multipleOf"):
		return "number"
	case s.Has("minLength") || s.Has("maxLength") || s.Has("pattern") || s.Has("format"):
		return "string"
	}
	return ""
}

func intOf(s *Value, key string) int {
	v := s.Get(key)
	if v == nil || v.Type != TypeNumber || !IsInteger(string(v.Num())) || len(v.Num()) > 9 {
		return -1
	}
	n, ok := atoi(strings.TrimPrefix(string(v.Num()), "-"))
	if !ok || strings.HasPrefix(string(v.Num()), "-") {
		return -1
	}
	return n
}

func (b *builder) stringField(s *Value, f *Field) {
	f.Kind = KindString
	f.Format = s.GetString("format")
	f.MinLength = intOf(s, "minLength")
	f.MaxLength = intOf(s, "maxLength")
	f.Pattern = s.GetString("pattern")
	switch {
	case formatHints[f.Format] != "":
		f.Kind = KindFormat
	case f.Format == "textarea" || f.Format == "multiline" || s.Has("contentMediaType"):
		f.Kind = KindText
	case s.Get("x-multiline") != nil && s.Get("x-multiline").Bool:
		f.Kind = KindText
	case f.Default != nil && f.Default.Type == TypeString && strings.Contains(f.Default.Str, "\n"):
		f.Kind = KindText
	}
}

// bound reads a minimum/maximum with its exclusive form (draft-04 boolean
// or 2019+ number); when both are numbers the stricter one wins.
func bound(s *Value, incl, excl string, upper bool) *Bound {
	var in *Bound
	if v := s.Get(incl); v != nil && v.Type == TypeNumber {
		in = &Bound{Value: v.Num()}
	}
	ex := s.Get(excl)
	if ex == nil {
		return in
	}
	switch ex.Type {
	case TypeBool:
		if in != nil && ex.Bool {
			in.Exclusive = true
		}
		return in
	case TypeNumber:
		e := &Bound{Value: ex.Num(), Exclusive: true}
		if in == nil {
			return e
		}
		a, ok1 := ratOf(in.Value)
		c, ok2 := ratOf(e.Value)
		if !ok1 || !ok2 {
			return e
		}
		cmp := c.Cmp(a)
		if (upper && cmp <= 0) || (!upper && cmp >= 0) {
			return e
		}
		return in
	}
	return in
}

func (b *builder) arrayField(s *Value, f *Field, depth int) {
	f.MinItems = intOf(s, "minItems")
	f.MaxItems = intOf(s, "maxItems")
	if u := s.Get("uniqueItems"); u != nil && u.Type == TypeBool {
		f.UniqueItems = u.Bool
	}
	items := s.Get("items")
	if items != nil && items.Type == TypeArray {
		jsonField(f, "tuple items are not expressible as a form")
		return
	}
	if items == nil {
		items = &Value{Type: TypeObject, Members: []Member{}}
	}
	item := new(Field)
	item.Path, item.Required = f.Path+"/*", true
	b.field(items, item, depth+1, false)
	if (item.Kind == KindEnum || item.Kind == KindTitledEnum) && len(item.Options) <= maxMultiOptions {
		f.Kind = KindMultiSelect
		f.Options = item.Options
		f.Items = item
		return
	}
	f.Kind = KindArray
	f.Items = item
}

func (b *builder) objectField(s *Value, f *Field, depth int, root bool) {
	props := s.Get("properties")
	if props == nil || props.Type != TypeObject || (len(props.Members) == 0 && !root) {
		if root {
			f.Kind = KindObject
			return
		}
		jsonField(f, "object without properties")
		return
	}
	f.Kind = KindObject
	f.Properties = make([]*Field, 0, len(props.Members))
	// Duplicate names are possible (the last one wins, as in JSON
	// decoding): small objects find them by scanning, large ones with a map.
	var seen map[string]int
	if len(props.Members) > 16 {
		seen = make(map[string]int, len(props.Members))
	}
	var req map[string]bool
	var reqList []*Value
	if r := s.Get("required"); r != nil && r.Type == TypeArray && len(r.Items) > 0 {
		if len(r.Items) <= 16 {
			reqList = r.Items
		} else {
			req = make(map[string]bool, len(r.Items))
			for _, it := range r.Items {
				if it.Type == TypeString {
					req[it.Str] = true
				}
			}
		}
	}
	dups := false
	for _, m := range props.Members {
		p := new(Field)
		p.Name = m.Key
		p.Path = f.Path + "/" + escapeToken(m.Key)
		switch {
		case req != nil:
			p.Required = req[m.Key]
		case reqList != nil:
			p.Required = hasString(reqList, m.Key)
		}
		b.field(m.Value, p, depth+1, false)
		switch {
		case seen != nil:
			if j, dup := seen[m.Key]; dup {
				f.Properties[j] = p
				dups = true
				continue
			}
			seen[m.Key] = len(f.Properties)
		default:
			if j := f.propIndex(m.Key); j >= 0 {
				f.Properties[j] = p
				dups = true
				continue
			}
		}
		f.Properties = append(f.Properties, p)
	}
	f.uniq = !dups
	if seen != nil && len(f.Properties) > 16 {
		f.extra().idx.Store(&seen)
	}
}
