package catalog

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ImportFormat names the shape of an imported file.
type ImportFormat string

// The import formats.
const (
	// FormatMCPServers: Claude Desktop, Cursor, Claude Code (.mcp.json) and
	// our own catalog: servers under "mcpServers".
	FormatMCPServers ImportFormat = "mcpServers"
	// FormatVSCode: VS Code's .vscode/mcp.json (servers under "servers",
	// prompts for values under "inputs"), or its settings.json with both
	// inside "mcp".
	FormatVSCode ImportFormat = "vscode"
)

// Imported is a parsed file of another client, ready to merge.
type Imported struct {
	File    string
	Format  ImportFormat
	entries []*entry
	// InputIDs lists the ids declared in VS Code's "inputs", in order.
	InputIDs []string
}

// Names returns the server names of the file, in order.
func (im *Imported) Names() []string {
	out := make([]string, len(im.entries))
	for i, e := range im.entries {
		out[i] = e.name
	}
	return out
}

// InputRef is one ${input:ID} reference found in an imported server. It is
// kept verbatim in the catalog; the value is asked for when connecting
// (see Server.InputRefs and Server.WithInputs).
type InputRef struct {
	Server   string
	Field    string // "args", "env.API_KEY", "headers.Authorization", ...
	ID       string
	Declared bool // the file's "inputs" declares it
}

// ImportResult says what a merge did.
type ImportResult struct {
	Format ImportFormat
	// Added lists the servers added, in file order.
	Added []string
	// Clashes lists the servers not added because the catalog already has
	// one of that name (never overwritten).
	Clashes []string
	// Inputs lists the ${input:…} references of the added servers.
	Inputs []InputRef
	// SecretsNotWritten lists added servers whose oauth.clientSecret was read
	// but is not written into the catalog (kept in memory only).
	SecretsNotWritten []string
}

// ParseImport reads a Claude Desktop / Cursor / Claude Code file
// ("mcpServers") or a VS Code file ("servers" and "inputs", at the top or
// inside "mcp"). Malformed JSON is a *SyntaxError; a file with neither
// member an *EntryError wrapping ErrShape; bad entries an *InvalidError
// (nothing should be imported from such a file until it is fixed; the
// returned *Imported holds the rest anyway).
func ParseImport(file string, data []byte) (*Imported, error) {
	bom := bomLen(data)
	root, err := parseJSONC(file, data[bom:])
	if err != nil {
		return nil, err
	}
	top, err := objectOf(data, &root, bom)
	if err != nil {
		return nil, &EntryError{File: file, Value: "a JSON " + valueKind([]byte{byte(root.Value.Kind())}), Err: ErrShape}
	}
	std := standard(data, bom, root) // what encoding/json decodes
	im := &Imported{File: file}
	obj, key := top, ServersKey
	if i := last(top, ServersKey); i >= 0 {
		im.Format = FormatMCPServers
	} else {
		im.Format, key = FormatVSCode, "servers"
		if j := last(top, "mcp"); j >= 0 && last(top, "servers") < 0 {
			m := top.members[j]
			if o, err := scanObject(data, m.valStart, m.valEnd); err == nil {
				obj = o
			}
		}
		if last(obj, "servers") < 0 {
			return nil, &EntryError{File: file, Err: ErrShape, Allowed: []string{`"mcpServers": {…}`, `"servers": {…}`}}
		}
	}
	sm := obj.members[last(obj, key)]
	servers, err := scanObject(data, sm.valStart, sm.valEnd)
	if err != nil {
		return nil, &EntryError{File: file, Field: key, Value: shorten(string(data[sm.valStart:sm.valEnd])), Err: ErrShape}
	}
	if i := last(obj, "inputs"); i >= 0 && im.Format == FormatVSCode {
		im.InputIDs = inputIDs(std[obj.members[i].valStart:obj.members[i].valEnd])
	}
	var problems []*EntryError
	seen := map[string]bool{}
	for _, m := range servers.members {
		d := decodeEntry(file, data, std, m)
		if m.key == "" {
			problems = append(problems, &EntryError{File: file, Err: ErrInvalidName, Value: `""`})
		}
		if seen[m.key] {
			problems = append(problems, &EntryError{File: file, Server: m.key, Err: ErrDuplicateName})
		}
		seen[m.key] = true
		problems = append(problems, d.problems...)
		e := &entry{name: m.key, cur: d.entry.cur}
		if o := d.entry.orig.obj; o != nil {
			for _, om := range o.members {
				if lookup(serverFields, om.key) == nil {
					e.extras = append(e.extras, extraMember{key: om.key, raw: compact(data[om.valStart:om.valEnd])})
				}
			}
		}
		im.entries = append(im.entries, e)
	}
	if len(problems) > 0 {
		return im, &InvalidError{File: file, Problems: problems}
	}
	return im, nil
}

func last(o *object, key string) int {
	idx := -1
	for i := range o.members {
		if o.members[i].key == key {
			idx = i
		}
	}
	return idx
}

func inputIDs(raw []byte) []string {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return nil
	}
	var ids []string
	for _, e := range elems {
		var in struct {
			ID *string `json:"id"`
		}
		if json.Unmarshal(e, &in) == nil && in.ID != nil {
			ids = append(ids, *in.ID)
		}
	}
	return ids
}

// inputRef matches ${input:ID}; compiled on first use, not at start-up.
var inputRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{input:([^}]+)\}`) })

// WithInputs returns a copy of s with every ${input:ID} whose ID values
// holds replaced by its value (command, args, cwd, url, env and header
// values); references without a value stay as they are.
func (s Server) WithInputs(values map[string]string) Server {
	out := s.Clone()
	sub := func(v string) string {
		if !strings.Contains(v, "${input:") {
			return v
		}
		return inputRef().ReplaceAllStringFunc(v, func(m string) string {
			if val, ok := values[m[len("${input:"):len(m)-1]]; ok {
				return val
			}
			return m
		})
	}
	out.Command, out.Cwd, out.URL = sub(out.Command), sub(out.Cwd), sub(out.URL)
	for i, a := range out.Args {
		out.Args[i] = sub(a)
	}
	for k, v := range out.Env {
		out.Env[k] = sub(v)
	}
	for k, v := range out.Headers {
		out.Headers[k] = sub(v)
	}
	return out
}

// InputRefs lists the ${input:ID} references left in the server's
// settings (VS Code input variables, imported verbatim), in a stable
// order; Server is "" (the caller knows which server it asked about) and
// Declared false.
func (s Server) InputRefs() []InputRef {
	return findInputs("", &s, nil)
}

// Import merges im into c: servers whose name is free are added (with their
// unknown fields), the others are reported as clashes and left alone. The
// catalog is changed in memory only; Save it (or use Update).
func (c *Catalog) Import(im *Imported) *ImportResult {
	res := &ImportResult{Format: im.Format}
	for _, e := range im.entries {
		if c.find(e.name) >= 0 {
			res.Clashes = append(res.Clashes, e.name)
			continue
		}
		ne := &entry{name: e.name, cur: e.cur.Clone(), extras: slices.Clone(e.extras)}
		c.entries = append(c.entries, ne)
		res.Added = append(res.Added, e.name)
		if secretOf(e.cur.OAuth) != "" {
			res.SecretsNotWritten = append(res.SecretsNotWritten, e.name)
		}
		res.Inputs = append(res.Inputs, findInputs(e.name, &e.cur, im.InputIDs)...)
	}
	return res
}

func findInputs(name string, s *Server, declared []string) []InputRef {
	var refs []InputRef
	scan := func(field, v string) {
		if !strings.Contains(v, "${input:") {
			return
		}
		for _, m := range inputRef().FindAllStringSubmatch(v, -1) {
			refs = append(refs, InputRef{Server: name, Field: field, ID: m[1], Declared: slices.Contains(declared, m[1])})
		}
	}
	scan("command", s.Command)
	for _, a := range s.Args {
		scan("args", a)
	}
	scan("cwd", s.Cwd)
	scan("url", s.URL)
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		scan("env."+k, s.Env[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		scan("headers."+k, s.Headers[k])
	}
	return refs
}
