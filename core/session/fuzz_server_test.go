package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// scriptConn is a server whose stdout is a fuzzer's bytes. The bytes are
// cut into turns at blank lines; the first turn is written when the
// connection starts and each later one when the client sends a request,
// with every "$ID" replaced by that request's id, so that a transcript can
// answer what it is asked. Each line is delivered as a stdio server's
// line is: blank lines are skipped, lines that are not JSON objects or
// arrays are recorded as invalid, the others go to the session. A turn
// that is exactly "EXIT" ends the connection as if the server exited.
type scriptConn struct {
	log *events.Log

	emitMu sync.Mutex // turns are written one at a time, never under mu
	mu     sync.Mutex // guards the fields below
	h      wire.Handler
	turns  [][]byte
	closed bool
}

func newScriptConn(out []byte, log *events.Log) *scriptConn {
	return &scriptConn{log: log, turns: bytes.Split(out, []byte("\n\n"))}
}

func (c *scriptConn) Start(ctx context.Context, h wire.Handler) error {
	c.mu.Lock()
	c.h = h
	c.mu.Unlock()
	go c.turn(nil)
	return nil
}

func (c *scriptConn) Send(ctx context.Context, b []byte, _ *wire.SendOptions) error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return wire.ErrClosed
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		panic("the client sent invalid JSON: " + string(b))
	}
	if len(m.ID) > 0 && m.Method != "" {
		go c.turn(m.ID)
	}
	return nil
}

// turn writes the next turn with $ID replaced by id.
func (c *scriptConn) turn(id json.RawMessage) {
	c.emitMu.Lock()
	defer c.emitMu.Unlock()
	c.mu.Lock()
	if c.closed || len(c.turns) == 0 {
		c.mu.Unlock()
		return
	}
	t := c.turns[0]
	c.turns = c.turns[1:]
	h := c.h
	c.mu.Unlock()
	if string(t) == "EXIT" {
		c.end(&wire.ExitError{Code: 1})
		return
	}
	if id != nil {
		t = bytes.ReplaceAll(t, []byte("$ID"), id)
	}
	for _, line := range bytes.Split(t, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(bytes.TrimSpace(line)) == 0:
		case !wire.IsMessage(line):
			c.log.Append(events.Event{Kind: events.KindInvalid, Conn: "fuzz", Dir: events.DirIn, Size: len(line), Raw: bytes.Clone(line)})
		case c.isClosed():
			return
		default:
			h.OnMessage(bytes.Clone(line))
		}
	}
}

func (c *scriptConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// end closes the connection once, telling the session why.
func (c *scriptConn) end(err error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	h := c.h
	c.mu.Unlock()
	if h.OnClose != nil {
		h.OnClose(err)
	}
}

func (c *scriptConn) Close() error { c.end(nil); return nil }

// FuzzServerOutput drives a server's output through a whole session:
// connect, list the tools, call one. The session must not panic, every
// call must return by its deadline (synctest's clock: a call that never
// returns is a deadlock the bubble reports), every request must end with
// an outcome, and the record must make a valid trace.
func FuzzServerOutput(f *testing.F) {
	const initOK = `{"jsonrpc":"2.0","id":$ID,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fuzz","version":"1"}}}`
	const tools = `{"jsonrpc":"2.0","id":$ID,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}}]}}`
	const call = `{"jsonrpc":"2.0","id":$ID,"result":{"content":[{"type":"text","text":"hi"}]}}`
	seeds := []string{
		// A well-behaved server.
		"\n\n" + initOK + "\n\n" + tools + "\n\n" + call,
		// A banner, log notifications and progress before the answers.
		"server v1 ready\n\n" + `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}}` + "\n" + initOK +
			"\n\n" + tools + "\n\n" + `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}` + "\n" + call,
		// A server request in the middle, unknown and duplicate ids.
		"\n\n" + initOK + "\n\n" + `{"jsonrpc":"2.0","id":"s1","method":"roots/list"}` + "\n" + `{"jsonrpc":"2.0","id":9999,"result":{}}` + "\n" + tools + "\n" + tools +
			"\n\n" + `{"jsonrpc":"2.0","id":$ID,"error":{"code":-32602,"message":"bad"}}`,
		// Batches, CRLF, a result of the wrong shape.
		"\n\n" + initOK + "\r\n\n" + `[` + tools + `,42,"x"]` + "\r\n\n" + `{"jsonrpc":"2.0","id":$ID,"result":{"content":[{"type":"video"}]}}`,
		// Invalid JSON and bytes that are not UTF-8, then an exit.
		"\n\n" + initOK + "\n\n" + "{\"jsonrpc\":\"2.0\",\"id\":$ID,\n\xff\xfe\n\nEXIT",
		// A jsonrpc 1.0 answer, then silence.
		"\n\n" + `{"jsonrpc":"1.0","id":$ID,"result":{}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		// A deadlock that involves a mutex is not one synctest can see:
		// a watchdog on the real clock turns it into a crash, which the
		// fuzzer reports and saves with its input.
		watchdog := time.AfterFunc(10*time.Second, func() {
			buf := make([]byte, 1<<20)
			panic(fmt.Sprintf("FuzzServerOutput: the session hung on %q\n%s", out, buf[:runtime.Stack(buf, true)]))
		})
		defer watchdog.Stop()
		synctest.Test(t, func(t *testing.T) {
			log := events.New(nil)
			var conn *scriptConn
			dial := func(context.Context) (wire.Conn, error) { conn = newScriptConn(out, log); return conn, nil }
			s := New(dial, log, &Options{Conn: "fuzz", ConnectionTimeout: time.Second, RequestTimeout: time.Second, NoReconnect: true})
			// Each operation is bounded by its own timeout of 1 s, so
			// all three end well within 10 s of the bubble's clock: a
			// call that needs the outer deadline did not stop by itself,
			// and one that never returns deadlocks the bubble.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.Connect(ctx); err == nil {
				_, _ = s.ListTools(ctx, nil)
				_, _ = s.CallTool(ctx, ToolCall{Name: "echo", Arguments: map[string]any{"message": "hi"}}, nil)
			}
			if ctx.Err() != nil {
				t.Errorf("the session's calls did not end by their own timeouts (the outer deadline passed)")
			}
			_ = s.Close()
			synctest.Wait()

			evs, _ := log.After(0, 0)
			for _, e := range evs {
				if e.Kind == events.KindMessage && e.Type == events.MsgRequest &&
					(e.Outcome == nil || e.Outcome.State == events.Waiting) {
					t.Errorf("request %s %s (seq %d, dir %s) has no final outcome: %+v", e.ID, e.Method, e.Seq, e.Dir, e.Outcome)
				}
			}
			var b bytes.Buffer
			if err := events.WriteTrace(&b, events.TraceMeta{}, evs); err != nil {
				t.Fatalf("WriteTrace: %v", err)
			}
			if !json.Valid(b.Bytes()) {
				t.Fatalf("the trace is not valid JSON:\n%s", b.Bytes())
			}
			if _, _, err := events.ReadTrace(&b); err != nil {
				t.Fatalf("ReadTrace of the session's own trace: %v", err)
			}
		})
	})
}
