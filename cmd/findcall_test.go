package cmd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestFindCallInALongLog: Save to collection's lookup in a log whose
// server's calls lie in sealed chunks among another server's flood: the
// latest tools/call, prompts/get or resources/read of the server (seq 0)
// with its answer, a request by its seq, and the words when there is no
// such call, the seq is another server's, or the call has no answer.
func TestFindCallInALongLog(t *testing.T) {
	l := events.New(&events.Options{MaxBytes: 1 << 20, SpillDir: t.TempDir()})
	t.Cleanup(func() { l.Close() })
	b := &guiBackend{log: l}
	msg := func(conn string, dir events.Direction, raw string) uint64 {
		return l.Append(events.Event{Kind: events.KindMessage, Conn: conn, Dir: dir, Raw: []byte(raw)})
	}
	flood := func(n int) {
		for i := 0; i < n; i++ {
			msg("other", events.DirIn, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"seq":%d,"pad":%q}}}`, i, strings.Repeat("x", 200)))
		}
	}
	if _, err := b.findCall("s", 0); err == nil || !strings.Contains(err.Error(), "no tool, prompt or resource call yet") {
		t.Fatalf("an empty log: %v", err)
	}
	call := msg("s", events.DirOut, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)
	msg("s", events.DirIn, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}`)
	flood(3000)
	read := msg("s", events.DirOut, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"demo://readme"}}`)
	msg("s", events.DirIn, `{"jsonrpc":"2.0","id":2,"result":{"contents":[{"uri":"demo://readme","text":"x"}]}}`)
	msg("s", events.DirOut, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	msg("s", events.DirIn, `{"jsonrpc":"2.0","id":3,"result":{}}`)
	otherCall := msg("other", events.DirOut, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x"}}`)
	flood(12000)
	if r := l.Retention(); r.Spilled == 0 {
		t.Fatalf("the server's calls are not in spilled chunks: %+v", r)
	}

	x, err := b.findCall("s", 0)
	if err != nil {
		t.Fatal(err)
	}
	if x.Seq != read || x.Method != "resources/read" || x.Name != "demo://readme" || !strings.Contains(string(x.Response), `"contents"`) {
		t.Errorf("latest call = #%d %s %s %s, want #%d resources/read with its answer", x.Seq, x.Method, x.Name, x.Response, read)
	}
	x, err = b.findCall("s", call)
	if err != nil {
		t.Fatal(err)
	}
	if x.Seq != call || x.Method != "tools/call" || x.Name != "echo" || !strings.Contains(string(x.Response), "Echo: hi") {
		t.Errorf("call #%d = #%d %s %s %s, want tools/call echo with its answer", call, x.Seq, x.Method, x.Name, x.Response)
	}
	if _, err := b.findCall("s", otherCall); err == nil || !strings.Contains(err.Error(), "no longer in the log") {
		t.Errorf("another server's request: %v", err)
	}
	if _, err := b.findCall("other", otherCall); err == nil || !strings.Contains(err.Error(), "has no answer yet") {
		t.Errorf("a call without an answer: %v", err)
	}
	if _, err := b.findCall("other", 0); err == nil || !strings.Contains(err.Error(), "has no answer yet") {
		t.Errorf("the latest call without an answer: %v", err)
	}
}
