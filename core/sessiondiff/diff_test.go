package sessiondiff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// session makes the events of a client calling each (method, params,
// result) in order.
func session(calls ...[3]string) []events.Event {
	var evs []events.Event
	seq := uint64(0)
	for i, c := range calls {
		seq += 2
		evs = append(evs,
			events.Event{Seq: seq - 1, Kind: events.KindMessage, Dir: events.DirOut, Type: events.MsgRequest, Method: c[0], Pair: seq,
				Outcome: &events.Outcome{State: events.OK, Latency: time.Duration(i+1) * time.Millisecond},
				Raw:     json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, seq*7, c[0], c[1]))},
			events.Event{Seq: seq, Kind: events.KindMessage, Dir: events.DirIn, Type: events.MsgResult, Method: c[0], Pair: seq - 1,
				Raw: json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, seq*7, c[2]))})
	}
	return evs
}

func TestSameCallsAreEqual(t *testing.T) {
	a := session([3]string{"tools/list", `{}`, `{"tools":[{"name":"echo"}]}`},
		[3]string{"tools/call", `{"name":"echo","arguments":{"message":"hi"},"_meta":{"progressToken":1}}`, `{"content":[{"type":"text","text":"hi"}]}`})
	b := session([3]string{"ping", `{}`, `{}`}, // shifts every id
		[3]string{"tools/list", `{}`, `{"tools":[{"name":"echo"}]}`},
		[3]string{"tools/call", `{"name":"echo","arguments":{"message":"hi"},"_meta":{"progressToken":99}}`, `{"content":[{"type":"text","text":"hi"}]}`})
	res, err := Sessions(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Differing()
	if len(d) != 1 || d[0].A != nil || d[0].B.Method != "ping" {
		t.Fatalf("differing %+v, want only B's extra ping", d)
	}
	if len(res.Timing) != 2 {
		t.Errorf("timing %+v", res.Timing)
	}
	res, _ = Sessions(a, a, nil)
	if !res.Equal() {
		t.Errorf("a session differs from itself: %+v", res.Differing())
	}
}

func TestChangedArgumentIsThatPath(t *testing.T) {
	a := session([3]string{"tools/call", `{"name":"echo","arguments":{"message":"hi","n":1}}`, `{"content":[{"type":"text","text":"hi"}]}`})
	b := session([3]string{"tools/call", `{"name":"echo","arguments":{"message":"bye","n":1}}`, `{"content":[{"type":"text","text":"bye"}],"isError":false}`})
	res, err := Sessions(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 1 {
		t.Fatalf("pairs %+v", res.Pairs)
	}
	p := res.Pairs[0]
	want := []Change{{Op: Changed, Path: "/params/arguments/message", Old: json.RawMessage(`"hi"`), New: json.RawMessage(`"bye"`)}}
	if !reflect.DeepEqual(p.Request, want) {
		t.Errorf("request changes %+v, want %+v", p.Request, want)
	}
	wantResp := []Change{
		{Op: Changed, Path: "/result/content/0/text", Old: json.RawMessage(`"hi"`), New: json.RawMessage(`"bye"`)},
		{Op: Added, Path: "/result/isError", New: json.RawMessage(`false`)},
	}
	if !reflect.DeepEqual(p.Response, wantResp) {
		t.Errorf("response changes %+v, want %+v", p.Response, wantResp)
	}
	if got := p.Request[0].Describe(0); got != `changed /params/arguments/message: "hi" → "bye"` {
		t.Errorf("Describe: %s", got)
	}
}

func TestMatchingInOrder(t *testing.T) {
	// A call only A made, and a list result that lost an item.
	a := session([3]string{"tools/list", `{}`, `{"tools":[{"name":"a"},{"name":"b"},{"name":"c"}]}`},
		[3]string{"tools/call", `{"name":"a"}`, `{}`},
		[3]string{"tools/call", `{"name":"b"}`, `{}`})
	b := session([3]string{"tools/list", `{}`, `{"tools":[{"name":"a"},{"name":"c"}]}`},
		[3]string{"tools/call", `{"name":"b"}`, `{}`})
	res, err := Sessions(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Differing()
	if len(d) != 2 {
		t.Fatalf("differing %+v", d)
	}
	if got := d[0].Response; len(got) != 1 || got[0].Op != Removed || got[0].Path != "/result/tools/1" || string(got[0].Old) != `{"name":"b"}` {
		t.Errorf("list: %+v", got)
	}
	if d[1].B != nil || d[1].A.Name != "a" {
		t.Errorf("the call only A made: %+v", d[1])
	}
}

func TestIgnoreList(t *testing.T) {
	a := session([3]string{"tasks/get", `{"taskId":"t1"}`, `{"status":"working","createdAt":"2026-01-01T00:00:00Z","deep":{"x":{"sessionId":"s1"}}}`})
	b := session([3]string{"tasks/get", `{"taskId":"t2"}`, `{"status":"working","createdAt":"2026-01-02T00:00:00Z","deep":{"x":{"sessionId":"s2"}}}`})
	res, _ := Sessions(a, b, nil)
	if d := res.Differing(); len(d) != 1 || len(d[0].Request) != 1 || d[0].Request[0].Path != "/params/taskId" || len(d[0].Response) != 0 {
		t.Fatalf("default ignore list: %+v", d)
	}
	res, _ = Sessions(a, b, &Options{Ignore: append(DefaultIgnore, "/params/taskId")})
	if !res.Equal() {
		t.Errorf("with /params/taskId ignored: %+v", res.Differing())
	}
	res, _ = Sessions(a, b, &Options{Ignore: []string{}})
	if d := res.Differing(); len(d) != 1 || len(d[0].Response) != 2 {
		t.Errorf("with nothing ignored: %+v", d)
	}
	for _, bad := range []string{"", "result/x", "/"} {
		if _, err := ParseIgnore([]string{bad}); err == nil {
			t.Errorf("ParseIgnore(%q) accepted", bad)
		}
	}
	ig, _ := ParseIgnore([]string{"/result/*/name", "**/a~1b"})
	for _, tt := range []struct {
		path []string
		want bool
	}{
		{[]string{"result", "0", "name"}, true},
		{[]string{"result", "name"}, false},
		{[]string{"a/b"}, true},
		{[]string{"x", "y", "a/b"}, true},
		{[]string{"x", "a/b", "y"}, false},
	} {
		if got := ig.match(tt.path); got != tt.want {
			t.Errorf("match %v = %v", tt.path, got)
		}
	}
}

func TestErrorVersusResult(t *testing.T) {
	a := session([3]string{"tools/call", `{"name":"x"}`, `{"content":[]}`})
	b := session([3]string{"tools/call", `{"name":"x"}`, `{}`})
	b[1].Raw = json.RawMessage(`{"jsonrpc":"2.0","id":14,"error":{"code":-32601,"message":"nope"}}`)
	res, _ := Sessions(a, b, nil)
	got := res.Pairs[0].Response
	if len(got) != 2 || got[0].Path != "/error" && got[1].Path != "/error" {
		t.Errorf("changes %+v", got)
	}
}

func TestSeveralConnections(t *testing.T) {
	withConn := func(evs []events.Event, conn string) []events.Event {
		for i := range evs {
			evs[i].Conn = conn
		}
		return evs
	}
	call := [3]string{"tools/call", `{"name":"echo"}`, `{"content":[]}`}
	// One connection on each side: the names may differ.
	res, _ := Sessions(withConn(session(call), "stdio"), withConn(session(call), "http"), nil)
	if !res.Equal() {
		t.Errorf("one connection each: %+v", res.Differing())
	}
	// Several: a request of server x never pairs with one of server y.
	a := append(withConn(session(call), "x"), withConn(session([3]string{"ping", `{}`, `{}`}), "y")...)
	for i := range a {
		a[i].Seq += uint64(i) * 10
		a[i].Pair += uint64(i/2*2) * 10
	}
	b := withConn(session(call), "y")
	res, _ = Sessions(a, b, nil)
	var only []string
	for _, p := range res.Differing() {
		side := "A"
		x := p.A
		if p.A == nil {
			side, x = "B", p.B
		} else if p.B != nil {
			t.Errorf("paired across servers: %+v", p)
			continue
		}
		only = append(only, side+" "+x.Conn+" "+x.Method)
	}
	if strings.Join(only, ",") != "A x tools/call,A y ping,B y tools/call" {
		t.Errorf("unpaired %q", only)
	}
}

// TestLookup: JSON pointers with escapes, the empty key, and pointers
// that lead nowhere (past the end, a leading zero, into a number).
func TestLookup(t *testing.T) {
	v, _ := Decode(json.RawMessage(`{"a":[{"b/c":1,"~":2}],"":3}`))
	for ptr, want := range map[string]string{"/a/0/b~1c": "1", "/a/0/~0": "2", "/": "3", "": `{"":3,"a":[{"b/c":1,"~":2}]}`} {
		got, ok := Lookup(v, ptr)
		if !ok || string(marshal(got)) != want {
			t.Errorf("%q: %s %v", ptr, marshal(got), ok)
		}
	}
	for _, ptr := range []string{"/a/1", "/a/01", "/x", "a", "/a/0/b~1c/d"} {
		if _, ok := Lookup(v, ptr); ok {
			t.Errorf("%q resolved", ptr)
		}
	}
}
