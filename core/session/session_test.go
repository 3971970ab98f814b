package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

func TestConnectHandshake(t *testing.T) {
	// On synctest's clock: the late answer is late in the bubble's time.
	synctest.Test(t, func(t *testing.T) {
		fs := newFakeServer(t)
		var initDone atomic.Bool
		fs.handle = func(c *fakeConn, m msg) bool {
			switch m.Method {
			case "initialize":
				// Answer late: initialized must not be sent before this.
				time.Sleep(30 * time.Millisecond)
				initDone.Store(true)
				c.reply(m.ID, fakeInitResult)
				return true
			case "notifications/initialized":
				if !initDone.Load() {
					t.Errorf("notifications/initialized arrived before the initialize result was sent")
				}
			}
			return false
		}
		var changes []StateChange
		var mu sync.Mutex
		s, log := newTestSession(t, fs, &Options{Conn: "srv", ClientInfo: mcp.Implementation{Name: "t", Version: "0"}})
		s.OnState(func(c StateChange) { mu.Lock(); changes = append(changes, c); mu.Unlock() })
		if err := s.Connect(testCtx(t)); err != nil {
			t.Fatal(err)
		}
		fs.waitFor("notifications/initialized")

		init := fs.received("initialize")[0]
		var p struct {
			ProtocolVersion string          `json:"protocolVersion"`
			Capabilities    json.RawMessage `json:"capabilities"`
		}
		if err := json.Unmarshal(init.Params, &p); err != nil || p.ProtocolVersion != VersionLegacy {
			t.Fatalf("initialize params %s (%v): want protocolVersion %s", init.Params, err, VersionLegacy)
		}
		if string(p.Capabilities) != "{}" {
			t.Errorf("capabilities without handlers = %s, want {}", p.Capabilities)
		}
		info := s.Info()
		if info == nil || info.Name != "fake" || info.Title != "Fake Server" || info.Version != "1.2.3" ||
			info.Instructions != "be nice" || len(info.Icons) != 1 || info.ProtocolVersion != "2025-11-25" {
			t.Fatalf("info = %+v", info)
		}
		if !strings.Contains(string(info.Capabilities), `"x-new":{"deep":true}`) {
			t.Errorf("raw capabilities lost a field: %s", info.Capabilities)
		}
		if info.Caps.Tools == nil || !info.Caps.Tools.ListChanged || info.Caps.Logging == nil {
			t.Errorf("typed capabilities = %+v", info.Caps)
		}
		if v := fs.conn().protocolVersion; v != "2025-11-25" {
			t.Errorf("SetProtocolVersion got %q", v)
		}
		if st, _ := s.State(); st != StateConnected {
			t.Fatalf("state %s", st)
		}
		mu.Lock()
		if len(changes) != 2 || changes[0].To != StateConnecting || changes[1].To != StateConnected {
			t.Errorf("state changes %+v", changes)
		}
		mu.Unlock()

		// The log holds the three messages in order, with one run.
		ms := messages(log)
		if len(ms) != 3 || ms[0].Method != "initialize" || ms[1].Type != events.MsgResult || ms[2].Method != "notifications/initialized" {
			t.Fatalf("messages %+v", ms)
		}
		if ms[0].Run == "" || ms[1].Run != ms[0].Run || ms[2].Run != ms[0].Run || info.Run != ms[0].Run {
			t.Errorf("runs %q %q %q (info %q)", ms[0].Run, ms[1].Run, ms[2].Run, info.Run)
		}
		if ms[0].Conn != "srv" {
			t.Errorf("conn %q", ms[0].Conn)
		}
		// Incoming bytes are recorded exactly.
		if !strings.Contains(string(ms[1].Raw), fakeInitResult) {
			t.Errorf("recorded %s", ms[1].Raw)
		}
	})
}

func TestExactBytesBothWays(t *testing.T) {
	fs := newFakeServer(t)
	const weird = "{ \"jsonrpc\" : \"2.0\",\n \"id\" : %s , \"result\" : {\"b\":1,  \"a\":[ 1,2 ]} }"
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "x/raw" {
			c.emit(fmt.Sprintf(weird, m.ID))
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, nil)
	params := json.RawMessage(`{ "z": 1,  "a": [3, 2] }`)
	rep, err := s.Call(testCtx(t), "x/raw", params, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(rep.Raw) != `{"b":1,  "a":[ 1,2 ]}` {
		t.Errorf("raw result %q", rep.Raw)
	}
	req := fs.received("x/raw")[0]
	ev, _ := log.Get(rep.Seq)
	if string(ev.Raw) != string(req.raw) {
		t.Errorf("recorded %q, sent %q", ev.Raw, req.raw)
	}
	if string(req.Params) != string(params) {
		t.Errorf("params sent %q, want them untouched %q", req.Params, params)
	}
	resp, _ := log.Get(ev.Pair)
	if string(resp.Raw) != fmt.Sprintf(weird, rep.ID) {
		t.Errorf("response recorded as %q", resp.Raw)
	}
	if ev.Outcome == nil || ev.Outcome.State != events.OK {
		t.Errorf("outcome %+v", ev.Outcome)
	}
}

func TestPairingConcurrent(t *testing.T) {
	fs := newFakeServer(t)
	var mu sync.Mutex
	var held []msg
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method != "tools/call" {
			return false
		}
		mu.Lock()
		held = append(held, m)
		if len(held) < 20 {
			mu.Unlock()
			return true
		}
		batch := held
		held = nil
		mu.Unlock()
		// Answer in reverse order.
		for i := len(batch) - 1; i >= 0; i-- {
			c.defaults(batch[i])
		}
		return true
	}
	s, _ := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: map[string]int{"n": i}}, nil)
			if err != nil {
				t.Error(err)
				return
			}
			want := fmt.Sprintf(`{"n":%d}`, i)
			if got := res.Result.Content[0].Text; got != want {
				t.Errorf("call %d got %s", i, got)
			}
		}()
	}
	wg.Wait()
}

// TestTimeoutResetsOnProgress runs on synctest's clock: the fake
// server's pauses and the session's timeout are measured in the bubble's
// time, so the test asserts the reset itself, not the machine's speed.
func TestTimeoutResetsOnProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fs := newFakeServer(t)
		fs.handle = func(c *fakeConn, m msg) bool {
			if m.Method != "tools/call" {
				return false
			}
			var p struct {
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.Meta.ProgressToken == nil {
				return true // never answer
			}
			go func() {
				// 12 × 150 ms is well past the 1 s timeout, but each
				// progress notification restarts it.
				for i := range 12 {
					time.Sleep(150 * time.Millisecond)
					c.emit(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d,"total":12,"message":"step"}}`, p.Meta.ProgressToken, i+1))
				}
				c.defaults(m)
			}()
			return true
		}
		s, log := newTestSession(t, fs, &Options{RequestTimeout: time.Second})
		ctx := testCtx(t)
		var mu sync.Mutex
		var got []Progress
		res, err := s.CallTool(ctx, ToolCall{Name: "slow"}, &CallOptions{Progress: func(p Progress) {
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
		}})
		if err != nil {
			t.Fatalf("call with progress: %v", err)
		}
		waitUntil(t, "progress callbacks", func() bool { mu.Lock(); defer mu.Unlock(); return len(got) > 0 })
		mu.Lock()
		if got[0].Total != 12 || got[0].Message != "step" || got[0].Token != res.ID {
			t.Errorf("progress %+v", got[0])
		}
		mu.Unlock()
		// Progress notifications belong to the call's run.
		for _, e := range messages(log) {
			if e.Method == "notifications/progress" && e.Run != res.Run {
				t.Errorf("progress in run %q, call in %q", e.Run, res.Run)
			}
		}

		// Without progress the call times out and the server is told.
		res, err = s.CallTool(ctx, ToolCall{Name: "silent"}, nil)
		var te *TimeoutError
		if !errors.Is(err, ErrTimeout) || !errors.As(err, &te) {
			t.Fatalf("err = %v, want a timeout", err)
		}
		c := fs.waitFor("notifications/cancelled")
		var cp struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		_ = json.Unmarshal(c.Params, &cp)
		if string(cp.RequestID) != res.ID || cp.Reason == "" {
			t.Errorf("cancelled params %s for request %s", c.Params, res.ID)
		}
		ev, _ := log.Get(res.Seq)
		if ev.Outcome == nil || ev.Outcome.State != events.TimedOut {
			t.Errorf("outcome %+v", ev.Outcome)
		}
	})
}

func TestCancelAndLateReply(t *testing.T) {
	fs := newFakeServer(t)
	release := make(chan struct{})
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "tools/call" {
			go func() { <-release; c.defaults(m) }()
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, nil)
	ctx, cancel := context.WithCancel(testCtx(t))
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	go func() {
		fs.waitFor("tools/call")
		cancel()
	}()
	res, err := s.CallTool(ctx, ToolCall{Name: "x"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	c := fs.waitFor("notifications/cancelled")
	if !strings.Contains(string(c.Params), `"requestId":`+res.ID) {
		t.Errorf("cancelled %s", c.Params)
	}
	ev, _ := log.Get(res.Seq)
	if ev.Outcome == nil || ev.Outcome.State != events.Cancelled {
		t.Fatalf("outcome %+v", ev.Outcome)
	}
	// The server answers anyway: the reply is recorded, in the same run.
	close(release)
	waitUntil(t, "the late reply", func() bool {
		ev, _ := log.Get(res.Seq)
		return ev.Outcome != nil && ev.Outcome.State == events.CancelledLate
	})
	ev, _ = log.Get(res.Seq)
	late, _ := log.Get(ev.Pair)
	if late.Run != res.Run {
		t.Errorf("late reply run %q, want %q", late.Run, res.Run)
	}
	// The session still works.
	if _, err := s.Ping(testCtx(t), nil); err != nil {
		t.Fatal(err)
	}
}

func TestCrashRestartsOnNextCall(t *testing.T) {
	fs := newFakeServer(t)
	var crashes atomic.Int32
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "tools/call" && strings.Contains(string(m.Params), "flaky_write") && crashes.Add(1) == 1 {
			c.crash()
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	var states []State
	var mu sync.Mutex
	s.OnState(func(c StateChange) { mu.Lock(); states = append(states, c.To); mu.Unlock() })
	res, err := s.CallTool(ctx, ToolCall{Name: "flaky_write"}, nil)
	if !errors.Is(err, ErrNoResponse) || !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("err = %v, want no response", err)
	}
	var exit *wire.ExitError
	if !errors.As(err, &exit) || exit.Code != 3 {
		t.Errorf("err %v does not carry the exit status", err)
	}
	if st, why := s.State(); st != StateDisconnected || why == nil {
		t.Errorf("state %s (%v), want disconnected with a reason", st, why)
	}
	ev, _ := log.Get(res.Seq)
	if ev.Outcome == nil || ev.Outcome.State != events.NoResponse {
		t.Errorf("outcome %+v", ev.Outcome)
	}
	// The next call starts the server again.
	res2, err := s.CallTool(ctx, ToolCall{Name: "flaky_write"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Result.Raw == nil || fs.dials.Load() != 2 || len(fs.received("initialize")) != 2 {
		t.Errorf("dials %d, initialize sent %d times", fs.dials.Load(), len(fs.received("initialize")))
	}
	if res2.ID == res.ID {
		t.Errorf("request id %s reused after restart", res.ID)
	}
	mu.Lock()
	want := []State{StateConnecting, StateConnected, StateDisconnected, StateConnecting, StateConnected}
	if fmt.Sprint(states) != fmt.Sprint(want) {
		t.Errorf("states %v, want %v", states, want)
	}
	mu.Unlock()
}

func TestNoReconnectAndClose(t *testing.T) {
	fs := newFakeServer(t)
	s, _ := newTestSession(t, fs, &Options{NoReconnect: true})
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	fs.conn().crash()
	waitUntil(t, "disconnected", func() bool { st, _ := s.State(); return st == StateDisconnected })
	if _, err := s.Ping(ctx, nil); !errors.Is(err, ErrConnectionClosed) {
		t.Errorf("ping after crash with NoReconnect: %v", err)
	}
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ping(ctx, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("ping after Close: %v", err)
	}
}

// blockingSampler answers sampling after a delay longer than the request
// timeout.
type blockingSampler struct {
	delay time.Duration
	got   chan *SamplingRequest
}

func (b *blockingSampler) CreateMessage(ctx context.Context, req *SamplingRequest) (*mcp.CreateMessageResult, error) {
	b.got <- req
	select {
	case <-time.After(b.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("hello from the human")},
		Model:           "mock",
		StopReason:      "endTurn",
	}, nil
}

type elicitor struct{}

func (elicitor) Elicit(ctx context.Context, req *ElicitationRequest) (*mcp.ElicitationResult, error) {
	if req.Mode == mcp.ElicitationModeURL {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}, nil
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada"}}}, nil
}

func TestServerRequestsWithoutTimeCap(t *testing.T) {
	fs := newFakeServer(t)
	answers := make(chan msg, 16)
	fs.handle = func(c *fakeConn, m msg) bool {
		switch {
		case m.Method == "tools/call":
			go func() {
				c.emit(`{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5,"tools":[{"name":"w","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"auto"}}}`)
				a := <-answers
				c.reply(m.ID, `{"content":[{"type":"text","text":`+mustQuote(string(a.raw))+`}]}`)
			}()
			return true
		case m.Method == "" && len(m.ID) > 0:
			answers <- m
			return true
		}
		return false
	}
	sampler := &blockingSampler{delay: 2 * time.Second, got: make(chan *SamplingRequest, 1)}
	s, log := newTestSession(t, fs, &Options{
		RequestTimeout: 700 * time.Millisecond,
		Handlers:       Handlers{Sampling: sampler, Elicitation: elicitor{}},
		Roots:          []mcp.Root{{URI: "file:///tmp", Name: "tmp"}},
	})
	ctx := testCtx(t)
	res, err := s.CallTool(ctx, ToolCall{Name: "ask"}, nil)
	if err != nil {
		t.Fatalf("the tool call timed out while a person answered sampling: %v", err)
	}
	req := <-sampler.got
	if req.Run != res.Run || req.ID != `"s1"` || len(req.Tools) != 1 || req.MaxTokens != 5 {
		t.Errorf("sampling request %+v (run %q, call run %q)", req.ServerRequest, req.Run, res.Run)
	}
	text := res.Result.Content[0].Text
	if !strings.Contains(text, `"id":"s1"`) || !strings.Contains(text, "hello from the human") {
		t.Errorf("server got %s", text)
	}
	// The answer is recorded in the same run and paired.
	var answer events.Event
	for _, e := range messages(log) {
		if e.Dir == events.DirOut && e.ID == `"s1"` {
			answer = e
		}
	}
	if answer.Run != res.Run || answer.Type != events.MsgResult {
		t.Errorf("answer event %+v", answer)
	}

	// Other server requests, outside any operation.
	c := fs.conn()
	for _, tc := range []struct{ req, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"roots/list"}`, `"roots":[{"uri":"file:///tmp","name":"tmp"}]`},
		{`{"jsonrpc":"2.0","id":8,"method":"ping"}`, `"result":{}`},
		{`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"who?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`, `"content":{"name":"Ada"}`},
		{`{"jsonrpc":"2.0","id":10,"method":"elicitation/create","params":{"mode":"url","message":"go","url":"https://example.com","elicitationId":"e1"}}`, `"action":"accept"`},
		{`{"jsonrpc":"2.0","id":11,"method":"what/ever"}`, `"code":-32601`},
		// tasks is declared by default (DefaultCapabilities), so the
		// client lists its tasks: none, here
		{`{"jsonrpc":"2.0","id":12,"method":"tasks/list"}`, `"result":{"tasks":[]}`},
	} {
		c.emit(tc.req)
		a := <-answers
		if !strings.Contains(string(a.raw), tc.want) {
			t.Errorf("%s answered %s, want %s", tc.req, a.raw, tc.want)
		}
	}
}

func mustQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestServerCancelsItsRequest(t *testing.T) {
	fs := newFakeServer(t)
	answers := make(chan msg, 4)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "" && len(m.ID) > 0 {
			answers <- m
			return true
		}
		return false
	}
	sampler := &blockingSampler{delay: time.Hour, got: make(chan *SamplingRequest, 1)}
	s, log := newTestSession(t, fs, &Options{Handlers: Handlers{Sampling: sampler}})
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	c := fs.conn()
	c.emit(`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`)
	<-sampler.got
	c.emit(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"enough"}}`)
	// The handler's ctx ends and no answer is sent.
	if _, err := s.Ping(testCtx(t), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-answers:
		t.Errorf("answered a cancelled request: %s", a.raw)
	case <-time.After(100 * time.Millisecond):
	}
	for _, e := range messages(log) {
		if e.Dir == events.DirIn && e.Type == events.MsgRequest && (e.Outcome == nil || e.Outcome.State != events.Cancelled) {
			t.Errorf("server request outcome %+v", e.Outcome)
		}
	}
}

func TestCapabilitiesFollowHandlers(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"none", Options{}, `{}`},
		{"roots only", Options{Roots: []mcp.Root{}}, `{"roots":{"listChanged":true}}`},
		{"all", Options{Handlers: Handlers{Sampling: &blockingSampler{}, Elicitation: elicitor{}}, Roots: []mcp.Root{}},
			`{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"sampling":{"tools":{}},"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}},"sampling":{"createMessage":{}}}}}`},
		{"switched off", Options{Handlers: Handlers{Sampling: &blockingSampler{}, Elicitation: elicitor{}},
			Capabilities: &Capabilities{Sampling: true, ElicitationForm: true, Roots: true, Tasks: true,
				Experimental: map[string]json.RawMessage{"x": json.RawMessage(`{"on":true}`)}}},
			`{"elicitation":{"form":{}},"experimental":{"x":{"on":true}},"sampling":{},"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}},"sampling":{"createMessage":{}}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(newFakeServer(t).dial, events.New(nil), &tc.opts)
			if got := string(s.ClientCapabilities()); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestMetadataMerge(t *testing.T) {
	fs := newFakeServer(t)
	s, _ := newTestSession(t, fs, &Options{Metadata: map[string]any{"a": 1, "b": 2, "c": "d"}})
	ctx := testCtx(t)
	if _, err := s.Call(ctx, "x/one", json.RawMessage(`{"_meta":{"a":"mine"},"k":true}`), &CallOptions{Meta: map[string]any{"b": 3}, Progress: func(Progress) {}}); err == nil {
		t.Fatal("x/one should fail with method not found")
	}
	m := fs.received("x/one")[0]
	var p struct {
		Meta map[string]any `json:"_meta"`
		K    bool           `json:"k"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.Meta["a"] != "mine" || p.Meta["b"] != 3.0 || p.Meta["c"] != "d" || p.Meta["progressToken"] == nil || !p.K {
		t.Errorf("params %s", m.Params)
	}
	// initialize and no-params requests get the defaults too.
	for _, method := range []string{"initialize", "ping"} {
		if _, err := s.Ping(ctx, nil); err != nil {
			t.Fatal(err)
		}
		got := fs.received(method)[0]
		if !strings.Contains(string(got.Params), `"_meta":{"a":1,"b":2,"c":"d"}`) {
			t.Errorf("%s params %s", method, got.Params)
		}
	}
	// The meta wins only where the request has none; a progress token
	// the caller set is kept (and tracked).
	if _, err := s.Call(ctx, "x/two", json.RawMessage(`{"_meta":{"progressToken":"mine"}}`), nil); err == nil {
		t.Fatal("want method not found")
	}
	if got := string(fs.received("x/two")[0].Params); !strings.Contains(got, `"progressToken":"mine"`) {
		t.Errorf("x/two params %s", got)
	}
}

func TestRPCErrorKeepsUnknownCodes(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "x/fail" {
			c.emit(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32042,"message":"go to url","data":{"elicitations":[{"url":"https://x"}]}}}`, m.ID))
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, nil)
	rep, err := s.Call(testCtx(t), "x/fail", nil, nil)
	var re *RPCError
	if !errors.As(err, &re) || re.Code != -32042 || re.Message != "go to url" || string(re.Data) != `{"elicitations":[{"url":"https://x"}]}` {
		t.Fatalf("err %v (%+v)", err, re)
	}
	ev, _ := log.Get(rep.Seq)
	if ev.Outcome == nil || ev.Outcome.State != events.Failed {
		t.Errorf("outcome %+v", ev.Outcome)
	}
}

func TestPagination(t *testing.T) {
	fs := newFakeServer(t)
	loop := false
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method != "tools/list" {
			return false
		}
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(m.Params, &p)
		switch p.Cursor {
		case "":
			c.reply(m.ID, `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string","pattern":"^a+$","format":"email"}}}}],"nextCursor":"p2"}`)
		case "p2":
			c.reply(m.ID, `{"tools":[{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"p3"}`)
		case "p3":
			if loop {
				c.reply(m.ID, `{"tools":[],"nextCursor":"p2"}`)
			} else {
				c.reply(m.ID, `{"tools":[{"name":"c","inputSchema":{"type":"object"}}]}`)
			}
		}
		return true
	}
	s, log := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	all, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Tools) != 3 || len(all.Pages) != 3 || all.NextCursor != "" || all.Tools[2].Name != "c" {
		t.Fatalf("aggregated %+v", all)
	}
	if !strings.Contains(string(all.Tools[0].Raw), `"pattern":"^a+$","format":"email"`) {
		t.Errorf("raw tool lost schema keywords: %s", all.Tools[0].Raw)
	}
	if len(all.Items) != 3 || string(all.Items[0]) != string(all.Tools[0].Raw) || !strings.Contains(string(all.Tools[0].InputSchema), `"pattern":"^a+$","format":"email"`) {
		t.Errorf("items %s, input schema %s", all.Items, all.Tools[0].InputSchema)
	}
	for _, p := range all.Pages {
		if p.Run != all.Run {
			t.Errorf("page run %q, list run %q", p.Run, all.Run)
		}
	}
	_ = log

	one, err := s.ListTools(ctx, &ListOptions{OnePage: true})
	if err != nil || len(one.Tools) != 1 || one.NextCursor != "p2" {
		t.Fatalf("one page: %+v %v", one, err)
	}
	next, err := s.ListTools(ctx, &ListOptions{OnePage: true, Cursor: one.NextCursor})
	if err != nil || len(next.Tools) != 1 || next.Tools[0].Name != "b" || next.NextCursor != "p3" {
		t.Fatalf("next page: %+v %v", next, err)
	}

	s2, _ := newTestSession(t, fs, &Options{PaginatedLists: true})
	if one, err := s2.ListTools(ctx, nil); err != nil || one.NextCursor != "p2" {
		t.Fatalf("PaginatedLists: %+v %v", one, err)
	}

	loop = true
	if _, err := s.ListTools(ctx, nil); !errors.Is(err, ErrCursorLoop) {
		t.Errorf("cursor loop: %v", err)
	}
}

func TestNotificationsNeverBlock(t *testing.T) {
	fs := newFakeServer(t)
	const n = 3 * maxQueued
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "x/flood" {
			for i := range n {
				c.emit(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":%d}}`, i))
			}
			c.reply(m.ID, `{}`)
			return true
		}
		return false
	}
	s, _ := newTestSession(t, fs, nil)
	block := make(chan struct{})
	var seen, dropped atomic.Int64
	cancel := s.OnNotification(func(nt Notification) {
		<-block
		seen.Add(1)
		dropped.Add(int64(nt.Dropped))
	})
	defer cancel()
	var fast atomic.Int64
	cancel2 := s.OnNotification(func(nt Notification) {
		if nt.Method == MethodMessage {
			fast.Add(1)
		}
	})
	defer cancel2()
	rep, err := s.Call(testCtx(t), "x/flood", nil, nil)
	if err != nil {
		t.Fatalf("a blocked listener stalled the connection: %v", err)
	}
	close(block)
	waitUntil(t, "every notification accounted for", func() bool { return seen.Load()+dropped.Load() == n })
	if dropped.Load() == 0 {
		t.Errorf("a listener blocked for %d notifications lost none", n)
	}
	waitUntil(t, "the fast listener", func() bool { return fast.Load() > 0 })
	_ = rep
}

func TestRunsRelateServerTraffic(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "tools/call" {
			c.emit(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`)
			c.reply(m.ID, `{"task":{"taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`)
			c.emit(`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t1","status":"completed","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`)
			return true
		}
		if m.Method == "tasks/result" {
			c.reply(m.ID, `{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}}}`)
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	var notes []Notification
	var mu sync.Mutex
	s.OnNotification(func(n Notification) { mu.Lock(); notes = append(notes, n); mu.Unlock() })
	res, err := s.CallTool(ctx, ToolCall{Name: "slow", Task: &mcp.TaskParams{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Result.TaskID != "t1" || res.Result.Content != nil {
		t.Fatalf("task result %+v", res)
	}
	if !strings.Contains(string(fs.received("tools/call")[0].Params), `"task":{}`) {
		t.Errorf("tools/call params %s", fs.received("tools/call")[0].Params)
	}
	tr, err := s.TaskResult(ctx, "t1", nil)
	if err != nil || tr.Run != res.Run || len(tr.Result.Content) != 1 || tr.Result.Content[0].Text != "done" || tr.Result.Problems != nil {
		t.Fatalf("task result %+v %v", tr, err)
	}
	waitUntil(t, "notifications", func() bool { mu.Lock(); defer mu.Unlock(); return len(notes) == 2 })
	mu.Lock()
	for _, n := range notes {
		if n.Run != res.Run {
			t.Errorf("%s in run %q, want %q", n.Method, n.Run, res.Run)
		}
	}
	mu.Unlock()
	for _, e := range messages(log) {
		if e.Method != "initialize" && e.Method != "notifications/initialized" && e.Run != res.Run && !(e.Type == events.MsgResult && e.Method == "initialize") {
			t.Errorf("event %s %s in run %q, want %q", e.Type, e.Method, e.Run, res.Run)
		}
	}
}

func TestEras(t *testing.T) {
	discover := `{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}},"instructions":"modern",` +
		`"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"m","version":"9"}}}`
	t.Run("modern", func(t *testing.T) {
		fs := newFakeServer(t)
		fs.handle = func(c *fakeConn, m msg) bool {
			if m.Method == "server/discover" {
				c.reply(m.ID, discover)
				return true
			}
			return false
		}
		s, _ := newTestSession(t, fs, &Options{Era: EraModern})
		if _, err := s.Ping(testCtx(t), nil); err != nil {
			t.Fatal(err)
		}
		info := s.Info()
		if !info.Modern || info.ProtocolVersion != VersionModern || info.Name != "m" || info.Instructions != "modern" {
			t.Errorf("info %+v", info)
		}
		if len(fs.received("initialize")) != 0 || len(fs.received("notifications/initialized")) != 0 {
			t.Error("modern era sent initialize")
		}
		ping := fs.received("ping")[0]
		if !strings.Contains(string(ping.Params), `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`) ||
			!strings.Contains(string(ping.Params), `"io.modelcontextprotocol/clientInfo"`) {
			t.Errorf("modern ping params %s", ping.Params)
		}
	})
	t.Run("auto falls back", func(t *testing.T) {
		fs := newFakeServer(t)
		s, _ := newTestSession(t, fs, &Options{Era: EraAuto})
		if err := s.Connect(testCtx(t)); err != nil {
			t.Fatal(err)
		}
		if len(fs.received("server/discover")) != 1 || len(fs.received("initialize")) != 1 {
			t.Error("auto did not try discover then initialize")
		}
		if info := s.Info(); info.Modern || info.ProtocolVersion != VersionLegacy {
			t.Errorf("info %+v", info)
		}
	})
	t.Run("pinned", func(t *testing.T) {
		fs := newFakeServer(t)
		s, _ := newTestSession(t, fs, &Options{ProtocolVersion: "2024-11-05", Era: EraModern})
		if err := s.Connect(testCtx(t)); err != nil {
			t.Fatal(err)
		}
		if p := string(fs.received("initialize")[0].Params); !strings.Contains(p, `"protocolVersion":"2024-11-05"`) {
			t.Errorf("initialize %s", p)
		}
	})
}

func TestConnectFailures(t *testing.T) {
	t.Run("dial", func(t *testing.T) {
		boom := errors.New("boom")
		s := New(func(context.Context) (wire.Conn, error) { return nil, boom }, events.New(nil), nil)
		if err := s.Connect(testCtx(t)); !errors.Is(err, boom) {
			t.Fatalf("err %v", err)
		}
		if st, why := s.State(); st != StateFailed || !errors.Is(why, boom) {
			t.Errorf("state %s %v", st, why)
		}
	})
	t.Run("dial, worded", func(t *testing.T) {
		// the error event says the failure in WordError's words first
		// and keeps the chain in its text
		boom := errors.New(`wire: start x: exec: "x": executable file not found in $PATH`)
		log := events.New(nil)
		s := New(func(context.Context) (wire.Conn, error) { return nil, boom }, log,
			&Options{Conn: "srv", WordError: func(err error) string { return "Command not found: x" }})
		if err := s.Connect(testCtx(t)); !errors.Is(err, boom) {
			t.Fatalf("err %v", err)
		}
		var got []events.Event
		for _, e := range log.Events() {
			if e.Kind == events.KindError {
				got = append(got, e)
			}
		}
		if len(got) != 1 || got[0].Summary != "Command not found: x" || !strings.Contains(got[0].Text, boom.Error()) {
			t.Fatalf("error events %+v", got)
		}
	})
	t.Run("server never answers", func(t *testing.T) {
		fs := newFakeServer(t)
		fs.handle = func(c *fakeConn, m msg) bool { return m.Method == "initialize" }
		s, log := newTestSession(t, fs, &Options{ConnectionTimeout: 200 * time.Millisecond})
		err := s.Connect(testCtx(t))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v", err)
		}
		if st, _ := s.State(); st != StateFailed {
			t.Errorf("state %s", st)
		}
		ms := messages(log)
		if ms[0].Outcome == nil || ms[0].Outcome.State != events.TimedOut {
			t.Errorf("initialize outcome %+v", ms[0].Outcome)
		}
		if len(fs.received("notifications/cancelled")) != 0 {
			t.Error("initialize must not be cancelled")
		}
		if !fs.conn().isClosed() {
			t.Error("the failed connection was left open")
		}
	})
	t.Run("error answer", func(t *testing.T) {
		fs := newFakeServer(t)
		fs.handle = func(c *fakeConn, m msg) bool {
			if m.Method == "initialize" {
				c.replyError(m.ID, -32602, "Unsupported protocol version")
				return true
			}
			return false
		}
		s, _ := newTestSession(t, fs, nil)
		var re *RPCError
		if err := s.Connect(testCtx(t)); !errors.As(err, &re) || re.Code != -32602 {
			t.Fatalf("err %v", err)
		}
	})
}

func TestInvalidAndUnknownMessages(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "ping" {
			c.emit(`{"jsonrpc":"2.0","id":999999,"result":{}}`)
			c.emit(`{"jsonrpc":"2.0"}`)
			c.emit(`not json`)
			c.emit(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}},{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}]`)
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, nil)
	if _, err := s.Ping(testCtx(t), nil); err != nil {
		t.Fatal(err)
	}
	var invalid, msgs int
	for _, e := range log.Events() {
		switch e.Kind {
		case events.KindInvalid:
			invalid++
		case events.KindMessage:
			msgs++
		}
	}
	if invalid != 2 || msgs != 3+1+2+1 {
		t.Errorf("invalid %d, messages %d", invalid, msgs)
	}
}

func TestOperationsShapes(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool {
		switch m.Method {
		case "resources/read":
			c.reply(m.ID, `{"contents":[{"uri":"test://a","mimeType":"text/plain","text":"A"}]}`)
		case "prompts/get":
			c.reply(m.ID, `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}`)
		case "completion/complete":
			c.reply(m.ID, `{"completion":{"values":["x","y"],"hasMore":false}}`)
		case "resources/list":
			c.reply(m.ID, `{"resources":[{"uri":"test://a","name":"a"}]}`)
		case "resources/templates/list":
			c.reply(m.ID, `{"resourceTemplates":[{"uriTemplate":"test://{id}","name":"t"}]}`)
		case "prompts/list":
			c.reply(m.ID, `{"prompts":[{"name":"p","arguments":[{"name":"q","required":true}]}]}`)
		case "tasks/get", "tasks/cancel":
			c.reply(m.ID, `{"taskId":"t","status":"cancelled","createdAt":"x","lastUpdatedAt":"x","ttl":null}`)
		case "tasks/list":
			c.reply(m.ID, `{"tasks":[{"taskId":"t","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}]}`)
		case "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
			c.reply(m.ID, `{}`)
		default:
			return false
		}
		return true
	}
	s, _ := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	rr, err := s.ReadResource(ctx, "test://a", nil)
	if err != nil || rr.Result.Contents[0].Text != "A" {
		t.Fatalf("read %+v %v", rr, err)
	}
	pg, err := s.GetPrompt(ctx, "p", map[string]string{"q": "1"}, nil)
	if err != nil || len(pg.Result.Messages) != 1 {
		t.Fatalf("prompt %+v %v", pg, err)
	}
	if p := string(fs.received("prompts/get")[0].Params); p != `{"name":"p","arguments":{"q":"1"}}` {
		t.Errorf("prompts/get params %s", p)
	}
	cp, err := s.Complete(ctx, CompletionRef{Type: "ref/prompt", Name: "p"}, mcp.CompleteArgument{Name: "q", Value: "x"}, map[string]string{"o": "1"}, nil)
	if err != nil || len(cp.Result.Values) != 2 {
		t.Fatalf("complete %+v %v", cp, err)
	}
	if p := string(fs.received("completion/complete")[0].Params); p != `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"q","value":"x"},"context":{"arguments":{"o":"1"}}}` {
		t.Errorf("complete params %s", p)
	}
	if r, err := s.ListResources(ctx, nil); err != nil || r.Resources[0].URI != "test://a" {
		t.Fatalf("resources %+v %v", r, err)
	}
	if r, err := s.ListResourceTemplates(ctx, nil); err != nil || r.Templates[0].Name != "t" {
		t.Fatalf("templates %+v %v", r, err)
	}
	if r, err := s.ListPrompts(ctx, nil); err != nil || !r.Prompts[0].Arguments[0].Required {
		t.Fatalf("prompts %+v %v", r, err)
	}
	if r, err := s.ListTasks(ctx, nil); err != nil || r.Tasks[0].ID != "t" {
		t.Fatalf("tasks %+v %v", r, err)
	}
	if r, err := s.GetTask(ctx, "t", nil); err != nil || r.Task.Status != string(mcp.TaskStatusCancelled) {
		t.Fatalf("task %+v %v", r, err)
	}
	if _, err := s.CancelTask(ctx, "t", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetLogLevel(ctx, mcp.LoggingLevelDebug, nil); err != nil {
		t.Fatal(err)
	}
	if p := string(fs.received("logging/setLevel")[0].Params); p != `{"level":"debug"}` {
		t.Errorf("setLevel params %s", p)
	}
	if _, err := s.SubscribeResource(ctx, "test://a", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UnsubscribeResource(ctx, "test://a", nil); err != nil {
		t.Fatal(err)
	}
	// SetRoots without the roots capability sends nothing.
	if err := s.SetRoots(ctx, []mcp.Root{{URI: "file:///x"}}); err != nil {
		t.Fatal(err)
	}
	if len(fs.received("notifications/roots/list_changed")) != 0 {
		t.Error("list_changed sent without the roots capability")
	}
	s2, _ := newTestSession(t, fs, &Options{Roots: []mcp.Root{}})
	if err := s2.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s2.SetRoots(ctx, []mcp.Root{{URI: "file:///x"}}); err != nil {
		t.Fatal(err)
	}
	fs.waitFor("notifications/roots/list_changed")
}

func TestBlockingSendStillTimesOutAndCancels(t *testing.T) {
	fs := newFakeServer(t)
	// Like a POST answered with a plain JSON body: Send returns only
	// when the server answers, which it never does for x/hang.
	hanging := make(chan struct{}, 2)
	fs.sendHook = func(ctx context.Context, c *fakeConn, b []byte, _ *wire.SendOptions) error {
		if strings.Contains(string(b), `"x/hang"`) {
			hanging <- struct{}{}
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}
	s, log := newTestSession(t, fs, &Options{RequestTimeout: 200 * time.Millisecond})
	rep, err := s.Call(testCtx(t), "x/hang", nil, nil)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v, want timeout", err)
	}
	fs.waitFor("notifications/cancelled")
	if ev, _ := log.Get(rep.Seq); ev.Outcome == nil || ev.Outcome.State != events.TimedOut {
		t.Errorf("outcome %+v", ev)
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	<-hanging // the first call's write
	go func() { <-hanging; cancel() }()
	rep, err = s.Call(ctx, "x/hang", nil, &CallOptions{Timeout: -1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want cancelled", err)
	}
	if ev, _ := log.Get(rep.Seq); ev.Outcome == nil || ev.Outcome.State != events.Cancelled {
		t.Errorf("outcome %+v", ev.Outcome)
	}
}

func TestSendFailureAndHeaders(t *testing.T) {
	fs := newFakeServer(t)
	boom := &wire.HTTPError{Method: "POST", Status: 500}
	var gotHeader atomic.Value
	expired := atomic.Bool{}
	fs.sendHook = func(ctx context.Context, c *fakeConn, b []byte, opts *wire.SendOptions) error {
		switch {
		case strings.Contains(string(b), `"x/fail"`):
			return boom
		case strings.Contains(string(b), `"x/expired"`) && !expired.Swap(true):
			return &wire.HTTPError{Method: "POST", Status: 404, SessionID: "abc"}
		case strings.Contains(string(b), `"ping"`) && opts != nil:
			gotHeader.Store(opts.Header.Get("X-Trace"))
		}
		return nil
	}
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "x/expired" {
			c.reply(m.ID, `{"ok":true}`)
			return true
		}
		return false
	}
	s, _ := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	if _, err := s.Call(ctx, "x/fail", nil, nil); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	if _, err := s.Ping(ctx, &CallOptions{Header: map[string][]string{"X-Trace": {"t1"}}}); err != nil {
		t.Fatal(err)
	}
	if gotHeader.Load() != "t1" {
		t.Errorf("header %v", gotHeader.Load())
	}
	// An expired HTTP session: initialize again and resend once.
	rep, err := s.Call(ctx, "x/expired", nil, nil)
	if err != nil || string(rep.Raw) != `{"ok":true}` {
		t.Fatalf("after session expiry: %v", err)
	}
	if fs.dials.Load() != 2 || len(fs.received("initialize")) != 2 {
		t.Errorf("dials %d", fs.dials.Load())
	}
}

type failingHandlers struct{}

func (failingHandlers) CreateMessage(context.Context, *SamplingRequest) (*mcp.CreateMessageResult, error) {
	return nil, &RPCError{Code: CodeUserRejected, Message: "User rejected sampling request"}
}

func (failingHandlers) Elicit(context.Context, *ElicitationRequest) (*mcp.ElicitationResult, error) {
	return nil, errors.New("form broke")
}

func (failingHandlers) ListRoots(context.Context, *ServerRequest) ([]mcp.Root, error) {
	return []mcp.Root{{URI: "file:///from/provider"}}, nil
}

func TestHandlerErrorsBecomeRPCErrors(t *testing.T) {
	fs := newFakeServer(t)
	answers := make(chan msg, 8)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "" && len(m.ID) > 0 {
			answers <- m
			return true
		}
		return false
	}
	h := failingHandlers{}
	s, _ := newTestSession(t, fs, &Options{Handlers: Handlers{Sampling: h, Elicitation: h, Roots: h},
		Capabilities: &Capabilities{Roots: true, Sampling: true, ElicitationForm: true, Tasks: true}})
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	c := fs.conn()
	for _, tc := range []struct{ req, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`, `"error":{"code":-1,"message":"User rejected sampling request"}`},
		{`{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"tools":[{"name":"x","inputSchema":{"type":"object"}}]}}`, `"code":-32602`},
		{`{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}`, `"error":{"code":-32603,"message":"form broke"}`},
		{`{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x","elicitationId":"e"}}`, `"code":-32602`},
		{`{"jsonrpc":"2.0","id":5,"method":"roots/list"}`, `"file:///from/provider"`},
		{`{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"nope"}}`, `"code":-32602`},
	} {
		c.emit(tc.req)
		select {
		case a := <-answers:
			if !strings.Contains(string(a.raw), tc.want) {
				t.Errorf("%s\nanswered %s\nwant %s", tc.req, a.raw, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no answer to %s", tc.req)
		}
	}
}

func TestUnrelatedServerRequestPausesTimeouts(t *testing.T) {
	fs := newFakeServer(t)
	answered := make(chan struct{})
	fs.handle = func(c *fakeConn, m msg) bool {
		switch {
		case m.Method == "tools/call":
			go func() {
				<-answered
				c.defaults(m)
			}()
			return true
		case m.Method == "" && len(m.ID) > 0:
			close(answered)
			return true
		}
		return false
	}
	sampler := &blockingSampler{delay: 2500 * time.Millisecond, got: make(chan *SamplingRequest, 1)}
	s, _ := newTestSession(t, fs, &Options{RequestTimeout: time.Second, Handlers: Handlers{Sampling: sampler}})
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := s.CallTool(ctx, ToolCall{Name: "wait"}, nil)
			errs <- err
		}()
	}
	waitUntil(t, "two tools/call", func() bool { return len(fs.received("tools/call")) >= 2 })
	// Two calls in flight: the request belongs to no run, and still
	// pauses both.
	fs.conn().emit(`{"jsonrpc":"2.0","id":"q","method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`)
	req := <-sampler.got
	if req.Run != "" {
		t.Errorf("run %q with two operations in flight", req.Run)
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("call timed out while a person answered: %v", err)
		}
	}
}

func TestAutoEraSilentLegacyServer(t *testing.T) {
	fs := newFakeServer(t)
	// Never answers server/discover.
	fs.handle = func(c *fakeConn, m msg) bool { return m.Method == "server/discover" }
	s, _ := newTestSession(t, fs, &Options{Era: EraAuto, ConnectionTimeout: 600 * time.Millisecond})
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("auto era against a server that ignores server/discover: %v", err)
	}
	if info := s.Info(); info.Modern {
		t.Errorf("info %+v", info)
	}
}

func TestNoGoroutinesLeftBehind(t *testing.T) {
	before := runtime.NumGoroutine()
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "tools/call" {
			c.emit(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)
		}
		return false
	}
	log := events.New(nil)
	s := New(fs.dial, log, &Options{Handlers: Handlers{Sampling: &blockingSampler{}}})
	got := make(chan struct{}, 1)
	s.OnNotification(func(Notification) {
		select {
		case got <- struct{}{}:
		default:
		}
	})
	ctx := testCtx(t)
	for range 3 {
		if _, err := s.CallTool(ctx, ToolCall{Name: "x"}, &CallOptions{Progress: func(Progress) {}}); err != nil {
			t.Fatal(err)
		}
	}
	<-got
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

func TestCloseWhileConnecting(t *testing.T) {
	fs := newFakeServer(t)
	started := make(chan struct{})
	release := make(chan struct{})
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "initialize" {
			close(started)
			go func() { <-release; c.defaults(m) }()
			return true
		}
		return false
	}
	s, _ := newTestSession(t, fs, nil)
	errc := make(chan error, 1)
	go func() { errc <- s.Connect(testCtx(t)) }()
	<-started
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-errc; err == nil {
		t.Fatal("Connect succeeded after Close")
	}
	if st, _ := s.State(); st != StateDisconnected {
		t.Errorf("state %s after Close during connect", st)
	}
	if !fs.conn().isClosed() {
		t.Error("the connection was left open")
	}
}

// A write that waits for a person (an OAuth sign-in inside Send) pauses
// the request's timeout through SendOptions.Hold; the answer that follows is
// taken, not reported as timed out. Without the hold the same wait times
// out.
func TestHoldPausesTimeoutDuringSend(t *testing.T) {
	fs := newFakeServer(t)
	const timeout = 150 * time.Millisecond
	var hold atomic.Bool
	fs.sendHook = func(ctx context.Context, c *fakeConn, b []byte, opts *wire.SendOptions) error {
		if !strings.Contains(string(b), `"x/signs-in"`) {
			return nil
		}
		if hold.Load() {
			resume := wire.HoldOf(opts)
			defer resume()
		}
		select { // the sign-in takes several timeouts
		case <-time.After(4 * timeout):
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	}
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method == "x/signs-in" {
			c.reply(m.ID, `{"ok":true}`)
			return true
		}
		return false
	}
	s, log := newTestSession(t, fs, &Options{RequestTimeout: timeout})

	hold.Store(true)
	rep, err := s.Call(testCtx(t), "x/signs-in", nil, nil)
	if err != nil {
		t.Fatalf("a request whose write waited for a sign-in: %v", err)
	}
	if string(rep.Raw) != `{"ok":true}` {
		t.Fatalf("result %s", rep.Raw)
	}
	if ev, _ := log.Get(rep.Seq); ev.Outcome == nil || ev.Outcome.State == events.TimedOut {
		t.Errorf("outcome %+v", ev.Outcome)
	}

	hold.Store(false)
	if _, err := s.Call(testCtx(t), "x/signs-in", nil, nil); !errors.Is(err, ErrTimeout) {
		t.Fatalf("without a hold: %v, want a timeout", err)
	}
}
