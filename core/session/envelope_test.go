package session

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"
)

// envelopeSeeds are messages whose envelopes decodeEnvelope must read as
// encoding/json does: the usual shapes, and the unusual ones it hands to
// encoding/json (keys in another case, escapes, non-string methods,
// duplicates, nulls, not an object).
var envelopeSeeds = []string{
	`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"line 1"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`,
	` {"jsonrpc" : "2.0" , "id" : "x" , "error" : {"code":-32601,"message":"no"}} `,
	`{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}`,
	`{"Method":"ping","ID":3}`, `{"meth\u006fd":"ping","id":1}`, `{"method":"p\u0069ng","id":1}`,
	`{"method":"pïng","id":1}`, "{\"method\":\"p\xffng\",\"id\":1}", `{"method":5,"id":1}`,
	`{"method":"a","method":null}`, `{"method":"a","method":"b"}`, `{"id":null,"method":"x"}`,
	`{"id":1,"id":2,"result":null}`, `null`, `5`, `"x"`, `[]`, `{`, `{"a":}`, "\x00", `{} {}`,
	`{"jsonrpc":"2.0","id":01}`, `{"params":[1,2,{"progressToken":"t"}]}`,
	`[1e5,-0.0,1E+2,-1.5e-3]`, `[01]`, `[1.]`, `[-]`, `[.5]`, `["\ud800"]`, `["\u00"]`, `["\x"]`, `[tru]`, `[nul]`,
	`{"a":1,}`, `[1,]`, "[\"\t\"]", "[\"\x7f\"]", `{"a" 1}`, `{1:2}`, ` [ ] `, `[[[[[]]]]]`, `{"a":{"b":[{}]}}`,
}

// TestDecodeEnvelopeAsEncodingJSON: the envelope, and whether it is an
// error, are encoding/json's; the spans are windows on the message.
func TestDecodeEnvelopeAsEncodingJSON(t *testing.T) {
	for _, s := range envelopeSeeds {
		checkEnvelope(t, []byte(s))
	}
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`)
	env, err := decodeEnvelope(raw)
	if err != nil {
		t.Fatal(err)
	}
	raw[bytes.Index(raw, []byte(`"a"`))+1] = 'b'
	if string(env.Result) != `{"b":1}` || cap(env.Result) != len(env.Result) {
		t.Fatalf("result %s (cap %d) is not a window on the message that ends with its value", env.Result, cap(env.Result))
	}
}

// FuzzDecodeEnvelope: decodeEnvelope agrees with encoding/json on any
// bytes.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkEnvelope(t, data) })
}

func checkEnvelope(t *testing.T, raw []byte) {
	t.Helper()
	if gjson.ValidBytes(raw) != json.Valid(raw) { // core/wire takes a message by gjson's Valid
		t.Fatalf("%q: gjson's Valid %v, encoding/json's %v", raw, gjson.ValidBytes(raw), json.Valid(raw))
	}
	var want envelope
	werr := json.Unmarshal(raw, &want)
	got, gerr := decodeEnvelope(raw)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", raw, gerr, werr)
	}
	if werr != nil {
		return
	}
	if got.Method != want.Method || !bytes.Equal(got.JSONRPC, want.JSONRPC) || !bytes.Equal(got.ID, want.ID) ||
		!bytes.Equal(got.Params, want.Params) || !bytes.Equal(got.Result, want.Result) || !bytes.Equal(got.Error, want.Error) {
		t.Fatalf("%q: envelope %+v, encoding/json's %+v", raw, got, want)
	}
}

// TestRelatedOf: the progress token, the cancelled request and the task
// a message's params name.
func TestRelatedOf(t *testing.T) {
	for _, c := range []struct {
		params string
		want   related
	}{
		{`{"level":"info","data":"x"}`, related{}},
		{`{"progressToken":"t1","progress":1}`, related{token: `"t1"`}},
		{`{"_meta":{"progressToken":7}}`, related{token: `7`}},
		{`{"progressToken":1,"_meta":{"progressToken":2}}`, related{token: `1`}},
		{`{"requestId":"abc","reason":"x"}`, related{requestID: `"abc"`}},
		{`{"taskId":"T","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"R"}}}`, related{taskID: "R"}},
		{`{"taskId":"T"}`, related{taskID: "T"}},
		{`[1]`, related{}}, {``, related{}}, {`{`, related{}},
	} {
		if got := relatedOf([]byte(c.params)); got != c.want {
			t.Errorf("relatedOf(%s) = %+v, want %+v", c.params, got, c.want)
		}
	}
}

// BenchmarkDecodeNotification: the session's reading of one log
// notification of the demo's flood (envelope and params' relations).
func BenchmarkDecodeNotification(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood 12345 of 100000"}}`)
	b.ReportAllocs()
	for b.Loop() {
		env, err := decodeEnvelope(raw)
		if err != nil || env.Method == "" {
			b.Fatal(err)
		}
		_ = relatedOf(env.Params)
	}
}

// BenchmarkDecodeNotificationEncodingJSON is the same through
// encoding/json, as the session read it before (the baseline).
func BenchmarkDecodeNotificationEncodingJSON(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood 12345 of 100000"}}`)
	b.ReportAllocs()
	for b.Loop() {
		var env envelope
		if err := json.Unmarshal(raw, &env); err != nil || env.Method == "" {
			b.Fatal(err)
		}
		var p struct {
			ProgressToken json.RawMessage `json:"progressToken"`
			RequestID     json.RawMessage `json:"requestId"`
			TaskID        string          `json:"taskId"`
			Meta          struct {
				ProgressToken json.RawMessage `json:"progressToken"`
				Related       struct {
					TaskID string `json:"taskId"`
				} `json:"io.modelcontextprotocol/related-task"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(env.Params, &p)
	}
}
