package session

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// goSDKServer is a small server on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): one tool.
func goSDKServer() *gomcp.Server {
	s := gomcp.NewServer(&gomcp.Implementation{Name: "gosdk-test-server", Version: "1.8.0-test"}, nil)
	type echoIn struct {
		Message string `json:"message"`
	}
	gomcp.AddTool(s, &gomcp.Tool{Name: "echo", Description: "Echoes the message"},
		func(_ context.Context, _ *gomcp.CallToolRequest, in echoIn) (*gomcp.CallToolResult, any, error) {
			return &gomcp.CallToolResult{Content: []gomcp.Content{&gomcp.TextContent{Text: "echo: " + in.Message}}}, nil, nil
		})
	return s
}

// envGoSDKServer makes this test binary a Go SDK stdio server (see
// TestGoSDKServerProcess).
const envGoSDKServer = "SPYGLASS_TEST_GOSDK_STDIO_SERVER"

// TestGoSDKServerProcess is not a test: run as a child of TestGoSDK with
// envGoSDKServer set, the test binary serves goSDKServer on stdio.
func TestGoSDKServerProcess(t *testing.T) {
	if os.Getenv(envGoSDKServer) != "1" {
		return
	}
	err := goSDKServer().Run(context.Background(), &gomcp.StdioTransport{})
	if err != nil && !strings.Contains(err.Error(), "EOF") {
		os.Exit(1)
	}
	os.Exit(0)
}

// TestGoSDK connects to a server on the official Go SDK v1.8.0 over stdio
// and Streamable HTTP in every era: the handshake the era asks for, the
// server's identity, tools/list and tools/call.
func TestGoSDK(t *testing.T) {
	server := goSDKServer()
	hs := httptest.NewServer(gomcp.NewStreamableHTTPHandler(func(*http.Request) *gomcp.Server { return server }, &gomcp.StreamableHTTPOptions{Stateless: true}))
	defer hs.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, transport := range []string{"stdio", "http"} {
		for _, era := range []Era{EraLegacy, EraModern, EraAuto} {
			t.Run(transport+"/"+string(era), func(t *testing.T) {
				log := events.New(nil)
				dial := stdioDial(log, wire.StdioConfig{Command: self, Args: []string{"-test.run=^TestGoSDKServerProcess$"}, Env: []string{envGoSDKServer + "=1"}})
				if transport == "http" {
					dial = httpDial(log, hs.URL)
				}
				s := New(dial, log, &Options{Era: era})
				defer s.Close()
				ctx := t.Context()
				if err := s.Connect(ctx); err != nil {
					t.Fatalf("connect: %v", err)
				}
				info := s.Info()
				if modern := era != EraLegacy; info.Modern != modern || info.Name != "gosdk-test-server" || info.Fallback != "" {
					t.Fatalf("server info: modern %v, name %q, protocol %s, fallback %q", info.Modern, info.Name, info.ProtocolVersion, info.Fallback)
				}
				tools, err := s.ListTools(ctx, nil)
				if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "echo" {
					t.Fatalf("tools/list: %v %+v", err, tools)
				}
				res, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: map[string]any{"message": "hi"}}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := textOf(t, res); strings.TrimSpace(got) != "echo: hi" {
					t.Errorf("echo answered %q", got)
				}
			})
		}
	}
}

// TestGoSDKStatefulHTTP: the Go SDK's stateful Streamable HTTP handler
// offers only the legacy versions in server/discover. Asked for modern, the
// session says the server does not speak it; in the auto era it falls back
// to initialize and says why.
func TestGoSDKStatefulHTTP(t *testing.T) {
	server := goSDKServer()
	hs := httptest.NewServer(gomcp.NewStreamableHTTPHandler(func(*http.Request) *gomcp.Server { return server }, nil))
	defer hs.Close()
	log := events.New(nil)
	s := New(httpDial(log, hs.URL), log, &Options{Era: EraModern})
	defer s.Close()
	if err := s.Connect(t.Context()); !errors.Is(err, ErrLegacyServer) {
		t.Fatalf("modern: %v", err)
	}
	a := New(httpDial(log, hs.URL), log, &Options{Era: EraAuto})
	defer a.Close()
	if err := a.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	if info := a.Info(); info.Modern || !strings.Contains(info.Fallback, "fell back to initialize") || !strings.Contains(info.Fallback, "2025-11-25") {
		t.Errorf("auto: modern %v, fallback %q", info.Modern, info.Fallback)
	}
	if _, err := a.ListTools(t.Context(), nil); err != nil {
		t.Error(err)
	}
}
