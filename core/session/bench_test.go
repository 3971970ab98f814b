package session

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// echoServer is an in-process mcp-go server with an echo tool, spoken to
// over a pair of pipes exactly as a stdio server would be.
type echoServer struct {
	c2sR *io.PipeReader
	c2sW *io.PipeWriter
	s2cR *io.PipeReader
	s2cW *io.PipeWriter
	stop context.CancelFunc
}

func newEchoServer() *echoServer {
	srv := server.NewMCPServer("echo", "1.0.0", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("echo", mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	srv.AddTool(mcp.NewTool("confirm"),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			answer := server.ElicitationResponse(req.Params.InputResponses, "ok")
			if answer == nil {
				return server.NewInputRequestBuilder("state-1").Elicit("ok", mcp.ElicitationParams{
					Message:         "Sure?",
					RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
				}).ToolResult(), nil
			}
			b, _ := json.Marshal(answer.Content)
			return mcp.NewToolResultText(string(answer.Action) + " " + string(b)), nil
		})
	e := &echoServer{}
	e.c2sR, e.c2sW = io.Pipe()
	e.s2cR, e.s2cW = io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	e.stop = cancel
	go func() {
		_ = server.NewStdioServer(srv).Listen(ctx, e.c2sR, e.s2cW)
		e.s2cW.Close()
	}()
	return e
}

func (e *echoServer) close() {
	e.stop()
	e.c2sW.Close()
	e.s2cR.Close()
}

// pipeConn is a wire.Conn over an echoServer's pipes.
type pipeConn struct {
	e    *echoServer
	wmu  sync.Mutex
	once sync.Once
}

func (p *pipeConn) Start(ctx context.Context, h wire.Handler) error {
	go func() {
		r := bufio.NewReaderSize(p.e.s2cR, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 1 {
				h.OnMessage(line[:len(line)-1])
			}
			if err != nil {
				if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
					err = nil
				}
				h.OnClose(err)
				return
			}
		}
	}()
	return nil
}

func (p *pipeConn) Send(ctx context.Context, msg []byte, _ *wire.SendOptions) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	b := make([]byte, 0, len(msg)+1)
	b = append(append(b, msg...), '\n')
	_, err := p.e.c2sW.Write(b)
	return err
}

func (p *pipeConn) Close() error {
	p.once.Do(p.e.close)
	return nil
}

// BenchmarkCallTool measures a recorded tools/call round trip through a
// Session (JSON-RPC, pairing, recording into an events.Log) against an
// in-process mcp-go echo server over pipes. Compare with
// BenchmarkCallToolBareMCPGo for the recording overhead.
func BenchmarkCallTool(b *testing.B) {
	log := events.New(nil)
	s := New(func(context.Context) (wire.Conn, error) { return &pipeConn{e: newEchoServer()}, nil }, log, &Options{Conn: "bench"})
	defer s.Close()
	ctx := context.Background()
	if err := s.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"text":"hello"}`)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: args}, nil)
		if err != nil || len(res.Result.Content) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallToolBareMCPGo is the baseline: mcp-go's own client over
// the same pipes, recording nothing.
func BenchmarkCallToolBareMCPGo(b *testing.B) {
	e := newEchoServer()
	defer e.close()
	c := client.NewClient(transport.NewIO(e.s2cR, e.c2sW, nil))
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		b.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"text": "hello"}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestErasAgainstMCPGo talks to mcp-go's own server (which speaks both
// protocol generations) with each era.
func TestErasAgainstMCPGo(t *testing.T) {
	for _, tc := range []struct {
		opts       Options
		modern     bool
		wantMethod string
	}{
		{Options{}, false, "initialize"},
		{Options{Era: EraModern}, true, "server/discover"},
		{Options{Era: EraAuto}, true, "server/discover"},
		{Options{ProtocolVersion: "2025-03-26"}, false, "initialize"},
	} {
		name := string(tc.opts.Era) + tc.opts.ProtocolVersion
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			log := events.New(nil)
			s := New(func(context.Context) (wire.Conn, error) { return &pipeConn{e: newEchoServer()}, nil }, log, &tc.opts)
			defer s.Close()
			ctx := testCtx(t)
			res, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: map[string]string{"text": "hi"}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Result.Content[0].Text; got != "hi" {
				t.Errorf("echo %q", got)
			}
			info := s.Info()
			if info.Modern != tc.modern || info.Name != "echo" {
				t.Errorf("info %+v", info)
			}
			if tc.opts.ProtocolVersion != "" && info.ProtocolVersion != tc.opts.ProtocolVersion {
				t.Errorf("negotiated %s", info.ProtocolVersion)
			}
			if ms := messages(log); ms[0].Method != tc.wantMethod {
				t.Errorf("first message %s", ms[0].Method)
			}
		})
	}
}

// TestInputRequests: a tool of mcp-go's server that needs the user's
// input gets it through the elicitation handler in both eras: as a
// multi round-trip request (modern) and as elicitation/create (legacy).
func TestInputRequests(t *testing.T) {
	for _, era := range []Era{EraModern, EraLegacy} {
		t.Run(string(era), func(t *testing.T) {
			log := events.New(nil)
			s := New(func(context.Context) (wire.Conn, error) { return &pipeConn{e: newEchoServer()}, nil }, log,
				&Options{Era: era, Handlers: Handlers{Elicitation: elicitor{}}})
			defer s.Close()
			res, err := s.CallTool(testCtx(t), ToolCall{Name: "confirm"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Result.Content[0].Text; got != `accept {"name":"Ada"}` {
				t.Errorf("tool saw %q", got)
			}
			calls := 0
			for _, e := range messages(log) {
				if e.Method == "tools/call" && e.Type == events.MsgRequest {
					calls++
					if e.Run != res.Run {
						t.Errorf("retry in run %q, want %q", e.Run, res.Run)
					}
				}
			}
			if want := map[Era]int{EraModern: 2, EraLegacy: 1}[era]; calls != want {
				t.Errorf("%d tools/call requests, want %d", calls, want)
			}
		})
	}
}

func TestModernLogLevelTravelsInMeta(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	dial := func(context.Context) (wire.Conn, error) {
		return &recordingConn{Conn: &pipeConn{e: newEchoServer()}, sent: func(b []byte) { mu.Lock(); sent = append(sent, string(b)); mu.Unlock() }}, nil
	}
	s := New(dial, events.New(nil), &Options{Era: EraModern})
	defer s.Close()
	ctx := testCtx(t)
	rep, err := s.SetLogLevel(ctx, mcp.LoggingLevelWarning, nil)
	if err != nil || rep != nil {
		t.Fatalf("modern SetLogLevel: %v %v", rep, err)
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: map[string]string{"text": "x"}}, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	last := sent[len(sent)-1]
	if !strings.Contains(last, `"io.modelcontextprotocol/logLevel":"warning"`) {
		t.Errorf("tools/call sent as %s", last)
	}
	for _, m := range sent {
		if strings.Contains(m, "logging/setLevel") {
			t.Errorf("modern session sent %s", m)
		}
	}
}

// recordingConn reports every message sent through it.
type recordingConn struct {
	wire.Conn
	sent func([]byte)
}

func (r *recordingConn) Send(ctx context.Context, b []byte, o *wire.SendOptions) error {
	r.sent(b)
	return r.Conn.Send(ctx, b, o)
}
