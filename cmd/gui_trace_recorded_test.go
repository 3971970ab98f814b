package cmd

import (
	"strings"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// recordedLog is a recorded session's events as the log pairs them.
func recordedLog(t *testing.T, msgs ...string) []events.Event {
	t.Helper()
	log := events.New(nil)
	for _, m := range msgs {
		dir := events.DirOut
		if strings.Contains(m, `"result"`) || strings.Contains(m, `"error"`) {
			dir = events.DirIn
		}
		log.Append(events.Event{Kind: events.KindMessage, Conn: "rec", Dir: dir, Raw: []byte(m)})
	}
	return log.Events()
}

// TestRecordedListsLatestWins: a recording that lists tools, prompts and
// resources again (after list_changed) offers the latest lists, not the
// first; a page asked for by cursor adds to its list.
func TestRecordedListsLatestWins(t *testing.T) {
	c := newRecordedConn(recordedLog(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"old","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"old2","inputSchema":{"type":"object"}}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":3,"result":{"prompts":[{"name":"p-old"}]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":4,"result":{"resources":[{"uri":"file:///old","name":"old"}]}}`,
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"old","description":"changed","inputSchema":{"type":"object"}},{"name":"new","inputSchema":{"type":"object"}}]}}`,
		`{"jsonrpc":"2.0","id":6,"method":"prompts/list","params":{}}`,
		`{"jsonrpc":"2.0","id":6,"result":{"prompts":[{"name":"p-new"}]}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":7,"result":{"resources":[{"uri":"file:///new","name":"new"}]}}`,
	))
	var tools []string
	for _, x := range c.tools {
		tools = append(tools, x.Name+":"+x.Description)
	}
	if got := strings.Join(tools, ","); got != "old:changed,new:" {
		t.Errorf("tools %q, want the latest list old:changed,new:", got)
	}
	if len(c.proms) != 1 || c.proms[0].Name != "p-new" {
		t.Errorf("prompts %+v, want the latest p-new", c.proms)
	}
	if len(c.res) != 1 || c.res[0].URI != "file:///new" {
		t.Errorf("resources %+v, want the latest file:///new", c.res)
	}
	first := newRecordedConn(recordedLog(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b","inputSchema":{"type":"object"}}]}}`,
	))
	if len(first.tools) != 2 {
		t.Errorf("a paged list gave %d tools, want both pages' 2", len(first.tools))
	}
}

// TestRecordedCallsMasked: a recorded call's argument whose name marks
// it as a secret is masked where the screens are offered it (as History
// masks it); the others are as recorded.
func TestRecordedCallsMasked(t *testing.T) {
	const secret = "sk-live-abcdef123456"
	c := newRecordedConn(recordedLog(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"user":"ann","api_key":"`+secret+`","nested":{"password":"`+secret+`"}}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`,
	))
	calls := c.ToolCalls("login")
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	args := string(calls[0].Arguments)
	if strings.Contains(args, secret) || !strings.Contains(args, `"user":"ann"`) || strings.Count(args, `"****"`) != 2 {
		t.Errorf("arguments offered %s, want api_key and password masked, user as recorded", args)
	}
	if !strings.Contains(string(c.xs[0].Request), secret) {
		t.Error("the exchange a replay sends lost its recorded argument")
	}
}
