package collection

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

// The collection file format identifiers (FORMAT.md).
const (
	Format        = "spyglass-collection"
	FormatVersion = 1
)

// Errors Read returns (wrapped).
var (
	ErrNotCollection = errors.New("not a spyglass collection")
	ErrVersion       = errors.New("unsupported collection version")
	ErrInvalid       = errors.New("invalid collection")
)

// Schema is collection.schema.json, the JSON Schema of the file format.
//
//go:embed collection.schema.json
var Schema []byte

// Collection is a named, ordered list of saved calls.
type Collection struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"formatVersion"`
	// Name names the collection (the JUnit test suite).
	Name string `json:"name"`
	// Server is where the calls go, unless the command line names one.
	Server *Server `json:"server,omitempty"`
	// Ignore adds JSON pointer patterns to the default ignore list of
	// "result" expectations (core/sessiondiff).
	Ignore []string `json:"ignore,omitempty"`
	// Calls run in order.
	Calls []Call `json:"calls"`
}

// Server names the server of a collection: a catalog server by name
// ({"name": "my-server"}), or an entry in the catalog's own form
// ({"command": …, "args": […]} or {"type": "http", "url": …}).
type Server struct {
	// Name is a server of the catalog (or --config file).
	Name string
	// Entry is a server entry as in mcp.json, when Name is empty.
	Entry *catalog.Server
}

// UnmarshalJSON reads {"name": …} or a catalog entry.
func (s *Server) UnmarshalJSON(b []byte) error {
	var n map[string]json.RawMessage
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	if raw, ok := n["name"]; ok {
		if len(n) > 1 {
			return errors.New(`server: give {"name": "…"} for a catalog server, or a server entry (command/args or type/url) without "name"`)
		}
		return json.Unmarshal(raw, &s.Name)
	}
	var e catalog.Server
	if err := json.Unmarshal(b, &e); err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	s.Entry = &e
	return nil
}

// MarshalJSON writes what UnmarshalJSON reads.
func (s Server) MarshalJSON() ([]byte, error) {
	if s.Name != "" || s.Entry == nil {
		return json.Marshal(map[string]string{"name": s.Name})
	}
	return json.Marshal(s.Entry)
}

// Call is one saved request.
type Call struct {
	// Name names the call (the JUnit test case); the method and its
	// tool/prompt/resource when empty.
	Name   string          `json:"name,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Expect lists what must hold; none means only that the call gets
	// an answer (a result, or a JSON-RPC error).
	Expect *Expect `json:"expect,omitempty"`
}

// Expect is what a call's outcome must satisfy. Every expectation given
// must hold.
type Expect struct {
	// Result: the result equals this one, after the ignore list
	// (pointers into the message, as in --diff: /result/...).
	Result json.RawMessage `json:"result,omitempty"`
	// Pointers: the value at each JSON pointer into the result equals
	// the given value.
	Pointers []PointerEquals `json:"pointers,omitempty"`
	// Schema: the result validates against a schema. true: a tool call's
	// structuredContent against the tool's outputSchema (from
	// tools/list); an object: that schema, against structuredContent for
	// tools/call and against the result for any other method.
	Schema json.RawMessage `json:"schema,omitempty"`
	// Error: the outcome is a JSON-RPC error with this code.
	Error *ErrorCode `json:"error,omitempty"`
	// IsError: a tool result's isError is this value.
	IsError *bool `json:"isError,omitempty"`
	// MaxDuration: the call takes less than this (a Go duration: 500ms,
	// 2s).
	MaxDuration Duration `json:"maxDuration,omitempty"`
}

// PointerEquals is one "JSON pointer equals value" expectation.
type PointerEquals struct {
	Pointer string          `json:"pointer"`
	Equals  json.RawMessage `json:"equals"`
}

// ErrorCode is the expected JSON-RPC error.
type ErrorCode struct {
	Code int `json:"code"`
}

// Duration is a time.Duration written as a Go duration string.
type Duration time.Duration

// UnmarshalJSON reads "500ms", "2s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"500ms\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		return fmt.Errorf("%q is not a duration; write e.g. \"500ms\" or \"2s\"", s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UsesOutputSchema reports whether the expectation needs the tool's
// outputSchema (schema: true).
func (e *Expect) UsesOutputSchema() bool {
	return e != nil && bytes.Equal(bytes.TrimSpace(e.Schema), []byte("true"))
}

// Label is the call's name, or what it does.
func (c *Call) Label() string {
	if c.Name != "" {
		return c.Name
	}
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(c.Params, &p)
	switch {
	case p.Name != "":
		return c.Method + " " + p.Name
	case p.URI != "":
		return c.Method + " " + p.URI
	}
	return c.Method
}

// ToolName is the tool a tools/call calls ("" for other methods).
func (c *Call) ToolName() string {
	if c.Method != "tools/call" {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(c.Params, &p)
	return p.Name
}

// Read reads and checks a collection file.
func Read(r io.Reader) (*Collection, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var c Collection
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("read collection: %w: %w", ErrInvalid, err)
	}
	switch {
	case c.Format != Format:
		return nil, fmt.Errorf("read collection: %w: format %q (a collection has \"format\": %q)", ErrNotCollection, c.Format, Format)
	case c.FormatVersion > FormatVersion:
		return nil, fmt.Errorf("read collection: %w: the file is format version %d, written by a newer Spyglass; this one reads versions 1 to %d", ErrVersion, c.FormatVersion, FormatVersion)
	case c.FormatVersion < 1:
		return nil, fmt.Errorf("read collection: %w: formatVersion %d", ErrVersion, c.FormatVersion)
	case len(c.Calls) == 0:
		return nil, fmt.Errorf("read collection: %w: no calls", ErrInvalid)
	}
	for i, call := range c.Calls {
		if call.Method == "" {
			return nil, fmt.Errorf("read collection: %w: call %d has no method", ErrInvalid, i+1)
		}
		if len(call.Params) > 0 && !json.Valid(call.Params) {
			return nil, fmt.Errorf("read collection: %w: call %d: params are not JSON", ErrInvalid, i+1)
		}
		if e := call.Expect; e != nil && len(e.Schema) > 0 && !e.UsesOutputSchema() && !isObject(e.Schema) {
			return nil, fmt.Errorf("read collection: %w: call %q: schema is true (the tool's outputSchema) or a schema object", ErrInvalid, call.Label())
		}
		if e := call.Expect; e.UsesOutputSchema() && call.Method != "tools/call" {
			return nil, fmt.Errorf("read collection: %w: call %q: schema: true means the tool's outputSchema, so it needs a tools/call", ErrInvalid, call.Label())
		}
	}
	return &c, nil
}

// Write writes a collection as indented JSON.
func Write(w io.Writer, c *Collection) error {
	out := *c
	out.Format, out.FormatVersion = Format, FormatVersion
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(&out)
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}
