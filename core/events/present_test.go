package events

import (
	"reflect"
	"testing"
	"time"
)

func TestBadges(t *testing.T) {
	tests := []struct {
		o    Outcome
		want string
	}{
		{Outcome{State: OK, Latency: 17 * time.Millisecond}, "17ms"},
		{Outcome{State: OK, Latency: 17*time.Millisecond + 900*time.Microsecond}, "17ms"},
		{Outcome{State: OK, Latency: 300 * time.Microsecond}, "0ms"},
		{Outcome{State: OK, Latency: 999 * time.Millisecond}, "999ms"},
		{Outcome{State: OK, Latency: time.Second}, "1.0s"},
		{Outcome{State: OK, Latency: 1234 * time.Millisecond}, "1.2s"},
		{Outcome{State: Failed, Latency: 17 * time.Millisecond}, "error · 17ms"},
		{Outcome{State: Failed, Latency: 2500 * time.Millisecond}, "error · 2.5s"},
		{Outcome{State: TimedOut, Latency: 60 * time.Second}, "timed out · 60.0s"},
		{Outcome{State: Cancelled, Latency: time.Second}, "cancelled"},
		{Outcome{State: CancelledLate, Latency: time.Second}, "cancelled · late reply"},
		{Outcome{State: NoResponse}, "no response"},
		{Outcome{State: Waiting}, "waiting…"},
	}
	for _, tt := range tests {
		if got := tt.o.Badge(); got != tt.want {
			t.Errorf("%+v: badge %q, want %q", tt.o, got, tt.want)
		}
	}
	if (Event{}).Badge() != "" {
		t.Error("event without outcome has a badge")
	}
}

func TestTitles(t *testing.T) {
	tests := []struct {
		e    Event
		want string
	}{
		{Event{Kind: KindMessage, Type: MsgRequest, ID: "5", Method: "tools/call"}, "tools/call #5"},
		{Event{Kind: KindMessage, Type: MsgResult, ID: "5", Method: "tools/call"}, "result #5 · tools/call"},
		{Event{Kind: KindMessage, Type: MsgError, ID: "5", Method: "tools/call"}, "error #5 · tools/call"},
		{Event{Kind: KindMessage, Type: MsgError, ID: "null", Unpaired: true}, "error #null · unknown id"},
		{Event{Kind: KindMessage, Type: MsgNotification, Method: "notifications/progress"}, "notifications/progress"},
		{Event{Kind: KindMessage, Type: MsgNotification, Method: "notifications/message",
			Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"disk almost full"}}`)},
			"notifications/message · warning · disk almost full"},
		{Event{Kind: KindMessage, Type: MsgNotification, Method: "notifications/message",
			Raw: []byte(`{"method":"notifications/message","params":{"level":"error","logger":"db","data":{"code":5}}}`)},
			"notifications/message · error · db: {\"code\":5}"},
		{Event{Kind: KindMessage, Type: MsgNotification, Method: "notifications/message", Raw: []byte(`{"params":{}}`)}, "notifications/message"},
		{Event{Kind: KindMessage, Raw: []byte(` [{"jsonrpc":"2.0"}]`)}, "batch"},
		{Event{Kind: KindStderr, Text: "listening on stdio\n"}, "stderr · listening on stdio"},
		{Event{Kind: KindState, Text: "connected"}, "state · connected"},
		{Event{Kind: KindWarning, Text: "slow"}, "warning · slow"},
		{Event{Kind: KindError, Text: "exit status 1"}, "error · exit status 1"},
		// a failed connect's chain reads cause first, without the layers
		{Event{Kind: KindError, Text: `session: start: wire: start "nosuch": exec: "nosuch": executable file not found in $PATH`},
			`error · Executable file not found in $PATH (start "nosuch")`},
		{Event{Kind: KindError, Text: "session: initialize: wire: POST http://127.0.0.1:9/mcp: dial tcp 127.0.0.1:9: connect: connection refused"},
			"error · Connection refused (POST http://127.0.0.1:9/mcp: dial tcp 127.0.0.1:9)"},
		{Event{Kind: KindInvalid, Raw: []byte("hello\xff")}, "invalid · hello�"},
		{Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://127.0.0.1/mcp", Status: 404, Duration: 3 * time.Millisecond}}, "POST http://127.0.0.1/mcp → 404 · 3ms"},
		{Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "GET", URL: "http://x/sse", Err: "connection refused"}}, "GET http://x/sse → connection refused"},
	}
	for _, tt := range tests {
		if got := tt.e.Title(); got != tt.want {
			t.Errorf("%+v: title %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestCategories(t *testing.T) {
	l, _ := newTestLog(nil)
	get := func(s uint64) Event { return mustGet(t, l, s) }
	samp := l.Append(request("a", DirIn, "0", "sampling/createMessage"))
	sampRes := l.Append(result("a", DirOut, "0"))
	call := l.Append(request("a", DirOut, "1", "tools/call"))
	callRes := l.Append(result("a", DirIn, "1"))
	list := l.Append(request("a", DirOut, "2", "tools/list"))
	changed := l.Append(notification("a", DirIn, "notifications/tools/list_changed", "{}"))
	msg := l.Append(notification("a", DirIn, "notifications/message", `{"level":"info","data":"hi"}`))
	init := l.Append(request("a", DirOut, "3", "initialize"))
	progress := l.Append(notification("a", DirIn, "notifications/progress", `{"progress":1}`))
	httpFail := l.Append(Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "u", Status: 500}})
	httpErr := l.Append(Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "u", Err: "refused"}})
	httpOK := l.Append(Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "u", Status: 202}})
	state := l.Append(Event{Kind: KindState, Text: "connected"})
	stderr := l.Append(Event{Kind: KindStderr, Text: "x"})
	warn := l.Append(Event{Kind: KindWarning, Text: "x"})
	errEv := l.Append(Event{Kind: KindError, Text: "x"})
	inv := l.Append(Event{Kind: KindInvalid, Raw: []byte("not json")})

	tests := []struct {
		seq  uint64
		want []Category
	}{
		{samp, []Category{CatLLM, CatRPC}},
		{sampRes, []Category{CatLLM, CatRPC}},
		{call, []Category{CatTools, CatRPC}},
		{callRes, []Category{CatTools, CatRPC}},
		{list, []Category{CatTools, CatRPC}},
		{changed, []Category{CatTools, CatRPC}},
		{msg, []Category{CatRPC, CatLogs}},
		{init, []Category{CatRPC}},
		{progress, []Category{CatRPC}},
		{httpFail, []Category{CatRPC}},
		{httpErr, []Category{CatRPC}},
		{httpOK, nil},
		{state, []Category{CatLogs}},
		{stderr, []Category{CatLogs}},
		{warn, []Category{CatLogs}},
		{errEv, []Category{CatLogs}},
		{inv, []Category{CatRPC, CatLogs}},
	}
	for _, tt := range tests {
		e := get(tt.seq)
		if got := e.Categories(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: categories %v, want %v", e.Title(), got, tt.want)
		}
		if !e.In("") {
			t.Errorf("%s not in All", e.Title())
		}
	}
	// A request that never got an answer stays in RPC.
	l.CloseConn("a")
	if e := get(init); !e.In(CatRPC) || e.Badge() != "no response" {
		t.Errorf("unanswered request: %v %q", e.Categories(), e.Badge())
	}
}

func TestMatch(t *testing.T) {
	e := Event{Kind: KindMessage, Type: MsgRequest, ID: "5", Method: "tools/call",
		Raw: []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"Hello Wörld"}}}`)}
	tests := []struct {
		q    string
		want bool
	}{
		{"", true},
		{"tools/call #5", true},
		{"TOOLS/CALL", true},
		{"hello", true},
		{"wörld", true},
		{"WÖRLD", true},
		{"goodbye", false},
		{"#6", false},
	}
	for _, tt := range tests {
		if got := Match(e, tt.q); got != tt.want {
			t.Errorf("Match(%q) = %v", tt.q, got)
		}
	}
	if !Match(Event{Kind: KindStderr, Text: "Listening"}, "listen") {
		t.Error("text not searched")
	}
	if !Match(Event{Kind: KindHTTP, HTTP: &HTTPInfo{URL: "http://Example.com/mcp"}}, "example.COM") {
		t.Error("url not searched")
	}
}

func TestWaterfall(t *testing.T) {
	l, clk := newTestLog(nil)
	r := func(e Event) Event { e.Run = "run1"; return e }
	l.Append(Event{Kind: KindState, Text: "connected"})
	call := l.Append(r(request("a", DirOut, "1", "tools/call")))
	clk.Advance(10 * time.Millisecond)
	l.Append(r(request("a", DirIn, "0", "sampling/createMessage")))
	l.Append(Event{Kind: KindStderr, Text: "other run", Run: "run2"})
	clk.Advance(200 * time.Millisecond)
	l.Append(r(result("a", DirOut, "0")))
	clk.Advance(5 * time.Millisecond)
	l.Append(r(result("a", DirIn, "1")))

	steps := l.Run("run1")
	if len(steps) != 4 {
		t.Fatalf("%d steps", len(steps))
	}
	want := []struct {
		title    string
		off, dur time.Duration
	}{
		{"tools/call #1", 0, 215 * time.Millisecond},
		{"sampling/createMessage #0", 10 * time.Millisecond, 200 * time.Millisecond},
		{"result #0 · sampling/createMessage", 210 * time.Millisecond, 0},
		{"result #1 · tools/call", 215 * time.Millisecond, 0},
	}
	for i, w := range want {
		s := steps[i]
		if s.Event.Title() != w.title || s.Offset != w.off || s.Duration != w.dur {
			t.Errorf("step %d: %q +%v %v, want %q +%v %v", i, s.Event.Title(), s.Offset, s.Duration, w.title, w.off, w.dur)
		}
	}
	if steps[0].Event.Seq != call {
		t.Error("first step is not the call")
	}
	if l.Run("") != nil || len(l.Run("nope")) != 0 {
		t.Error("unknown run has steps")
	}
}

// TestDurationWords: durations read in words with three significant
// digits and the unit apart; a unit's rounding carries into the next.
func TestDurationWords(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 ns"}, {850, "850 ns"}, {1234567, "1.23 ms"}, {423117, "423 µs"}, {999_700, "1 ms"},
		{12_345_678, "12.3 ms"}, {2500 * time.Millisecond, "2.5 s"}, {999_600 * time.Microsecond, "1 s"},
		{59_990 * time.Millisecond, "1 min"}, {65 * time.Second, "1 min 5 s"}, {3599_700 * time.Millisecond, "1 h"},
		{2*time.Hour + 3*time.Minute + 10*time.Second, "2 h 3 min"}, {-1500 * time.Microsecond, "-1.5 ms"},
	} {
		if got := DurationWords(c.d); got != c.want {
			t.Errorf("DurationWords(%d) = %q, want %q", c.d, got, c.want)
		}
	}
}
