package events

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func inputRequiredResult(conn, id string) Event {
	return Event{Conn: conn, Kind: KindMessage, Dir: DirIn, Raw: []byte(fmt.Sprintf(
		`{"jsonrpc":"2.0","id":%s,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}},"requestState":"s"}}`, id))}
}

// TestRoundsConversation: the messages of a three-round call (what the
// session records: the first request bare, every later message with its
// RoundInfo) read as one conversation, "round 1/3" … "round 3/3", through
// the log and a trace; unrelated requests, a server's request with the
// same id and another connection are not part of it.
func TestRoundsConversation(t *testing.T) {
	l := New(nil)
	add := func(e Event, r *RoundInfo) {
		e.Round = r
		l.Append(e)
	}
	add(request("srv", DirOut, "4", "tools/call"), nil)
	add(inputRequiredResult("srv", "4"), &RoundInfo{Conversation: "4", N: 1})
	add(request("srv", DirIn, "4", "ping"), nil) // the server's own id space
	add(request("srv", DirOut, "5", "tools/list"), nil)
	add(result("srv", DirIn, "5"), nil)
	add(request("srv", DirOut, "6", "tools/call"), &RoundInfo{Conversation: "4", N: 2})
	add(inputRequiredResult("srv", "6"), &RoundInfo{Conversation: "4", N: 2})
	add(request("other", DirOut, "4", "tools/call"), nil)
	add(request("srv", DirOut, "7", "tools/call"), &RoundInfo{Conversation: "4", N: 3})

	var r Rounds
	evs := l.Events()
	for i := range evs {
		r.Add(&evs[i])
	}
	labels := func(r *Rounds, evs []Event) string {
		var out []string
		for i := range evs {
			out = append(out, evs[i].Title()+" "+r.Label(&evs[i]))
		}
		return strings.Join(out, "\n")
	}
	want := `tools/call #4 round 1/3
result #4 · tools/call round 1/3
ping #4 
tools/list #5 
result #5 · tools/list 
tools/call #6 round 2/3
result #6 · tools/call round 2/3
tools/call #4 
tools/call #7 round 3/3`
	if got := labels(&r, evs); got != want {
		t.Errorf("labels:\n%s\nwant:\n%s", got, want)
	}
	if c, _, _ := r.Of(&evs[8]); c.State != ConvWaiting || c.Method != "tools/call" {
		t.Errorf("before the final result: %+v", c)
	}
	final := result("srv", DirIn, "7")
	final.Round = &RoundInfo{Conversation: "4", N: 3}
	l.Append(final)
	evs = l.Events()
	r.Add(&evs[len(evs)-1])
	if c, n, ok := r.Of(&evs[0]); !ok || n != 1 || c.State != ConvDone || c.Rounds != 3 {
		t.Errorf("after the final result: %+v round %d", c, n)
	}
	if d := r.Describe(&evs[5]); !strings.Contains(d, "Round 2 of 3 of tools/call #4, a multi round-trip request (MRTR)") || !strings.Contains(d, "final result came in round 3") {
		t.Errorf("describe: %s", d)
	}

	// a trace keeps the links
	var buf bytes.Buffer
	if err := l.WriteTrace(&buf, TraceMeta{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"round":{"conversation":"4","n":2}`) {
		t.Errorf("trace lacks the round: %s", buf.String())
	}
	_, back, err := ReadTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var r2 Rounds
	for i := range back {
		r2.Add(&back[i])
	}
	if got := labels(&r2, back[:len(back)-1]); got != want {
		t.Errorf("labels read back:\n%s", got)
	}
}

// TestRoundsAbandoned: a conversation given up between rounds says so.
func TestRoundsAbandoned(t *testing.T) {
	var r Rounds
	evs := []Event{
		{Conn: "s", Kind: KindMessage, Dir: DirOut, Type: MsgRequest, ID: "1", Method: "tools/call"},
		{Conn: "s", Kind: KindMessage, Dir: DirIn, Type: MsgResult, ID: "1", Method: "tools/call",
			Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}`), Round: &RoundInfo{Conversation: "1", N: 1}},
		{Conn: "s", Kind: KindWarning, Method: "tools/call", Text: "abandoned", Round: &RoundInfo{Conversation: "1", N: 1, Abandoned: true}},
	}
	for i := range evs {
		r.Add(&evs[i])
	}
	if got := r.Label(&evs[2]); got != "abandoned at round 1/1" {
		t.Errorf("label %q", got)
	}
	if c, _, _ := r.Of(&evs[0]); c.State != ConvAbandoned {
		t.Errorf("state %s", c.State)
	}
	if d := r.Describe(&evs[0]); !strings.Contains(d, "abandoned at round 1") {
		t.Errorf("describe: %s", d)
	}
	r.Forget("s")
	if r.Label(&evs[0]) != "" {
		t.Error("Forget kept the conversation")
	}
}

func TestInputRequired(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}`: true,
		`{"resultType":"input_required","inputRequests":{}}`:                true,
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`:       false,
		`{"jsonrpc":"2.0","id":1,"result":{"text":"input_required"}}`:       false,
		`not json "input_required"`:                                         false,
	} {
		if got := InputRequired([]byte(raw)); got != want {
			t.Errorf("InputRequired(%s) = %v", raw, got)
		}
	}
}
