package schemacheck

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds the nesting of evaluations (each subschema applied,
// including through $ref, is one level).
const maxDepth = 512

// maxSteps bounds the number of subschema evaluations per validation.
const maxSteps = 1 << 20

// maxErrors bounds the number of failures created per validation
// (including those of anyOf/oneOf branches that are later discarded).
const maxErrors = 10000

// annot collects the annotations unevaluatedProperties and
// unevaluatedItems depend on.
type annot struct {
	props    map[string]bool
	allProps bool
	items    int
	allItems bool
	itemIdx  map[int]bool
}

func (a *annot) merge(b *annot) {
	if a == nil || b == nil {
		return
	}
	if b.allProps {
		a.allProps = true
	}
	for k := range b.props {
		a.prop(k)
	}
	if b.items > a.items {
		a.items = b.items
	}
	if b.allItems {
		a.allItems = true
	}
	for i := range b.itemIdx {
		if a.itemIdx == nil {
			a.itemIdx = map[int]bool{}
		}
		a.itemIdx[i] = true
	}
}

func (a *annot) prop(k string) {
	if a.props == nil {
		a.props = map[string]bool{}
	}
	a.props[k] = true
}

type frame struct {
	s     *schema
	depth int
}

type evaluator struct {
	inst  []string
	stack []frame
	scope []*resource
	steps int
	nerrs int
	fatal error
}

// newAnn returns a fresh annotation collector when the caller wants one.
func newAnn(want *annot) *annot {
	if want == nil {
		return nil
	}
	return &annot{}
}

func (e *evaluator) errorf(kwPath, kw string, format string, args ...any) Error {
	e.nerrs++
	if e.nerrs > maxErrors && e.fatal == nil {
		e.fatal = fmt.Errorf("%w: more than %d failures", ErrLimit, maxErrors)
	}
	loc := make([]string, len(e.inst))
	copy(loc, e.inst)
	return Error{InstanceLocation: loc, KeywordLocation: kwPath, Keyword: kw, Message: fmt.Sprintf(format, args...)}
}

// errList gathers one schema's errors with the document position of the
// keyword that produced them, so they can be put in document order.
type errList struct {
	s      *schema
	errs   []Error
	pos    []int
	sorted bool
}

func (l *errList) add(kw string, es ...Error) {
	if len(es) == 0 {
		return
	}
	p := l.s.kwPos[kw]
	if n := len(l.pos); n > 0 && l.pos[n-1] > p {
		l.sorted = false
	}
	for range es {
		l.pos = append(l.pos, p)
	}
	l.errs = append(l.errs, es...)
}

func (l *errList) result() []Error {
	if !l.sorted && len(l.errs) > 1 {
		idx := make([]int, len(l.errs))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return l.pos[idx[a]] < l.pos[idx[b]] })
		out := make([]Error, len(l.errs))
		for i, j := range idx {
			out[i] = l.errs[j]
		}
		return out
	}
	return l.errs
}

func (e *evaluator) push(tok string) { e.inst = append(e.inst, tok) }
func (e *evaluator) pop()            { e.inst = e.inst[:len(e.inst)-1] }

// eval applies s to v. kwPath is the keyword location of s; ann, when
// not nil, receives the annotations for unevaluated* keywords.
func (e *evaluator) eval(s *schema, v any, kwPath string, ann *annot) []Error {
	if e.fatal != nil {
		return nil
	}
	if s.isBool {
		if s.boolVal {
			return nil
		}
		return []Error{e.errorf(kwPath, "false", "not allowed")}
	}
	if len(e.stack) >= maxDepth {
		e.fatal = fmt.Errorf("%w: nesting deeper than %d evaluations at %s", ErrLimit, maxDepth, kwPath)
		return nil
	}
	e.steps++
	if e.steps > maxSteps {
		e.fatal = fmt.Errorf("%w: more than %d evaluations", ErrLimit, maxSteps)
		return nil
	}
	d := len(e.inst)
	for i := len(e.stack) - 1; i >= 0 && e.stack[i].depth == d; i-- {
		if e.stack[i].s == s {
			e.fatal = fmt.Errorf("%w: $ref cycle at %s evaluates %s again without consuming the instance", ErrSchema, kwPath, s.key.d.url+"#"+s.key.ptr)
			return nil
		}
	}
	e.stack = append(e.stack, frame{s, d})
	defer func() { e.stack = e.stack[:len(e.stack)-1] }()
	if n := len(e.scope); n == 0 || e.scope[n-1] != s.res {
		e.scope = append(e.scope, s.res)
		defer func() { e.scope = e.scope[:len(e.scope)-1] }()
	}
	if s.needAnn && ann == nil {
		ann = &annot{}
	}
	l := &errList{s: s, sorted: true}

	// References.
	if s.ref != nil {
		sub := newAnn(ann)
		es := e.eval(s.ref, v, kwPath+"/$ref", sub)
		ann.merge(sub)
		l.add("$ref", es...)
	}
	if s.recRef != nil {
		t := s.recRef
		if t.res.recursive {
			for i := len(e.scope) - 1; i >= 0; i-- {
				if e.scope[i].recursive && e.scope[i].root != nil {
					t = e.scope[i].root
				}
			}
		}
		sub := newAnn(ann)
		es := e.eval(t, v, kwPath+"/$recursiveRef", sub)
		ann.merge(sub)
		l.add("$recursiveRef", es...)
	}
	if s.dynRef != nil {
		t := s.dynRef
		if s.dynName != "" {
			for i := len(e.scope) - 1; i >= 0; i-- {
				if x, ok := e.scope[i].dyn[s.dynName]; ok && x != nil {
					t = x
				}
			}
		}
		sub := newAnn(ann)
		es := e.eval(t, v, kwPath+"/$dynamicRef", sub)
		ann.merge(sub)
		l.add("$dynamicRef", es...)
	}
	if e.fatal != nil {
		return nil
	}

	// Generic keywords.
	if len(s.types) > 0 && !typeMatches(s.types, v) {
		l.add("type", e.errorf(kwPath+"/type", "type", "must be %s, not %s", strings.Join(s.types, " or "), typeName(v)))
	}
	if s.hasEnum {
		found := false
		for _, x := range s.enum {
			if equal(x, v) {
				found = true
				break
			}
		}
		if !found {
			l.add("enum", e.errorf(kwPath+"/enum", "enum", "value must be one of %s", renderList(s.enum)))
		}
	}
	if s.hasConst && !equal(s.constV, v) {
		l.add("const", e.errorf(kwPath+"/const", "const", "value must be %s", render(s.constV)))
	}

	switch x := v.(type) {
	case string:
		e.evalString(s, x, kwPath, l)
	case []any:
		e.evalArray(s, x, kwPath, ann, l)
	case map[string]any:
		e.evalObject(s, x, kwPath, ann, l)
	case nil, bool:
	default:
		if len(s.numChecks) > 0 {
			e.evalNumber(s, v, kwPath, l)
		}
	}

	// In-place applicators.
	for i, b := range s.allOf {
		sub := newAnn(ann)
		es := e.eval(b, v, kwPath+"/allOf/"+strconv.Itoa(i), sub)
		ann.merge(sub)
		l.add("allOf", es...)
	}
	if len(s.anyOf) > 0 {
		var all []Error
		ok := false
		for i, b := range s.anyOf {
			sub := newAnn(ann)
			es := e.eval(b, v, kwPath+"/anyOf/"+strconv.Itoa(i), sub)
			if len(es) == 0 {
				ok = true
				ann.merge(sub)
				if ann == nil {
					break
				}
				continue
			}
			if !ok {
				all = append(all, es...)
			}
		}
		if !ok && e.fatal == nil {
			if s.anyChoices != nil {
				l.add("anyOf", e.choiceErr(kwPath+"/anyOf", "anyOf", s.anyChoices))
			} else {
				l.add("anyOf", all...)
			}
		}
	}
	if len(s.oneOf) > 0 {
		var all []Error
		matched := 0
		var first *annot
		for i, b := range s.oneOf {
			sub := newAnn(ann)
			es := e.eval(b, v, kwPath+"/oneOf/"+strconv.Itoa(i), sub)
			if len(es) == 0 {
				matched++
				if first == nil {
					first = sub
				}
				continue
			}
			if matched == 0 {
				all = append(all, es...)
			}
		}
		switch {
		case e.fatal != nil:
		case matched == 0 && s.oneChoices != nil:
			l.add("oneOf", e.choiceErr(kwPath+"/oneOf", "oneOf", s.oneChoices))
		case matched == 0:
			l.add("oneOf", all...)
		case matched > 1:
			l.add("oneOf", e.errorf(kwPath+"/oneOf", "oneOf", "must match exactly one schema, but matches %d", matched))
		default:
			ann.merge(first)
		}
	}
	if s.not != nil {
		if es := e.eval(s.not, v, kwPath+"/not", nil); len(es) == 0 && e.fatal == nil {
			l.add("not", e.errorf(kwPath+"/not", "not", "must not match the schema"))
		}
	}
	if s.ifS != nil {
		sub := newAnn(ann)
		if es := e.eval(s.ifS, v, kwPath+"/if", sub); len(es) == 0 {
			ann.merge(sub)
			if s.thenS != nil {
				sub := newAnn(ann)
				es := e.eval(s.thenS, v, kwPath+"/then", sub)
				ann.merge(sub)
				l.add("then", es...)
			}
		} else if s.elseS != nil {
			sub := newAnn(ann)
			es := e.eval(s.elseS, v, kwPath+"/else", sub)
			ann.merge(sub)
			l.add("else", es...)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, ds := range s.depSchemas {
			if _, present := obj[ds.name]; !present {
				continue
			}
			sub := newAnn(ann)
			es := e.eval(ds.s, v, kwPath+"/"+s.depSchemaKw+"/"+escapeToken(ds.name), sub)
			ann.merge(sub)
			l.add(s.depSchemaKw, es...)
		}
		if s.uneProps != nil {
			e.evalUnevaluatedProps(s, obj, kwPath, ann, l)
		}
	}
	if arr, ok := v.([]any); ok && s.uneItems != nil {
		e.evalUnevaluatedItems(s, arr, kwPath, ann, l)
	}
	if e.fatal != nil {
		return nil
	}
	return l.result()
}

func (e *evaluator) choiceErr(kwPath, kw string, choices []json.RawMessage) Error {
	parts := make([]string, len(choices))
	for i, c := range choices {
		parts[i] = string(c)
	}
	err := e.errorf(kwPath, kw, "value must be one of %s", strings.Join(parts, ", "))
	err.Choices = append([]json.RawMessage(nil), choices...)
	return err
}

func typeMatches(types []string, v any) bool {
	tn := typeName(v)
	for _, t := range types {
		if t == tn || (t == "integer" && tn == "number" && isInteger(v)) {
			return true
		}
	}
	return false
}

func (e *evaluator) evalNumber(s *schema, v any, kwPath string, l *errList) {
	r, ok := toRat(v)
	if !ok {
		e.fatal = fmt.Errorf("%w: invalid number %v", ErrInstance, v)
		return
	}
	for _, c := range s.numChecks {
		var bad bool
		var msg string
		switch c.op {
		case 'm':
			q := new(big.Rat).Quo(r, c.r)
			bad, msg = !q.IsInt(), "must be a multiple of "+c.lit
		case 'l':
			bad, msg = r.Cmp(c.r) > 0, "must be <= "+c.lit
		case '<':
			bad, msg = r.Cmp(c.r) >= 0, "must be < "+c.lit
		case 'g':
			bad, msg = r.Cmp(c.r) < 0, "must be >= "+c.lit
		case '>':
			bad, msg = r.Cmp(c.r) <= 0, "must be > "+c.lit
		}
		if bad {
			l.add(c.kw, e.errorf(kwPath+"/"+c.kw, c.kw, "%s", msg))
		}
	}
}

func (e *evaluator) evalString(s *schema, x string, kwPath string, l *errList) {
	if s.minLength >= 0 || s.maxLength >= 0 {
		n := utf8.RuneCountInString(x)
		if s.minLength >= 0 && n < s.minLength {
			l.add("minLength", e.errorf(kwPath+"/minLength", "minLength", "must be at least %d %s", s.minLength, plural(s.minLength, "character")))
		}
		if s.maxLength >= 0 && n > s.maxLength {
			l.add("maxLength", e.errorf(kwPath+"/maxLength", "maxLength", "must be at most %d %s", s.maxLength, plural(s.maxLength, "character")))
		}
	}
	if s.pattern != nil && !s.pattern.MatchString(x) {
		l.add("pattern", e.errorf(kwPath+"/pattern", "pattern", "must match pattern %s", s.patternSrc))
	}
	if s.formatFn != nil && !s.formatFn(x) {
		l.add("format", e.errorf(kwPath+"/format", "format", "must be a valid %s", s.format))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (e *evaluator) evalArray(s *schema, arr []any, kwPath string, ann *annot, l *errList) {
	if s.hasItems {
		it := &s.items
		n := min(len(it.prefix), len(arr))
		for i := 0; i < n; i++ {
			e.push(strconv.Itoa(i))
			l.add(it.prefixKw, e.eval(it.prefix[i], arr[i], kwPath+"/"+it.prefixKw+"/"+strconv.Itoa(i), nil)...)
			e.pop()
		}
		if ann != nil && n > ann.items {
			ann.items = n
		}
		if it.rest != nil && len(arr) > len(it.prefix) {
			if it.rest.isBool && !it.rest.boolVal {
				l.add(it.restKw, e.errorf(kwPath+"/"+it.restKw, it.restKw, "must have at most %d %s", len(it.prefix), plural(len(it.prefix), "item")))
			} else {
				for i := len(it.prefix); i < len(arr); i++ {
					e.push(strconv.Itoa(i))
					l.add(it.restKw, e.eval(it.rest, arr[i], kwPath+"/"+it.restKw, nil)...)
					e.pop()
				}
			}
			if ann != nil {
				ann.allItems = true
			}
		}
	}
	if s.contains != nil {
		matched := 0
		for i, x := range arr {
			e.push(strconv.Itoa(i))
			es := e.eval(s.contains, x, kwPath+"/contains", nil)
			e.pop()
			if len(es) == 0 {
				matched++
				if ann != nil && s.draft >= Draft2020 {
					if ann.itemIdx == nil {
						ann.itemIdx = map[int]bool{}
					}
					ann.itemIdx[i] = true
				}
			}
		}
		if matched < s.minContains {
			kw := "contains"
			if s.minContainsSet {
				kw = "minContains"
			}
			l.add(kw, e.errorf(kwPath+"/"+kw, kw, "must contain at least %d matching %s", s.minContains, plural(s.minContains, "item")))
		}
		if s.maxContains >= 0 && matched > s.maxContains {
			l.add("maxContains", e.errorf(kwPath+"/maxContains", "maxContains", "must contain at most %d matching %s", s.maxContains, plural(s.maxContains, "item")))
		}
	}
	if s.minItems >= 0 && len(arr) < s.minItems {
		l.add("minItems", e.errorf(kwPath+"/minItems", "minItems", "must have at least %d %s", s.minItems, plural(s.minItems, "item")))
	}
	if s.maxItems >= 0 && len(arr) > s.maxItems {
		l.add("maxItems", e.errorf(kwPath+"/maxItems", "maxItems", "must have at most %d %s", s.maxItems, plural(s.maxItems, "item")))
	}
	if s.uniqueItems && len(arr) > 1 {
		seen := make(map[string]int, len(arr))
		var sb strings.Builder
		for j, x := range arr {
			sb.Reset()
			canonical(&sb, x)
			k := sb.String()
			if i, dup := seen[k]; dup {
				l.add("uniqueItems", e.errorf(kwPath+"/uniqueItems", "uniqueItems", "items at %d and %d must not be equal", i, j))
				break
			}
			seen[k] = j
		}
	}
}

func (e *evaluator) evalObject(s *schema, obj map[string]any, kwPath string, ann *annot, l *errList) {
	for _, p := range s.props {
		x, ok := obj[p.name]
		if !ok {
			continue
		}
		e.push(p.name)
		l.add("properties", e.eval(p.s, x, kwPath+"/properties/"+escapeToken(p.name), nil)...)
		e.pop()
		if ann != nil {
			ann.prop(p.name)
		}
	}
	var keys []string
	if len(s.patProps) > 0 || s.addProps != nil || s.propertyNames != nil {
		keys = sortedKeys(obj)
	}
	var extra []string
	for _, k := range keys {
		matched := false
		for _, pp := range s.patProps {
			if !pp.re.MatchString(k) {
				continue
			}
			matched = true
			e.push(k)
			l.add("patternProperties", e.eval(pp.s, obj[k], kwPath+"/patternProperties/"+escapeToken(pp.src), nil)...)
			e.pop()
		}
		if matched {
			if ann != nil {
				ann.prop(k)
			}
			continue
		}
		if s.addProps == nil {
			continue
		}
		if _, inProps := s.propIdx[k]; inProps {
			continue
		}
		if ann != nil {
			ann.prop(k)
		}
		if s.addProps.isBool && !s.addProps.boolVal {
			extra = append(extra, k)
			continue
		}
		e.push(k)
		l.add("additionalProperties", e.eval(s.addProps, obj[k], kwPath+"/additionalProperties", nil)...)
		e.pop()
	}
	if len(extra) > 0 {
		l.add("additionalProperties", e.errorf(kwPath+"/additionalProperties", "additionalProperties",
			"additional %s not allowed: %s", propWord(len(extra)), strings.Join(extra, ", ")))
	}
	if len(s.required) > 0 {
		var missing []string
		for _, r := range s.required {
			if _, ok := obj[r]; !ok {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			err := e.errorf(kwPath+"/required", "required", "%s", missingMsg(missing))
			err.Missing = missing
			l.add("required", err)
		}
	}
	if s.minProps >= 0 && len(obj) < s.minProps {
		l.add("minProperties", e.errorf(kwPath+"/minProperties", "minProperties", "must have at least %d %s", s.minProps, propWord(s.minProps)))
	}
	if s.maxProps >= 0 && len(obj) > s.maxProps {
		l.add("maxProperties", e.errorf(kwPath+"/maxProperties", "maxProperties", "must have at most %d %s", s.maxProps, propWord(s.maxProps)))
	}
	if s.propertyNames != nil {
		for _, k := range keys {
			e.push(k)
			es := e.eval(s.propertyNames, k, kwPath+"/propertyNames", nil)
			e.pop()
			for i := range es {
				es[i].Message = "property name " + strings.TrimPrefix(es[i].Message, "value ")
			}
			l.add("propertyNames", es...)
		}
	}
	for _, dr := range s.depReqs {
		if _, ok := obj[dr.prop]; !ok {
			continue
		}
		var missing []string
		for _, r := range dr.req {
			if _, ok := obj[r]; !ok {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			err := e.errorf(kwPath+"/"+s.depReqKw+"/"+escapeToken(dr.prop), s.depReqKw, "%s (required by %s)", missingMsg(missing), dr.prop)
			err.Missing = missing
			l.add(s.depReqKw, err)
		}
	}
}

func propWord(n int) string {
	if n == 1 {
		return "property"
	}
	return "properties"
}

func missingMsg(missing []string) string {
	if len(missing) == 1 {
		return "missing property: " + missing[0]
	}
	return "missing properties: " + strings.Join(missing, ", ")
}

func (e *evaluator) evalUnevaluatedProps(s *schema, obj map[string]any, kwPath string, ann *annot, l *errList) {
	if ann.allProps {
		return
	}
	var extra []string
	for _, k := range sortedKeys(obj) {
		if ann.props[k] {
			continue
		}
		if s.uneProps.isBool && !s.uneProps.boolVal {
			extra = append(extra, k)
			continue
		}
		e.push(k)
		l.add("unevaluatedProperties", e.eval(s.uneProps, obj[k], kwPath+"/unevaluatedProperties", nil)...)
		e.pop()
	}
	if len(extra) > 0 {
		l.add("unevaluatedProperties", e.errorf(kwPath+"/unevaluatedProperties", "unevaluatedProperties",
			"unevaluated %s not allowed: %s", propWord(len(extra)), strings.Join(extra, ", ")))
	}
	ann.allProps = true
}

func (e *evaluator) evalUnevaluatedItems(s *schema, arr []any, kwPath string, ann *annot, l *errList) {
	if ann.allItems {
		return
	}
	var extra []string
	for i := ann.items; i < len(arr); i++ {
		if ann.itemIdx[i] {
			continue
		}
		if s.uneItems.isBool && !s.uneItems.boolVal {
			extra = append(extra, strconv.Itoa(i))
			continue
		}
		e.push(strconv.Itoa(i))
		l.add("unevaluatedItems", e.eval(s.uneItems, arr[i], kwPath+"/unevaluatedItems", nil)...)
		e.pop()
	}
	if len(extra) > 0 {
		l.add("unevaluatedItems", e.errorf(kwPath+"/unevaluatedItems", "unevaluatedItems",
			"unevaluated items not allowed at %s", strings.Join(extra, ", ")))
	}
	ann.allItems = true
}
