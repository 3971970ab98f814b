package events

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestScanHeader(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`x\"}]{`, 1000) + `"}]}}`
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
		{`{"id":1e2,"result":null}`, header{MsgResult, "100", ""}, true},
		{`{"id":-0,"result":null}`, header{MsgResult, "0", ""}, true},
		{`{"id":12345678901234567890,"result":null}`, header{MsgResult, "12345678901234567890", ""}, true},
		{`{"id":"\u00e9","result":null}`, header{MsgResult, `"é"`, ""}, true},
		{`{"\u0069d":3,"method":"m\u0065thod"}`, header{MsgRequest, "3", "method"}, true},
		{`{"id":1,"id":2,"result":1}`, header{MsgResult, "1", ""}, true},
		{big, header{MsgResult, "9", ""}, true},
		{`{"jsonrpc":"2.0"}`, header{}, false},
		{`[{"jsonrpc":"2.0","method":"x"}]`, header{}, false},
		{`not json`, header{}, false},
		{``, header{}, false},
		{`{"id":`, header{}, false},
		{`{"method":"x`, header{}, false},
	}
	for _, tt := range tests {
		got, ok := scanHeader([]byte(tt.raw))
		if ok != tt.ok || got != tt.want {
			t.Errorf("scanHeader(%.60s) = %+v %v, want %+v %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNormalizeID(t *testing.T) {
	tests := map[string]string{
		`5`: `5`, ` 5 `: `5`, `05`: `05`, `5.0`: `5`, `5e0`: `5`, `-3`: `-3`, `-0`: `0`, `1.5`: `1.5`,
		`"5"`: `"5"`, `"a\/b"`: `"a/b"`, `"\u0041"`: `"A"`, `"tab\t"`: `"tab\u0009"`, `null`: `null`,
	}
	for in, want := range tests {
		if got := NormalizeID(in); got != want {
			t.Errorf("NormalizeID(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestScanKey(t *testing.T) {
	raw := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"x","requestId":"r-1"}}`)
	if got := string(scanKey(scanKey(raw, "params"), "requestId")); got != `"r-1"` {
		t.Errorf("requestId = %s", got)
	}
	if scanKey(raw, "nope") != nil || scanKey(nil, "x") != nil || scanKey([]byte("[1]"), "x") != nil {
		t.Error("missing key found")
	}
}

// oracleHeader derives the header with encoding/json (first occurrence
// of a key wins). It reports ok=false for inputs the comparison skips.
func oracleHeader(t *testing.T, raw []byte) (h header, comparable bool) {
	if !json.Valid(raw) {
		return h, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // a valid number may not fit a float64
	tok, err := dec.Token()
	if err != nil {
		t.Fatalf("valid input: %v", err)
	}
	if tok != json.Delim('{') {
		return h, true // not an object: no header
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatalf("valid input: %v", err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("valid input: %v", err)
		}
		if _, dup := fields[k.(string)]; !dup {
			fields[k.(string)] = v
		}
	}
	id, hasID := fields["id"]
	m, hasMethod := fields["method"]
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	if hasMethod && (hasResult || hasError) || hasResult && hasError {
		return h, false // not a JSON-RPC message; the scanner may stop early
	}
	switch {
	case hasMethod && hasID:
		h.Type = MsgRequest
	case hasMethod:
		h.Type = MsgNotification
	case hasError:
		h.Type = MsgError
	case hasResult:
		h.Type = MsgResult
	default:
		return h, true
	}
	if hasMethod {
		var s string
		if json.Unmarshal(m, &s) == nil {
			h.Method = s
		} else {
			h.Method = string(m)
		}
	}
	if hasID {
		var v any
		d := json.NewDecoder(bytes.NewReader(id))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatalf("id %s: %v", id, err)
		}
		switch v := v.(type) {
		case string:
			h.ID = quoteID(v)
		case json.Number:
			h.ID = normalizeNumber([]byte(v))
		default:
			h.ID = string(id)
		}
	}
	return h, true
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2,{"b":"}"}]}}}`,
		`{"jsonrpc":"2.0","id":"a\"b","result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"\u00e9\ud83d\ude00"}}`,
		`{"\u0069d":1e3,"result":true}`,
		`{"id":1,"id":2,"method":"x"}`,
		`[1,2]`, `"str"`, `{`, `{"a":}`, `{"id":"\`, "{\"method\":\"\xff\"}", `{"id":[1,{"x":"]"}],"result":0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := scanHeader(raw) // must not panic
		_ = scanKey(raw, "params")
		_ = NormalizeID(string(raw))
		want, comparable := oracleHeader(t, raw)
		if !comparable {
			return
		}
		if want.Type == "" {
			if ok {
				t.Fatalf("scanHeader(%q) = %+v, want no header", raw, got)
			}
			return
		}
		if !ok || got != want {
			t.Fatalf("scanHeader(%q) = %+v %v, want %+v", raw, got, ok, want)
		}
	})
}
