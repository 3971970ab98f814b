package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// Handlers answer the server's own requests. A nil handler means the
// capability is not advertised and the request is answered with
// "method not found".
type Handlers struct {
	Sampling    SamplingHandler
	Elicitation ElicitationHandler
	// Roots answers roots/list; when nil, Options.Roots (and SetRoots)
	// answer it.
	Roots RootsProvider
}

// ServerRequest describes a request the server sent, for a handler.
type ServerRequest struct {
	// Conn is the connection name; ID the request id as JSON text.
	Conn, ID string
	// Method is the request's method.
	Method string
	// Run is the run the request belongs to ("" when it is not related
	// to an operation of ours), so a UI can show it inline with the tool
	// call that caused it.
	Run string
	// Seq is the event sequence number of the request.
	Seq uint64
	// Params is the request's params exactly as sent.
	Params json.RawMessage
	// InputKey is set (and ID, Seq are empty) for an input request of the
	// modern protocol: the key under which a result asked for this input.
	InputKey string
	// Round is set with InputKey: the multi round-trip request that
	// asked for the input.
	Round *InputRound
}

// InputRound describes the multi round-trip request (MRTR, protocol
// 2026-07-28) an input request belongs to, so a handler can say which
// call waits for it. A handler that returns an error wrapping
// ErrInputCancelled abandons the request.
type InputRound struct {
	// Method is the request that asked for input, e.g. "tools/call".
	Method string
	// Name is its tool or prompt name, or its resource URI ("" when the
	// params name none).
	Name string
	// N is the round whose result asked for the input, from 1.
	N int
	// Conversation is the JSON-RPC id (JSON text) of the round trip's
	// first request; with the connection it identifies the round trip
	// (events.RoundInfo.Conversation).
	Conversation string
}

// SamplingRequest is a sampling/createMessage request.
type SamplingRequest struct {
	ServerRequest
	// CreateMessageParams is the typed view of Params (Tools and
	// ToolChoice only when the sampling.tools capability is advertised).
	mcp.CreateMessageParams
	// Task is set when the server asked for task-augmented execution.
	// The session answers synchronously either way.
	Task *mcp.TaskParams
}

// SamplingHandler answers sampling/createMessage. It may take as long as
// a person needs; ctx ends when the server cancels the request or the
// connection ends. Returning an *RPCError sends that error (for a user
// who declined: Code CodeUserRejected); any other error is sent as an
// internal error.
type SamplingHandler interface {
	CreateMessage(ctx context.Context, req *SamplingRequest) (*mcp.CreateMessageResult, error)
}

// ElicitationRequest is an elicitation/create request, form or url mode.
type ElicitationRequest struct {
	ServerRequest
	// ElicitationParams is the typed view of Params; Mode is "form" or
	// "url" (an empty mode in the request reads as "form").
	mcp.ElicitationParams
	// Schema is the form's requestedSchema exactly as sent (form mode).
	Schema json.RawMessage
	// Task is set when the server asked for task-augmented execution.
	Task *mcp.TaskParams
}

// ElicitationHandler answers elicitation/create with accept (and
// content), decline or cancel. Like SamplingHandler, it has no time cap.
type ElicitationHandler interface {
	Elicit(ctx context.Context, req *ElicitationRequest) (*mcp.ElicitationResult, error)
}

// RootsProvider answers roots/list.
type RootsProvider interface {
	ListRoots(ctx context.Context, req *ServerRequest) ([]mcp.Root, error)
}

// SetRoots replaces the roots answered to roots/list (when no
// RootsProvider is set) and, when connected with the roots capability,
// sends notifications/roots/list_changed. A RootsProvider that changed
// calls it with nil roots to send the notification.
func (s *Session) SetRoots(ctx context.Context, roots []mcp.Root) error {
	s.mu.Lock()
	if roots != nil || s.opts.Handlers.Roots == nil {
		s.roots = append([]mcp.Root{}, roots...)
	}
	l := s.link
	s.mu.Unlock()
	if l == nil || l.isClosed() || !s.caps.roots {
		return nil
	}
	return s.notify(ctx, l, "notifications/roots/list_changed", nil, "", nil)
}

// Roots returns the roots answered to roots/list when no RootsProvider is
// set.
func (s *Session) Roots() []mcp.Root {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]mcp.Root(nil), s.roots...)
}

// serveRequest answers a server request on its own goroutine.
func (s *Session) serveRequest(l *link, id, method string, params, raw json.RawMessage, run string, seq uint64) {
	ctx, cancel := context.WithCancel(l.ctx)
	sr := &serverReq{run: run, cancel: cancel}
	l.mu.Lock()
	l.sreqs[id] = sr
	l.mu.Unlock()
	req := ServerRequest{Conn: s.conn, ID: id, Method: method, Run: run, Seq: seq, Params: params}
	go func() {
		defer cancel()
		resume := s.holdRun(run)
		result, err := s.dispatch(ctx, &req)
		resume()
		l.mu.Lock()
		delete(l.sreqs, id)
		cancelled := sr.cancelled
		l.mu.Unlock()
		if cancelled || l.isClosed() {
			// The server withdrew the request: no answer is expected.
			return
		}
		var b []byte
		typ := events.MsgResult
		if err == nil {
			body, merr := json.Marshal(result)
			if merr != nil {
				err = fmt.Errorf("session: %s: encoding the answer: %w", method, merr)
			} else {
				b = make([]byte, 0, len(body)+len(id)+40)
				b = append(b, `{"jsonrpc":"2.0","id":`...)
				b = append(b, id...)
				b = append(b, `,"result":`...)
				b = append(b, body...)
				b = append(b, '}')
			}
		}
		if err != nil {
			var rpcErr *RPCError
			if !errors.As(err, &rpcErr) {
				rpcErr = &RPCError{Code: CodeInternalError, Message: err.Error()}
				if errors.Is(err, ErrNoHandler) {
					rpcErr.Code = CodeMethodNotFound
				}
			}
			body, _ := json.Marshal(rpcErr)
			typ = events.MsgError
			b = make([]byte, 0, len(body)+len(id)+40)
			b = append(b, `{"jsonrpc":"2.0","id":`...)
			b = append(b, id...)
			b = append(b, `,"error":`...)
			b = append(b, body...)
			b = append(b, '}')
		}
		sctx, scancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer scancel()
		_, _ = s.send(sctx, l, events.Event{Type: typ, ID: id, Method: method, Raw: b, Run: run}, nil)
	}()
}

// serverCancelled handles notifications/cancelled from the server for one
// of its requests.
func (s *Session) serverCancelled(l *link, id string) {
	l.mu.Lock()
	sr := l.sreqs[id]
	if sr != nil {
		sr.cancelled = true
	}
	l.mu.Unlock()
	if sr != nil {
		sr.cancel()
		s.log.MarkCancelled(s.conn, events.DirIn, id)
	}
}

// dispatch calls the handler for req and returns the result to send.
func (s *Session) dispatch(ctx context.Context, req *ServerRequest) (any, error) {
	h := s.opts.Handlers
	switch req.Method {
	case "ping":
		return struct{}{}, nil
	case "roots/list":
		if !s.caps.roots {
			break
		}
		var roots []mcp.Root
		if h.Roots != nil {
			var err error
			if roots, err = h.Roots.ListRoots(ctx, req); err != nil {
				return nil, err
			}
		} else {
			roots = s.Roots()
		}
		if roots == nil {
			roots = []mcp.Root{}
		}
		return mcp.ListRootsResult{Roots: roots}, nil
	case "sampling/createMessage":
		if !s.caps.sampling {
			break
		}
		sr := &SamplingRequest{ServerRequest: *req}
		var extra struct {
			Task *mcp.TaskParams `json:"task"`
		}
		if err := json.Unmarshal(req.Params, &sr.CreateMessageParams); err != nil {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid sampling params: " + err.Error()}
		}
		_ = json.Unmarshal(req.Params, &extra)
		sr.Task = extra.Task
		if (len(sr.Tools) > 0 || sr.ToolChoice != nil) && !s.caps.samplingTools {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "sampling with tools was not advertised by the client"}
		}
		res, err := h.Sampling.CreateMessage(ctx, sr)
		if err != nil {
			return nil, err
		}
		if res == nil {
			return nil, &RPCError{Code: CodeUserRejected, Message: "sampling request rejected"}
		}
		return res, nil
	case "elicitation/create":
		if !s.caps.elicitForm && !s.caps.elicitURL {
			break
		}
		er := &ElicitationRequest{ServerRequest: *req}
		var extra struct {
			Schema json.RawMessage `json:"requestedSchema"`
			Task   *mcp.TaskParams `json:"task"`
		}
		if err := json.Unmarshal(req.Params, &er.ElicitationParams); err != nil {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid elicitation params: " + err.Error()}
		}
		_ = json.Unmarshal(req.Params, &extra)
		er.Schema, er.Task = extra.Schema, extra.Task
		if er.Mode == "" {
			er.Mode = mcp.ElicitationModeForm
		}
		if (er.Mode == mcp.ElicitationModeForm && !s.caps.elicitForm) || (er.Mode == mcp.ElicitationModeURL && !s.caps.elicitURL) {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "elicitation mode " + er.Mode + " was not advertised by the client"}
		}
		res, err := h.Elicitation.Elicit(ctx, er)
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}
		}
		return res, nil
	case "tasks/list":
		if !s.caps.tasks {
			break
		}
		// Server requests are answered synchronously: there never is a
		// client-side task.
		return mcp.ListTasksResult{Tasks: []mcp.Task{}}, nil
	case "tasks/get", "tasks/result", "tasks/cancel":
		if !s.caps.tasks {
			break
		}
		return nil, &RPCError{Code: CodeInvalidParams, Message: "unknown task"}
	}
	return nil, &RPCError{Code: CodeMethodNotFound, Message: "Method not found: " + req.Method}
}
