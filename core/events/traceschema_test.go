package events_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/internal/demotest"
	"github.com/spyglass-mcp/spyglass/internal/tracetest"
)

// user answers sampling and elicitation so that the traces hold both
// directions of requests.
type user struct{}

func (user) CreateMessage(context.Context, *session.SamplingRequest) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("42")},
		Model: "test", StopReason: "endTurn"}, nil
}

func (user) Elicit(context.Context, *session.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// record runs a short session of lists and calls and returns its trace.
func record(t *testing.T, conn string, dial func(log *events.Log) func(context.Context) (wire.Conn, error), calls []session.ToolCall) []byte {
	t.Helper()
	log := events.New(nil)
	s := session.New(dial(log), log, &session.Options{Conn: conn, Handlers: session.Handlers{Sampling: user{}, Elicitation: user{}},
		Roots: []mcp.Root{{URI: "file://" + t.TempDir(), Name: "scratch"}}})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListResources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListPrompts(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		if _, err := s.CallTool(ctx, c, nil); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	if _, err := s.Call(ctx, "no/such-method", nil, nil); err == nil {
		t.Fatal("an unknown method succeeded")
	}
	_ = s.Close()
	var buf bytes.Buffer
	info := s.Info()
	meta := events.TraceMeta{App: "test", Conns: []events.ConnInfo{{Conn: conn, ProtocolVersion: info.ProtocolVersion,
		ServerInfo: info.Implementation, ServerCapabilities: info.Capabilities, ClientCapabilities: info.ClientCapabilities}}}
	if err := log.WriteTrace(&buf, meta); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Every trace written from a real session validates against
// trace.schema.json and reads back whole.
func TestTraceSchemaRealSessions(t *testing.T) {
	schema := tracetest.Schema(t)
	node, everything := peers.Node(t), peers.File(t, peers.Everything)
	stdio := func(log *events.Log) func(context.Context) (wire.Conn, error) {
		return func(context.Context) (wire.Conn, error) {
			return wire.NewStdio(wire.StdioConfig{Conn: "everything", Command: node, Args: []string{everything}}, log), nil
		}
	}
	demoURL := demotest.URL(t, nil)
	demoHTTP := func(log *events.Log) func(context.Context) (wire.Conn, error) {
		return func(context.Context) (wire.Conn, error) {
			return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "demo", URL: demoURL}, log), nil
		}
	}
	everythingURL := peers.EverythingHTTP(t, "streamableHttp") + "/mcp"
	everythingHTTP := func(log *events.Log) func(context.Context) (wire.Conn, error) {
		return func(context.Context) (wire.Conn, error) {
			return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: "everything-http", URL: everythingURL}, log), nil
		}
	}
	echo := session.ToolCall{Name: "echo", Arguments: json.RawMessage(`{"message":"hi"}`)}
	for _, tt := range []struct {
		name  string
		dial  func(*events.Log) func(context.Context) (wire.Conn, error)
		calls []session.ToolCall
		kinds []events.Kind
	}{
		{"everything stdio", stdio, []session.ToolCall{echo, {Name: "get-sum", Arguments: json.RawMessage(`{"a":1,"b":2}`)}},
			[]events.Kind{events.KindMessage, events.KindState, events.KindTool}},
		{"everything http", everythingHTTP, []session.ToolCall{echo}, []events.Kind{events.KindMessage, events.KindHTTP, events.KindTool}},
		{"demo http", demoHTTP, []session.ToolCall{echo, {Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}, {Name: "sample", Arguments: json.RawMessage(`{"prompt":"hi"}`)}},
			[]events.Kind{events.KindMessage, events.KindHTTP, events.KindTool}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := record(t, tt.name, tt.dial, tt.calls)
			if err := tracetest.Validate(t, schema, b); err != nil {
				t.Fatalf("the trace does not validate: %v", err)
			}
			tr, err := events.DecodeTrace(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[events.Kind]bool{}
			for _, e := range tr.Events {
				seen[e.Kind] = true
			}
			for _, k := range tt.kinds {
				if !seen[k] {
					t.Errorf("the trace has no %s event, so the schema was not tried on one", k)
				}
			}
		})
	}
}

// The schema is not a rubber stamp: it refuses what a trace must not be.
func TestTraceSchemaRejects(t *testing.T) {
	schema := tracetest.Schema(t)
	var buf bytes.Buffer
	evs := []events.Event{{Seq: 1, Time: time.Unix(1, 0).UTC(), Kind: events.KindMessage, Dir: events.DirOut, Type: events.MsgRequest,
		ID: "1", Method: "ping", Raw: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)}}
	if err := events.WriteTrace(&buf, events.TraceMeta{}, evs); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if err := tracetest.Validate(t, schema, []byte(good)); err != nil {
		t.Fatalf("a good trace fails: %v", err)
	}
	for _, bad := range []struct{ from, to string }{
		{`"formatVersion":1`, `"formatVersion":2`},
		{`"kind":"message"`, `"kind":"telegram"`},
		{`"seq":1,`, ``},
		{`"dir":"out"`, `"dir":"sideways"`},
		{`"raw":{`, `"rawText":"x","raw":{`},
		{`"time":"1970`, `"time":"yesterday 1970`},
	} {
		doc := strings.Replace(good, bad.from, bad.to, 1)
		if doc == good {
			t.Fatalf("%q not in the trace", bad.from)
		}
		if tracetest.Validate(t, schema, []byte(doc)) == nil {
			t.Errorf("the schema accepts %s → %s", bad.from, bad.to)
		}
	}
}
