package catalog

import (
	"bytes"
	"crypto/sha256"
	"slices"
	"strings"
)

// ServersKey is the member of the document that lists the servers.
const ServersKey = "mcpServers"

// Catalog is one mcp.json document: its servers, in file order, plus
// everything else the file holds (unknown fields, key order, layout), so
// that writing it back changes only the entries that changed.
//
// A Catalog is not safe for concurrent use; guard it with a mutex when
// several goroutines share it.
type Catalog struct {
	path     string // file it was loaded from; "" when in memory
	readOnly bool   // --config, or an ad-hoc catalog

	data    []byte  // the document as read or last saved
	top     *object // the top-level object of data
	servers *object // the mcpServers object of data, nil when absent
	st      style

	entries  []*entry
	problems []*EntryError
	warnings []Warning

	disk diskState // what the file held when it was read or saved
}

// diskState identifies the content of the file when it was last read or
// written, to detect another writer.
type diskState struct {
	known  bool // Load or Save set it
	exists bool
	sum    [32]byte
}

func stateOf(data []byte, exists bool) diskState {
	return diskState{known: true, exists: exists, sum: sha256.Sum256(data)}
}

// entry is one server of the catalog.
type entry struct {
	name   string
	cur    Server
	orig   *origEntry    // nil for an entry added since the file was read
	extras []extraMember // unknown fields carried over from an imported file
}

// origEntry is an entry as the file holds it.
type origEntry struct {
	name       string
	m          member  // its member in the mcpServers object
	obj        *object // the entry object, nil when the value is not an object
	srv        Server  // decoded
	legacyMeta bool    // metadata is the old array shape: rewrite it as an object
	rawRoots   bool    // a root URI is unencoded: rewrite it encoded
	fileSecret bool    // oauth.clientSecret is present in the file
}

// emptyDocument is what a new in-memory catalog starts from.
const emptyDocument = "{\n  \"mcpServers\": {}\n}\n"

// New returns an empty in-memory catalog (read-only: it has no file).
func New() *Catalog {
	c, err := parse("", []byte(emptyDocument))
	if err != nil {
		panic("catalog: empty document does not parse: " + err.Error())
	}
	c.readOnly = true
	return c
}

// Parse reads an mcp.json document. A *SyntaxError (ErrSyntax) or an
// *EntryError with ErrShape means there is no catalog at all (nil is
// returned). An *InvalidError means the catalog is usable but some entries
// are not: the catalog is returned with the error, and those entries are
// kept and written back unchanged. The returned catalog is read-only; Load
// and LoadOrCreate return writable ones.
func Parse(data []byte) (*Catalog, error) {
	c, err := parse("", data)
	if c != nil {
		c.readOnly = true
	}
	return c, err
}

func parse(file string, data []byte) (*Catalog, error) {
	bom := bomLen(data) // Windows editors may write one; it is kept
	root, err := parseJSONC(file, data[bom:])
	if err != nil {
		return nil, err
	}
	data = slices.Clone(data)
	top, err := objectOf(data, &root, bom)
	if err != nil {
		return nil, &EntryError{File: file, Value: "a JSON " + valueKind([]byte{byte(root.Value.Kind())}), Err: ErrShape}
	}
	std := standard(data, bom, root) // what encoding/json decodes
	c := &Catalog{path: file, data: data, top: top, st: detectStyle(data, top)}
	idx := -1
	for i := range top.members {
		if top.members[i].key == ServersKey {
			idx = i // the last one wins, as in encoding/json
		}
	}
	if idx >= 0 {
		m := top.members[idx]
		if c.servers, err = scanObject(data, m.valStart, m.valEnd); err != nil {
			return nil, &EntryError{File: file, Field: ServersKey, Value: shorten(string(data[m.valStart:m.valEnd])), Err: ErrShape}
		}
		seen := map[string]bool{}
		for _, sm := range c.servers.members {
			e := decodeEntry(file, data, std, sm)
			if sm.key == "" {
				c.problems = append(c.problems, &EntryError{File: file, Err: ErrInvalidName, Value: `""`})
			}
			if seen[sm.key] {
				c.problems = append(c.problems, &EntryError{File: file, Server: sm.key, Err: ErrDuplicateName})
			}
			seen[sm.key] = true
			c.entries = append(c.entries, e.entry)
			c.problems = append(c.problems, e.problems...)
			c.warnings = append(c.warnings, e.warnings...)
		}
	}
	if len(c.problems) > 0 {
		return c, &InvalidError{File: file, Problems: slices.Clone(c.problems)}
	}
	return c, nil
}

type decoded struct {
	entry    *entry
	problems []*EntryError
	warnings []Warning
}

// decodeEntry reads one member of mcpServers from data; std is data with
// its comments blanked out (see standard), for decoding values.
func decodeEntry(file string, data, std []byte, m member) decoded {
	o := &origEntry{name: m.key, m: m}
	var d decoded
	raw := data[m.valStart:m.valEnd]
	if valueKind(raw) != "object" {
		d.problems = append(d.problems, &EntryError{File: file, Server: m.key, Value: shorten(string(raw)), Err: ErrInvalidValue})
	} else if obj, err := scanObject(data, m.valStart, m.valEnd); err == nil {
		o.obj = obj
		ds := &decodeState{}
		ps := decodeObject(serverFields, &o.srv, std, obj, "", ds)
		o.legacyMeta, o.rawRoots = ds.legacyMeta, ds.rawRoots
		if o.srv.Type == "" && obj.find("type") < 0 {
			switch {
			case o.srv.Command != "":
				o.srv.Type = TypeStdio
			case o.srv.URL != "":
				o.srv.Type = TypeHTTP
			}
		}
		if i := obj.find("oauth"); i >= 0 {
			om := obj.members[i]
			if oo, err := scanObject(data, om.valStart, om.valEnd); err == nil && oo.find("clientSecret") >= 0 {
				o.fileSecret = true
			}
		}
		// a field that failed to decode is reported once, not again by Validate
		bad := map[string]bool{}
		for _, p := range ps {
			bad[p.Field] = true
		}
		for _, p := range o.srv.problems() {
			if !bad[p.Field] {
				ps = append(ps, p)
			}
		}
		for _, p := range ps {
			p.File, p.Server = file, m.key
		}
		d.problems = ps
		if o.srv.Metadata != nil {
			_, ws := SanitizeMeta(o.srv.Metadata)
			for _, w := range ws {
				w.Server = m.key
				d.warnings = append(d.warnings, w)
			}
		}
	}
	d.entry = &entry{name: m.key, cur: o.srv.Clone(), orig: o}
	return d
}

// Path returns the file the catalog was loaded from ("" when in memory).
func (c *Catalog) Path() string { return c.path }

// ReadOnly reports whether Save refuses to write (a --config file, an
// ad-hoc or parsed-from-memory catalog).
func (c *Catalog) ReadOnly() bool { return c.readOnly }

// Names returns the server names in file order.
func (c *Catalog) Names() []string {
	out := make([]string, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.name
	}
	return out
}

// Len returns the number of servers.
func (c *Catalog) Len() int { return len(c.entries) }

func (c *Catalog) find(name string) int {
	return slices.IndexFunc(c.entries, func(e *entry) bool { return e.name == name })
}

// Get returns a copy of the named server.
func (c *Catalog) Get(name string) (Server, bool) {
	i := c.find(name)
	if i < 0 {
		return Server{}, false
	}
	return c.entries[i].cur.Clone(), true
}

// Problem returns the first problem of the named entry as read from the
// file (an *EntryError), or nil. An entry with a problem cannot be
// connected to until it is fixed.
func (c *Catalog) Problem(name string) error {
	for _, p := range c.problems {
		if p.Server == name {
			return p
		}
	}
	return nil
}

// Problems returns every problem found when the file was read.
func (c *Catalog) Problems() []*EntryError { return slices.Clone(c.problems) }

// Warnings returns the non-fatal findings of the last read (reserved _meta
// keys of the wrong shape).
func (c *Catalog) Warnings() []Warning { return slices.Clone(c.warnings) }

// Put sets the named server, replacing an existing one in place or
// appending a new one. The server must pass Validate.
func (c *Catalog) Put(name string, s Server) error {
	if name == "" {
		return &EntryError{Err: ErrInvalidName, Value: `""`}
	}
	if err := s.Validate(); err != nil {
		err.(*EntryError).Server = name
		return err
	}
	if i := c.find(name); i >= 0 {
		c.entries[i].cur = s.Clone()
		return nil
	}
	c.entries = append(c.entries, &entry{name: name, cur: s.Clone()})
	return nil
}

// Add adds a new server; ErrExists if the name is taken.
func (c *Catalog) Add(name string, s Server) error {
	if c.find(name) >= 0 {
		return &EntryError{Server: name, Err: ErrExists}
	}
	return c.Put(name, s)
}

// Delete removes the named server and reports whether it existed.
func (c *Catalog) Delete(name string) bool {
	i := c.find(name)
	if i < 0 {
		return false
	}
	c.entries = slices.Delete(c.entries, i, i+1)
	return true
}

// Rename renames a server in place (ErrNotFound, ErrExists, ErrInvalidName).
func (c *Catalog) Rename(from, to string) error {
	i := c.find(from)
	if i < 0 {
		return &EntryError{Server: from, Err: ErrNotFound}
	}
	if to == "" {
		return &EntryError{Err: ErrInvalidName, Value: `""`}
	}
	if from != to && c.find(to) >= 0 {
		return &EntryError{Server: to, Err: ErrExists}
	}
	c.entries[i].name = to
	return nil
}

// Select returns the server to use: the named one, or the only one when
// name is "". ErrNotFound, ErrNoServers or ErrAmbiguous otherwise; the entry's
// problem (an *EntryError) when it cannot be used as written.
func (c *Catalog) Select(name string) (string, Server, error) {
	if name == "" {
		switch len(c.entries) {
		case 0:
			return "", Server{}, &EntryError{File: c.path, Err: ErrNoServers}
		case 1:
			name = c.entries[0].name
		default:
			return "", Server{}, &EntryError{File: c.path, Err: ErrAmbiguous, Allowed: c.Names()}
		}
	}
	s, ok := c.Get(name)
	if !ok {
		return "", Server{}, &EntryError{File: c.path, Server: name, Err: ErrNotFound, Allowed: c.Names()}
	}
	if err := c.Problem(name); err != nil {
		return name, s, err
	}
	if err := s.Validate(); err != nil {
		e := err.(*EntryError)
		e.Server, e.File = name, c.path
		return name, s, e
	}
	return name, s, nil
}

// changed reports whether the entry's name or value differs from the file.
func (e *entry) changed() bool {
	return e.orig == nil || e.name != e.orig.name || e.valueChanged()
}

// valueChanged reports whether the entry's value must be re-rendered.
func (e *entry) valueChanged() bool {
	o := e.orig
	if o == nil {
		return true
	}
	if o.legacyMeta && !jsonEqual(e.cur.Metadata, o.srv.Metadata) {
		return true
	}
	for _, f := range serverFields {
		if f.key == "oauth" {
			if !oauthEqual(e.cur.OAuth, o.srv.OAuth, false) {
				return true
			}
			continue
		}
		if !f.equal(&e.cur, &o.srv) {
			return true
		}
	}
	// a secret only in memory needs no write; one in the file must go when it changed
	return o.fileSecret && secretOf(e.cur.OAuth) != secretOf(o.srv.OAuth)
}

func secretOf(o *OAuth) string {
	if o == nil {
		return ""
	}
	return o.ClientSecret
}

// Changed reports whether Bytes would differ from the file as read.
func (c *Catalog) Changed() bool {
	return !bytes.Equal(c.Bytes(), c.data)
}

// Bytes renders the document: the file as read, with only the entries that
// were added, changed, renamed or removed rewritten. An unchanged catalog
// renders to exactly the bytes it was read from.
func (c *Catalog) Bytes() []byte {
	dirty := c.servers == nil && len(c.entries) > 0 ||
		c.servers != nil && len(c.servers.members) != len(c.entries)
	if !dirty {
		for i, e := range c.entries {
			if e.orig == nil || e.changed() || e.orig.m.keyStart != c.servers.members[i].keyStart {
				dirty = true
				break
			}
		}
	}
	if !dirty {
		return slices.Clone(c.data)
	}
	var out bytes.Buffer
	if c.servers != nil {
		out.Write(c.data[:c.servers.start])
		c.renderServers(&out)
		out.Write(c.data[c.servers.end:])
		return out.Bytes()
	}
	// no mcpServers member yet: add one at the end of the top-level object
	top := c.top
	memberIndent := c.st.unit
	if len(top.members) > 0 {
		if ind, ok := lineIndent(c.data[top.members[0].preStart:top.members[0].keyStart]); ok {
			memberIndent = ind
		}
	}
	var member bytes.Buffer
	if c.st.multiline {
		member.WriteString(c.st.nl + memberIndent)
	}
	member.WriteString(`"` + ServersKey + `"` + c.st.colon)
	c.renderServersAt(&member, memberIndent)
	if len(top.members) == 0 {
		out.Write(c.data[:top.start+1])
		out.Write(member.Bytes())
		if c.st.multiline {
			out.WriteString(c.st.nl + indentOfLine(c.data, top.start))
		}
		out.Write(c.data[top.end-1:])
		return out.Bytes()
	}
	lastM := top.members[len(top.members)-1]
	out.Write(c.data[:lastM.valEnd])
	out.WriteByte(',')
	out.Write(lastM.trailText(c.data))
	if !c.st.multiline {
		out.WriteString(strings.TrimPrefix(c.st.comma, ","))
	}
	out.Write(member.Bytes())
	if top.comma >= 0 {
		out.WriteByte(',')
	}
	out.Write(c.data[top.closeStart:])
	return out.Bytes()
}

// renderServers writes the mcpServers object, reusing the original
// whitespace around untouched members.
func (c *Catalog) renderServers(out *bytes.Buffer) {
	c.renderServersAt(out, indentOfLine(c.data, c.servers.start))
}

func (c *Catalog) renderServersAt(out *bytes.Buffer, indent string) {
	data, so, st := c.data, c.servers, c.st
	entryIndent := indent + st.unit
	if so != nil && len(so.members) > 0 {
		if ind, ok := lineIndent(data[so.members[0].preStart:so.members[0].keyStart]); ok {
			entryIndent = ind
		}
	}
	newPre := ""
	if st.multiline {
		newPre = st.nl + entryIndent
	} else if len(c.entries) > 0 && strings.HasSuffix(st.comma, " ") {
		newPre = ""
	}
	out.WriteByte('{')
	var trail []byte // the comment on the line of the entry before
	for i, e := range c.entries {
		if i > 0 {
			out.WriteByte(',')
			out.Write(trail)
		}
		pre, post := newPre, ""
		trail = nil
		if e.orig != nil {
			m := e.orig.m
			pre, post, trail = string(data[m.preStart:m.keyStart]), string(data[m.valEnd:m.postEnd]), m.trailText(data)
		} else if i > 0 && !st.multiline {
			pre = strings.TrimPrefix(st.comma, ",")
		}
		out.WriteString(pre)
		switch {
		case e.orig != nil && !e.changed():
			out.Write(data[e.orig.m.keyStart:e.orig.m.valEnd])
		case e.orig != nil && !e.valueChanged(): // renamed only
			out.Write(mustJSON(e.name))
			out.Write(data[e.orig.m.keyEnd:e.orig.m.valEnd])
		default:
			ind := entryIndent
			if e.orig != nil {
				ind = indentOfLine(data, e.orig.m.keyStart)
			}
			if e.orig != nil && e.name == e.orig.name {
				out.Write(data[e.orig.m.keyStart:e.orig.m.valStart])
			} else {
				out.Write(mustJSON(e.name))
				out.WriteString(st.colon)
			}
			out.Write(c.renderEntry(e, ind))
		}
		out.WriteString(post)
	}
	if so != nil && so.comma >= 0 && len(c.entries) > 0 {
		out.WriteByte(',') // the file's trailing comma stays
	}
	out.Write(trail)
	switch {
	case so != nil && (len(so.members) > 0 || len(c.entries) == 0):
		out.Write(so.closing(data))
	case st.multiline && len(c.entries) > 0:
		out.WriteString(st.nl + indent)
	}
	out.WriteByte('}')
}

// renderEntry renders one changed or new entry's value.
func (c *Catalog) renderEntry(e *entry, indent string) []byte {
	var obj *object
	var orig Server
	var force map[string]bool
	st := c.st
	if o := e.orig; o != nil {
		obj, orig = o.obj, o.srv
		force = map[string]bool{"metadata": o.legacyMeta, "roots": o.rawRoots}
		if obj != nil && !bytes.Contains(c.data[obj.start:obj.end], []byte("\n")) {
			st.multiline = false
		}
	}
	return renderObject(serverFields, &e.cur, &orig, c.data, obj, force, e.extras, indent, st)
}

// Find returns the position of the named server in file order, or -1.
func (c *Catalog) Find(name string) int { return c.find(name) }
