package mcpresult

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDecodeContent(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      Content // Raw is always the input
		problems  []string
	}{
		{name: "text", raw: `{"type":"text","text":"hi"}`, want: Content{Type: "text", Text: "hi"}},
		{name: "image", raw: `{"type":"image","data":"AQID","mimeType":"image/png"}`,
			want: Content{Type: "image", MIMEType: "image/png", Data: []byte{1, 2, 3}}},
		{name: "audio", raw: `{"type":"audio","data":"AAE=","mimeType":"audio/wav"}`,
			want: Content{Type: "audio", MIMEType: "audio/wav", Data: []byte{0, 1}}},
		{name: "resource link", raw: `{"type":"resource_link","uri":"file:///a","name":"a","mimeType":"text/plain"}`,
			want: Content{Type: "resource_link", URI: "file:///a", Name: "a", MIMEType: "text/plain"}},
		{name: "embedded text resource", raw: `{"type":"resource","resource":{"uri":"x://t","mimeType":"text/plain","text":""}}`,
			want: Content{Type: "resource", URI: "x://t", MIMEType: "text/plain"}},
		{name: "embedded blob resource", raw: `{"type":"resource","resource":{"uri":"x://b","blob":"AQI="}}`,
			want: Content{Type: "resource", URI: "x://b", Data: []byte{1, 2}}},
		{name: "empty blob is empty bytes", raw: `{"type":"resource","resource":{"uri":"x://b","blob":""}}`,
			want: Content{Type: "resource", URI: "x://b", Data: []byte{}}},
		{name: "unknown kind kept", raw: `{"type":"video","url":"https://v"}`,
			want: Content{Type: "video"}, problems: []string{`/content/0: unknown content type "video" (kept as sent)`}},
		{name: "no type", raw: `{"text":"hi"}`,
			want: Content{Text: "hi"}, problems: []string{"/content/0: a content block needs a type"}},
		{name: "not an object", raw: `"hi"`,
			problems: []string{"/content/0: must be an object, not string"}},
		{name: "text is a number", raw: `{"type":"text","text":5}`,
			want: Content{Type: "text"}, problems: []string{"/content/0/text: must be a string, not number"}},
		{name: "bad base64", raw: `{"type":"image","data":"!!","mimeType":"image/png"}`,
			want: Content{Type: "image", MIMEType: "image/png", Data: []byte{}}, problems: []string{"/content/0/data: not valid base64"}},
		{name: "resource without resource", raw: `{"type":"resource"}`,
			want: Content{Type: "resource"}, problems: []string{"/content/0: an embedded resource needs a resource object"}},
		{name: "resource without text or blob", raw: `{"type":"resource","resource":{"uri":"x://n"}}`,
			want: Content{Type: "resource", URI: "x://n", Data: []byte{}}, problems: []string{"/content/0/resource: resource contents need text or blob"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ps := DecodeContent(json.RawMessage(tc.raw), "/content/0")
			tc.want.Raw = json.RawMessage(tc.raw)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if g := strs(ps); !reflect.DeepEqual(g, tc.problems) {
				t.Errorf("problems %q, want %q", g, tc.problems)
			}
		})
	}
}

func strs(ps Problems) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

func TestDecodeToolResult(t *testing.T) {
	t.Run("unknown kind keeps the rest", func(t *testing.T) {
		raw := `{"content":[{"type":"text","text":"a"},{"type":"video","src":"v"}],"structuredContent":{"n":1},"isError":true}`
		r := DecodeToolResult(json.RawMessage(raw))
		if len(r.Content) != 2 || r.Content[0].Text != "a" || r.Content[1].Type != "video" || string(r.Content[1].Raw) != `{"type":"video","src":"v"}` {
			t.Fatalf("content %+v", r.Content)
		}
		if !r.IsError || string(r.StructuredContent) != `{"n":1}` || string(r.Raw) != raw {
			t.Fatalf("result %+v", r)
		}
		if got := r.Problems.Error(); got != `/content/1: unknown content type "video" (kept as sent)` {
			t.Fatalf("problems %q", got)
		}
	})
	for _, tc := range []struct{ name, raw, problems string }{
		{"fine", `{"content":[]}`, ""},
		{"no content", `{"isError":false}`, "/content: missing (a tool result needs a content array)"},
		{"content not an array", `{"content":{"type":"text"}}`, "/content: must be an array, not object"},
		{"not an object", `[1]`, "must be an object, not array"},
		{"not JSON", `{"content":`, "unexpected end of JSON input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := DecodeToolResult(json.RawMessage(tc.raw))
			if got := r.Problems.Error(); got != tc.problems {
				t.Fatalf("problems %q, want %q", got, tc.problems)
			}
		})
	}
	t.Run("null structuredContent is none", func(t *testing.T) {
		if r := DecodeToolResult(json.RawMessage(`{"content":[],"structuredContent":null}`)); r.StructuredContent != nil {
			t.Fatalf("structuredContent %s", r.StructuredContent)
		}
	})
	t.Run("task", func(t *testing.T) {
		r := DecodeToolResult(json.RawMessage(`{"task":{"taskId":"t-1","status":"working"}}`))
		if r.TaskID != "t-1" || len(r.Problems) != 0 {
			t.Fatalf("%+v", r)
		}
	})
}

func TestCheckOutput(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"temp":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}}},"required":["temp"]}`)
	for _, tc := range []struct{ value, want string }{
		{`{"temp": 21.5, "tags": ["a"]}`, ""},
		{`{"temp": "warm"}`, "/temp: must be number, not string"},
		{`{"tags": ["a", 2]}`, "/tags/1: must be string, not number; /temp: required"},
		{`{"temp": 1, "tags": ["a", 2]}`, "/tags/1: must be string, not number"},
		{`{"temp": 1`, "structuredContent is not JSON"},
	} {
		if got := CheckOutput(schema, json.RawMessage(tc.value)); got != tc.want {
			t.Errorf("CheckOutput(%s) = %q, want %q", tc.value, got, tc.want)
		}
	}
	if got := CheckOutput(nil, json.RawMessage(`{"temp":"x"}`)); got != "" {
		t.Errorf("no schema: %q", got)
	}
	if got := CheckOutput(json.RawMessage(`{"type":7}`), json.RawMessage(`{}`)); !strings.HasPrefix(got, "the outputSchema itself is invalid") {
		t.Errorf("bad schema: %q", got)
	}
}

func raws(items ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, s := range items {
		out[i] = json.RawMessage(s)
	}
	return out
}

func TestDecodeTools(t *testing.T) {
	tools, ps := DecodeTools(raws(
		`{"name":"get","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"title":"Get it","readOnlyHint":true,"openWorldHint":true},"execution":{"taskSupport":"optional"},"icons":[{"src":"data:x"},{"src":"y"}]}`,
		`{"name":"put","title":"Put","annotations":{"title":"ignored","destructiveHint":true,"idempotentHint":true}}`,
		`{"description":"nameless"}`,
	))
	want := []Tool{
		{Name: "get", Title: "Get it", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`),
			ReadOnly: true, OpenWorld: true, TaskSupport: "optional", IconURL: "data:x"},
		{Name: "put", Title: "Put", Destructive: true, Idempotent: true},
		{Description: "nameless"},
	}
	for i := range want {
		want[i].Raw = tools[i].Raw
	}
	if !reflect.DeepEqual(tools, want) {
		t.Fatalf("got %+v\nwant %+v", tools, want)
	}
	if got := ps.Error(); got != "/tools/2: a tool needs a name" {
		t.Fatalf("problems %q", got)
	}
}

func TestDecodeResources(t *testing.T) {
	rs, ps := DecodeResources(raws(`{"uri":"x://a","name":"a","title":"A","description":"d","mimeType":"text/plain"}`, `{"name":"b"}`, `7`))
	if rs[0] != (Resource{URI: "x://a", Name: "a", Title: "A", Description: "d", MIMEType: "text/plain"}) || rs[1].Name != "b" {
		t.Fatalf("%+v", rs)
	}
	if got := ps.Error(); got != "/resources/1: needs a uri; /resources/2: must be an object, not number" {
		t.Fatalf("problems %q", got)
	}
	ts, ps := DecodeResourceTemplates(raws(`{"uriTemplate":"x://{id}","name":"t"}`))
	if ts[0] != (ResourceTemplate{URITemplate: "x://{id}", Name: "t"}) || ps != nil {
		t.Fatalf("%+v %v", ts, ps)
	}
}

func TestDecodeReadResult(t *testing.T) {
	raw := `{"contents":[{"uri":"x://t","mimeType":"text/plain","text":"hi"},{"uri":"x://b","blob":"AQ=="},{"uri":"x://n"}]}`
	r := DecodeReadResult(json.RawMessage(raw))
	if len(r.Contents) != 3 {
		t.Fatalf("%+v", r)
	}
	if c := r.Contents[0]; c.Type != "text" || c.Text != "hi" || c.Data != nil || c.MIMEType != "text/plain" {
		t.Fatalf("text item %+v", c)
	}
	if c := r.Contents[1]; c.Type != "resource" || !reflect.DeepEqual(c.Data, []byte{1}) {
		t.Fatalf("blob item %+v", c)
	}
	if got := r.Problems.Error(); got != "/contents/2: resource contents need text or blob" {
		t.Fatalf("problems %q", got)
	}
	if r := DecodeReadResult(json.RawMessage(`{"contents":"x"}`)); r.Problems.Error() != "/contents: must be an array, not string" {
		t.Fatalf("problems %q", r.Problems.Error())
	}
}

func TestDecodePrompts(t *testing.T) {
	ps, probs := DecodePrompts(raws(`{"name":"p","title":"P","arguments":[{"name":"who","required":true}]}`, `{}`))
	if ps[0].Name != "p" || ps[0].Title != "P" || !reflect.DeepEqual(ps[0].Arguments, []PromptArgument{{Name: "who", Required: true}}) {
		t.Fatalf("%+v", ps)
	}
	if probs.Error() != "/prompts/1: a prompt needs a name" {
		t.Fatalf("problems %q", probs.Error())
	}
	r := DecodePromptResult(json.RawMessage(`{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"assistant","content":{"type":"hologram"}}]}`))
	if r.Description != "d" || len(r.Messages) != 2 || r.Messages[0].Content.Text != "hi" || r.Messages[1].Role != "assistant" || r.Messages[1].Content.Type != "hologram" {
		t.Fatalf("%+v", r)
	}
	if r.Problems.Error() != `/messages/1/content: unknown content type "hologram" (kept as sent)` {
		t.Fatalf("problems %q", r.Problems.Error())
	}
}

func TestDecodeTasks(t *testing.T) {
	ts, ps := DecodeTasks(raws(
		`{"taskId":"t-1","status":"working","statusMessage":"busy","createdAt":"2026-01-02T03:04:05Z","lastUpdatedAt":"2026-01-02T03:04:06Z"}`,
		`{"status":"completed"}`,
		`{"taskId":"t-3","createdAt":"yesterday"}`,
	))
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if !reflect.DeepEqual(ts[0], Task{ID: "t-1", Status: "working", StatusMessage: "busy", Created: created, Updated: created.Add(time.Second)}) {
		t.Fatalf("%+v", ts[0])
	}
	if ts[1].Status != "completed" || ts[2].ID != "t-3" {
		t.Fatalf("%+v", ts)
	}
	if len(ps) != 2 || ps[0].String() != "/tasks/1/taskId: missing" || !strings.HasPrefix(ps[1].Path, "/tasks/2") {
		t.Fatalf("problems %q", strs(ps))
	}
}

func TestDecodeCompletion(t *testing.T) {
	c, ps := DecodeCompletion(json.RawMessage(`{"completion":{"values":["rust","ruby"],"total":9,"hasMore":true}}`))
	if ps != nil || !reflect.DeepEqual(c, Completion{Values: []string{"rust", "ruby"}, Total: 9, HasMore: true}) {
		t.Fatalf("%+v %v", c, ps)
	}
	c, ps = DecodeCompletion(json.RawMessage(`{"completion":{"values":"rust"}}`))
	if c.Values != nil || ps.Error() != "/completion/values: must be an array, not string" {
		t.Fatalf("%+v %q", c, ps.Error())
	}
}
