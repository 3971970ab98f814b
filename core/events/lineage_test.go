package events

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestToolAttemptsRoundTrip: tool events keep lineage, errorClass,
// outcomeUnknown and rpc.callId through a trace, and Attempts finds them
// in the log read back.
func TestToolAttemptsRoundTrip(t *testing.T) {
	l := New(nil)
	req := request("srv", DirOut, "1", "tools/call")
	req.RPC = &RPCInfo{CallID: "srv/call-1"}
	seq := l.Append(req)
	l.CloseConn("srv")
	l.Append(Event{Conn: "srv", Kind: KindTool, RPC: &RPCInfo{CallID: "srv/call-1"},
		Tool:    &ToolInfo{Name: "flaky_write", Status: "failed", RequestID: "1", RequestSeq: seq, Duration: 40 * time.Millisecond},
		Lineage: &Lineage{ID: "L1", Attempt: 1, Fingerprint: "abc"}, ErrorClass: "transport", OutcomeUnknown: true})
	l.Append(Event{Conn: "srv", Kind: KindTool, RPC: &RPCInfo{CallID: "srv/call-2"},
		Tool:    &ToolInfo{Name: "flaky_write", Status: "ok", MayHaveRunTwice: true, Duration: 3 * time.Millisecond},
		Lineage: &Lineage{ID: "L1", Attempt: 2, Fingerprint: "abc"}})
	l.Append(Event{Conn: "srv", Kind: KindTool, Tool: &ToolInfo{Name: "read_notes", Status: "ok"},
		Lineage: &Lineage{ID: "L2", Attempt: 1, Fingerprint: "def"}})

	var buf bytes.Buffer
	if err := l.WriteTrace(&buf, TraceMeta{}); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"rpc":{"callId":"srv/call-1"}`, `"lineage":{"id":"L1","attempt":2,"fingerprint":"abc"}`, `"errorClass":"transport"`, `"outcomeUnknown":true`} {
		if !strings.Contains(buf.String(), key) {
			t.Errorf("trace lacks %s:\n%s", key, buf.String())
		}
	}
	_, got, err := ReadTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := l.Events()
	for i := range want {
		g, w := got[i], want[i]
		if !reflect.DeepEqual(g.RPC, w.RPC) || !reflect.DeepEqual(g.Tool, w.Tool) || !reflect.DeepEqual(g.Lineage, w.Lineage) ||
			g.ErrorClass != w.ErrorClass || g.OutcomeUnknown != w.OutcomeUnknown {
			t.Errorf("event %d\n got %+v\nwant %+v", w.Seq, g, w)
		}
	}
	back := New(nil)
	for _, e := range got {
		back.Append(e)
	}
	atts := back.Attempts("L1")
	if len(atts) != 2 || atts[0].Lineage.Attempt != 1 || atts[1].Lineage.Attempt != 2 {
		t.Fatalf("Attempts(L1) = %v", atts)
	}
	if of := back.AttemptsOf("srv/call-1"); len(of) != 2 || back.AttemptsOf("nope") != nil {
		t.Errorf("AttemptsOf = %v", of)
	}
	if got := atts[0].Title(); got != "tool · flaky_write · transport failure · outcome unknown · 40ms" {
		t.Errorf("title %q", got)
	}
	if got := atts[1].Title(); got != "tool · flaky_write · attempt 2 · may have run twice · 3ms" {
		t.Errorf("title %q", got)
	}
	if !atts[1].In(CatLogs) || !atts[1].In(CatTools) || back.Attempts("L2")[0].In(CatLogs) {
		t.Error("categories of tool events")
	}
}
