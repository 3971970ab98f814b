package events

import (
	"strings"
	"testing"
)

func TestDecodeEnvelope(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`x\"}]{`, 1000) + `"}]}}`
	type header struct {
		typ        MessageType
		id, method string
	}
	tests := []struct {
		raw  string
		want header
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}`, header{MsgRequest, "5", "tools/call"}, true},
		{`{"params":{"id":1,"method":"no"},"method":"ping","id":"a"}`, header{MsgRequest, `"a"`, "ping"}, true},
		{` { "method" : "notifications/progress" , "params" : { "progressToken" : 1 } } `, header{MsgNotification, "", "notifications/progress"}, true},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, header{MsgResult, "1", ""}, true},
		{`{"result":[1,{"a":"}"}],"id":"x\"y"}`, header{MsgResult, `"x\"y"`, ""}, true},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, header{MsgError, "null", ""}, true},
		{`{"id":1,"error":null,"result":{}}`, header{MsgError, "1", ""}, true},
		{`{"id":1e2,"result":null}`, header{MsgResult, "100", ""}, true},
		{`{"id":-0,"result":null}`, header{MsgResult, "0", ""}, true},
		{`{"id":12345678901234567890,"result":null}`, header{MsgResult, "12345678901234567890", ""}, true},
		{`{"id":"\u00e9","result":null}`, header{MsgResult, `"é"`, ""}, true},
		{`{"\u0069d":3,"method":"m\u0065thod"}`, header{MsgRequest, "3", "method"}, true},
		{`{"id":1,"method":7}`, header{MsgRequest, "1", "7"}, true},
		{big, header{MsgResult, "9", ""}, true},
		{`{"jsonrpc":"2.0"}`, header{}, false},
		{`[{"jsonrpc":"2.0","method":"x"}]`, header{}, false},
		{`not json`, header{}, false},
		{``, header{}, false},
		{`{"id":`, header{}, false},
		{`{"method":"x`, header{}, false},
	}
	for _, tt := range tests {
		typ, id, method, ok := decodeEnvelope([]byte(tt.raw))
		if got := (header{typ, id, method}); ok != tt.ok || got != tt.want {
			t.Errorf("decodeEnvelope(%.60s) = %+v %v, want %+v %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNormalizeID(t *testing.T) {
	tests := map[string]string{
		`5`: `5`, ` 5 `: `5`, `05`: `05`, `5.0`: `5`, `5e0`: `5`, `-3`: `-3`, `-0`: `0`, `1.5`: `1.5`,
		`"5"`: `"5"`, `"a\/b"`: `"a/b"`, `"\u0041"`: `"A"`, `"tab\t"`: `"tab\u0009"`, `null`: `null`,
		`"é"`: `"é"`, `"q\""`: `"q\""`, `"broken`: `"broken`,
	}
	for in, want := range tests {
		if got := NormalizeID(in); got != want {
			t.Errorf("NormalizeID(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestCancelledAndToolError(t *testing.T) {
	if got := cancelledID([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"x","requestId":"r\u002d1"}}`)); got != `"r-1"` {
		t.Errorf("requestId = %s", got)
	}
	if got := cancelledID([]byte(`{"method":"notifications/cancelled","params":[1]}`)); got != "" {
		t.Errorf("requestId of a malformed cancel = %s", got)
	}
	for raw, want := range map[string]bool{
		`{"id":1,"result":{"content":[],"isError":true}}`:             true,
		`{"id":1,"result":{"content":[{"text":"\"isError\":true"}]}}`: false,
		`{"id":1,"result":{"isError":false}}`:                         false,
		`{"id":1,"result":{}}`:                                        false,
	} {
		if got := toolError([]byte(raw)); got != want {
			t.Errorf("toolError(%s) = %v", raw, got)
		}
	}
}

// FuzzEnvelope feeds arbitrary bytes to what Append derives from a
// message: nothing panics, and an id once normalised stays as it is.
func FuzzEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2,{"b":"}"}]}}}`,
		`{"jsonrpc":"2.0","id":"a\"b","result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"\u0069d":1e3,"result":true}`, `{"id":1,"id":2,"method":"x"}`,
		`[1,2]`, `"str"`, `{`, `{"a":}`, `{"id":"\`, "{\"method\":\"\xff\"}", `"\t\u0000é"`, `-0.0`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, id, _, _ := decodeEnvelope(raw)
		_ = cancelledID(raw)
		_ = toolError(raw)
		for _, s := range []string{id, string(raw)} {
			n := NormalizeID(s)
			if again := NormalizeID(n); again != n {
				t.Fatalf("NormalizeID(%q) = %q, then %q", s, n, again)
			}
		}
	})
}
