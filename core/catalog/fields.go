package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
)

// This file is the table of known fields: how each is read, compared,
// recognised as default, and written. The table's order is the order in
// which fields are written into a new entry.

// decodeState collects what decoding one entry found besides values.
type decodeState struct {
	legacyMeta bool          // metadata was the old [{key,value}] array
	rawRoots   bool          // a root URI was written unencoded (see NormalizeRootURI)
	problems   []*EntryError // nested problems (oauth.*)
}

// renderArgs carries the original member (if any) and the layout.
type renderArgs struct {
	data   []byte  // document holding om
	om     *member // the field's original member, nil if none
	indent string  // indentation of the line the value starts on
	st     style
}

func (r renderArgs) origRaw() []byte {
	if r.om == nil {
		return nil
	}
	return r.data[r.om.valStart:r.om.valEnd]
}

type fieldDef[T any] struct {
	key       string
	decode    func(t *T, raw []byte, d *decodeState) error
	equal     func(a, b *T) bool
	isDefault func(t *T) bool
	render    func(cur, orig *T, r renderArgs) []byte
}

func lookup[T any](fields []fieldDef[T], key string) *fieldDef[T] {
	for i := range fields {
		if fields[i].key == key {
			return &fields[i]
		}
	}
	return nil
}

var errWrongType = errors.New("wrong JSON type")

// scalarField is a string or number field whose zero value means def.
func scalarField[T any, V comparable](key string, get func(*T) *V, def V) fieldDef[T] {
	var zero V
	eff := func(t *T) V {
		if v := *get(t); v != zero {
			return v
		}
		return def
	}
	return fieldDef[T]{
		key: key,
		decode: func(t *T, raw []byte, _ *decodeState) error {
			return json.Unmarshal(raw, get(t))
		},
		equal:     func(a, b *T) bool { return eff(a) == eff(b) },
		isDefault: func(t *T) bool { return eff(t) == def },
		render: func(cur, _ *T, r renderArgs) []byte {
			return mustJSON(*get(cur))
		},
	}
}

func boolField[T any](key string, get func(*T) *bool) fieldDef[T] {
	return fieldDef[T]{
		key: key,
		decode: func(t *T, raw []byte, _ *decodeState) error {
			return json.Unmarshal(raw, get(t))
		},
		equal:     func(a, b *T) bool { return *get(a) == *get(b) },
		isDefault: func(t *T) bool { return !*get(t) },
		render: func(cur, _ *T, r renderArgs) []byte {
			return mustJSON(*get(cur))
		},
	}
}

// boolPtrField is a boolean whose default is true (only false is written).
func boolPtrField[T any](key string, get func(*T) **bool) fieldDef[T] {
	eff := func(t *T) bool {
		p := *get(t)
		return p == nil || *p
	}
	return fieldDef[T]{
		key: key,
		decode: func(t *T, raw []byte, _ *decodeState) error {
			var v bool
			if err := json.Unmarshal(raw, &v); err != nil {
				return err
			}
			*get(t) = &v
			return nil
		},
		equal:     func(a, b *T) bool { return eff(a) == eff(b) },
		isDefault: func(t *T) bool { return eff(t) },
		render: func(cur, _ *T, r renderArgs) []byte {
			return mustJSON(eff(cur))
		},
	}
}

func strMapField[T any](key string, get func(*T) *map[string]string) fieldDef[T] {
	return fieldDef[T]{
		key: key,
		decode: func(t *T, raw []byte, _ *decodeState) error {
			var m map[string]string
			if err := json.Unmarshal(raw, &m); err != nil {
				return err
			}
			if m == nil {
				return errWrongType
			}
			*get(t) = m
			return nil
		},
		equal: func(a, b *T) bool {
			ma, mb := *get(a), *get(b)
			return len(ma) == len(mb) && maps.Equal(ma, mb)
		},
		isDefault: func(t *T) bool { return len(*get(t)) == 0 },
		render: func(cur, _ *T, r renderArgs) []byte {
			return format(orderedMap(*get(cur), objectKeys(r.origRaw())), r.indent, r.st)
		},
	}
}

func rawObjectField[T any](key string, get func(*T) *json.RawMessage) fieldDef[T] {
	return fieldDef[T]{
		key: key,
		decode: func(t *T, raw []byte, _ *decodeState) error {
			if valueKind(raw) != "object" {
				return errWrongType
			}
			*get(t) = json.RawMessage(slices.Clone(raw))
			return nil
		},
		equal:     func(a, b *T) bool { return jsonEqual(*get(a), *get(b)) },
		isDefault: func(t *T) bool { return *get(t) == nil },
		render: func(cur, _ *T, r renderArgs) []byte {
			return format(compact(*get(cur)), r.indent, r.st)
		},
	}
}

// normalizeType maps spellings other clients use onto our three types.
func normalizeType(s string) Type {
	switch strings.ToLower(s) {
	case "stdio":
		return TypeStdio
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return TypeHTTP
	case "sse":
		return TypeSSE
	}
	return Type(s)
}

var serverFields = []fieldDef[Server]{
	{
		key: "type",
		decode: func(s *Server, raw []byte, _ *decodeState) error {
			var v string
			if err := json.Unmarshal(raw, &v); err != nil {
				s.Type = Type(shorten(string(raw)))
				return nil // reported as an unknown type by validation
			}
			s.Type = normalizeType(v)
			return nil
		},
		equal:     func(a, b *Server) bool { return a.Type == b.Type },
		isDefault: func(s *Server) bool { return s.Type == "" },
		render:    func(s, _ *Server, r renderArgs) []byte { return mustJSON(string(s.Type)) },
	},
	scalarField("command", func(s *Server) *string { return &s.Command }, ""),
	{
		key: "args",
		decode: func(s *Server, raw []byte, _ *decodeState) error {
			return json.Unmarshal(raw, &s.Args)
		},
		equal:     func(a, b *Server) bool { return slices.Equal(a.Args, b.Args) },
		isDefault: func(s *Server) bool { return len(s.Args) == 0 },
		render: func(s, _ *Server, r renderArgs) []byte {
			return format(mustJSON(s.Args), r.indent, r.st)
		},
	},
	strMapField("env", func(s *Server) *map[string]string { return &s.Env }),
	scalarField("cwd", func(s *Server) *string { return &s.Cwd }, ""),
	scalarField("url", func(s *Server) *string { return &s.URL }, ""),
	strMapField("headers", func(s *Server) *map[string]string { return &s.Headers }),
	scalarField("protocolVersion", func(s *Server) *string { return &s.ProtocolVersion }, ""),
	{
		key: "protocolEra",
		decode: func(s *Server, raw []byte, _ *decodeState) error {
			return json.Unmarshal(raw, &s.ProtocolEra)
		},
		equal:     func(a, b *Server) bool { return a.EffectiveEra() == b.EffectiveEra() },
		isDefault: func(s *Server) bool { return s.EffectiveEra() == DefaultEra },
		render:    func(s, _ *Server, r renderArgs) []byte { return mustJSON(string(s.ProtocolEra)) },
	},
	scalarField("modernLogLevel", func(s *Server) *string { return &s.ModernLogLevel }, DefaultModernLogLevel),
	{
		key: "roots",
		decode: func(s *Server, raw []byte, d *decodeState) error {
			if err := json.Unmarshal(raw, &s.Roots); err != nil {
				return err
			}
			for i, r := range s.Roots {
				if s.Roots[i].URI = NormalizeRootURI(r.URI); s.Roots[i].URI != r.URI {
					d.rawRoots = true
				}
			}
			return nil
		},
		equal:     func(a, b *Server) bool { return slices.Equal(a.Roots, b.Roots) },
		isDefault: func(s *Server) bool { return len(s.Roots) == 0 },
		render: func(s, _ *Server, r renderArgs) []byte {
			return format(mustJSON(s.Roots), r.indent, r.st)
		},
	},
	{
		key: "metadata",
		decode: func(s *Server, raw []byte, d *decodeState) error {
			switch valueKind(raw) {
			case "object":
				s.Metadata = json.RawMessage(slices.Clone(raw))
				return nil
			case "array":
				obj, err := legacyMetadata(raw)
				if err != nil {
					return err
				}
				s.Metadata = obj
				d.legacyMeta = true
				return nil
			}
			return errWrongType
		},
		equal:     func(a, b *Server) bool { return jsonEqual(a.Metadata, b.Metadata) },
		isDefault: func(s *Server) bool { return s.Metadata == nil },
		render: func(s, _ *Server, r renderArgs) []byte {
			return format(compact(s.Metadata), r.indent, r.st)
		},
	},
	scalarField("connectionTimeout", func(s *Server) *int64 { return &s.ConnectionTimeout }, 0),
	scalarField("requestTimeout", func(s *Server) *int64 { return &s.RequestTimeout }, 0),
	scalarField("taskTtl", func(s *Server) *int64 { return &s.TaskTTL }, DefaultTaskTTL),
	scalarField("maxMessageSize", func(s *Server) *int64 { return &s.MaxMessageSize }, 0),
	boolField("autoRefreshOnListChanged", func(s *Server) *bool { return &s.AutoRefreshOnListChanged }),
	boolField("paginatedLists", func(s *Server) *bool { return &s.PaginatedLists }),
	rawObjectField("advertisedExtensions", func(s *Server) *json.RawMessage { return &s.AdvertisedExtensions }),
	rawObjectField("experimentalCapabilities", func(s *Server) *json.RawMessage { return &s.ExperimentalCapabilities }),
	{
		key: "maxFetchRequests",
		decode: func(s *Server, raw []byte, _ *decodeState) error {
			var v int
			if err := json.Unmarshal(raw, &v); err != nil {
				return err
			}
			s.MaxFetchRequests = &v
			return nil
		},
		equal: func(a, b *Server) bool { return a.MaxFetchRequestsOrDefault() == b.MaxFetchRequestsOrDefault() },
		isDefault: func(s *Server) bool {
			return s.MaxFetchRequestsOrDefault() == DefaultMaxFetchRequests
		},
		render: func(s, _ *Server, r renderArgs) []byte { return mustJSON(s.MaxFetchRequestsOrDefault()) },
	},
	{
		key: "oauth",
		decode: func(s *Server, raw []byte, d *decodeState) error {
			if valueKind(raw) != "object" {
				return errWrongType
			}
			obj, err := scanObject(raw, 0, len(raw))
			if err != nil {
				return err
			}
			o := &OAuth{}
			ps := decodeObject(oauthFields, o, raw, obj, "oauth.", &decodeState{})
			d.problems = append(d.problems, ps...)
			s.OAuth = o
			return nil
		},
		equal: func(a, b *Server) bool { return oauthEqual(a.OAuth, b.OAuth, true) },
		isDefault: func(s *Server) bool {
			return oauthEqual(s.OAuth, nil, false) // a secret alone is never written
		},
		render: func(s, orig *Server, r renderArgs) []byte {
			cur, prev := s.OAuth, orig.OAuth
			if cur == nil {
				cur = &OAuth{}
			}
			if prev == nil {
				prev = &OAuth{}
			}
			var obj *object
			if r.om != nil && valueKind(r.origRaw()) == "object" {
				obj, _ = scanObject(r.data, r.om.valStart, r.om.valEnd)
			}
			return renderObject(oauthFields, cur, prev, r.data, obj, nil, nil, r.indent, r.st)
		},
	},
}

// oauthEqual compares two OAuth settings (nil = all defaults); the secret
// counts only when withSecret is set.
func oauthEqual(a, b *OAuth, withSecret bool) bool {
	var za, zb OAuth
	if a == nil {
		a = &za
	}
	if b == nil {
		b = &zb
	}
	for _, f := range oauthFields {
		if f.key == "clientSecret" && !withSecret {
			continue
		}
		if !f.equal(a, b) {
			return false
		}
	}
	return true
}

var oauthFields = []fieldDef[OAuth]{
	scalarField("clientId", func(o *OAuth) *string { return &o.ClientID }, ""),
	{
		// Read, never written: an untouched secret keeps its bytes in the
		// file; a changed one lives in memory only.
		key: "clientSecret",
		decode: func(o *OAuth, raw []byte, _ *decodeState) error {
			return json.Unmarshal(raw, &o.ClientSecret)
		},
		equal:     func(a, b *OAuth) bool { return a.ClientSecret == b.ClientSecret },
		isDefault: func(*OAuth) bool { return true },
		render:    func(*OAuth, *OAuth, renderArgs) []byte { return nil },
	},
	{
		key: "scopes",
		decode: func(o *OAuth, raw []byte, _ *decodeState) error {
			if valueKind(raw) == "array" {
				var list []string
				if err := json.Unmarshal(raw, &list); err != nil {
					return err
				}
				o.Scopes = strings.Join(list, " ")
				return nil
			}
			return json.Unmarshal(raw, &o.Scopes)
		},
		equal:     func(a, b *OAuth) bool { return a.Scopes == b.Scopes },
		isDefault: func(o *OAuth) bool { return o.Scopes == "" },
		render:    func(o, _ *OAuth, r renderArgs) []byte { return mustJSON(o.Scopes) },
	},
	boolPtrField("requestRefreshToken", func(o *OAuth) **bool { return &o.RequestRefreshToken }),
	boolPtrField("revokeOnClear", func(o *OAuth) **bool { return &o.RevokeOnClear }),
	strMapField("authorizationParams", func(o *OAuth) *map[string]string { return &o.AuthorizationParams }),
	scalarField("authorizationUrl", func(o *OAuth) *string { return &o.AuthorizationURL }, ""),
	scalarField("tokenUrl", func(o *OAuth) *string { return &o.TokenURL }, ""),
	boolField("enterpriseManaged", func(o *OAuth) *bool { return &o.EnterpriseManaged }),
	scalarField("onInsufficientScope", func(o *OAuth) *string { return &o.OnInsufficientScope }, ""),
	scalarField("assertionFile", func(o *OAuth) *string { return &o.AssertionFile }, ""),
	scalarField("assertionEnv", func(o *OAuth) *string { return &o.AssertionEnv }, ""),
	scalarField("dpop", func(o *OAuth) *string { return &o.DPoP }, DPoPAuto),
	scalarField("idpIssuer", func(o *OAuth) *string { return &o.IDPIssuer }, ""),
	scalarField("idpTokenUrl", func(o *OAuth) *string { return &o.IDPTokenURL }, ""),
	scalarField("idpClientId", func(o *OAuth) *string { return &o.IDPClientID }, ""),
	scalarField("idTokenFile", func(o *OAuth) *string { return &o.IDTokenFile }, ""),
	scalarField("idTokenEnv", func(o *OAuth) *string { return &o.IDTokenEnv }, ""),
}

// legacyMetadata converts the pre-#1910 [{"key":…,"value":…}] array into an
// object, keeping the order of the pairs.
func legacyMetadata(raw []byte) (json.RawMessage, error) {
	var pairs []struct {
		Key   *string         `json:"key"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]int{}
	type kv struct {
		k string
		v []byte
	}
	var out []kv
	for _, p := range pairs {
		if p.Key == nil {
			return nil, errWrongType
		}
		v := []byte(p.Value)
		if v == nil {
			v = []byte("null")
		}
		if i, ok := seen[*p.Key]; ok {
			out[i].v = v // last one wins, as in a JSON object
			continue
		}
		seen[*p.Key] = len(out)
		out = append(out, kv{*p.Key, v})
	}
	for i, p := range out {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustJSON(p.k))
		b.WriteByte(':')
		b.Write(compact(p.v))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// decodeObject reads the known members of obj (scanned from data) into t
// and returns the problems found, with field names prefixed by prefix.
func decodeObject[T any](fields []fieldDef[T], t *T, data []byte, obj *object, prefix string, d *decodeState) []*EntryError {
	var ps []*EntryError
	for _, m := range obj.members {
		f := lookup(fields, m.key)
		if f == nil {
			continue
		}
		raw := data[m.valStart:m.valEnd]
		if err := f.decode(t, raw, d); err != nil {
			ps = append(ps, &EntryError{Field: prefix + m.key, Value: shorten(string(raw)), Err: ErrInvalidValue})
		}
	}
	ps = append(ps, d.problems...)
	d.problems = nil
	return ps
}

// extraMember is an unknown member carried over from another file (import).
type extraMember struct {
	key string
	raw []byte // compact JSON
}

// renderObject writes an object of known fields. Members of the original
// object obj (in data) keep their order; unknown ones and known ones whose
// value did not change keep their bytes; changed ones are re-rendered or,
// when now default, dropped. Fields not in the original follow in table
// order, then extras. force names fields that must be re-rendered even when
// equal (a legacy shape we do not write).
func renderObject[T any](fields []fieldDef[T], cur, orig *T, data []byte, obj *object, force map[string]bool, extras []extraMember, indent string, st style) []byte {
	type out struct {
		pre, key, sep, val []byte // pre nil: laid out like the file
		trail              []byte // a comment on the member's line, after its comma
	}
	var outs []out
	memberIndent := indent + st.unit
	if obj != nil && len(obj.members) > 0 {
		if ind, ok := lineIndent(data[obj.members[0].preStart:obj.members[0].keyStart]); ok {
			memberIndent = ind
		}
	}
	done := map[string]bool{}
	if obj != nil {
		// A known key written twice was decoded from its last occurrence
		// (as encoding/json does); only that one is kept.
		lastOf := map[string]int{}
		for i := range obj.members {
			lastOf[obj.members[i].key] = i
		}
		for i := range obj.members {
			m := &obj.members[i]
			key, sep, raw := data[m.keyStart:m.keyEnd], data[m.keyEnd:m.valStart], data[m.valStart:m.valEnd]
			var pre []byte // a comment before the member stays with it
			if p := data[m.preStart:m.keyStart]; !isBlank(p) {
				pre = p
			}
			trail := m.trailText(data)
			f := lookup(fields, m.key)
			if f == nil {
				outs = append(outs, out{pre, key, sep, raw, trail})
				continue
			}
			if lastOf[m.key] != i {
				continue
			}
			done[m.key] = true
			switch {
			case !force[m.key] && f.equal(cur, orig):
				outs = append(outs, out{pre, key, sep, raw, trail})
			case f.isDefault(cur):
			default:
				outs = append(outs, out{pre, key, sep, f.render(cur, orig, renderArgs{data: data, om: m, indent: memberIndent, st: st}), trail})
			}
		}
	}
	for i := range fields {
		f := &fields[i]
		if done[f.key] || (obj != nil && f.equal(cur, orig)) || f.isDefault(cur) {
			continue
		}
		v := f.render(cur, orig, renderArgs{data: data, indent: memberIndent, st: st})
		if v == nil {
			continue
		}
		outs = append(outs, out{nil, mustJSON(f.key), []byte(st.colon), v, nil})
	}
	for _, x := range extras {
		outs = append(outs, out{nil, mustJSON(x.key), []byte(st.colon), format(x.raw, memberIndent, st), nil})
	}
	if len(outs) == 0 {
		return []byte("{}")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, o := range outs {
		if i > 0 {
			b.WriteByte(',')
			b.Write(outs[i-1].trail)
			if !st.multiline && o.pre == nil {
				b.WriteString(strings.TrimPrefix(st.comma, ","))
			}
		}
		switch {
		case o.pre != nil:
			b.Write(o.pre)
		case st.multiline:
			b.WriteString(st.nl)
			b.WriteString(memberIndent)
		}
		b.Write(o.key)
		b.Write(o.sep)
		b.Write(o.val)
	}
	if obj != nil && obj.comma >= 0 {
		b.WriteByte(',') // the file's trailing comma stays
	}
	b.Write(outs[len(outs)-1].trail)
	switch {
	case obj != nil && !isBlank(obj.closing(data)):
		b.Write(obj.closing(data)) // a comment after the last member
	case st.multiline:
		b.WriteString(st.nl)
		b.WriteString(indent)
	}
	b.WriteByte('}')
	return b.Bytes()
}
