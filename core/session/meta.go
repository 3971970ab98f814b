package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mark3labs/mcp-go/mcp"
)

// metaLocked returns the _meta entries the session adds to a request:
// Options.Metadata, then (modern protocol) the version, client info and
// capabilities, then the per-call entries, later ones winning. Call with
// s.mu held.
func (s *Session) metaLocked(call map[string]any, method string) map[string]any {
	if len(s.opts.Metadata) == 0 && len(call) == 0 && !s.modern {
		return nil
	}
	m := make(map[string]any, len(s.opts.Metadata)+len(call)+4)
	for k, v := range s.opts.Metadata {
		m[k] = v
	}
	if s.modern {
		m[mcp.MetaKeyProtocolVersion] = s.version
		m[mcp.MetaKeyClientInfo] = s.opts.ClientInfo
		m[mcp.MetaKeyClientCapabilities] = s.caps.raw
		if s.logLevel != "" {
			m[mcp.MetaKeyLogLevel] = s.logLevel
		}
	}
	for k, v := range call {
		m[k] = v
	}
	return m
}

// mergeMeta adds the entries of extra that params._meta lacks, and the
// progress token when there is none, to params (a JSON object or empty).
// It returns the params to send and the progress token they carry, as
// JSON text. params that are not an object are returned unchanged.
func mergeMeta(params json.RawMessage, extra map[string]any, token json.RawMessage) (json.RawMessage, string, error) {
	t := bytes.TrimSpace(params)
	if len(t) > 0 && t[0] != '{' {
		return params, "", nil
	}
	hasMeta := bytes.Contains(t, []byte(`"_meta"`))
	if len(extra) == 0 && token == nil && !hasMeta {
		return params, "", nil
	}
	if len(t) == 0 || string(t) == "null" {
		t = []byte("{}")
	}
	if !hasMeta {
		// Fast path: splice a fresh _meta in front of the other members.
		meta, err := encodeMeta(nil, extra, token)
		if err != nil {
			return nil, "", err
		}
		body := bytes.TrimSpace(t[1:])
		out := make([]byte, 0, len(t)+len(meta)+10)
		out = append(out, `{"_meta":`...)
		out = append(out, meta...)
		if len(body) > 0 && body[0] != '}' {
			out = append(out, ',')
		}
		out = append(out, body...)
		return out, string(token), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(t, &obj); err != nil {
		return nil, "", fmt.Errorf("session: params: %w", err)
	}
	var have map[string]json.RawMessage
	if m := bytes.TrimSpace(obj["_meta"]); len(m) > 0 && m[0] == '{' {
		if err := json.Unmarshal(m, &have); err != nil {
			return nil, "", fmt.Errorf("session: params._meta: %w", err)
		}
	} else if len(m) > 0 && string(m) != "null" {
		// _meta is not an object: leave the request as the caller made it.
		return params, "", nil
	}
	tokenText := ""
	if tok, ok := have["progressToken"]; ok {
		tokenText = string(bytes.TrimSpace(tok))
		token = nil
	} else if token != nil {
		tokenText = string(token)
	}
	if len(extra) == 0 && token == nil {
		return params, tokenText, nil
	}
	meta, err := encodeMeta(have, extra, token)
	if err != nil {
		return nil, "", err
	}
	obj["_meta"] = meta
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, "", fmt.Errorf("session: params: %w", err)
	}
	return out, tokenText, nil
}

// encodeMeta writes a _meta object: have's entries as they were, then the
// entries of extra that have lacks, then progressToken (when not nil), in
// a stable order.
func encodeMeta(have map[string]json.RawMessage, extra map[string]any, token json.RawMessage) (json.RawMessage, error) {
	all := make(map[string]json.RawMessage, len(have)+len(extra)+1)
	for k, v := range have {
		all[k] = v
	}
	for k, v := range extra {
		if _, ok := all[k]; ok {
			continue
		}
		var b []byte
		var err error
		if r, ok := v.(json.RawMessage); ok {
			b = r
		} else if b, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("session: _meta %q: %w", k, err)
		}
		all[k] = b
	}
	if token != nil {
		all["progressToken"] = token
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(appendString(nil, k))
		buf.WriteByte(':')
		buf.Write(all[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
