package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// roundHandler answers elicitations like peerHandlers, or abandons the
// call when cancel is set; it keeps every request it got.
type roundHandler struct {
	peerHandlers
	cancel bool
}

func (h *roundHandler) Elicit(ctx context.Context, req *ElicitationRequest) (*mcp.ElicitationResult, error) {
	if h.cancel {
		h.mu.Lock()
		h.elicit = append(h.elicit, req)
		h.mu.Unlock()
		return nil, fmt.Errorf("the person cancelled: %w", ErrInputCancelled)
	}
	return h.peerHandlers.Elicit(ctx, req)
}

// TestMRTRRoundsLinked: against the official TypeScript SDK v2 in the
// modern era, an input_required round reaches the handler with its
// InputRound (method, tool, round 1, the first request's id), and the log
// links the round trip as one conversation: the first request, its
// input_required result and the re-sent request with its final result
// read "round 1/2" … "round 2/2". A handler that returns
// ErrInputCancelled abandons the call: no second round is sent, the error
// matches context.Canceled, the attempt ends "cancelled" and the log says
// the conversation was abandoned at round 1.
func TestMRTRRoundsLinked(t *testing.T) {
	node, script, env := tsSDKServer(t)
	for _, cancel := range []bool{false, true} {
		t.Run(fmt.Sprintf("cancel=%v", cancel), func(t *testing.T) {
			log := events.New(nil)
			h := &roundHandler{cancel: cancel}
			s := New(stdioDial(log, wire.StdioConfig{Command: node, Args: []string{script, "stdio"}, Env: env}), log,
				&Options{Era: EraModern, Handlers: Handlers{Elicitation: h}})
			defer s.Close()
			ctx := t.Context()
			if err := s.Connect(ctx); err != nil {
				t.Fatal(err)
			}
			res, err := s.CallTool(ctx, ToolCall{Name: "confirm", Arguments: map[string]any{"what": "x"}}, nil)
			if len(h.elicit) != 1 {
				t.Fatalf("%d elicitations", len(h.elicit))
			}
			r := h.elicit[0].Round
			if r == nil || r.Method != "tools/call" || r.Name != "confirm" || r.N != 1 || r.Conversation == "" {
				t.Fatalf("input round %+v", r)
			}
			var rounds events.Rounds
			evs := log.Events()
			var calls []events.Event
			for i := range evs {
				rounds.Add(&evs[i])
			}
			var labels []string
			for _, e := range evs {
				if e.Method == "tools/call" && (e.Kind == events.KindMessage || e.Kind == events.KindWarning) {
					calls = append(calls, e)
					labels = append(labels, e.Title()+" "+rounds.Label(&e))
				}
			}
			if cancel {
				if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrInputCancelled) {
					t.Fatalf("abandoned call: %v", err)
				}
				want := fmt.Sprintf("tools/call #%[1]s round 1/1|result #%[1]s · tools/call round 1/1|warning · tools/call confirm abandoned at round 1 of its multi round-trip request: the input was cancelled abandoned at round 1/1", r.Conversation)
				if got := strings.Join(labels, "|"); got != want {
					t.Errorf("messages:\n%s\nwant\n%s", got, want)
				}
				c, _, _ := rounds.Of(&calls[0])
				if c.State != events.ConvAbandoned {
					t.Errorf("conversation %+v", c)
				}
				for _, e := range evs {
					// every request sent was answered: nothing is left
					// running, the outcome is known
					if e.Kind == events.KindTool && (e.ErrorClass != "cancelled" || e.OutcomeUnknown) {
						t.Errorf("attempt ended %q (outcome unknown %v), want cancelled", e.ErrorClass, e.OutcomeUnknown)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(t, res); !strings.Contains(got, `confirmed x: {"check":true,"name":"Ada Lovelace"}`) {
				t.Errorf("answered %q", got)
			}
			if len(calls) != 4 {
				t.Fatalf("tools/call messages: %q", labels)
			}
			second := calls[2].ID
			want := fmt.Sprintf("tools/call #%[1]s round 1/2|result #%[1]s · tools/call round 1/2|tools/call #%[2]s round 2/2|result #%[2]s · tools/call round 2/2", r.Conversation, second)
			if got := strings.Join(labels, "|"); got != want {
				t.Errorf("messages:\n%s\nwant\n%s", got, want)
			}
			if second == r.Conversation {
				t.Error("the second round reused the first id")
			}
			if c, _, _ := rounds.Of(&calls[3]); c.State != events.ConvDone || c.Rounds != 2 {
				t.Errorf("conversation %+v", c)
			}
		})
	}
}
