package cmd

// The adapter between core and ui/requests (the queue of the server's own
// requests: sampling with testing profiles, elicitation, roots), wired into
// the window by runGUI.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/sampling"
	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/form"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// ---- testing profiles: requests.ProfileStore and requests.Responder over core/sampling

// profileStore keeps the testing profiles in a file, e.g.
// filepath.Join(xdg.ConfigHome, "spyglass", "sampling-profiles.json").
type profileStore struct{ file string }

func (s profileStore) Load() (requests.ProfileSet, error) {
	ps, err := sampling.Load(s.file) // a missing file gives the defaults
	if err != nil {
		return toUIProfiles(sampling.DefaultProfiles()), err
	}
	return toUIProfiles(ps), nil
}

func (s profileStore) Save(ps requests.ProfileSet) error {
	return sampling.Save(s.file, fromUIProfiles(ps))
}

type responder struct{}

func (responder) Draft(p requests.Profile, params json.RawMessage) string {
	cp := fromUIProfile(p)
	return cp.Draft(params)
}

func (responder) Respond(p requests.Profile, params json.RawMessage) (json.RawMessage, error) {
	cp := fromUIProfile(p)
	return cp.Respond(params)
}

func toUIProfiles(ps *sampling.Profiles) requests.ProfileSet {
	out := requests.ProfileSet{Active: ps.Active}
	for _, p := range ps.Profiles {
		up := requests.Profile{Name: p.Name, Provider: p.Provider, AutoRespond: p.AutoRespond, Template: p.Template,
			Model: p.Model, StopReason: p.StopReason, CallTools: p.CallTools}
		for _, o := range p.Overrides {
			up.Overrides = append(up.Overrides, requests.Override{Pattern: o.Pattern, Template: o.Template})
		}
		out.Profiles = append(out.Profiles, up)
	}
	return out
}

func fromUIProfiles(ps requests.ProfileSet) *sampling.Profiles {
	out := &sampling.Profiles{Active: ps.Active}
	for _, p := range ps.Profiles {
		out.Profiles = append(out.Profiles, fromUIProfile(p))
	}
	return out
}

func fromUIProfile(p requests.Profile) sampling.Profile {
	sp := sampling.Profile{Name: p.Name, Provider: p.Provider, AutoRespond: p.AutoRespond, Template: p.Template,
		Model: p.Model, StopReason: p.StopReason, CallTools: p.CallTools}
	for _, o := range p.Overrides {
		sp.Overrides = append(sp.Overrides, sampling.Override{Pattern: o.Pattern, Template: o.Template})
	}
	return sp
}

// buildElicitationForm is the requests.FormBuilder.
func buildElicitationForm(schema json.RawMessage) (*form.Form, error) {
	m, err := schemaform.Build(schema)
	if err != nil {
		return nil, err
	}
	return form.New(m, &form.Options{Elicitation: true, NoToggle: true}), nil
}

// ---- session handlers over the queue

// askQueue queues a request on the UI thread (under the window's lock, like
// every other callback of the window) and waits for the user's answer, or
// for ctx: the server cancelled, or the connection closed, and the panel
// closes with a note.
func askQueue[A any](ctx context.Context, add func(answer func(A)), cancel func()) (A, error) {
	ch := make(chan A, 1)
	ui.Do(func() {
		add(func(a A) {
			select {
			case ch <- a:
			default:
			}
		})
	})
	select {
	case a := <-ch:
		return a, nil
	case <-ctx.Done():
		ui.Do(cancel)
		var zero A
		return zero, fmt.Errorf("%w: %w", requests.ErrCancelled, ctx.Err())
	}
}

// requestHandlers implements session.SamplingHandler and
// session.ElicitationHandler with the window's request queue. AskSampling
// and AskElicitation may be called from the session's goroutine: they hand
// over with fyne.Do and block until the user answers or ctx ends (the server
// sent notifications/cancelled, the connection closed), in which case the
// panel closes with a note.
type requestHandlers struct{ q *requests.Queue }

// queueID is the queue's id of a server request: its JSON-RPC id, or for
// an input request of a multi round-trip request its round trip's first
// id and its input key (two calls waiting at once may use the same key);
// round is then the label the queue shows, "Round 2 of tools/call plan
// (MRTR)".
func queueID(req *session.ServerRequest) (id, round string) {
	if req.ID != "" {
		return req.ID, ""
	}
	r := req.Round
	if r == nil {
		return req.InputKey, ""
	}
	what := r.Method
	if r.Name != "" {
		what += " " + r.Name
	}
	return r.Conversation + "/" + req.InputKey, fmt.Sprintf("Round %d of %s (MRTR)", r.N, what)
}

// endedNote is the queue's note for a request whose context ended: a
// round's call ended (cancelled in its screen, or the connection closed);
// any other request was cancelled by the server ("").
func endedNote(round string) string {
	if round != "" {
		return "the call ended"
	}
	return ""
}

// errCallCancelled is what a handler returns when the person cancelled
// the call a round belongs to: the session abandons it.
var errCallCancelled = fmt.Errorf("the call was cancelled in the request queue: %w", session.ErrInputCancelled)

func (h requestHandlers) CreateMessage(ctx context.Context, req *session.SamplingRequest) (*mcp.CreateMessageResult, error) {
	id, round := queueID(&req.ServerRequest)
	r0 := requests.SamplingRequest{Server: req.Conn, ID: id, Run: req.Run, Params: req.Params, Round: round}
	a, err := askQueue(ctx, func(answer func(requests.SamplingAnswer)) { h.q.AddSampling(r0, answer) },
		func() { h.q.Cancel(r0.Server, r0.ID, endedNote(round)) })
	if err != nil {
		return nil, err
	}
	if a.Abandoned {
		return nil, errCallCancelled
	}
	if a.Rejected {
		return nil, &session.RPCError{Code: session.CodeUserRejected, Message: "User rejected sampling request"}
	}
	var r struct {
		Role       mcp.Role        `json:"role"`
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	if err := json.Unmarshal(a.Result, &r); err != nil {
		return nil, err
	}
	return &mcp.CreateMessageResult{
		// Content stays raw: a text block, or text + tool_use blocks.
		SamplingMessage: mcp.SamplingMessage{Role: r.Role, Content: r.Content},
		Model:           r.Model,
		StopReason:      r.StopReason,
	}, nil
}

func (h requestHandlers) Elicit(ctx context.Context, req *session.ElicitationRequest) (*mcp.ElicitationResult, error) {
	id, round := queueID(&req.ServerRequest)
	r0 := requests.ElicitationRequest{
		Server: req.Conn, ID: id, Run: req.Run, Mode: req.Mode, Message: req.Message,
		Schema: req.Schema, URL: req.URL, ElicitationID: req.ElicitationID, Round: round,
	}
	a, err := askQueue(ctx, func(answer func(requests.ElicitationAnswer)) { h.q.AddElicitation(r0, answer) },
		func() { h.q.Cancel(r0.Server, r0.ID, endedNote(round)) })
	if err != nil {
		return nil, err
	}
	if a.Abandoned {
		return nil, errCallCancelled
	}
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseAction(a.Action)}}
	if a.Content != nil {
		res.Content = a.Content // json.RawMessage: exactly what the form produced
	}
	return res, nil
}

// watchCompletions closes URL-mode requests on
// notifications/elicitation/complete; call it for each session in
// guiBackend.Open and call the returned cancel when the session closes.
func watchCompletions(sess *session.Session, q *requests.Queue, server string) (cancel func()) {
	return sess.OnNotification(func(n session.Notification) {
		if n.Method != session.MethodElicitationComplete {
			return
		}
		var p struct {
			ElicitationID string `json:"elicitationId"`
		}
		if json.Unmarshal(n.Params, &p) == nil {
			ui.Do(func() { q.CompleteElicitation(server, p.ElicitationID) })
		}
	})
}

var (
	_ session.SamplingHandler    = requestHandlers{}
	_ session.ElicitationHandler = requestHandlers{}
	_ requests.ProfileStore      = profileStore{}
	_ requests.Responder         = responder{}
	_ requests.FormBuilder       = buildElicitationForm
)
