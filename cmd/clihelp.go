package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// version is Spyglass's version, printed by --version and written into
// traces. Release builds set it with -ldflags "-X ...cmd.version=...".
var version = "0.1.0-dev"

// parseToolArgs turns --tool-arg k=v pairs into a JSON object, reading
// each value as the type the schema gives its property: strings stay
// text, numbers keep every digit, booleans, arrays, objects and null must
// be valid JSON. A property the schema does not describe is read as JSON
// when it parses, as text otherwise.
func parseToolArgs(kvs []KeyValue, schema json.RawMessage) (json.RawMessage, error) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range kvs {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(kv.Key)
		b.Write(key)
		b.WriteByte(':')
		v, err := argValue(kv, s.Properties[kv.Key])
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// argValue encodes one --tool-arg value for its property schema.
func argValue(kv KeyValue, prop json.RawMessage) (json.RawMessage, error) {
	types := schemaTypes(prop)
	text, _ := json.Marshal(kv.Value)
	if len(types) == 0 {
		if json.Valid([]byte(kv.Value)) {
			return json.RawMessage(kv.Value), nil
		}
		return text, nil
	}
	if types["string"] {
		// A nullable string given as the word null is null.
		if types["null"] && kv.Value == "null" {
			return json.RawMessage("null"), nil
		}
		return text, nil
	}
	dec := json.NewDecoder(strings.NewReader(kv.Value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, fmt.Errorf("--tool-arg %s=%s: the schema expects %s; give a JSON value (e.g. %s)",
			kv.Key, kv.Value, typeList(types), exampleFor(types))
	}
	ok := false
	switch n := v.(type) {
	case json.Number:
		ok = types["number"] || (types["integer"] && !strings.ContainsAny(string(n), ".eE"))
	case bool:
		ok = types["boolean"]
	case []any:
		ok = types["array"]
	case map[string]any:
		ok = types["object"]
	case nil:
		ok = types["null"]
	}
	if !ok {
		return nil, fmt.Errorf("--tool-arg %s=%s: the schema expects %s (e.g. %s)", kv.Key, kv.Value, typeList(types), exampleFor(types))
	}
	return json.RawMessage(strings.TrimSpace(kv.Value)), nil
}

// schemaTypes returns the JSON types a property schema allows ("type" as
// a string or a list, or the types of its enum values).
func schemaTypes(prop json.RawMessage) map[string]bool {
	var p struct {
		Type json.RawMessage `json:"type"`
		Enum []any           `json:"enum"`
	}
	if json.Unmarshal(prop, &p) != nil {
		return nil
	}
	out := map[string]bool{}
	var one string
	var many []string
	if json.Unmarshal(p.Type, &one) == nil && one != "" {
		out[one] = true
	} else if json.Unmarshal(p.Type, &many) == nil {
		for _, t := range many {
			out[t] = true
		}
	}
	if len(out) == 0 {
		for _, e := range p.Enum {
			if _, isStr := e.(string); isStr {
				out["string"] = true
			}
		}
	}
	return out
}

func typeList(types map[string]bool) string {
	var names []string
	for _, t := range []string{"integer", "number", "boolean", "array", "object", "null"} {
		if types[t] {
			names = append(names, t)
		}
	}
	if len(names) == 0 {
		return "a JSON value"
	}
	return "a JSON " + strings.Join(names, " or ")
}

func exampleFor(types map[string]bool) string {
	switch {
	case types["integer"]:
		return "42"
	case types["number"]:
		return "3.5"
	case types["boolean"]:
		return "true"
	case types["array"]:
		return `'["a","b"]'`
	case types["object"]:
		return `'{"k":"v"}'`
	}
	return "null"
}

// describeError words a connection or request failure for a person.
func describeError(err error) string {
	msg := describeCause(err)
	if errors.Is(err, session.ErrOutcomeUnknown) && !strings.Contains(msg, "may have run") {
		msg += " (the tool may have run)"
	}
	if errors.Is(err, session.ErrOutcomeUnknown) {
		msg += " — check whether it did before retrying"
	}
	return msg
}

// signInFailure returns why a sign-in failed, when err joins the server's
// refusal with the authorizer's error (see authConn), else "".
func signInFailure(err error) string {
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return ""
	}
	for _, e := range joined.Unwrap() {
		var h *wire.HTTPError
		if !errors.As(e, &h) {
			return e.Error()
		}
	}
	return ""
}

// describeCause words the cause of a failure.
func describeCause(err error) string {
	var exit *wire.ExitError
	var httpErr *wire.HTTPError
	var timeout *session.TimeoutError
	var start *wire.StartError
	var legacy *session.LegacyServerError
	switch {
	case errors.As(err, &legacy):
		refusal := strings.TrimSuffix(describeCause(legacy.Refusal), " — is this the server's MCP endpoint?")
		var rpc *session.RPCError
		if errors.As(legacy.Refusal, &rpc) {
			refusal = fmt.Sprintf("JSON-RPC error %d %s", rpc.Code, rpc.Message)
		}
		return fmt.Sprintf("the server does not speak protocol %s (it refused server/discover: %s) — it likely speaks only the legacy initialize handshake; use --protocol-era auto or legacy (or protocolEra in the catalog)",
			legacy.Version, refusal)
	case errors.As(err, &start) && errors.Is(err, wire.ErrCommandNotFound):
		return fmt.Sprintf("command not found: %s — check the command, or give its full path", start.Command)
	case errors.As(err, &httpErr) && errors.Is(err, wire.ErrUnauthorized):
		msg := fmt.Sprintf("the server requires authorization (HTTP %d from %s)", httpErr.Status, httpErr.URL)
		if why := signInFailure(err); why != "" {
			msg += "; signing in failed: " + why
		}
		return msg
	case errors.As(err, &httpErr):
		return fmt.Sprintf("HTTP %d from %s %s — is this the server's MCP endpoint?", httpErr.Status, httpErr.Method, httpErr.URL)
	case errors.Is(err, wire.ErrUnreachable):
		return fmt.Sprintf("%v — is the server running, and is the URL right?", err)
	case errors.As(err, &timeout):
		return fmt.Sprintf("%s timed out after %s (raise it with --timeout)", timeout.Method, timeout.After.Round(1e6))
	case errors.As(err, &exit):
		return fmt.Sprintf("the server exited (%v) before answering", exit)
	case errors.Is(err, session.ErrNoResponse):
		return fmt.Sprintf("%v — the connection closed before the answer came", err)
	}
	return err.Error()
}

// writeJSON writes the valid JSON value raw to w as json.Indent(dst, raw,
// "", indent) would, or as json.Compact when indent is "", without
// building a copy of it: strings, the bulk of a large result, go straight
// from raw to w. Numbers and strings keep their exact bytes.
func writeJSON(w *bufio.Writer, raw []byte, indent string) {
	end := len(bytes.TrimRight(raw, " \t\r\n"))
	// open: a bracket was just written; its newline waits for the first
	// member, so that {} and [] stay as they are.
	depth, open := 0, false
	newline := func() {
		if indent != "" {
			w.WriteByte('\n')
			for range depth {
				w.WriteString(indent)
			}
		}
	}
	for i := 0; i < end; i++ {
		c := raw[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for {
				j += bytes.IndexAny(raw[j:], `"\`)
				if raw[j] == '"' {
					break
				}
				j += 2 // an escape: skip the escaped byte
			}
			w.Write(raw[i : j+1])
			i = j
		case '{', '[':
			open = true
			w.WriteByte(c)
		case ',':
			w.WriteByte(c)
			newline()
		case ':':
			w.WriteByte(c)
			if indent != "" {
				w.WriteByte(' ')
			}
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
			w.WriteByte(c)
		default:
			w.WriteByte(c)
		}
	}
	if indent != "" { // json.Indent keeps trailing space, json.Compact drops it
		w.Write(raw[end:])
	}
}
