package mcpgo

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// sampler answers sampling/createMessage for mcp-go's client.
type sampler struct{ asked atomic.Int32 }

func (s *sampler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	s.asked.Add(1)
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("canned answer from the test")},
		Model:           "test-model",
		StopReason:      "endTurn",
	}, nil
}

// driveEverything runs mcp-go's own client over conn (wrapped in MCPGo)
// against server-everything: handshake, tools, a tool call, a sampling
// request from the server answered through the request handler, and a
// cancelled long-running call.
func driveEverything(t *testing.T, conn wire.Conn) {
	t.Helper()
	ctx := testCtx(t)
	s := &sampler{}
	sp := &spyConn{Conn: conn}
	c := client.NewClient(New(sp), client.WithSamplingHandler(s))
	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	var notes atomic.Int32
	c.OnNotification(func(n mcp.JSONRPCNotification) { notes.Add(1) })

	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "spyglass-mcpgo-test", Version: "0"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	if !strings.Contains(res.ServerInfo.Name, "everything") {
		t.Fatalf("server info %+v", res.ServerInfo)
	}

	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	if !names["get-sum"] || !names["trigger-sampling-request"] {
		t.Fatalf("tools/list lacks get-sum or trigger-sampling-request: %v", names)
	}

	call := mcp.CallToolRequest{}
	call.Params.Name = "get-sum"
	call.Params.Arguments = map[string]any{"a": 2, "b": 3}
	sum, err := c.CallTool(ctx, call)
	if err != nil || sum.IsError {
		t.Fatalf("get-sum: %v %+v", err, sum)
	}
	if txt := mcp.GetTextFromContent(sum.Content[0]); !strings.Contains(txt, "5") {
		t.Fatalf("get-sum 2+3 answered %q", txt)
	}

	// The server asks the client for a completion while the call is open.
	call.Params.Name = "trigger-sampling-request"
	call.Params.Arguments = map[string]any{"prompt": "say hi", "maxTokens": 10}
	sampled, err := c.CallTool(ctx, call)
	if err != nil || sampled.IsError {
		t.Fatalf("trigger-sampling-request: %v %+v", err, sampled)
	}
	if s.asked.Load() != 1 || !strings.Contains(mcp.GetTextFromContent(sampled.Content[0]), "canned answer from the test") {
		t.Fatalf("sampling handler asked %d times; tool said %+v", s.asked.Load(), sampled.Content)
	}

	// A call given up on is cancelled on the wire (mcp-go's own HTTP
	// transport sends no notifications/cancelled).
	long := mcp.CallToolRequest{}
	long.Params.Name = "trigger-long-running-operation"
	long.Params.Arguments = map[string]any{"duration": 30, "steps": 30}
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = c.CallTool(cctx, long)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a call past its deadline returned %v", err)
	}
	if !sp.sent(`"notifications/cancelled"`) {
		t.Fatalf("no notifications/cancelled sent; sent:\n%s", strings.Join(sp.out, "\n"))
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// spyConn keeps what is sent through a Conn.
type spyConn struct {
	wire.Conn
	mu  sync.Mutex
	out []string
}

func (s *spyConn) Send(ctx context.Context, msg []byte, opts *wire.SendOptions) error {
	s.mu.Lock()
	s.out = append(s.out, string(msg))
	s.mu.Unlock()
	return s.Conn.Send(ctx, msg, opts)
}

func (s *spyConn) Abandon(id string) {
	if a, ok := s.Conn.(wire.Abandoner); ok {
		a.Abandon(id)
	}
}

func (s *spyConn) SessionID() string {
	if x, ok := s.Conn.(interface{ SessionID() string }); ok {
		return x.SessionID()
	}
	return ""
}

func (s *spyConn) SetProtocolVersion(v string) {
	if x, ok := s.Conn.(interface{ SetProtocolVersion(string) }); ok {
		x.SetProtocolVersion(v)
	}
}

func (s *spyConn) sent(sub string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.out {
		if strings.Contains(m, sub) {
			return true
		}
	}
	return false
}

func TestClientOverStdio(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, peers.Everything)
	driveEverything(t, wire.NewStdio(wire.StdioConfig{Conn: "everything", Command: node, Args: []string{file}}, nil))
}

func TestClientOverStreamableHTTP(t *testing.T) {
	base := peers.EverythingHTTP(t, "streamableHttp")
	conn := wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "everything", URL: base + "/mcp"}, nil)
	driveEverything(t, conn)
}

func TestClientOverSSE(t *testing.T) {
	base := peers.EverythingHTTP(t, "sse")
	driveEverything(t, wire.NewSSE(wire.HTTPConfig{Conn: "everything", URL: base + "/sse"}, nil))
}

// A request after Close fails at once instead of waiting.
func TestRequestAfterClose(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, peers.Everything)
	tr := New(wire.NewStdio(wire.StdioConfig{Conn: "everything", Command: node, Args: []string{file}}, nil))
	if err := tr.Start(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := tr.SendRequest(testCtx(t), transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(1)), Method: "ping"})
	if !errors.Is(err, wire.ErrClosed) {
		t.Fatalf("SendRequest after Close: %v", err)
	}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
