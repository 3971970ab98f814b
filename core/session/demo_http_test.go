package session

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
)

// demoUser answers the demo server's sampling and elicitation requests.
type demoUser struct {
	mu        sync.Mutex
	samplings int
	elicits   int
}

func (u *demoUser) CreateMessage(context.Context, *SamplingRequest) (*mcp.CreateMessageResult, error) {
	u.mu.Lock()
	u.samplings++
	u.mu.Unlock()
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("the answer is 5")},
		Model:           "test-model", StopReason: "endTurn",
	}, nil
}

func (u *demoUser) Elicit(_ context.Context, req *ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.mu.Lock()
	u.elicits++
	u.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Grace", "age": 85},
	}}, nil
}

// headerLog remembers the headers of every POST a StreamableHTTP sends.
type headerLog struct {
	mu   sync.Mutex
	reqs []http.Header
}

func (h *headerLog) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost {
		h.mu.Lock()
		h.reqs = append(h.reqs, r.Header.Clone())
		h.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (h *headerLog) all() []http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]http.Header(nil), h.reqs...)
}

func TestDemoOverHTTPEachEra(t *testing.T) {
	url := demotest.URL(t, nil)
	for _, tc := range []struct {
		era    Era
		modern bool
	}{{EraModern, true}, {EraAuto, true}, {EraLegacy, false}} {
		t.Run(string(tc.era), func(t *testing.T) {
			log := events.New(nil)
			hl := &headerLog{}
			dial := func(context.Context) (wire.Conn, error) {
				return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "demo", URL: url, Client: &http.Client{Transport: hl}}, log), nil
			}
			u := &demoUser{}
			s := New(dial, log, &Options{Conn: "demo", Era: tc.era, Handlers: Handlers{Sampling: u, Elicitation: u}})
			t.Cleanup(func() { _ = s.Close() })
			ctx := testCtx(t)
			if err := s.Connect(ctx); err != nil {
				t.Fatal(err)
			}
			if info := s.Info(); info.Modern != tc.modern || info.Name != demo.Name {
				t.Fatalf("info %+v", info)
			}
			tools, err := s.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) < 20 {
				t.Fatalf("%d tools: %v", len(tools.Tools), err)
			}
			res, err := s.CallTool(ctx, ToolCall{Name: demo.ToolEcho, Arguments: map[string]any{"message": "héllo"}}, nil)
			if err != nil || !strings.Contains(textOf(t, res), "héllo") {
				t.Fatalf("echo: %v %v", res, err)
			}
			res, err = s.CallTool(ctx, ToolCall{Name: demo.ToolSample, Arguments: map[string]any{"prompt": "hi"}}, nil)
			if err != nil || !strings.Contains(textOf(t, res), "the answer is 5") {
				t.Fatalf("sample: %v", err)
			}
			res, err = s.CallTool(ctx, ToolCall{Name: demo.ToolElicitForm}, nil)
			if err != nil || !strings.Contains(textOf(t, res), "Grace") {
				t.Fatalf("elicit: %v", err)
			}
			if u.samplings != 1 || u.elicits != 1 {
				t.Errorf("%d samplings, %d elicitations", u.samplings, u.elicits)
			}
			// Unknown tool: a JSON-RPC error (sent with an HTTP error status
			// in the modern protocol) reaches the caller as an RPC error.
			_, err = s.CallTool(ctx, ToolCall{Name: "no_such_tool"}, nil)
			var rpcErr *RPCError
			if !errors.As(err, &rpcErr) {
				t.Errorf("unknown tool: %v, want a JSON-RPC error", err)
			}
			hs := hl.all()
			if !tc.modern {
				if hs[0].Get("Mcp-Method") != "" || hs[0].Get(wire.HeaderProtocolVersion) != "" {
					t.Errorf("legacy initialize sent %v", hs[0])
				}
				return
			}
			if hs[0].Get("Mcp-Method") != "server/discover" || hs[0].Get(wire.HeaderProtocolVersion) != VersionModern {
				t.Errorf("first request headers %v", hs[0])
			}
			names := 0
			for _, h := range hs {
				if h.Get("Mcp-Method") == "" || h.Get(wire.HeaderProtocolVersion) != VersionModern || h.Get(wire.HeaderSessionID) != "" {
					t.Errorf("modern POST with headers %v", h)
				}
				if h.Get("Mcp-Method") == "tools/call" {
					names++
					if h.Get("Mcp-Name") == "" {
						t.Errorf("tools/call without Mcp-Name: %v", h)
					}
				}
			}
			if names < 4 {
				t.Errorf("%d tools/call POSTs", names)
			}
			for _, e := range log.Events() {
				if e.Kind == events.KindHTTP && e.HTTP != nil && e.HTTP.Method != http.MethodPost {
					t.Errorf("modern session sent %s", e.HTTP.Method)
				}
			}
		})
	}
}

// TestFlakyWriteOverHTTP: flaky_write over Streamable HTTP, where the
// "crash" drops the HTTP connections. Subscribed to the notes, the answer
// would have come on an event stream, which ends without it: the call
// fails at once with no response (not after the request timeout), class
// transport, outcome unknown; the note was saved.
func TestFlakyWriteOverHTTP(t *testing.T) {
	var ts *httptest.Server
	srv := demo.New(&demo.Options{NotesDir: t.TempDir(), Crash: func() { ts.CloseClientConnections() }})
	ts = httptest.NewServer(demo.NewHTTPHandler(srv))
	t.Cleanup(ts.Close)
	log := events.New(nil)
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "demo", URL: ts.URL + demo.HTTPPath}, log), nil
	}
	// No request timeout: a failure that waited for one would hang until
	// the test's context ends and fail with its deadline instead.
	s := New(dial, log, &Options{Conn: "demo", RequestTimeout: -1})
	t.Cleanup(func() { _ = s.Close() })
	ctx := testCtx(t)
	if _, err := s.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SubscribeResource(ctx, demo.NotesURI, nil); err != nil {
		t.Fatal(err)
	}
	res, err := s.CallTool(ctx, ToolCall{Name: demo.ToolFlakyWrite, Arguments: map[string]any{"text": "over http"}}, nil)
	if !errors.Is(err, ErrNoResponse) || !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("flaky_write: %v", err)
	}
	if a := res.Attempt; a.Class != "transport" || !a.OutcomeUnknown {
		t.Errorf("attempt %+v", a)
	}
	if e, _ := log.Get(res.Seq); e.Outcome == nil || e.Outcome.State != events.NoResponse {
		t.Errorf("request outcome %+v", e.Outcome)
	}
	// the note was saved: read through a session of its own, whose
	// connections are new — this one's idle keep-alive connection was
	// dropped by the crash too, and a request the transport sent on it
	// before it saw the close failed with EOF (once in ~500 runs)
	s2 := New(dial, log, &Options{Conn: "demo", RequestTimeout: -1})
	t.Cleanup(func() { _ = s2.Close() })
	notes, err := s2.CallTool(ctx, ToolCall{Name: demo.ToolReadNotes}, nil)
	if err != nil || !strings.Contains(textOf(t, notes), "over http") {
		t.Errorf("read_notes: %v", err)
	}
}

// TestModernParamHeaders: a tool whose schema marks a parameter with
// x-mcp-header gets it mirrored in an Mcp-Param-* header (mcp-go's server
// rejects the call without it), from the schema of the last ListTools.
func TestModernParamHeaders(t *testing.T) {
	srv := server.NewMCPServer("headers", "1.0.0", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewToolWithRawSchema("route", "routes by region",
		json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer"}}}`)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("routed to " + req.GetString("region", "")), nil
		})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	hl := &headerLog{}
	log := events.New(nil)
	dial := func(context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{URL: ts.URL, Client: &http.Client{Transport: hl}}, log), nil
	}
	s := New(dial, log, &Options{Era: EraModern})
	t.Cleanup(func() { _ = s.Close() })
	ctx := testCtx(t)
	// Before any listing the session cannot know the header: the server
	// refuses the call (which shows the header matters).
	if _, err := s.CallTool(ctx, ToolCall{Name: "route", Arguments: map[string]any{"region": "eu-west"}}, nil); err == nil {
		t.Error("call without Mcp-Param-Region accepted")
	}
	if _, err := s.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	res, err := s.CallTool(ctx, ToolCall{Name: "route", Arguments: map[string]any{"region": "eu-west", "n": 1}}, nil)
	if err != nil || !strings.Contains(textOf(t, res), "routed to eu-west") {
		t.Fatalf("route: %v", err)
	}
	hs := hl.all()
	if got := hs[len(hs)-1].Get("Mcp-Param-Region"); got != "eu-west" {
		t.Errorf("Mcp-Param-Region %q", got)
	}
}
