package events

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for exact latencies.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newTestLog(opts *Options) (*Log, *fakeClock) {
	clk := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Now = clk.Now
	return New(&o), clk
}

func request(conn string, dir Direction, id, method string) Event {
	return Event{Conn: conn, Kind: KindMessage, Dir: dir,
		Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"name":"echo"}}`, id, method))}
}

func result(conn string, dir Direction, id string) Event {
	return Event{Conn: conn, Kind: KindMessage, Dir: dir,
		Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`, id))}
}

// toolErrResult is a tools/call result in which the tool says it failed.
func toolErrResult(conn string, dir Direction, id string) Event {
	return Event{Conn: conn, Kind: KindMessage, Dir: dir,
		Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"disk full"}],"isError":true}}`, id))}
}

func errorResp(conn string, dir Direction, id string) Event {
	return Event{Conn: conn, Kind: KindMessage, Dir: dir,
		Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"nope"}}`, id))}
}

func notification(conn string, dir Direction, method, params string) Event {
	return Event{Conn: conn, Kind: KindMessage, Dir: dir,
		Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params))}
}

func mustGet(t *testing.T, l *Log, seq uint64) Event {
	t.Helper()
	e, ok := l.Get(seq)
	if !ok {
		t.Fatalf("Get(%d): not found", seq)
	}
	return e
}

func TestOutcomes(t *testing.T) {
	const c = "srv"
	type step func(l *Log, clk *fakeClock) uint64 // returns the response seq, if any
	reply := func(d time.Duration, ev func(string, Direction, string) Event) step {
		return func(l *Log, clk *fakeClock) uint64 {
			clk.Advance(d)
			return l.Append(ev(c, DirIn, "5"))
		}
	}
	wait := func(d time.Duration) step {
		return func(l *Log, clk *fakeClock) uint64 { clk.Advance(d); return 0 }
	}
	timeout := func(l *Log, clk *fakeClock) uint64 { l.MarkTimedOut(c, DirOut, "5"); return 0 }
	cancel := func(l *Log, clk *fakeClock) uint64 { l.MarkCancelled(c, DirOut, "5"); return 0 }
	closeConn := func(l *Log, clk *fakeClock) uint64 { l.CloseConn(c); return 0 }
	cancelMsg := func(l *Log, clk *fakeClock) uint64 {
		l.Append(notification(c, DirOut, "notifications/cancelled", `{"requestId":5,"reason":"stop"}`))
		return 0
	}

	tests := []struct {
		name      string
		steps     []step
		state     OutcomeState
		badge     string
		paired    bool // the response paired with the request
		late      bool
		respTitle string
	}{
		{"waiting", nil, Waiting, "waiting…", false, false, ""},
		{"ok", []step{reply(17*time.Millisecond, result)}, OK, "17ms", true, false, "result #5 · tools/call"},
		{"ok seconds", []step{reply(1234*time.Millisecond, result)}, OK, "1.2s", true, false, "result #5 · tools/call"},
		{"error", []step{reply(17*time.Millisecond, errorResp)}, Failed, "error · 17ms", true, false, "error #5 · tools/call"},
		{"tool error", []step{reply(17*time.Millisecond, toolErrResult)}, OK, "tool error · 17ms", true, false, "result #5 · tools/call"},
		{"timed out", []step{wait(60 * time.Second), timeout}, TimedOut, "timed out · 60.0s", false, false, ""},
		{"timed out then late reply", []step{wait(60 * time.Second), timeout, reply(time.Second, result)}, TimedOut, "timed out · 60.0s", true, true, "result #5 · tools/call"},
		{"timed out then cancelled", []step{wait(time.Second), timeout, cancel}, TimedOut, "timed out · 1.0s", false, false, ""},
		{"cancelled", []step{wait(time.Second), cancel}, Cancelled, "cancelled", false, false, ""},
		{"cancelled by message", []step{cancelMsg}, Cancelled, "cancelled", false, false, ""},
		{"cancelled then late reply", []step{cancel, reply(time.Second, result)}, CancelledLate, "cancelled · late reply", true, true, "result #5 · tools/call"},
		{"cancelled then timed out", []step{cancel, timeout}, Cancelled, "cancelled", false, false, ""},
		{"answered then cancelled", []step{reply(3*time.Millisecond, result), cancel, timeout, closeConn}, OK, "3ms", true, false, "result #5 · tools/call"},
		{"no response", []step{wait(2 * time.Second), closeConn}, NoResponse, "no response", false, false, ""},
		{"marked no response", []step{wait(time.Second), func(l *Log, clk *fakeClock) uint64 { l.MarkNoResponse(c, DirOut, "5"); return 0 }}, NoResponse, "no response", false, false, ""},
		{"no response then reply", []step{closeConn, reply(time.Millisecond, result)}, NoResponse, "no response", false, false, "result #5 · unknown id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, clk := newTestLog(nil)
			rq := l.Append(request(c, DirOut, "5", "tools/call"))
			var rs uint64
			for _, s := range tt.steps {
				if n := s(l, clk); n != 0 {
					rs = n
				}
			}
			got := mustGet(t, l, rq)
			if got.Outcome == nil || got.Outcome.State != tt.state {
				t.Fatalf("outcome = %+v, want %s", got.Outcome, tt.state)
			}
			if b := got.Badge(); b != tt.badge {
				t.Errorf("badge = %q, want %q", b, tt.badge)
			}
			if rs == 0 {
				if got.Pair != 0 {
					t.Errorf("request paired with %d, want none", got.Pair)
				}
				return
			}
			resp := mustGet(t, l, rs)
			if tt.paired {
				if got.Pair != rs || resp.Pair != rq {
					t.Errorf("pair: request→%d response→%d, want %d↔%d", got.Pair, resp.Pair, rq, rs)
				}
				if resp.Unpaired {
					t.Error("paired response marked unpaired")
				}
			} else if !resp.Unpaired || resp.Pair != 0 {
				t.Errorf("response should be unpaired: %+v", resp)
			}
			if resp.Late != tt.late {
				t.Errorf("late = %v, want %v", resp.Late, tt.late)
			}
			if title := resp.Title(); title != tt.respTitle {
				t.Errorf("response title = %q, want %q", title, tt.respTitle)
			}
			if resp.Outcome != nil {
				t.Errorf("response has an outcome: %+v", resp.Outcome)
			}
		})
	}
}

func TestPairingDirectionsAndIDs(t *testing.T) {
	tests := []struct {
		name     string
		req      Event
		resp     Event
		paired   bool
		reqTitle string
	}{
		{"client request, server answers", request("a", DirOut, "1", "tools/list"), result("a", DirIn, "1"), true, "tools/list #1"},
		{"server request, client answers", request("a", DirIn, "0", "sampling/createMessage"), result("a", DirOut, "0"), true, "sampling/createMessage #0"},
		{"string id", request("a", DirOut, `"abc"`, "ping"), result("a", DirIn, `"abc"`), true, "ping #abc"},
		{"string id with escape", request("a", DirOut, `"a\u0062c"`, "ping"), result("a", DirIn, `"abc"`), true, "ping #abc"},
		{"numeric id spelled differently", request("a", DirOut, `7`, "ping"), result("a", DirIn, `7.0`), true, "ping #7"},
		{"1 and \"1\" differ", request("a", DirOut, `1`, "ping"), result("a", DirIn, `"1"`), false, "ping #1"},
		{"numeric-looking string id shown quoted", request("a", DirOut, `"2"`, "ping"), result("a", DirIn, `2`), false, `ping #"2"`},
		{"other connection", request("a", DirOut, "1", "ping"), result("b", DirIn, "1"), false, "ping #1"},
		{"same direction", request("a", DirOut, "1", "ping"), result("a", DirOut, "1"), false, "ping #1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, _ := newTestLog(nil)
			rq := l.Append(tt.req)
			rs := l.Append(tt.resp)
			q, r := mustGet(t, l, rq), mustGet(t, l, rs)
			if q.Title() != tt.reqTitle {
				t.Errorf("request title %q, want %q", q.Title(), tt.reqTitle)
			}
			if tt.paired {
				if q.Pair != rs || r.Pair != rq || q.Outcome.State != OK || r.Method != q.Method {
					t.Errorf("not paired: req %+v resp %+v", q, r)
				}
			} else {
				if q.Pair != 0 || r.Pair != 0 || !r.Unpaired || q.Outcome.State != Waiting {
					t.Errorf("unexpectedly paired: req %+v resp %+v", q, r)
				}
				if r.Title() != "result "+"#"+displayID(r.ID)+" · unknown id" {
					t.Errorf("unpaired title %q", r.Title())
				}
				if !r.In(CatLogs) || !r.In(CatRPC) {
					t.Errorf("unpaired response categories %v", r.Categories())
				}
			}
		})
	}
}

func TestUnknownIDKept(t *testing.T) {
	l, _ := newTestLog(nil)
	s := l.Append(result("srv", DirIn, "99"))
	e := mustGet(t, l, s)
	if !e.Unpaired || e.Title() != "result #99 · unknown id" || e.Type != MsgResult || e.ID != "99" {
		t.Fatalf("unknown id response: %+v title %q", e, e.Title())
	}
	// A second answer to an answered request is unpaired too.
	l.Append(request("srv", DirOut, "1", "ping"))
	l.Append(result("srv", DirIn, "1"))
	dup := mustGet(t, l, l.Append(result("srv", DirIn, "1")))
	if !dup.Unpaired {
		t.Errorf("duplicate answer not flagged: %+v", dup)
	}
	if l.Len() != 4 {
		t.Errorf("Len = %d, want 4 (nothing lost)", l.Len())
	}
}

func TestCloseConnOnlyThatConn(t *testing.T) {
	l, _ := newTestLog(nil)
	a := l.Append(request("a", DirOut, "1", "tools/call"))
	b := l.Append(request("b", DirOut, "1", "tools/call"))
	srv := l.Append(request("a", DirIn, "1", "roots/list"))
	l.CloseConn("a")
	if got := mustGet(t, l, a).Badge(); got != "no response" {
		t.Errorf("a: %q", got)
	}
	if got := mustGet(t, l, srv).Badge(); got != "no response" {
		t.Errorf("server request on a: %q", got)
	}
	if got := mustGet(t, l, b).Badge(); got != "waiting…" {
		t.Errorf("b: %q", got)
	}
}

func TestEvictionAndErrDropped(t *testing.T) {
	l, _ := newTestLog(&Options{Capacity: 10})
	for i := 0; i < 25; i++ {
		l.Append(Event{Kind: KindStderr, Text: fmt.Sprint("line ", i)})
	}
	if l.Len() != 10 {
		t.Fatalf("Len = %d", l.Len())
	}
	if _, ok := l.Get(15); ok {
		t.Error("evicted event 15 still readable")
	}
	if e := mustGet(t, l, 16); e.Text != "line 15" {
		t.Errorf("Get(16) = %q", e.Text)
	}
	evs, err := l.After(0, 0)
	var de *DroppedError
	if !errors.Is(err, ErrDropped) || !errors.As(err, &de) || de.Count != 15 || de.From != 1 || de.To != 15 {
		t.Fatalf("After(0): err %v", err)
	}
	if len(evs) != 10 || evs[0].Seq != 16 || evs[9].Seq != 25 {
		t.Fatalf("After(0) gave %d events from %d", len(evs), evs[0].Seq)
	}
	evs, err = l.After(20, 0)
	if err != nil || len(evs) != 5 || evs[0].Seq != 21 {
		t.Fatalf("After(20): %d events, err %v", len(evs), err)
	}
	evs, err = l.After(10, 3)
	if !errors.As(err, &de) || de.Count != 5 || len(evs) != 3 || evs[0].Seq != 16 || evs[2].Seq != 18 {
		t.Fatalf("After(10,3): %v %v", evs, err)
	}
	if evs, err = l.After(25, 0); err != nil || len(evs) != 0 {
		t.Fatalf("After(last): %v %v", evs, err)
	}
	if s := l.Stats(); s.Dropped != 15 || s.Events != 25 {
		t.Errorf("stats %+v", s)
	}
}

func TestEvictedRequestStillPairs(t *testing.T) {
	l, clk := newTestLog(&Options{Capacity: 4})
	l.Append(request("a", DirOut, "1", "tools/call"))
	for i := 0; i < 10; i++ {
		l.Append(Event{Kind: KindStderr, Text: "noise"})
	}
	clk.Advance(5 * time.Millisecond)
	r := mustGet(t, l, l.Append(result("a", DirIn, "1")))
	if r.Unpaired || r.Pair != 1 || r.Title() != "result #1 · tools/call" {
		t.Errorf("response to an evicted request: %+v %q", r, r.Title())
	}
}

func TestClearAndStats(t *testing.T) {
	l, _ := newTestLog(nil)
	l.Append(request("a", DirOut, "1", "tools/call"))
	l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}`)})
	l.Append(request("a", DirOut, "2", "tools/call"))
	l.Append(errorResp("a", DirIn, "2"))
	l.Append(request("a", DirOut, "3", "tools/list"))
	l.Append(Event{Kind: KindError, Text: "boom"})
	l.Append(Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://x/mcp", Status: 500}})
	l.Append(Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://x/mcp", Status: 200}})
	l.Append(request("a", DirOut, "4", "tools/call")) // stays waiting across Clear
	want := Stats{Events: 9, Requests: 4, ToolCalls: 3, Errors: 4}
	if s := l.Stats(); s != want {
		t.Fatalf("stats %+v, want %+v", s, want)
	}
	last := l.LastSeq()
	l.Clear()
	if s := l.Stats(); s != (Stats{}) {
		t.Errorf("stats after clear %+v", s)
	}
	if l.Len() != 0 {
		t.Errorf("Len after clear %d", l.Len())
	}
	if evs, err := l.After(0, 0); err != nil || len(evs) != 0 {
		t.Errorf("After(0) after clear: %v %v (cleared events are not 'dropped')", evs, err)
	}
	s := l.Append(result("a", DirIn, "4"))
	if s != last+1 {
		t.Errorf("seq after clear %d, want %d", s, last+1)
	}
	if e := mustGet(t, l, s); e.Title() != "result #4 · tools/call" || e.Unpaired {
		t.Errorf("answer to a request from before Clear: %q", e.Title())
	}
	if st := l.Stats(); st.Events != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestDerivedFields(t *testing.T) {
	l, _ := newTestLog(nil)
	raw := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}`)
	e := mustGet(t, l, l.Append(Event{Kind: KindMessage, Dir: DirOut, Raw: raw}))
	if e.Seq != 1 || e.Time.IsZero() || e.Size != len(raw) || e.Type != MsgRequest || e.ID != "3" || e.Method != "tools/call" {
		t.Errorf("derived %+v", e)
	}
	// Fields set by the caller win (the id is normalised).
	e = mustGet(t, l, l.Append(Event{Kind: KindMessage, Dir: DirOut, Type: MsgRequest, ID: ` "x" `, Method: "custom", Raw: raw}))
	if e.ID != `"x"` || e.Method != "custom" {
		t.Errorf("caller fields %+v", e)
	}
}

func TestHugeMessage(t *testing.T) {
	l, _ := newTestLog(nil)
	l.Append(request("a", DirOut, "1", "resources/read"))
	text := make([]byte, 10<<20)
	for i := range text {
		text[i] = 'a' + byte(i%26)
	}
	// The id comes after the 10 MB result.
	raw := []byte(`{"jsonrpc":"2.0","result":{"contents":[{"uri":"x","text":"` + string(text) + `"}]},"id":1}`)
	e := mustGet(t, l, l.Append(Event{Conn: "a", Kind: KindMessage, Dir: DirIn, Raw: raw}))
	if e.Type != MsgResult || e.ID != "1" || e.Pair != 1 || e.Size != len(raw) || e.Title() != "result #1 · resources/read" {
		t.Errorf("10 MB response: type %s id %s pair %d size %d title %q", e.Type, e.ID, e.Pair, e.Size, e.Title())
	}
}
