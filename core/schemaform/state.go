package schemaform

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// State is the editable state of one field: what its control shows. A
// State tree mirrors the Field tree (array items get one State each) and
// turns into the JSON value that would be sent. It is not safe for
// concurrent use; UIs touch it from their UI thread only.
//
// Which members matter depends on Field.Kind:
//   - String, Text, Format, Number, Integer, JSON: Text
//   - Enum, TitledEnum: Index (-1 when nothing is chosen)
//   - MultiSelect: Checked (in the order the user checked them)
//   - Boolean: Bool and Touched
//   - Array: Items; Object: Props and Extra; Nullable: Null and Inner
//
// Raw is set when a value was loaded that the control cannot show (a
// string in a number field, an option the enum lacks, ...): Text then
// holds that value as JSON and the UI shows a JSON editor, so nothing is
// lost.
type State struct {
	Field   *Field
	Text    string
	Index   int
	Bool    bool
	Touched bool
	Null    bool
	Raw     bool

	// keep: send the empty value ("" / [] / {}) although it is empty,
	// because it was loaded that way.
	keep bool

	Checked []int
	Inner   *State
	Items   []*State
	Props   []*State
	Extra   []Member

	// orig: the loaded string, number or boolean, sent as loaded while
	// the control still shows it (so a string's escapes survive, and no
	// new value is made for an unchanged default).
	orig *Value
	// order: member order of the loaded object (Set of an object
	// only), out of line: most states never have one.
	order *[]string
}

// NewState returns the state of f holding its defaults.
func NewState(f *Field) *State {
	s := newEmpty(f)
	s.Reset()
	return s
}

// NewState returns a state for the whole form holding the defaults.
func (f *Form) NewState() *State { return NewState(f.Root) }

// newEmpty returns the empty state of f and of everything below it.
func newEmpty(f *Field) *State {
	s := &State{Field: f, Index: -1}
	switch f.Kind {
	case KindObject:
		s.Props = make([]*State, len(f.Properties))
		for i, p := range f.Properties {
			s.Props[i] = newEmpty(p)
		}
	case KindNullable:
		s.Inner = newEmpty(f.Inner)
	}
	return s
}

// Defaults returns the value a fresh form of f holds: the schema defaults,
// gathered from nested properties too. It is nil when there are none.
func Defaults(f *Field) *Value {
	if f == nil {
		return nil
	}
	d := f.Default
	switch f.Kind {
	case KindObject:
		var members []Member
		if d != nil && d.Type == TypeObject {
			members = append(members, d.Members...)
		}
		base := &Value{Type: TypeObject, Members: members}
		for _, p := range f.Properties {
			if base.Get(p.Name) != nil {
				continue
			}
			if pd := Defaults(p); pd != nil {
				members = append(members, Member{p.Name, pd})
			}
		}
		if len(members) == 0 {
			return d
		}
		return &Value{Type: TypeObject, Members: members}
	case KindNullable:
		if d != nil {
			return d
		}
		return Defaults(f.Inner)
	}
	return d
}

// Reset puts the defaults back (in schema order).
func (s *State) Reset() { s.reset() }

// reset is s.set(Defaults(s.Field), false) without building the defaults
// of objects as values first: each state takes its own defaults in one
// pass. It reports whether Defaults(s.Field) is non-nil.
func (s *State) reset() bool {
	f := s.Field
	d := f.Default
	switch f.Kind {
	case KindObject:
		if (d != nil && d.Type != TypeObject) || !f.uniq || len(s.Props) != len(f.Properties) {
			// Rare (a default the control cannot show, properties
			// not made by Build): the general way.
			v := Defaults(f)
			s.set(v, false)
			return v != nil
		}
		s.clear()
		props := false // some property has defaults
		var set []bool
		if d != nil && len(d.Members) > 0 {
			// As set does with Defaults(f): the members of the default
			// first, ...
			set = s.place(d.Members, false)
		}
		// ... then the defaults of the other properties (their names
		// are distinct, so each lands on its own property).
		for i, p := range s.Props {
			if set != nil && set[i] {
				continue
			}
			if p.reset() {
				props = true
			}
		}
		// set keeps an empty object: the default {} when no property
		// has defaults.
		s.keep = d != nil && len(d.Members) == 0 && !props
		return d != nil || props
	case KindNullable:
		in := f.Inner
		if d == nil && in != nil && s.Inner != nil && in.Kind == KindObject && (in.Default == nil || in.Default.Type != TypeNull) {
			// Defaults(f) is Defaults(in), never a null: set would
			// pass it on to the inner state.
			s.clear()
			return s.Inner.reset()
		}
	}
	v := Defaults(f)
	s.set(v, false)
	return v != nil
}

// clear empties what set empties first.
func (s *State) clear() {
	s.Text, s.Index, s.Checked, s.Bool, s.Touched, s.Null = "", -1, nil, false, false, false
	s.Items, s.Extra, s.Raw, s.keep, s.order, s.orig = nil, nil, false, false, nil, nil
}

// Set loads v (nil: absent) into the state, replacing what it held.
func (s *State) Set(v *Value) { s.set(v, true) }

// set is Set; keepOrder says whether objects remember the member order of
// v (Reset does not: defaults are sent in schema order).
func (s *State) set(v *Value, keepOrder bool) {
	f := s.Field
	s.clear()
	if v == nil {
		for _, p := range s.Props {
			p.set(nil, false)
		}
		if s.Inner != nil {
			s.Inner.set(nil, false)
		}
		return
	}
	raw := func() {
		s.Raw = true
		s.Text = string(v.Indent())
		for _, p := range s.Props {
			p.set(nil, false)
		}
		if s.Inner != nil {
			s.Inner.set(nil, false)
		}
	}
	switch f.Kind {
	case KindString, KindText, KindFormat:
		if v.Type != TypeString {
			raw()
			return
		}
		s.Text = v.Str
		s.keep = v.Str == ""
		s.orig = v
	case KindNumber, KindInteger:
		if v.Type != TypeNumber || (f.Kind == KindInteger && !IsInteger(string(v.Num()))) {
			raw()
			return
		}
		s.Text = string(v.Num())
		s.orig = v
	case KindEnum, KindTitledEnum:
		i := optionIndex(f.Options, v)
		if i < 0 {
			raw()
			return
		}
		s.Index = i
	case KindMultiSelect:
		if v.Type != TypeArray {
			raw()
			return
		}
		seen := make(map[int]bool, len(v.Items))
		for _, it := range v.Items {
			i := optionIndex(f.Options, it)
			if i < 0 || seen[i] {
				raw()
				return
			}
			seen[i] = true
			s.Checked = append(s.Checked, i)
		}
		s.keep = len(v.Items) == 0
	case KindBoolean:
		if v.Type != TypeBool {
			raw()
			return
		}
		s.Bool, s.Touched = v.Bool, true
		s.orig = v
	case KindArray:
		if v.Type != TypeArray {
			raw()
			return
		}
		s.Items = make([]*State, len(v.Items))
		for i, it := range v.Items {
			c := newEmpty(f.Items)
			c.set(it, keepOrder)
			s.Items[i] = c
		}
		s.keep = len(v.Items) == 0
	case KindObject:
		if v.Type != TypeObject {
			raw()
			return
		}
		for _, p := range s.Props {
			p.set(nil, false)
		}
		s.place(v.Members, keepOrder)
		if keepOrder {
			order := make([]string, 0, len(v.Members))
			for _, m := range v.Members {
				order = append(order, m.Key)
			}
			s.order = &order
		}
		s.keep = len(v.Members) == 0
	case KindNullable:
		if v.Type == TypeNull {
			s.Null = true
			s.Inner.set(nil, false)
			return
		}
		s.Inner.set(v, keepOrder)
	default: // KindJSON
		s.Text = string(v.Indent())
	}
}

// place sets each member on the property of its name (looked for first
// just after the property of the member before: members usually come in
// property order); a member of no property, or of one set already, goes
// to Extra. It returns which properties it set.
func (s *State) place(members []Member, keepOrder bool) []bool {
	set := make([]bool, len(s.Props))
	next := 0
	for _, m := range members {
		i := s.nextProp(next, m.Key)
		if i >= 0 {
			next = i + 1
		}
		if i < 0 || set[i] {
			s.Extra = append(s.Extra, m)
		} else {
			set[i] = true
			s.Props[i].set(m.Value, keepOrder)
		}
	}
	return set
}

func (s *State) propIndex(name string) int { return s.Field.propIndex(name) }

// nextProp is propIndex, looking first at the few properties from index
// from on: members that come in schema order (defaults, arguments sent
// by a form) are then found without a lookup.
func (s *State) nextProp(from int, name string) int {
	for i := from; i < len(s.Props) && i < from+8; i++ {
		if s.Props[i].Field.Name == name {
			return i
		}
	}
	return s.propIndex(name)
}

func optionIndex(opts []Option, v *Value) int {
	return slices.IndexFunc(opts, func(o Option) bool { return Equal(o.Value, v) })
}

// SetText sets the text of a text, number or JSON control (or of a Raw
// state), as the user typed it.
func (s *State) SetText(t string) { s.Text, s.keep = t, false }

// Select chooses option i of an enum control (-1 clears it).
func (s *State) Select(i int) {
	if i < -1 || i >= len(s.Field.Options) {
		i = -1
	}
	s.Index, s.Raw = i, false
}

// SetChecked checks or unchecks option i of a multi-select control.
func (s *State) SetChecked(i int, on bool) {
	s.keep = false
	for j, c := range s.Checked {
		if c == i {
			if !on {
				s.Checked = append(s.Checked[:j:j], s.Checked[j+1:]...)
			}
			return
		}
	}
	if on && i >= 0 && i < len(s.Field.Options) {
		s.Checked = append(s.Checked, i)
	}
}

// IsChecked reports whether option i of a multi-select is checked.
func (s *State) IsChecked(i int) bool { return slices.Contains(s.Checked, i) }

// SetBool sets a boolean control; a boolean the user touched is sent even
// when false.
func (s *State) SetBool(b bool) { s.Bool, s.Touched = b, true }

// SetNull switches the null switch of a nullable control.
func (s *State) SetNull(null bool) { s.Null = null }

// Add appends a new item (holding the item defaults) to an array control
// and returns it.
func (s *State) Add() *State {
	c := NewState(s.Field.Items)
	s.Items = append(s.Items, c)
	return c
}

// Remove deletes item i of an array control.
func (s *State) Remove(i int) {
	if i >= 0 && i < len(s.Items) {
		s.Items = append(s.Items[:i:i], s.Items[i+1:]...)
		if len(s.Items) == 0 {
			s.keep = true
		}
	}
}

// Move moves item i of an array control to position j.
func (s *State) Move(i, j int) {
	if i < 0 || j < 0 || i >= len(s.Items) || j >= len(s.Items) || i == j {
		return
	}
	it := s.Items[i]
	s.Items = append(s.Items[:i:i], s.Items[i+1:]...)
	s.Items = append(s.Items[:j], append([]*State{it}, s.Items[j:]...)...)
}

// Value returns the JSON value the state stands for. s is taken as the
// top of the document (an empty root object is {}); below it, empty
// optional fields are left out. Text that is not valid for its control
// (not a number, not JSON) yields no value; Issues reports it.
func (s *State) Value() *Value {
	return s.value(true)
}

// value returns the value of s; top is true for the document root and
// for array items, which always produce a value when they can.
func (s *State) value(top bool) *Value {
	f := s.Field
	required := top || f.Required
	if s.Raw {
		return typed(s.Text)
	}
	switch f.Kind {
	case KindString, KindText, KindFormat:
		if s.Text == "" && !s.keep && !top {
			return nil // empty: left out (Issues reports a required one)
		}
		if s.orig != nil && s.orig.Type == TypeString && s.orig.Str == s.Text {
			return s.orig
		}
		return String(s.Text)
	case KindNumber, KindInteger:
		t := strings.TrimSpace(s.Text)
		if t == "" || !IsNumber(t) || (f.Kind == KindInteger && !IsInteger(t)) {
			return nil
		}
		if s.orig != nil && s.orig.Type == TypeNumber && string(s.orig.Num()) == t {
			return s.orig
		}
		return Number(t)
	case KindEnum, KindTitledEnum:
		if s.Index < 0 || s.Index >= len(f.Options) {
			return nil
		}
		return f.Options[s.Index].Value
	case KindMultiSelect:
		if len(s.Checked) == 0 && !s.keep && !required {
			return nil
		}
		a := &Value{Type: TypeArray, Items: make([]*Value, 0, len(s.Checked))}
		for _, i := range s.Checked {
			a.Items = append(a.Items, f.Options[i].Value)
		}
		return a
	case KindBoolean:
		if !s.Touched && !required {
			return nil
		}
		if s.orig != nil && s.orig.Type == TypeBool && s.orig.Bool == s.Bool {
			return s.orig
		}
		return Bool(s.Bool)
	case KindArray:
		if len(s.Items) == 0 && !s.keep && !required {
			return nil
		}
		a := &Value{Type: TypeArray, Items: make([]*Value, 0, len(s.Items))}
		for _, it := range s.Items {
			v := it.value(true)
			if v == nil {
				v = Null() // an unfinished item; Issues reports it
			}
			a.Items = append(a.Items, v)
		}
		return a
	case KindObject:
		// The members are made on the first one: an empty optional
		// object allocates nothing.
		var members []Member
		add := func(m Member) {
			if members == nil {
				members = make([]Member, 0, len(s.Props)+len(s.Extra))
			}
			members = append(members, m)
		}
		var done []bool // only with a loaded member order
		extra := 0
		var order []string
		if s.order != nil {
			order = *s.order
		}
		if len(order) > 0 {
			done = make([]bool, len(s.Props))
		}
		for _, k := range order {
			if i := s.propIndex(k); i >= 0 && !done[i] {
				done[i] = true
				if v := s.Props[i].value(false); v != nil {
					add(Member{k, v})
				}
				continue
			}
			if extra < len(s.Extra) && s.Extra[extra].Key == k {
				add(s.Extra[extra])
				extra++
			}
		}
		for i, p := range s.Props {
			if done != nil && done[i] {
				continue
			}
			if v := p.value(false); v != nil {
				add(Member{p.Field.Name, v})
			}
		}
		for _, m := range s.Extra[extra:] {
			add(m)
		}
		if len(members) == 0 && !s.keep && !required {
			return nil
		}
		if members == nil {
			members = make([]Member, 0, len(s.Props)+len(s.Extra))
		}
		return &Value{Type: TypeObject, Members: members}
	case KindNullable:
		if s.Null {
			return Null()
		}
		return s.Inner.value(top)
	default: // KindJSON
		return typed(s.Text)
	}
}

// typed parses JSON text the user typed into a Value that encodes back
// to the same tokens (only insignificant white space goes), or nil when
// the text is empty or invalid.
func typed(text string) *Value {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	v, err := parse(text)
	if err != nil {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) == nil {
		v.raw = b.Bytes()
	}
	return v
}

// Find returns the state whose instance location is the JSON pointer path
// (as in Issue.Path), or the deepest state on the way there, and whether
// it matched exactly.
func (s *State) Find(path string) (*State, bool) {
	cur := s
	if path == "" {
		return cur, true
	}
	toks := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for _, tok := range toks {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		for cur.Field.Kind == KindNullable && !cur.Raw {
			cur = cur.Inner
		}
		var next *State
		switch {
		case cur.Raw:
		case cur.Field.Kind == KindObject:
			if i := cur.propIndex(tok); i >= 0 {
				next = cur.Props[i]
			}
		case cur.Field.Kind == KindArray:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(cur.Items) {
				next = cur.Items[i]
			}
		}
		if next == nil {
			return cur, false
		}
		cur = next
	}
	return cur, true
}

// Walk calls fn for s and every state below it with its instance path
// (a JSON pointer), parents first.
func (s *State) Walk(fn func(path string, st *State)) { s.walk("", fn) }

func (s *State) walk(path string, fn func(string, *State)) {
	fn(path, s)
	if s.Raw {
		return
	}
	switch s.Field.Kind {
	case KindObject:
		for _, p := range s.Props {
			p.walk(path+"/"+escapeToken(p.Field.Name), fn)
		}
	case KindArray:
		for i, it := range s.Items {
			it.walk(path+"/"+strconv.Itoa(i), fn)
		}
	case KindNullable:
		s.Inner.walk(path, fn)
	}
}
