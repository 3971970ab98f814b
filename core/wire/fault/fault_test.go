package fault

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
	"github.com/spyglass-mcp/spyglass/internal/testwait"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rule
	}{
		{"drop=out:tools/call", Rule{Kind: Drop, Dir: Out, Method: "tools/call"}},
		{"drop=in:tools/call:*1", Rule{Kind: Drop, Dir: In, Method: "tools/call", Count: 1}},
		{"delay=in:200ms", Rule{Kind: Delay, Dir: In, Delay: 200 * time.Millisecond}},
		{"delay=out:tools/list:1s", Rule{Kind: Delay, Dir: Out, Method: "tools/list", Delay: time.Second}},
		{"dup=in:tools/call", Rule{Kind: Duplicate, Dir: In, Method: "tools/call"}},
		{"corrupt=in:tools/list", Rule{Kind: Corrupt, Dir: In, Method: "tools/list"}},
		{"reorder=in", Rule{Kind: Reorder, Dir: In}},
		{"reorder", Rule{Kind: Reorder}},
		{"cut=5", Rule{Kind: Cut, After: 5}},
		{"cut=out:3:*1", Rule{Kind: Cut, Dir: Out, After: 3, Count: 1}},
		{"cut=out:3", Rule{Kind: Cut, Dir: Out, After: 3}},
		{"error=tools/call:-32001", Rule{Kind: Error, Method: "tools/call", Code: -32001}},
		{"error=tools/call", Rule{Kind: Error, Method: "tools/call"}},
		{"late=tools/call:2s", Rule{Kind: Late, Method: "tools/call", Delay: 2 * time.Second}},
		{"unknown-id=tools/call", Rule{Kind: UnknownID, Method: "tools/call"}},
	} {
		s, err := Parse(tc.in)
		if err != nil || len(s.Rules) != 1 || s.Rules[0] != tc.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.in, s.Rules, err, tc.want)
			continue
		}
		if got := s.String(); got != tc.in {
			t.Errorf("String() = %q, want %q", got, tc.in)
		}
	}
	s, err := Parse(" drop=out:tools/call , delay=in:200ms,")
	if err != nil || len(s.Rules) != 2 || s.String() != "drop=out:tools/call,delay=in:200ms" {
		t.Errorf("two rules: %+v %v", s, err)
	}
	for _, bad := range []string{"explode", "delay=in", "delay=in:soon", "cut=x", "cut", "drop=in:a:b", "error=x:y", "drop=in:*0"} {
		if _, err := Parse(bad); !errors.Is(err, ErrSpec) {
			t.Errorf("Parse(%q) = %v, want ErrSpec", bad, err)
		}
	}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// faulty connects a session to the demo server through spec.
func faulty(t *testing.T, url, spec string, opts *session.Options) (*session.Session, *events.Log) {
	t.Helper()
	sp, err := Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	log := events.New(nil)
	inj := New(sp, log)
	dial := func(context.Context) (wire.Conn, error) {
		return inj.Wrap(wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "demo", URL: url, Client: &http.Client{}}, log), "demo"), nil
	}
	if opts == nil {
		opts = &session.Options{}
	}
	opts.Conn = "demo"
	s := session.New(dial, log, opts)
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	return s, log
}

func warnings(log *events.Log) []string {
	var out []string
	for _, e := range log.Events() {
		if e.Kind == events.KindWarning && strings.HasPrefix(e.Text, "fault injected:") {
			out = append(out, e.Text)
		}
	}
	return out
}

// lastToolCall returns the last tools/call request event.
func lastToolCall(t *testing.T, log *events.Log) events.Event {
	t.Helper()
	evs := log.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		if e := evs[i]; e.Kind == events.KindMessage && e.Type == events.MsgRequest && e.Method == "tools/call" {
			return e
		}
	}
	t.Fatal("no tools/call recorded")
	return events.Event{}
}

func echo(s *session.Session, ctx context.Context, msg string, timeout time.Duration) (*session.ToolResult, error) {
	return s.CallTool(ctx, session.ToolCall{Name: demo.ToolEcho, Arguments: map[string]any{"message": msg}}, &session.CallOptions{Timeout: timeout})
}

// TestHonestOutcomes: under each fault the session reports what a user
// would see, the log says which fault was injected, and the connection
// stays usable where it should.
func TestHonestOutcomes(t *testing.T) {
	url := demotest.URL(t, nil)
	short := 300 * time.Millisecond
	for _, tc := range []struct {
		name  string
		spec  string
		check func(t *testing.T, s *session.Session, log *events.Log)
	}{
		{"drop request: timed out", "drop=out:tools/call:*1", func(t *testing.T, s *session.Session, log *events.Log) {
			_, err := echo(s, testCtx(t), "a", short)
			if !errors.Is(err, session.ErrTimeout) {
				t.Fatalf("err %v", err)
			}
			if o := lastToolCall(t, log).Outcome; o.State != events.TimedOut {
				t.Errorf("outcome %v", o.State)
			}
		}},
		{"drop response: timed out, outcome unknown", "drop=in:tools/call:*1", func(t *testing.T, s *session.Session, log *events.Log) {
			res, err := s.CallTool(testCtx(t), session.ToolCall{Name: demo.ToolBumpCounter}, &session.CallOptions{Timeout: short})
			if !errors.Is(err, session.ErrTimeout) || !errors.Is(err, session.ErrOutcomeUnknown) || res.Attempt.Class != "timeout" {
				t.Fatalf("err %v attempt %+v", err, res.Attempt)
			}
		}},
		{"late reply", "late=tools/call:800ms:*1", func(t *testing.T, s *session.Session, log *events.Log) {
			_, err := echo(s, testCtx(t), "a", short)
			if !errors.Is(err, session.ErrTimeout) {
				t.Fatalf("err %v", err)
			}
			req := lastToolCall(t, log)
			waitFor(t, "the late reply", func() bool { e, _ := log.Get(req.Seq); return e.Pair != 0 })
			e, _ := log.Get(req.Seq)
			resp, _ := log.Get(e.Pair)
			if !resp.Late || e.Outcome.State != events.TimedOut {
				t.Errorf("request %v, response late=%v", e.Outcome.State, resp.Late)
			}
		}},
		{"injected error", "error=tools/call:-32001", func(t *testing.T, s *session.Session, log *events.Log) {
			res, err := echo(s, testCtx(t), "a", 0)
			var rpcErr *session.RPCError
			if !errors.As(err, &rpcErr) || rpcErr.Code != -32001 || res.Attempt.Class != "protocol" {
				t.Fatalf("err %v", err)
			}
			if o := lastToolCall(t, log).Outcome; o.State != events.Failed {
				t.Errorf("outcome %v", o.State)
			}
		}},
		{"unknown id", "unknown-id=tools/call:*1", func(t *testing.T, s *session.Session, log *events.Log) {
			_, err := echo(s, testCtx(t), "a", short)
			if !errors.Is(err, session.ErrTimeout) {
				t.Fatalf("err %v", err)
			}
			waitFor(t, "an unpaired response", func() bool {
				for _, e := range log.Events() {
					if e.Unpaired {
						return true
					}
				}
				return false
			})
		}},
		{"corrupt response", "corrupt=in:tools/call:*1", func(t *testing.T, s *session.Session, log *events.Log) {
			_, err := echo(s, testCtx(t), "a", short)
			if !errors.Is(err, session.ErrTimeout) {
				t.Fatalf("err %v", err)
			}
			waitFor(t, "invalid input recorded", func() bool {
				for _, e := range log.Events() {
					if e.Kind == events.KindInvalid {
						return true
					}
				}
				return false
			})
		}},
		{"duplicate response", "dup=in:tools/call", func(t *testing.T, s *session.Session, log *events.Log) {
			if _, err := echo(s, testCtx(t), "a", 0); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the second answer, unpaired", func() bool {
				for _, e := range log.Events() {
					if e.Unpaired && e.Kind == events.KindMessage {
						return true
					}
				}
				return false
			})
		}},
		{"duplicate request", "dup=out:tools/call", func(t *testing.T, s *session.Session, log *events.Log) {
			if _, err := echo(s, testCtx(t), "a", 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"delays and reorder", "delay=out:50ms,delay=in:50ms,reorder=in", func(t *testing.T, s *session.Session, log *events.Log) {
			ctx := testCtx(t)
			for i := 0; i < 3; i++ {
				if _, err := echo(s, ctx, "a", 0); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"cut: no response, then reconnect", "cut=out:3:*1", func(t *testing.T, s *session.Session, log *events.Log) {
			// initialize, initialized, then the tools/call is the third.
			res, err := s.CallTool(testCtx(t), session.ToolCall{Name: demo.ToolBumpCounter}, nil)
			if !errors.Is(err, session.ErrNoResponse) || !errors.Is(err, ErrInjected) || !res.Attempt.OutcomeUnknown || res.Attempt.Class != "transport" {
				t.Fatalf("err %v attempt %+v", err, res.Attempt)
			}
			if o := lastToolCall(t, log).Outcome; o.State != events.NoResponse {
				t.Errorf("outcome %v", o.State)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, log := faulty(t, url, tc.spec, nil)
			tc.check(t, s, log)
			if len(warnings(log)) == 0 {
				t.Error("no fault recorded")
			}
			// The connection (or a new one) still works.
			if _, err := echo(s, testCtx(t), "after", 0); err != nil && !strings.Contains(tc.spec, "error=") {
				t.Errorf("afterwards: %v", err)
			}
		})
	}
}

// waitFor fails the test when cond does not come to hold in time.
var waitFor = testwait.For
