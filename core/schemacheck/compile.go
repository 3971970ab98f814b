package schemacheck

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// defaultBase is the base URI of a root schema that has no $id.
const defaultBase = "schemacheck:///root.json"

// doc is one parsed JSON document (the root schema or a resource).
type doc struct {
	url   string
	root  any
	order []string // indexed schema locations, in the order found
}

// locKey names a location inside a document by JSON pointer (escaped).
type locKey struct {
	d   *doc
	ptr string
}

// resInfo is a schema resource: a document root or a subschema with $id.
type resInfo struct {
	url       string
	at        locKey
	anchors   map[string]locKey
	dyn       map[string]locKey
	recursive bool
	rt        *resource
}

// locInfo is what indexing learnt about one schema location.
type locInfo struct {
	res   *resInfo
	draft Draft
	node  any
}

// resource is the run-time view of a schema resource, for dynamic scope.
type resource struct {
	root      *schema
	dyn       map[string]*schema
	recursive bool
}

type compiler struct {
	opts      Options
	resources map[string][]byte
	docs      []*doc
	res       map[string]*resInfo
	locs      map[locKey]*locInfo
	schemas   map[locKey]*schema
}

func newCompiler(opts Options) *compiler {
	if opts.Draft == 0 {
		opts.Draft = Draft2020
	}
	c := &compiler{
		opts:      opts,
		resources: map[string][]byte{},
		res:       map[string]*resInfo{},
		locs:      map[locKey]*locInfo{},
		schemas:   map[locKey]*schema{},
	}
	for k, v := range opts.Resources {
		base, _ := splitFrag(k)
		c.resources[base] = v
	}
	return c
}

func schemaErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrSchema}, args...)...)
}

// draftFromURL maps a $schema value to a draft.
func draftFromURL(s string) (Draft, bool) {
	s = strings.TrimSuffix(s, "#")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
	switch s {
	case "json-schema.org/draft-04/schema":
		return Draft4, true
	case "json-schema.org/draft-06/schema":
		return Draft6, true
	case "json-schema.org/draft-07/schema":
		return Draft7, true
	case "json-schema.org/draft/2019-09/schema":
		return Draft2019, true
	case "json-schema.org/draft/2020-12/schema":
		return Draft2020, true
	}
	return 0, false
}

func splitFrag(u string) (string, string) {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i], u[i+1:]
	}
	return u, ""
}

// resolveURL resolves ref against base.
func resolveURL(base, ref string) (string, error) {
	if strings.HasPrefix(ref, "#") {
		b, _ := splitFrag(base)
		return b + ref, nil
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", schemaErr("invalid reference %q: %v", ref, err)
	}
	if r.IsAbs() {
		return ref, nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", schemaErr("invalid base %q: %v", base, err)
	}
	if b.Opaque != "" {
		return "", schemaErr("cannot resolve %q against %q", ref, base)
	}
	return b.ResolveReference(r).String(), nil
}

func (c *compiler) compileRoot(raw []byte) (*schema, error) {
	d, err := c.loadDoc(defaultBase, raw)
	if err != nil {
		return nil, err
	}
	if err := c.compileAll(); err != nil {
		return nil, err
	}
	return c.schemas[locKey{d, ""}], nil
}

// loadDoc parses and indexes a document.
func (c *compiler) loadDoc(u string, raw []byte) (*doc, error) {
	v, err := parseSchemaJSON(raw)
	if err != nil {
		return nil, schemaErr("%s: %v", u, err)
	}
	d := &doc{url: u, root: v}
	c.docs = append(c.docs, d)
	if err := c.index(d, "", v, nil, c.opts.Draft); err != nil {
		return nil, err
	}
	return d, nil
}

// compileAll compiles every indexed location of every loaded document,
// including documents loaded while doing so, then links resources.
func (c *compiler) compileAll() error {
	// Compiling can index more locations (a $ref into a place no keyword
	// leads to) in any document, so go round until nothing is new.
	done := map[*doc]int{}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(c.docs); i++ {
			d := c.docs[i]
			for j := done[d]; j < len(d.order); j++ {
				if _, err := c.compileAt(locKey{d, d.order[j]}); err != nil {
					return err
				}
				done[d] = j + 1
				changed = true
			}
		}
	}
	for _, ri := range c.res {
		rt := c.runtime(ri)
		rt.recursive = ri.recursive
		rt.root = c.schemas[ri.at]
		for name, k := range ri.dyn {
			rt.dyn[name] = c.schemas[k]
		}
	}
	return nil
}

func (c *compiler) runtime(ri *resInfo) *resource {
	if ri.rt == nil {
		ri.rt = &resource{dyn: map[string]*schema{}, recursive: ri.recursive}
	}
	return ri.rt
}

// validAnchor reports whether s is a valid $anchor name (2020-12 syntax).
func validAnchor(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z', r == '_':
		case i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// index walks a schema, recording locations, resources and anchors.
func (c *compiler) index(d *doc, ptr string, node any, res *resInfo, draft Draft) error {
	key := locKey{d, ptr}
	if _, ok := c.locs[key]; ok {
		return nil
	}
	isRoot := res == nil
	if isRoot {
		res = &resInfo{url: d.url, at: key, anchors: map[string]locKey{}, dyn: map[string]locKey{}}
		if old, ok := c.res[d.url]; ok && old.at != key {
			return schemaErr("duplicate resource %s", d.url)
		}
		c.res[d.url] = res
	}
	o, ok := node.(*obj)
	if !ok {
		if _, ok := node.(bool); !ok {
			return schemaErr("%s#%s: a schema must be an object or a boolean, not %s", d.url, ptr, typeName(plain(node)))
		}
		c.locs[key] = &locInfo{res: res, draft: draft, node: node}
		d.order = append(d.order, ptr)
		return nil
	}
	_, hasID := o.m["$id"]
	if _, ok := o.m["id"]; ok {
		hasID = true
	}
	if sv, ok := o.m["$schema"]; ok && (isRoot || hasID) {
		s, ok := sv.(string)
		if !ok {
			return schemaErr("%s#%s: $schema must be a string", d.url, ptr)
		}
		if dd, ok := draftFromURL(s); ok {
			draft = dd
		}
	}
	idKey := "$id"
	if draft == Draft4 {
		idKey = "id"
	}
	_, hasRef := o.m["$ref"]
	if idv, ok := o.m[idKey]; ok && !(draft <= Draft7 && hasRef) {
		ids, ok := idv.(string)
		if !ok {
			if draft != Draft4 {
				return schemaErr("%s#%s: %s must be a string", d.url, ptr, idKey)
			}
		} else {
			u, err := resolveURL(res.url, ids)
			if err != nil {
				return err
			}
			base, frag := splitFrag(u)
			if draft >= Draft2019 && frag != "" {
				return schemaErr("%s#%s: $id must not have a fragment: %q", d.url, ptr, ids)
			}
			if !strings.HasPrefix(ids, "#") && base != res.url {
				if isRoot {
					if old, ok := c.res[base]; ok && old != res {
						return schemaErr("duplicate resource %s", base)
					}
					res.url = base
					c.res[base] = res
				} else {
					if old, ok := c.res[base]; ok && old.at != key {
						return schemaErr("duplicate resource %s", base)
					}
					res = &resInfo{url: base, at: key, anchors: map[string]locKey{}, dyn: map[string]locKey{}}
					c.res[base] = res
				}
			}
			if frag != "" {
				if err := addAnchor(res.anchors, frag, key); err != nil {
					return err
				}
			}
		}
	}
	if draft >= Draft2019 {
		if av, ok := o.m["$anchor"]; ok {
			a, ok := av.(string)
			if !ok || !validAnchor(a) {
				return schemaErr("%s#%s: invalid $anchor %v", d.url, ptr, render(plain(av)))
			}
			if err := addAnchor(res.anchors, a, key); err != nil {
				return err
			}
		}
	}
	if draft >= Draft2020 {
		if av, ok := o.m["$dynamicAnchor"]; ok {
			a, ok := av.(string)
			if !ok || !validAnchor(a) {
				return schemaErr("%s#%s: invalid $dynamicAnchor %v", d.url, ptr, render(plain(av)))
			}
			if err := addAnchor(res.anchors, a, key); err != nil {
				return err
			}
			res.dyn[a] = key
		}
	}
	if draft == Draft2019 {
		if b, ok := o.m["$recursiveAnchor"].(bool); ok && b && res.at == key {
			res.recursive = true
		}
	}
	c.locs[key] = &locInfo{res: res, draft: draft, node: node}
	d.order = append(d.order, ptr)

	sub := func(kw string, v any) error {
		return c.index(d, ptr+"/"+escapeToken(kw), v, res, draft)
	}
	subMap := func(kw string, schemasOnly bool) error {
		m, ok := o.m[kw].(*obj)
		if !ok {
			if _, present := o.m[kw]; present {
				return schemaErr("%s#%s/%s must be an object", d.url, ptr, kw)
			}
			return nil
		}
		for _, k := range m.keys {
			v := m.m[k]
			if schemasOnly {
				if _, isArr := v.([]any); isArr {
					continue
				}
			}
			if err := c.index(d, ptr+"/"+escapeToken(kw)+"/"+escapeToken(k), v, res, draft); err != nil {
				return err
			}
		}
		return nil
	}
	subArr := func(kw string) error {
		arr, ok := o.m[kw].([]any)
		if !ok {
			return schemaErr("%s#%s/%s must be an array", d.url, ptr, kw)
		}
		for i, v := range arr {
			if err := c.index(d, ptr+"/"+kw+"/"+strconv.Itoa(i), v, res, draft); err != nil {
				return err
			}
		}
		return nil
	}
	singles := []string{"additionalProperties", "not"}
	arrays := []string{"allOf", "anyOf", "oneOf"}
	maps := []string{"properties", "patternProperties", "definitions"}
	if draft >= Draft6 {
		singles = append(singles, "contains", "propertyNames")
	}
	if draft >= Draft7 {
		singles = append(singles, "if", "then", "else")
	}
	if draft >= Draft2019 {
		singles = append(singles, "unevaluatedProperties", "unevaluatedItems")
		maps = append(maps, "$defs", "dependentSchemas")
	}
	if draft <= Draft2019 {
		singles = append(singles, "additionalItems")
	}
	if draft >= Draft2020 {
		arrays = append(arrays, "prefixItems")
	}
	for _, kw := range o.keys {
		v := o.m[kw]
		switch {
		case contains(singles, kw):
			if err := sub(kw, v); err != nil {
				return err
			}
		case contains(arrays, kw):
			if err := subArr(kw); err != nil {
				return err
			}
		case contains(maps, kw):
			if err := subMap(kw, false); err != nil {
				return err
			}
		case kw == "dependencies" && draft <= Draft7:
			if err := subMap(kw, true); err != nil {
				return err
			}
		case kw == "items":
			if _, isArr := v.([]any); isArr && draft <= Draft2019 {
				if err := subArr(kw); err != nil {
					return err
				}
			} else if err := sub(kw, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func addAnchor(m map[string]locKey, name string, key locKey) error {
	if old, ok := m[name]; ok && old != key {
		return schemaErr("duplicate anchor %q", name)
	}
	m[name] = key
	return nil
}

// resolveRef finds the location a reference (already absolute) points to.
func (c *compiler) resolveRef(u string) (locKey, error) {
	base, frag := splitFrag(u)
	ri, ok := c.res[base]
	if !ok {
		raw, ok := c.resources[base]
		if !ok {
			return locKey{}, schemaErr("unresolvable $ref %q", u)
		}
		d, err := c.loadDoc(base, raw)
		if err != nil {
			return locKey{}, err
		}
		if ri, ok = c.res[base]; !ok {
			return locKey{}, schemaErr("unresolvable $ref %q", u)
		}
		_ = d
	}
	if frag == "" {
		return ri.at, nil
	}
	f, err := url.PathUnescape(frag)
	if err != nil {
		return locKey{}, schemaErr("invalid fragment in $ref %q", u)
	}
	if !strings.HasPrefix(f, "/") {
		k, ok := ri.anchors[f]
		if !ok {
			return locKey{}, schemaErr("unresolvable $ref %q: no anchor %q", u, f)
		}
		return k, nil
	}
	node := c.locs[ri.at].node
	ptr := ri.at.ptr
	for _, tok := range strings.Split(f[1:], "/") {
		t, ok := unescapeToken(tok)
		if !ok {
			return locKey{}, schemaErr("invalid JSON pointer in $ref %q", u)
		}
		switch n := node.(type) {
		case *obj:
			v, ok := n.m[t]
			if !ok {
				return locKey{}, schemaErr("unresolvable $ref %q", u)
			}
			node = v
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(n) || strconv.Itoa(i) != t {
				return locKey{}, schemaErr("unresolvable $ref %q", u)
			}
			node = n[i]
		default:
			return locKey{}, schemaErr("unresolvable $ref %q", u)
		}
		ptr += "/" + escapeToken(t)
	}
	key := locKey{ri.at.d, ptr}
	if _, ok := c.locs[key]; !ok {
		// A location no known keyword leads to (such as "#/dummy"):
		// index it with the resource and draft of its nearest known
		// ancestor.
		anc := ptr
		var li *locInfo
		for li == nil {
			i := strings.LastIndexByte(anc, '/')
			if i < 0 {
				li = c.locs[locKey{ri.at.d, ""}]
				break
			}
			anc = anc[:i]
			li = c.locs[locKey{ri.at.d, anc}]
		}
		if li == nil {
			return locKey{}, schemaErr("unresolvable $ref %q", u)
		}
		if err := c.index(ri.at.d, ptr, node, li.res, li.draft); err != nil {
			return locKey{}, err
		}
	}
	return key, nil
}

type propSchema struct {
	name string
	s    *schema
}

type patSchema struct {
	re  *regexp.Regexp
	src string
	s   *schema
}

type depReq struct {
	prop string
	req  []string
}

type itemsSpec struct {
	prefix   []*schema
	prefixKw string
	rest     *schema
	restKw   string
}

// schema is one compiled schema location.
type schema struct {
	isBool  bool
	boolVal bool
	key     locKey
	draft   Draft
	res     *resource

	ref     *schema
	recRef  *schema
	dynRef  *schema
	dynName string

	types     []string
	enum      []any
	hasEnum   bool
	constV    any
	hasConst  bool
	numChecks []numCheck

	minLength, maxLength int
	pattern              *regexp.Regexp
	patternSrc           string
	format               string
	formatFn             func(string) bool

	items                    itemsSpec
	hasItems                 bool
	contains                 *schema
	minContains, maxContains int
	minContainsSet           bool
	minItems, maxItems       int
	uniqueItems              bool

	props                  []propSchema
	propIdx                map[string]*schema
	patProps               []patSchema
	addProps               *schema
	required               []string
	minProps, maxProps     int
	propertyNames          *schema
	depReqs                []depReq
	depReqKw               string
	depSchemas             []propSchema
	depSchemaKw            string
	allOf, anyOf, oneOf    []*schema
	anyChoices, oneChoices []json.RawMessage
	not                    *schema
	ifS, thenS, elseS      *schema
	uneProps, uneItems     *schema
	needAnn                bool

	kwPos map[string]int
}

type numCheck struct {
	kw  string
	op  byte // 'm' multipleOf, '<' max exclusive, 'l' max inclusive, '>' min exclusive, 'g' min inclusive
	r   *big.Rat
	lit string
}

func (c *compiler) compileAt(key locKey) (*schema, error) {
	if s, ok := c.schemas[key]; ok {
		return s, nil
	}
	li, ok := c.locs[key]
	if !ok {
		return nil, schemaErr("internal: location %s#%s not indexed", key.d.url, key.ptr)
	}
	s := &schema{key: key, draft: li.draft, res: c.runtime(li.res),
		minLength: -1, maxLength: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1,
		minContains: 1, maxContains: -1}
	c.schemas[key] = s
	if b, ok := li.node.(bool); ok {
		s.isBool, s.boolVal = true, b
		return s, nil
	}
	o := li.node.(*obj)
	if err := c.compileObj(s, key, li, o); err != nil {
		return nil, err
	}
	return s, nil
}

func (c *compiler) compileObj(s *schema, key locKey, li *locInfo, o *obj) error {
	draft := li.draft
	where := func(kw string) string { return key.d.url + "#" + key.ptr + "/" + kw }
	bad := func(kw, why string) error { return schemaErr("%s: %s", where(kw), why) }
	child := func(kw string) (*schema, error) {
		return c.compileAt(locKey{key.d, key.ptr + "/" + escapeToken(kw)})
	}
	childAt := func(parts ...string) (*schema, error) {
		p := key.ptr
		for _, x := range parts {
			p += "/" + escapeToken(x)
		}
		return c.compileAt(locKey{key.d, p})
	}
	s.kwPos = make(map[string]int, len(o.keys))
	for i, k := range o.keys {
		s.kwPos[k] = i
	}
	ref := func(kw string) (*schema, string, error) {
		rv, ok := o.m[kw].(string)
		if !ok {
			return nil, "", bad(kw, "must be a string")
		}
		u, err := resolveURL(li.res.url, rv)
		if err != nil {
			return nil, "", err
		}
		tk, err := c.resolveRef(u)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", where(kw), err)
		}
		t, err := c.compileAt(tk)
		return t, u, err
	}
	if _, ok := o.m["$ref"]; ok {
		t, _, err := ref("$ref")
		if err != nil {
			return err
		}
		s.ref = t
		if draft <= Draft7 {
			return nil
		}
	}
	if draft == Draft2019 {
		if _, ok := o.m["$recursiveRef"]; ok {
			if rv, _ := o.m["$recursiveRef"].(string); rv != "#" {
				return bad("$recursiveRef", `must be "#"`)
			}
			t, _, err := ref("$recursiveRef")
			if err != nil {
				return err
			}
			s.recRef = t
		}
	}
	if draft >= Draft2020 {
		if _, ok := o.m["$dynamicRef"]; ok {
			t, u, err := ref("$dynamicRef")
			if err != nil {
				return err
			}
			s.dynRef = t
			if _, frag := splitFrag(u); frag != "" && !strings.HasPrefix(frag, "/") {
				if tn, ok := c.locs[t.key]; ok {
					if to, ok := tn.node.(*obj); ok {
						if a, _ := to.m["$dynamicAnchor"].(string); a == frag {
							s.dynName = frag
						}
					}
				}
			}
		}
	}

	// Validation keywords.
	if tv, ok := o.m["type"]; ok {
		var names []any
		switch t := tv.(type) {
		case string:
			names = []any{t}
		case []any:
			names = t
		default:
			return bad("type", "must be a string or an array")
		}
		for _, n := range names {
			ns, ok := n.(string)
			switch ns {
			case "null", "boolean", "object", "array", "number", "string", "integer":
			default:
				ok = false
			}
			if !ok {
				return bad("type", "unknown type "+render(plain(n)))
			}
			s.types = append(s.types, ns)
		}
	}
	if ev, ok := o.m["enum"]; ok {
		arr, ok := ev.([]any)
		if !ok {
			return bad("enum", "must be an array")
		}
		s.hasEnum = true
		s.enum = plain(arr).([]any)
	}
	if cv, ok := o.m["const"]; ok && draft >= Draft6 {
		s.hasConst, s.constV = true, plain(cv)
	}
	num := func(kw string) (*big.Rat, string, bool, error) {
		v, ok := o.m[kw]
		if !ok {
			return nil, "", false, nil
		}
		n, ok := v.(json.Number)
		if !ok {
			return nil, "", false, bad(kw, "must be a number")
		}
		r, ok := toRat(n)
		if !ok {
			return nil, "", false, bad(kw, "must be a number")
		}
		return r, string(n), true, nil
	}
	if r, lit, ok, err := num("multipleOf"); err != nil {
		return err
	} else if ok {
		if r.Sign() <= 0 {
			return bad("multipleOf", "must be greater than 0")
		}
		s.numChecks = append(s.numChecks, numCheck{"multipleOf", 'm', r, lit})
	}
	for _, side := range []struct {
		kw, ex   string
		inc, exc byte
	}{{"maximum", "exclusiveMaximum", 'l', '<'}, {"minimum", "exclusiveMinimum", 'g', '>'}} {
		r, lit, ok, err := num(side.kw)
		if err != nil {
			return err
		}
		if draft == Draft4 {
			exc := false
			if ev, present := o.m[side.ex]; present {
				b, isB := ev.(bool)
				if !isB {
					return bad(side.ex, "must be a boolean")
				}
				exc = b
			}
			if ok {
				if exc {
					s.numChecks = append(s.numChecks, numCheck{side.ex, side.exc, r, lit})
				} else {
					s.numChecks = append(s.numChecks, numCheck{side.kw, side.inc, r, lit})
				}
			}
			continue
		}
		if ok {
			s.numChecks = append(s.numChecks, numCheck{side.kw, side.inc, r, lit})
		}
		er, elit, eok, err := num(side.ex)
		if err != nil {
			return err
		}
		if eok {
			s.numChecks = append(s.numChecks, numCheck{side.ex, side.exc, er, elit})
		}
	}
	count := func(kw string) (int, error) {
		v, ok := o.m[kw]
		if !ok {
			return -1, nil
		}
		n, ok := v.(json.Number)
		if !ok {
			return 0, bad(kw, "must be a non-negative integer")
		}
		r, ok := toRat(n)
		if !ok || !r.IsInt() || r.Sign() < 0 {
			return 0, bad(kw, "must be a non-negative integer")
		}
		if !r.Num().IsInt64() || r.Num().Int64() > math.MaxInt32 {
			return math.MaxInt32, nil
		}
		return int(r.Num().Int64()), nil
	}
	var err error
	for _, f := range []struct {
		kw  string
		dst *int
	}{{"minLength", &s.minLength}, {"maxLength", &s.maxLength}, {"minItems", &s.minItems}, {"maxItems", &s.maxItems},
		{"minProperties", &s.minProps}, {"maxProperties", &s.maxProps}} {
		if *f.dst, err = count(f.kw); err != nil {
			return err
		}
	}
	if draft >= Draft2019 {
		if n, err := count("minContains"); err != nil {
			return err
		} else if n >= 0 {
			s.minContains, s.minContainsSet = n, true
		}
		if s.maxContains, err = count("maxContains"); err != nil {
			return err
		}
	}
	if pv, ok := o.m["pattern"]; ok {
		p, ok := pv.(string)
		if !ok {
			return bad("pattern", "must be a string")
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return bad("pattern", fmt.Sprintf("invalid regular expression %q: %v", p, err))
		}
		s.pattern, s.patternSrc = re, p
	}
	if fv, ok := o.m["format"]; ok {
		f, ok := fv.(string)
		if !ok {
			return bad("format", "must be a string")
		}
		if c.opts.AssertFormat {
			if fn := formatChecker(f); fn != nil {
				s.format, s.formatFn = f, fn
			}
		}
	}
	if uv, ok := o.m["uniqueItems"]; ok {
		b, ok := uv.(bool)
		if !ok {
			return bad("uniqueItems", "must be a boolean")
		}
		s.uniqueItems = b
	}
	if rv, ok := o.m["required"]; ok {
		arr, ok := rv.([]any)
		if !ok {
			return bad("required", "must be an array of strings")
		}
		for _, x := range arr {
			xs, ok := x.(string)
			if !ok {
				return bad("required", "must be an array of strings")
			}
			s.required = append(s.required, xs)
		}
	}

	// Applicators.
	schemaList := func(kw string) ([]*schema, error) {
		arr, ok := o.m[kw].([]any)
		if !ok {
			return nil, nil
		}
		out := make([]*schema, len(arr))
		for i := range arr {
			if out[i], err = childAt(kw, strconv.Itoa(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	optChild := func(kw string) (*schema, error) {
		if _, ok := o.m[kw]; !ok {
			return nil, nil
		}
		return child(kw)
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		list, err := schemaList(kw)
		if err != nil {
			return err
		}
		if _, ok := o.m[kw]; ok && len(list) == 0 {
			return bad(kw, "must be a non-empty array")
		}
		switch kw {
		case "allOf":
			s.allOf = list
		case "anyOf":
			s.anyOf, s.anyChoices = list, constChoices(o.m[kw])
		case "oneOf":
			s.oneOf, s.oneChoices = list, constChoices(o.m[kw])
		}
	}
	if s.not, err = optChild("not"); err != nil {
		return err
	}
	if draft >= Draft7 {
		if s.ifS, err = optChild("if"); err != nil {
			return err
		}
		if s.thenS, err = optChild("then"); err != nil {
			return err
		}
		if s.elseS, err = optChild("else"); err != nil {
			return err
		}
	}
	// Arrays.
	if iv, ok := o.m["items"]; ok {
		s.hasItems = true
		if _, isArr := iv.([]any); isArr {
			if draft >= Draft2020 {
				return bad("items", "must be a schema")
			}
			if s.items.prefix, err = schemaList("items"); err != nil {
				return err
			}
			s.items.prefixKw = "items"
			if s.items.rest, err = optChild("additionalItems"); err != nil {
				return err
			}
			s.items.restKw = "additionalItems"
		} else {
			if s.items.rest, err = child("items"); err != nil {
				return err
			}
			s.items.restKw = "items"
		}
	}
	if draft >= Draft2020 {
		if _, ok := o.m["prefixItems"]; ok {
			s.hasItems = true
			if s.items.prefix, err = schemaList("prefixItems"); err != nil {
				return err
			}
			s.items.prefixKw = "prefixItems"
		}
	}
	if draft >= Draft6 {
		if s.contains, err = optChild("contains"); err != nil {
			return err
		}
		if s.propertyNames, err = optChild("propertyNames"); err != nil {
			return err
		}
	}
	// Objects.
	if pm, ok := o.m["properties"].(*obj); ok {
		s.propIdx = make(map[string]*schema, len(pm.keys))
		for _, k := range pm.keys {
			ps, err := childAt("properties", k)
			if err != nil {
				return err
			}
			s.props = append(s.props, propSchema{k, ps})
			s.propIdx[k] = ps
		}
	}
	if pm, ok := o.m["patternProperties"].(*obj); ok {
		for _, k := range pm.keys {
			re, err := regexp.Compile(k)
			if err != nil {
				return bad("patternProperties", fmt.Sprintf("invalid regular expression %q: %v", k, err))
			}
			ps, err := childAt("patternProperties", k)
			if err != nil {
				return err
			}
			s.patProps = append(s.patProps, patSchema{re, k, ps})
		}
	}
	if s.addProps, err = optChild("additionalProperties"); err != nil {
		return err
	}
	deps := func(kw string, allowArr, allowSchema bool) error {
		m, ok := o.m[kw].(*obj)
		if !ok {
			return nil
		}
		for _, k := range m.keys {
			switch v := m.m[k].(type) {
			case []any:
				if !allowArr {
					return bad(kw, "values must be schemas")
				}
				var req []string
				for _, x := range v {
					xs, ok := x.(string)
					if !ok {
						return bad(kw, "must list property names")
					}
					req = append(req, xs)
				}
				s.depReqs = append(s.depReqs, depReq{k, req})
				s.depReqKw = kw
			default:
				if !allowSchema {
					return bad(kw, "values must be arrays of strings")
				}
				ds, err := childAt(kw, k)
				if err != nil {
					return err
				}
				s.depSchemas = append(s.depSchemas, propSchema{k, ds})
				s.depSchemaKw = kw
			}
		}
		return nil
	}
	if draft <= Draft7 {
		if err := deps("dependencies", true, true); err != nil {
			return err
		}
	} else {
		if err := deps("dependentRequired", true, false); err != nil {
			return err
		}
		if err := deps("dependentSchemas", false, true); err != nil {
			return err
		}
		if s.uneProps, err = optChild("unevaluatedProperties"); err != nil {
			return err
		}
		if s.uneItems, err = optChild("unevaluatedItems"); err != nil {
			return err
		}
		s.needAnn = s.uneProps != nil || s.uneItems != nil
	}
	return nil
}

// constChoices returns the allowed values when every branch of an
// anyOf/oneOf is {"const": ...} with optional title and description.
func constChoices(v any) []json.RawMessage {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil
	}
	out := make([]json.RawMessage, 0, len(arr))
	for _, b := range arr {
		o, ok := b.(*obj)
		if !ok {
			return nil
		}
		cv, ok := o.m["const"]
		if !ok {
			return nil
		}
		for _, k := range o.keys {
			switch k {
			case "const", "title", "description", "$comment":
			default:
				return nil
			}
		}
		raw, err := json.Marshal(plain(cv))
		if err != nil {
			return nil
		}
		out = append(out, raw)
	}
	return out
}
