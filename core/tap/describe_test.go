package tap

import (
	"encoding/json"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// describeSeeds are messages whose type, id and method the log derives
// in some way worth checking: the common ones the shortcut takes, and the
// ones encoding/json reads in its own way (keys matched
// case-insensitively, repeated keys, escapes, null).
var describeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}`,
	`{"result":{"content":[{"type":"text","text":"Echo: hello"}]},"jsonrpc":"2.0","id":1}`,
	`{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32601,"message":"nope"}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}`,
	`{"jsonrpc":"2.0","id":5.0,"result":{}}`,
	`{"jsonrpc":"2.0","id":-0,"result":null}`,
	`{"jsonrpc":"2.0","id":null,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":null}`,
	`{"jsonrpc":"2.0","id":1,"method":7}`,
	`{"jsonrpc":"2.0","id":1,"method":{"a":1}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools\/call"}`,
	`{"jsonrpc":"2.0","id":1,"method":"\u00e9t\u00e9"}`,
	`{"jsonrpc":"2.0","id":1,"method":"été"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"bad\xffutf8\"}",
	`{"jsonrpc":"2.0","ID":1,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"Method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"RESULT":{}}`,
	`{"jsonrpc":"2.0","id":1,"Error":{}}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`,
	`{"jsonrpc":"2.0","\u0069d":1,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"reſult":{}}`,
	`{"jsonrpc":"2.0","id":1,"error":null,"result":{}}`,
	`{"jsonrpc":"2.0","id":1}`,
	`{"jsonrpc":"2.0"}`,
	`{}`,
	` {"id" : 3 , "result" : { } } `,
	"{\"id\":1,\"result\":{}}\r\n",
	`{"id":[1],"result":1}`,
	`[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
	`"text"`,
	`12`,
}

// TestDescribeMatchesTheLog: for every seed, the type, id and method the
// splitter's shortcut gives a message are the ones the log derives from
// its bytes itself, and the shortcut is taken for the common messages.
func TestDescribeMatchesTheLog(t *testing.T) {
	for _, raw := range describeSeeds {
		checkDescribe(t, []byte(raw))
	}
	for _, raw := range describeSeeds[:5] {
		if e := describe(events.Event{Kind: events.KindMessage, Raw: []byte(raw)}); e.Type == "" {
			t.Errorf("describe left %s to the log", raw)
		}
	}
}

// FuzzDescribe holds the shortcut to the log's own reading for any valid
// JSON.
func FuzzDescribe(f *testing.F) {
	for _, raw := range describeSeeds {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		checkDescribe(t, raw)
	})
}

func checkDescribe(t *testing.T, raw []byte) {
	t.Helper()
	plain, short := events.New(nil), events.New(nil)
	e := events.Event{Kind: events.KindMessage, Dir: events.DirIn, Conn: "c", Raw: raw}
	want, _ := plain.Get(plain.Append(e))
	got, _ := short.Get(short.Append(describe(e)))
	if got.Type != want.Type || got.ID != want.ID || got.Method != want.Method {
		t.Errorf("%s: described as %q id %q method %q, the log reads %q id %q method %q",
			raw, got.Type, got.ID, got.Method, want.Type, want.ID, want.Method)
	}
}
