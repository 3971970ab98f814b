package mcpresult

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
)

// Problem is one place where a result does not match the MCP schema.
type Problem struct {
	// Path is the JSON pointer of the part, such as "/content/2" ("" for
	// the whole result).
	Path string
	// What says what is wrong there, such as `unknown content type "video"`.
	What string
}

// String returns "PATH: WHAT".
func (p Problem) String() string {
	if p.Path == "" {
		return p.What
	}
	return p.Path + ": " + p.What
}

// Problems are the shape problems of one result; as an error they read
// as one line.
type Problems []Problem

// Error implements error: every problem, "; "-separated.
func (ps Problems) Error() string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, "; ")
}

// decode unmarshals raw into v, adding a problem at path when it does
// not fit; v keeps whatever did. It reports whether raw was JSON of the
// right kind at the top.
func (ps *Problems) decode(path string, raw json.RawMessage, v any) bool {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return true
	}
	te, ok := err.(*json.UnmarshalTypeError)
	if !ok {
		*ps = append(*ps, Problem{path, strings.TrimPrefix(err.Error(), "json: ")})
		return false
	}
	if te.Field != "" {
		path += "/" + strings.ReplaceAll(te.Field, ".", "/")
	}
	*ps = append(*ps, Problem{path, "must be " + jsonKind(te.Type.Kind().String()) + ", not " + te.Value})
	return te.Field != ""
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	}
	return "a number"
}

// Content is one content block of a tool result or prompt message, or one
// item of a resource read.
type Content struct {
	// Type is text, image, audio, resource_link or resource (an embedded
	// resource; a read's binary item too), or whatever unknown kind the
	// server sent.
	Type string
	// Text is the text of a text block or a text resource, except for a
	// text of more than LazyText bytes with escapes in its JSON: that one
	// is checked and measured but decoded only when asked for (TextHead,
	// FullText), and Text is "". TextLen, TextHead and FullText read
	// either kind.
	Text     string
	MIMEType string
	// Data holds the decoded bytes of image, audio and blob content
	// (non-nil, maybe empty, for a blob).
	Data []byte
	URI  string
	Name string
	// Raw is the block exactly as the server sent it.
	Raw json.RawMessage

	lazy    span // the quoted text decoded on demand, or nil
	textLen int  // its length decoded
}

// LazyText is the size beyond which a text with escapes in its JSON is
// decoded on demand rather than with the result: a 50 MB text was
// otherwise a second copy of the message held for as long as the result,
// while the window shows its first 64 KB (issue #17). A text without
// escapes is the message's own bytes at any size.
const LazyText = 1 << 20

// TextLen is the text's length in bytes, decoded or not.
func (c Content) TextLen() int {
	if c.lazy != nil {
		return c.textLen
	}
	return len(c.Text)
}

// FullText is the whole text: Text, or a text left for later decoded now
// (one copy each call).
func (c Content) FullText() string {
	if c.lazy == nil {
		return c.Text
	}
	s, _ := unquote(c.lazy) // checked when decoded
	return s
}

// TextHead is the text's first n bytes or a few more, ending with a
// whole character (all of it when shorter); only that much is decoded.
func (c Content) TextHead(n int) string {
	n = max(n, 0)
	if c.lazy == nil {
		if n >= len(c.Text) {
			return c.Text
		}
		for n < len(c.Text) && !utf8.RuneStart(c.Text[n]) {
			n++
		}
		return c.Text[:n]
	}
	in, _ := quoted(c.lazy)
	u := unquoter{out: make([]byte, 0, min(n+8, c.textLen))}
	u.run(in, n)
	return bytesString(u.out)
}

// span is a JSON value kept as the bytes it was decoded from, like
// json.RawMessage but without a copy: json.Unmarshal hands UnmarshalJSON
// a sub-slice of its input, and a span keeps that slice. The decoded
// values (Content.Raw, StructuredContent, the schemas, a text without
// escapes: see text) are therefore
// windows on the raw result they were decoded from, which must not be
// modified afterwards (a received message is immutable: the log keeps
// it). A 50 MB result decoded into json.RawMessage copies held it twice
// more (issue #17); TestDecodeAliasesRaw holds encoding/json to this.
type span []byte

// UnmarshalJSON keeps b itself.
func (s *span) UnmarshalJSON(b []byte) error {
	*s = b[:len(b):len(b)]
	return nil
}

// raw is s as a json.RawMessage (nil when s is empty).
func (s span) raw() json.RawMessage {
	if len(s) == 0 {
		return nil
	}
	return json.RawMessage(s)
}

// resourceContents is one item of resources/read or an embedded resource.
type resourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	Text     span   `json:"text"`
	Blob     span   `json:"blob"`
}

// DecodeContent decodes one content block; path is its JSON pointer in the
// result, for the problems. An unknown type is kept (Type and Raw) and
// reported.
func DecodeContent(raw json.RawMessage, path string) (Content, Problems) {
	var ps Problems
	var r struct {
		Type     string            `json:"type"`
		Text     span              `json:"text"`
		Data     span              `json:"data"`
		MIMEType string            `json:"mimeType"`
		URI      string            `json:"uri"`
		Name     string            `json:"name"`
		Resource *resourceContents `json:"resource"`
	}
	ps.decode(path, raw, &r)
	c := Content{Type: r.Type, MIMEType: r.MIMEType, URI: r.URI, Name: r.Name, Raw: raw}
	ps.setText(&c, path+"/text", r.Text)
	switch r.Type {
	case "image", "audio":
		c.Data = ps.base64(path+"/data", r.Data)
	case "resource":
		if r.Resource == nil {
			ps = append(ps, Problem{path, "an embedded resource needs a resource object"})
			break
		}
		c.URI, c.MIMEType = r.Resource.URI, r.Resource.MIMEType
		c.Text, c.lazy, c.textLen = "", nil, 0
		c.Data = ps.textOrBlob(&c, path+"/resource", r.Resource)
	case "text", "resource_link":
	case "":
		if len(ps) == 0 {
			ps = append(ps, Problem{path, "a content block needs a type"})
		}
	default:
		ps = append(ps, Problem{path, fmt.Sprintf("unknown content type %q (kept as sent)", r.Type)})
	}
	return c, ps
}

// base64 decodes a JSON string of base64 (as its span, quotes and all)
// straight from the message's bytes; only a string with escapes (a
// server may write "/" as "\/") is unquoted first. A missing value
// decodes to no bytes.
func (ps *Problems) base64(path string, s span) []byte {
	if len(s) == 0 || string(s) == "null" {
		return []byte{}
	}
	var b []byte
	var err error
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && bytes.IndexByte(s, '\\') < 0 {
		in := s[1 : len(s)-1]
		b = make([]byte, base64.StdEncoding.DecodedLen(len(in)))
		var n int
		n, err = base64.StdEncoding.Decode(b, in)
		b = b[:n]
	} else {
		var str string
		if err = json.Unmarshal(s, &str); err == nil {
			b, err = base64.StdEncoding.DecodeString(str)
		}
	}
	if err != nil {
		*ps = append(*ps, Problem{path, "not valid base64"})
		return []byte{}
	}
	return b
}

// textOrBlob sets c's text to an item's text (setText), or returns its
// blob's bytes (non-nil).
func (ps *Problems) textOrBlob(c *Content, path string, r *resourceContents) []byte {
	if len(r.Text) > 0 && string(r.Text) != "null" {
		ps.setText(c, path+"/text", r.Text)
		return nil
	}
	if r.Blob == nil || string(r.Blob) == "null" {
		*ps = append(*ps, Problem{path, "resource contents need text or blob"})
		return []byte{}
	}
	return ps.base64(path+"/blob", r.Blob)
}

func decodeContents(raws []span, path string, ps *Problems) []Content {
	out := make([]Content, 0, len(raws))
	for i, raw := range raws {
		c, p := DecodeContent(raw.raw(), path+"/"+strconv.Itoa(i))
		out = append(out, c)
		*ps = append(*ps, p...)
	}
	return out
}

// ToolResult is the answer to tools/call.
type ToolResult struct {
	Content           []Content
	StructuredContent json.RawMessage // nil when absent or null
	IsError           bool
	// TaskID is set when the call started a task instead.
	TaskID string
	// Problems are the places the result does not match the MCP schema.
	Problems Problems
	Raw      json.RawMessage
}

// DecodeToolResult decodes a tools/call result (or a task's tool result).
func DecodeToolResult(raw json.RawMessage) ToolResult {
	out := ToolResult{Raw: raw}
	var r struct {
		Content           span `json:"content"`
		StructuredContent span `json:"structuredContent"`
		IsError           bool `json:"isError"`
		Task              *struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	ok := out.Problems.decode("", raw, &r)
	if r.Task != nil && r.Task.TaskID != "" {
		out.TaskID = r.Task.TaskID
		return out
	}
	var blocks []span
	if len(r.Content) == 0 || string(r.Content) == "null" {
		if ok {
			out.Problems = append(out.Problems, Problem{"/content", "missing (a tool result needs a content array)"})
		}
	} else {
		out.Problems.decode("/content", r.Content.raw(), &blocks)
	}
	out.Content = decodeContents(blocks, "/content", &out.Problems)
	out.IsError = r.IsError
	if len(r.StructuredContent) > 0 && string(r.StructuredContent) != "null" {
		out.StructuredContent = r.StructuredContent.raw()
	}
	return out
}

// CheckOutput checks structuredContent against a tool's outputSchema and
// says where it does not match ("" when it does, or there is no schema).
func CheckOutput(schema, value json.RawMessage) string {
	if len(schema) == 0 {
		return ""
	}
	sch, err := schemaform.CompileSchema(schema)
	if err != nil {
		return "the outputSchema itself is invalid: " + err.Error()
	}
	var parts []string
	for _, is := range sch.Validate(value) {
		if is.Code == schemaform.CodeJSON {
			return "structuredContent is not JSON"
		}
		parts = append(parts, is.String())
	}
	return strings.Join(parts, "; ")
}

// Tool is one tool of tools/list, with its schemas exactly as sent.
type Tool struct {
	Name, Title, Description string
	InputSchema              json.RawMessage
	OutputSchema             json.RawMessage
	ReadOnly, Destructive    bool
	Idempotent, OpenWorld    bool
	// TaskSupport is "", "optional", "required" or "forbidden".
	TaskSupport string
	// IconURL is the tool's first icon (a data: URI or an http(s) URL).
	IconURL string
	Raw     json.RawMessage
	// HeaderError, set by the caller from the session's check, says why
	// the tool is not called: its x-mcp-header declarations are invalid
	// (protocol 2026-07-28). nil for a tool that can be called.
	HeaderError error
}

// DecodeTools decodes listed tools (each item exactly as sent).
func DecodeTools(raws []json.RawMessage) ([]Tool, Problems) {
	var ps Problems
	out := make([]Tool, 0, len(raws))
	for i, raw := range raws {
		var r struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
			Annotations  struct {
				Title           string `json:"title"`
				ReadOnlyHint    bool   `json:"readOnlyHint"`
				DestructiveHint bool   `json:"destructiveHint"`
				IdempotentHint  bool   `json:"idempotentHint"`
				OpenWorldHint   bool   `json:"openWorldHint"`
			} `json:"annotations"`
			Execution struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
			Icons []struct {
				Src string `json:"src"`
			} `json:"icons"`
		}
		path := "/tools/" + strconv.Itoa(i)
		ps.decode(path, raw, &r)
		if r.Name == "" {
			ps = append(ps, Problem{path, "a tool needs a name"})
		}
		if r.Title == "" {
			r.Title = r.Annotations.Title
		}
		a := r.Annotations
		t := Tool{
			Name: r.Name, Title: r.Title, Description: r.Description,
			InputSchema: r.InputSchema, OutputSchema: r.OutputSchema,
			ReadOnly: a.ReadOnlyHint, Destructive: a.DestructiveHint, Idempotent: a.IdempotentHint, OpenWorld: a.OpenWorldHint,
			TaskSupport: r.Execution.TaskSupport, Raw: raw,
		}
		if len(r.Icons) > 0 {
			t.IconURL = r.Icons[0].Src
		}
		out = append(out, t)
	}
	return out, ps
}

// Resource is one resources/list entry.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
}

// ResourceTemplate is one resources/templates/list entry.
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
}

// DecodeResources decodes listed resources.
func DecodeResources(raws []json.RawMessage) ([]Resource, Problems) {
	return decodeEach(raws, "/resources", func(r Resource) bool { return r.URI != "" }, "needs a uri")
}

// DecodeResourceTemplates decodes listed resource templates.
func DecodeResourceTemplates(raws []json.RawMessage) ([]ResourceTemplate, Problems) {
	return decodeEach(raws, "/resourceTemplates", func(r ResourceTemplate) bool { return r.URITemplate != "" }, "needs a uriTemplate")
}

// decodeEach decodes list items under path; an item that is not ok gets
// the problem missing.
func decodeEach[T any](raws []json.RawMessage, path string, ok func(T) bool, missing string) ([]T, Problems) {
	var ps Problems
	out := make([]T, len(raws))
	for i, raw := range raws {
		p := path + "/" + strconv.Itoa(i)
		if ps.decode(p, raw, &out[i]) && !ok(out[i]) {
			ps = append(ps, Problem{p, missing})
		}
	}
	return out, ps
}

// ReadResult is the answer to resources/read.
type ReadResult struct {
	// Contents are the items: Type "text" for text, "resource" for a blob.
	Contents []Content
	// Cache is the result's ttlMs and cacheScope (modern protocol).
	Cache    CacheHint
	Problems Problems
	Raw      json.RawMessage
}

// DecodeReadResult decodes a resources/read result.
func DecodeReadResult(raw json.RawMessage) ReadResult {
	out := ReadResult{Raw: raw}
	var r struct {
		Contents []span `json:"contents"`
	}
	if !out.Problems.decode("", raw, &r) {
		return out
	}
	var cps Problems
	out.Cache, cps = DecodeCacheHint(raw)
	out.Problems = append(out.Problems, cps...)
	for i, item := range r.Contents {
		path := "/contents/" + strconv.Itoa(i)
		var x resourceContents
		out.Problems.decode(path, item.raw(), &x)
		c := Content{Type: "text", URI: x.URI, MIMEType: x.MIMEType, Raw: item.raw()}
		c.Data = out.Problems.textOrBlob(&c, path, &x)
		if c.Data != nil {
			c.Type = "resource"
		}
		out.Contents = append(out.Contents, c)
	}
	return out
}

// Prompt is one prompts/list entry.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Arguments   []PromptArgument `json:"arguments"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// DecodePrompts decodes listed prompts.
func DecodePrompts(raws []json.RawMessage) ([]Prompt, Problems) {
	return decodeEach(raws, "/prompts", func(p Prompt) bool { return p.Name != "" }, "a prompt needs a name")
}

// PromptMessage is one message of prompts/get.
type PromptMessage struct {
	Role    string
	Content Content
}

// PromptResult is the answer to prompts/get.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
	Problems    Problems
	Raw         json.RawMessage
}

// DecodePromptResult decodes a prompts/get result.
func DecodePromptResult(raw json.RawMessage) PromptResult {
	out := PromptResult{Raw: raw}
	var r struct {
		Description string `json:"description"`
		Messages    []struct {
			Role    string `json:"role"`
			Content span   `json:"content"`
		} `json:"messages"`
	}
	if !out.Problems.decode("", raw, &r) {
		return out
	}
	out.Description = r.Description
	for i, m := range r.Messages {
		c, ps := DecodeContent(m.Content.raw(), "/messages/"+strconv.Itoa(i)+"/content")
		out.Messages = append(out.Messages, PromptMessage{Role: m.Role, Content: c})
		out.Problems = append(out.Problems, ps...)
	}
	return out
}

// Task is one task of the tasks API.
type Task struct {
	ID, Status, StatusMessage string
	Created, Updated          time.Time
}

// DecodeTask decodes one task object (a tasks/list item, or the result of
// tasks/get and tasks/cancel).
func DecodeTask(raw json.RawMessage) (Task, Problems) {
	var ps Problems
	t := decodeTask(raw, "", &ps)
	return t, ps
}

// DecodeTasks decodes listed tasks.
func DecodeTasks(raws []json.RawMessage) ([]Task, Problems) {
	var ps Problems
	out := make([]Task, len(raws))
	for i, raw := range raws {
		out[i] = decodeTask(raw, "/tasks/"+strconv.Itoa(i), &ps)
	}
	return out, ps
}

func decodeTask(raw json.RawMessage, path string, ps *Problems) Task {
	var t struct {
		TaskID        string    `json:"taskId"`
		Status        string    `json:"status"`
		StatusMessage string    `json:"statusMessage"`
		CreatedAt     time.Time `json:"createdAt"`
		LastUpdatedAt time.Time `json:"lastUpdatedAt"`
	}
	if ps.decode(path, raw, &t) && t.TaskID == "" {
		*ps = append(*ps, Problem{path + "/taskId", "missing"})
	}
	return Task{ID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage, Created: t.CreatedAt, Updated: t.LastUpdatedAt}
}

// Completion is the answer to completion/complete.
type Completion struct {
	Values  []string `json:"values"`
	Total   int      `json:"total"`
	HasMore bool     `json:"hasMore"`
}

// DecodeCompletion decodes a completion/complete result.
func DecodeCompletion(raw json.RawMessage) (Completion, Problems) {
	var ps Problems
	var r struct {
		Completion Completion `json:"completion"`
	}
	ps.decode("", raw, &r)
	return r.Completion, ps
}
