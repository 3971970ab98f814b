package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
)

func msg(seq, pair uint64, conn string, dir events.Direction, typ events.MessageType, method, raw string) events.Event {
	return events.Event{Seq: seq, Pair: pair, Conn: conn, Kind: events.KindMessage, Dir: dir, Type: typ, Method: method, Raw: json.RawMessage(raw)}
}

func trace() []events.Event {
	return []events.Event{
		msg(1, 2, "s", events.DirOut, events.MsgRequest, "initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"sampling":{},"elicitation":{"form":{}}}}}`),
		msg(2, 1, "s", events.DirIn, events.MsgResult, "initialize", `{"jsonrpc":"2.0","id":0,"result":{}}`),
		msg(3, 4, "s", events.DirOut, events.MsgRequest, "tools/list", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		msg(4, 3, "s", events.DirIn, events.MsgResult, "tools/list", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"read","annotations":{"readOnlyHint":true}},{"name":"write"}]}}`),
		msg(5, 8, "s", events.DirOut, events.MsgRequest, "tools/call", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write","arguments":{"x":1}}}`),
		msg(6, 7, "s", events.DirIn, events.MsgRequest, "sampling/createMessage", `{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}`),
		msg(7, 6, "s", events.DirOut, events.MsgResult, "sampling/createMessage", `{"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"recorded"},"model":"m"}}`),
		msg(8, 5, "s", events.DirIn, events.MsgResult, "tools/call", `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`),
		msg(9, 10, "s", events.DirOut, events.MsgRequest, "tools/call", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read"}}`),
		msg(10, 9, "s", events.DirIn, events.MsgError, "tools/call", `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no"}}`),
		msg(13, 0, "s", events.DirOut, events.MsgRequest, "subscriptions/listen", `{"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{}}`),
		msg(11, 12, "s", events.DirIn, events.MsgRequest, "elicitation/create", `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{}}`),
		msg(12, 11, "s", events.DirOut, events.MsgError, "elicitation/create", `{"jsonrpc":"2.0","id":"e1","error":{"code":-1,"message":"declined"}}`),
	}
}

// recorder plays the server: during the write call it asks for
// sampling, as the recorded server did.
type recorder struct {
	answers *Answers
	sent    []string
	sampled *mcp.CreateMessageResult
}

func (r *recorder) Call(ctx context.Context, method string, params json.RawMessage, _ *session.CallOptions) (*session.Reply, error) {
	r.sent = append(r.sent, method+" "+string(params))
	if len(r.sent) == 2 {
		r.sampled, _ = r.answers.CreateMessage(ctx, nil)
		return nil, &session.RPCError{Code: -32602, Message: "no"}
	}
	return &session.Reply{}, nil
}

func TestPlan(t *testing.T) {
	p := New(trace())
	if len(p.Steps) != 3 || len(p.Recorded) != 4 {
		t.Fatalf("steps %d, recorded %d", len(p.Steps), len(p.Recorded))
	}
	if !reflect.DeepEqual(p.Writes, []string{"write"}) {
		t.Errorf("writes %v", p.Writes)
	}
	if c := p.Capabilities(); c == nil || !c.Sampling || !c.ElicitationForm || c.ElicitationURL || c.Roots {
		t.Errorf("capabilities %+v", c)
	}
	r := recorder{answers: p.Answers}
	if n, err := p.Run(context.Background(), &r); n != 3 || err != nil {
		t.Fatalf("run: %d %v", n, err)
	}
	want := []string{`tools/list `, `tools/call {"name":"write","arguments":{"x":1}}`, `tools/call {"name":"read"}`}
	if !reflect.DeepEqual(r.sent, want) {
		t.Errorf("sent %q, want %q (only what was recorded, in order, no handshake)", r.sent, want)
	}
	// The server's requests get the recorded answers, then an error.
	if res := r.sampled; res == nil || fmt.Sprint(res.Content) == "" || res.Model != "m" {
		t.Errorf("sampling answer %+v", res)
	}
	var rpc *session.RPCError
	if _, err := p.Answers.Elicit(context.Background(), nil); !errors.As(err, &rpc) || rpc.Code != -1 {
		t.Errorf("recorded elicitation error: %v", err)
	}
	if _, err := p.Answers.CreateMessage(context.Background(), nil); !errors.As(err, &rpc) || p.Answers.Missing() != 1 {
		t.Errorf("beyond the trace: %v, missing %d", err, p.Answers.Missing())
	}
}

type failing struct{}

func (failing) Call(context.Context, string, json.RawMessage, *session.CallOptions) (*session.Reply, error) {
	return nil, session.ErrConnectionClosed
}

func TestRunStops(t *testing.T) {
	n, err := New(trace()).Run(context.Background(), failing{})
	if n != 0 || !errors.Is(err, ErrStopped) || !errors.Is(err, session.ErrConnectionClosed) {
		t.Errorf("%d %v", n, err)
	}
}

func TestSeveralConns(t *testing.T) {
	evs := trace()
	other := msg(20, 0, "t", events.DirOut, events.MsgRequest, "ping", `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	evs = append(evs, other)
	if p := New(evs); !reflect.DeepEqual(p.Conns, []string{"s", "t"}) {
		t.Errorf("conns %v", p.Conns)
	}
	if p := NewConn(evs, "t"); len(p.Steps) != 1 || p.Steps[0].Method != "ping" {
		t.Errorf("NewConn: %+v", p.Steps)
	}
}

// late plays a server that asks for sampling a while after the first
// request, as server-everything asks for roots after the handshake.
type late struct {
	answers *Answers
	served  []int // answers served when each request was sent
}

func (l *late) Call(ctx context.Context, method string, _ json.RawMessage, _ *session.CallOptions) (*session.Reply, error) {
	l.answers.mu.Lock()
	l.served = append(l.served, l.answers.served)
	l.answers.mu.Unlock()
	if len(l.served) == 1 {
		go func() {
			time.Sleep(300 * time.Millisecond)
			l.answers.CreateMessage(ctx, nil)
		}()
	}
	return &session.Reply{}, nil
}

// A step the recording sent after answering a server request waits for
// the new session to answer it too.
func TestRunWaitsForServerRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := New(trace())
		l := &late{answers: p.Answers}
		if _, err := p.Run(context.Background(), l); err != nil {
			t.Fatal(err)
		}
		// tools/list and the write call go at once; the read call, recorded
		// after the sampling answer, waits for it.
		if !reflect.DeepEqual(l.served, []int{0, 0, 1}) {
			t.Errorf("answers served when each request was sent: %v, want [0 0 1]", l.served)
		}
		// When the server never asks, the wait ends after the grace.
		p = New(trace())
		p.Grace = time.Second
		start := time.Now()
		if _, err := p.Run(context.Background(), &recorderNoAsk{}); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("waited %v, want the grace of 1s", d)
		}
	})
}

type recorderNoAsk struct{}

func (recorderNoAsk) Call(context.Context, string, json.RawMessage, *session.CallOptions) (*session.Reply, error) {
	return &session.Reply{}, nil
}
