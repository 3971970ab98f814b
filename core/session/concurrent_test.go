package session

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// heldElicitor answers elicitation/create only once release is closed;
// got receives each request as it arrives.
type heldElicitor struct {
	got     chan *ElicitationRequest
	release chan struct{}
}

func (h *heldElicitor) Elicit(ctx context.Context, req *ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.got <- req
	select {
	case <-h.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// heldCalls is how many calls a test holds open at once: more than the
// five tool calls mcp-go's stdio server runs at a time by default.
const heldCalls = 8

// TestCallsRunAtOnce: calls of several tools on one stdio connection run
// at the same time (#12). Eight calls are held open by the server's
// elicitation requests, which the client answers only when the test says
// so; all eight requests arrive while the others wait, and a ninth call
// is answered while they are still held. The demo server once ran five
// tool calls at a time, so a call sent while five waited for the user was
// answered only when one of them ended.
func TestCallsRunAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name        string
		held, quick ToolCall
		dial        func(t *testing.T, log *events.Log) func(context.Context) (wire.Conn, error)
	}{
		{
			name:  "demo",
			held:  ToolCall{Name: demo.ToolElicitForm},
			quick: ToolCall{Name: demo.ToolReadNotes},
			dial: func(t *testing.T, log *events.Log) func(context.Context) (wire.Conn, error) {
				return stdioDial(log, wire.StdioConfig{Conn: "demo", Command: os.Args[0], Args: []string{"-test.run=^$"},
					Env: []string{demoServeEnv + "=stdio", demo.NotesEnv + "=" + t.TempDir()}})
			},
		},
		{
			name:  "server-everything",
			held:  ToolCall{Name: "trigger-elicitation-request", Arguments: json.RawMessage(`{}`)},
			quick: ToolCall{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 40}},
			dial: func(t *testing.T, log *events.Log) func(context.Context) (wire.Conn, error) {
				return stdioDial(log, wire.StdioConfig{Conn: "everything", Command: peers.Node(t), Args: []string{peers.File(t, everythingPkg)}})
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := events.New(nil)
			h := &heldElicitor{got: make(chan *ElicitationRequest, heldCalls), release: make(chan struct{})}
			s := New(tc.dial(t, log), log, &Options{Conn: tc.name, Era: EraLegacy, Handlers: Handlers{Elicitation: h},
				Capabilities: &Capabilities{ElicitationForm: true}})
			t.Cleanup(func() { _ = s.Close() })
			ctx := testCtx(t)
			if _, err := s.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, heldCalls)
			for range heldCalls {
				wg.Go(func() {
					_, err := s.CallTool(ctx, tc.held, nil)
					errs <- err
				})
			}
			defer func() {
				close(h.release)
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Errorf("a held call, once answered: %v", err)
					}
				}
			}()
			for i := range heldCalls {
				select {
				case <-h.got:
				case <-ctx.Done():
					t.Fatalf("only %d of %d calls reached the server's elicitation request: the others wait for them", i, heldCalls)
				}
			}
			if res, err := s.CallTool(ctx, tc.quick, nil); err != nil || res.Result.IsError {
				t.Fatalf("%s while %d calls are held: %v %+v", tc.quick.Name, heldCalls, err, res)
			}
		})
	}
}
