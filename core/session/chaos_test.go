package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestChaos runs many operations at once against a server that answers,
// stalls, asks its own questions, sends progress and crashes. Every
// operation must return, and no request may be left "waiting" in the log.
func TestChaos(t *testing.T) {
	fs := newFakeServer(t)
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method != "tools/call" {
			return false
		}
		var p struct {
			Name string `json:"name"`
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(m.Params, &p)
		switch p.Name {
		case "ok":
			c.defaults(m)
		case "stall": // never answers
		case "progress":
			go func() {
				for i := range 3 {
					c.emit(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d}}`, p.Meta.ProgressToken, i))
				}
				c.defaults(m)
			}()
		case "ask":
			go func() {
				c.emit(fmt.Sprintf(`{"jsonrpc":"2.0","id":"ask-%s","method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`, m.ID))
				c.defaults(m)
			}()
		case "crash":
			c.crash()
		case "error":
			c.replyError(m.ID, -32000, "nope")
		}
		return true
	}
	s, log := newTestSession(t, fs, &Options{
		RequestTimeout: 100 * time.Millisecond,
		Handlers:       Handlers{Sampling: &blockingSampler{delay: time.Millisecond, got: make(chan *SamplingRequest, 1000)}},
	})
	ctx := testCtx(t)
	names := []string{"ok", "ok", "ok", "stall", "progress", "ask", "error", "crash", "cancel"}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range 40 {
				name := names[r.IntN(len(names))]
				cctx, cancel := context.WithCancel(ctx)
				if name == "cancel" {
					name = "stall"
					time.AfterFunc(time.Duration(r.IntN(20))*time.Millisecond, cancel)
				}
				opts := &CallOptions{}
				if name == "progress" {
					opts.Progress = func(Progress) {}
				}
				_, err := s.CallTool(cctx, ToolCall{Name: name}, opts)
				cancel()
				switch {
				case err == nil, errors.Is(err, ErrTimeout), errors.Is(err, ErrNoResponse), errors.Is(err, context.Canceled):
				default:
					var re *RPCError
					if !errors.As(err, &re) {
						t.Errorf("%s: unexpected error %v", name, err)
					}
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("operations hung")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	waiting := 0
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Type == events.MsgRequest && e.Outcome != nil && e.Outcome.State == events.Waiting {
			waiting++
			if waiting < 5 {
				t.Errorf("left waiting: %s %s %s", e.Dir, e.Method, strings.TrimSpace(string(e.Raw)))
			}
		}
	}
	if waiting > 0 {
		t.Errorf("%d requests left waiting", waiting)
	}
}

// TestServerRequestAfterClose: a request of the server's that the wire
// hands over after the connection closed (its reader had read it) is
// recorded, marked "no response" and not put to the user, instead of
// waiting forever in the log (TestChaos found one left waiting).
func TestServerRequestAfterClose(t *testing.T) {
	fs := newFakeServer(t)
	sampler := &blockingSampler{delay: time.Millisecond, got: make(chan *SamplingRequest, 1)}
	s, log := newTestSession(t, fs, &Options{Handlers: Handlers{Sampling: sampler}})
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	c := fs.conn()
	c.mu.Lock()
	h := c.h
	c.mu.Unlock()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	h.OnMessage([]byte(`{"jsonrpc":"2.0","id":"late","method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`))
	var found bool
	for _, e := range log.Events() {
		if e.Kind == events.KindMessage && e.Dir == events.DirIn && e.ID == `"late"` {
			found = true
			if e.Outcome == nil || e.Outcome.State != events.NoResponse {
				t.Errorf("the late request's outcome is %+v, want no response", e.Outcome)
			}
		}
	}
	if !found {
		t.Error("the request that came after the close is not in the log")
	}
	select {
	case <-sampler.got:
		t.Error("the sampler was asked to answer a request on a closed connection")
	default:
	}
}
