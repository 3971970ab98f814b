package events

import (
	"encoding/json"
	"testing"
)

// TestListenLane reads a record by hand: a stream acknowledged without a
// subscriptionId (the latest open stream takes it) that carries two
// list_changed and a progress notification of some request (not counted),
// lost with the connection; the next one is marked reopened, leaves a
// resource out, and is closed by the client; a third is refused.
func TestListenLane(t *testing.T) {
	msg := func(dir Direction, typ MessageType, id, method, raw string) Event {
		return Event{Conn: "s", Kind: KindMessage, Dir: dir, Type: typ, ID: id, Method: method, Raw: json.RawMessage(raw)}
	}
	evs := []Event{
		msg(DirOut, MsgRequest, "1", MethodListen, `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`),
		msg(DirIn, MsgNotification, "", MethodListenAcknowledged, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true}}}`),
		msg(DirIn, MsgNotification, "", "notifications/tools/list_changed", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`),
		msg(DirIn, MsgNotification, "", "notifications/progress", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`),
		msg(DirIn, MsgNotification, "", "notifications/tools/list_changed", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`),
		{Conn: "s", Kind: KindState, Text: "disconnected"},
		msg(DirOut, MsgRequest, "2", MethodListen, `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["x://a","x://b"]}}}`),
		msg(DirIn, MsgNotification, "", MethodListenAcknowledged, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["x://a"]},"_meta":{"io.modelcontextprotocol/subscriptionId":2}}}`),
		msg(DirOut, MsgNotification, "", "notifications/cancelled", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`),
		msg(DirOut, MsgRequest, "3", MethodListen, `{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["x://c"]}}}`),
		msg(DirIn, MsgError, "3", MethodListen, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no such resource"}}`),
		{Conn: "other", Kind: KindMessage, Dir: DirOut, Type: MsgRequest, ID: "9", Method: MethodListen, Raw: json.RawMessage(`{}`)},
	}
	for i := range evs {
		evs[i].Seq = uint64(i + 1)
	}
	lane := ListenLane(evs, "s")
	if len(lane) != 3 {
		t.Fatalf("%d streams: %+v", len(lane), lane)
	}
	if s := lane[0]; s.State != ListenLost || s.Notifications != 2 || s.AckSeq != 2 || s.Reopened {
		t.Errorf("first stream: %+v", s)
	}
	if s := lane[1]; s.State != ListenClientClosed || !s.Reopened || len(s.Left) != 1 || s.Left[0] != "x://b" {
		t.Errorf("second stream: %+v", s)
	}
	if s := lane[2]; s.State != ListenRefused || s.Error != "no such resource" || s.Reopened {
		t.Errorf("third stream: %+v", s)
	}
	if n := len(ListenLane(evs, "")); n != 4 {
		t.Errorf("every connection: %d streams, want 4", n)
	}
}
