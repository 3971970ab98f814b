package collection

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

const example = `{
  "format": "spyglass-collection", "formatVersion": 1, "name": "smoke",
  "server": {"command": "node", "args": ["index.js"]},
  "calls": [
    {"method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}},
     "expect": {"result": {"content": [{"type": "text", "text": "Echo: hi"}]}, "maxDuration": "2s",
                "pointers": [{"pointer": "/content/0/type", "equals": "text"}], "isError": false}},
    {"method": "tools/call", "params": {"name": "weather"}, "expect": {"schema": true}},
    {"method": "nope", "expect": {"error": {"code": -32601}}}
  ]
}`

func TestReadAndSchema(t *testing.T) {
	c, err := Read(strings.NewReader(example))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "smoke" || len(c.Calls) != 3 || c.Server.Entry == nil || c.Server.Entry.Command != "node" {
		t.Fatalf("%+v", c)
	}
	if time.Duration(c.Calls[0].Expect.MaxDuration) != 2*time.Second || !c.Calls[1].Expect.UsesOutputSchema() {
		t.Errorf("expectations: %+v", c.Calls)
	}
	// The example validates against collection.schema.json, and so does
	// what Write writes.
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	comp := jsonschema.NewCompiler()
	comp.AddResource("collection.schema.json", doc)
	s, err := comp.Compile("collection.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{[]byte(example), buf.Bytes()} {
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err := s.Validate(inst); err != nil {
			t.Errorf("does not validate: %v\n%s", err, b)
		}
	}
	if c2, err := Read(&buf); err != nil || len(c2.Calls) != 3 {
		t.Errorf("round trip: %v", err)
	}
	for _, bad := range []struct {
		from, to string
		want     error
	}{
		{`"formatVersion": 1`, `"formatVersion": 3`, ErrVersion},
		{`"spyglass-collection"`, `"other"`, ErrNotCollection},
		{`"maxDuration": "2s"`, `"maxDuration": "soon"`, ErrInvalid},
		{`"isError": false`, `"isEror": false`, ErrInvalid},
		{`"method": "nope"`, `"params": {}`, ErrInvalid},
	} {
		doc := strings.Replace(example, bad.from, bad.to, 1)
		if _, err := Read(strings.NewReader(doc)); !errors.Is(err, bad.want) {
			t.Errorf("%s → %s: %v, want %v", bad.from, bad.to, err, bad.want)
		}
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if bad.want != ErrVersion && s.Validate(inst) == nil && bad.from != `"method": "nope"` {
			t.Errorf("the schema accepts %s → %s", bad.from, bad.to)
		}
	}
}

func TestCheck(t *testing.T) {
	c, _ := Read(strings.NewReader(example))
	echo, weather, nope := &c.Calls[0], &c.Calls[1], &c.Calls[2]
	ok := Outcome{Result: json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}]}`), Duration: time.Millisecond}
	weatherSchema := json.RawMessage(`{"type":"object","properties":{"temp":{"type":"number"}},"required":["temp"]}`)
	for _, tt := range []struct {
		name string
		call *Call
		out  Outcome
		opts *CheckOptions
		want []string // expectations that fail
	}{
		{"all hold", echo, ok, nil, nil},
		{"other text", echo, Outcome{Result: json.RawMessage(`{"content":[{"type":"text","text":"Echo: ho"}]}`)}, nil, []string{"result"}},
		{"too slow", echo, Outcome{Result: ok.Result, Duration: 3 * time.Second}, nil, []string{"maxDuration"}},
		{"tool error", echo, Outcome{Result: json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}],"isError":true}`)}, nil, []string{"result", "isError"}},
		{"rpc error", echo, Outcome{Error: &RPCError{Code: -32602, Message: "bad"}}, nil, []string{"answer"}},
		{"no answer", echo, Outcome{Err: errors.New("connection closed")}, nil, []string{"answer"}},
		{"schema holds", weather, Outcome{Result: json.RawMessage(`{"content":[],"structuredContent":{"temp":21.5}}`)}, &CheckOptions{OutputSchema: weatherSchema}, nil},
		{"schema fails", weather, Outcome{Result: json.RawMessage(`{"content":[],"structuredContent":{"temp":"warm"}}`)}, &CheckOptions{OutputSchema: weatherSchema}, []string{"schema"}},
		{"no outputSchema", weather, Outcome{Result: json.RawMessage(`{"content":[],"structuredContent":{}}`)}, nil, []string{"schema"}},
		{"expected error", nope, Outcome{Error: &RPCError{Code: -32601}}, nil, nil},
		{"other error", nope, Outcome{Error: &RPCError{Code: -32602}}, nil, []string{"error"}},
		{"a result instead", nope, Outcome{Result: json.RawMessage(`{}`)}, nil, []string{"error"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Check(tt.call, tt.out, tt.opts) {
				got = append(got, f.Expectation)
				if f.Message == "" {
					t.Errorf("%s failed without a message", f.Expectation)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("failed %v, want %v", got, tt.want)
			}
		})
	}
	// A result failure lists the differences by path.
	fs := Check(echo, Outcome{Result: json.RawMessage(`{"content":[{"type":"text","text":"Echo: ho"}]}`)}, nil)
	if len(fs) != 1 || len(fs[0].Changes) != 1 || fs[0].Changes[0].Path != "/result/content/0/text" {
		t.Errorf("changes %+v", fs)
	}
}

func TestFromExchangeAndAppend(t *testing.T) {
	ok := &sessiondiff.Exchange{Method: "tools/call",
		Request:  json.RawMessage(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`),
		Response: json.RawMessage(`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}`)}
	bad := &sessiondiff.Exchange{Method: "nope", Request: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"nope"}`),
		Response: json.RawMessage(`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}`)}
	c1, err := FromExchange(ok)
	if err != nil || c1.Method != "tools/call" || string(c1.Expect.Result) != `{"content":[{"type":"text","text":"Echo: hi"}]}` {
		t.Fatalf("%+v %v", c1, err)
	}
	c2, _ := FromExchange(bad)
	if c2.Expect == nil || c2.Expect.Error == nil || c2.Expect.Error.Code != -32601 {
		t.Fatalf("%+v", c2)
	}
	path := filepath.Join(t.TempDir(), "sub", "c.json")
	for _, c := range []Call{c1, c2} {
		if err := Append(path, "saved", &Server{Name: "demo"}, c); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.Open(path)
	defer f.Close()
	got, err := Read(f)
	if err != nil || got.Name != "saved" || got.Server.Name != "demo" || len(got.Calls) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	// Each saved call passes against the outcome it was made from.
	if fs := Check(&got.Calls[0], Outcome{Result: json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}]}`)}, nil); len(fs) != 0 {
		t.Errorf("%+v", fs)
	}
	if fs := Check(&got.Calls[1], Outcome{Error: &RPCError{Code: -32601}}, nil); len(fs) != 0 {
		t.Errorf("%+v", fs)
	}
}

// The example in FORMAT.md is a collection that reads and validates.
func TestFormatExample(t *testing.T) {
	b, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "```json\n")
	doc, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("no example in FORMAT.md")
	}
	c, err := Read(strings.NewReader(doc))
	if err != nil || len(c.Calls) != 5 {
		t.Fatalf("the example: %v", err)
	}
	sch, _ := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	comp := jsonschema.NewCompiler()
	comp.AddResource("collection.schema.json", sch)
	s, err := comp.Compile("collection.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err := s.Validate(inst); err != nil {
		t.Errorf("the example does not validate: %v", err)
	}
}
