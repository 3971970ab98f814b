package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/lineage"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
)

// ErrOutcomeUnknown is matched by the error of a tool call that failed in
// a way that leaves it unknown whether the tool did its work: a tool that
// may change something (no readOnlyHint) timed out, was cancelled or lost
// its connection after the request was sent (see [OutcomeUnknownError]).
var ErrOutcomeUnknown = errors.New("session: outcome unknown: the tool may have run")

// OutcomeUnknownError wraps the error of a tool call whose outcome is
// unknown. It matches ErrOutcomeUnknown and unwraps to the failure
// (a *TimeoutError, a *ClosedError, context.Canceled...).
type OutcomeUnknownError struct {
	// Tool is the tool's name.
	Tool string
	// Err is how the call failed.
	Err error
}

// Error gives the failure and says that the tool may have run.
func (e *OutcomeUnknownError) Error() string {
	return e.Err.Error() + " (outcome unknown: the tool may have run)"
}

// Is matches ErrOutcomeUnknown.
func (e *OutcomeUnknownError) Is(target error) bool { return target == ErrOutcomeUnknown }

// Unwrap returns how the call failed.
func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// toolMeta is what the lineage needs of a tool's listing.
type toolMeta struct {
	schema json.RawMessage
	hints  lineage.Hints
}

func metaOf(t *mcpresult.Tool) toolMeta {
	return toolMeta{schema: t.InputSchema, hints: lineage.Hints{ReadOnly: t.ReadOnly, Idempotent: t.Idempotent}}
}

// rememberTools keeps the listing of each tool for the lineage.
func (s *Session) rememberTools(tools []mcpresult.Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range tools {
		s.tools[tools[i].Name] = metaOf(&tools[i])
	}
}

// toolMetaFor returns the listing of a tool: the one given with the call,
// else the last one listed; a tool never listed counts as one that may
// change something.
func (s *Session) toolMetaFor(name string, opts *CallOptions) (toolMeta, *mcp.Tool) {
	if opts != nil && opts.Tool != nil {
		return metaOf(opts.Tool), &mcp.Tool{Name: name, RawInputSchema: opts.Tool.InputSchema}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.tools[name]
	if !ok {
		return m, nil
	}
	return m, &mcp.Tool{Name: name, RawInputSchema: m.schema}
}

// Lineage returns the tracker of tool call attempts (see core/lineage):
// Attempts(lineageID) lists every attempt of a lineage.
func (s *Session) Lineage() *lineage.Tracker { return s.opts.Lineage }

// beginAttempt starts a tool call attempt and returns the call options
// that tag its messages.
func (s *Session) beginAttempt(name string, args json.RawMessage, opts *CallOptions) (lineage.Attempt, *CallOptions, *mcp.Tool) {
	meta, tool := s.toolMetaFor(name, opts)
	s.mu.Lock()
	s.nextCall++
	callID := s.conn + "/call-" + strconv.FormatInt(s.nextCall, 10)
	s.mu.Unlock()
	var o CallOptions
	if opts != nil {
		o = *opts
	}
	o.rpc = &events.RPCInfo{CallID: callID}
	fp := lineage.Fingerprint(s.conn, name, meta.schema, args)
	a := s.opts.Lineage.Begin(fp, callID, s.conn, name, meta.hints, o.Run)
	return a, &o, tool
}

// endAttempt judges how an attempt ended, records its tool event (and a
// warning when it may have run twice) and returns it with the error the
// caller gets (wrapped in *OutcomeUnknownError when the tool may have
// run).
func (s *Session) endAttempt(a lineage.Attempt, rep *Reply, isError bool, err error, class lineage.ErrorClass) (lineage.Attempt, error) {
	if class == lineage.ClassNone {
		class = classify(err, isError)
	}
	r := lineage.Result{Class: class}
	run := ""
	if rep != nil {
		r.RequestID, r.Seq, r.Duration, run = rep.ID, rep.Seq, rep.Duration, rep.Run
		r.Sent = rep.Seq != 0 && !rep.unsent && !rep.abandoned
	}
	if ended, ok := s.opts.Lineage.End(a.CallID, r); ok {
		a = ended
	}
	a.Run = run
	status := "ok"
	if a.Status == lineage.Failed {
		status = "failed"
	}
	now := time.Now()
	s.log.Append(events.Event{
		Time: now, Conn: s.conn, Kind: events.KindTool, Method: "tools/call", Run: run,
		RPC: &events.RPCInfo{CallID: a.CallID},
		Tool: &events.ToolInfo{Name: a.Tool, Status: status, ReadOnly: a.Hints.ReadOnly, Idempotent: a.Hints.Idempotent,
			MayHaveRunTwice: a.MayHaveRunTwice, SameCallAgain: a.SameCallAgain,
			RequestID: a.RequestID, RequestSeq: a.Seq, Duration: a.Duration},
		Lineage:    &events.Lineage{ID: a.Lineage, Attempt: a.N, Fingerprint: a.Fingerprint},
		ErrorClass: string(a.Class), OutcomeUnknown: a.OutcomeUnknown,
	})
	if a.MayHaveRunTwice {
		s.log.Append(events.Event{Time: now, Conn: s.conn, Kind: events.KindWarning, Run: run, RPC: &events.RPCInfo{CallID: a.CallID},
			Text: "tool " + a.Tool + " may have run twice: attempt " + strconv.Itoa(a.N) + " succeeded after an attempt whose outcome is unknown"})
	}
	if err != nil && a.OutcomeUnknown {
		err = &OutcomeUnknownError{Tool: a.Tool, Err: err}
	}
	return a, err
}

// classify gives the error class of a finished tool call (isError: the
// tool reported an error in its result).
func classify(err error, isError bool) lineage.ErrorClass {
	var rpcErr *RPCError
	switch {
	case err == nil && isError:
		return lineage.ClassTool
	case err == nil:
		return lineage.ClassNone
	case errors.Is(err, ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return lineage.ClassTimeout
	case errors.Is(err, context.Canceled), errors.Is(err, ErrInputCancelled):
		return lineage.ClassCancelled
	case errors.As(err, &rpcErr), errors.Is(err, ErrDecode), errors.Is(err, ErrInputLoop):
		return lineage.ClassProtocol
	}
	return lineage.ClassTransport
}

// headerError checks a tool's x-mcp-header declarations (protocol
// 2026-07-28): nil when they are valid or absent, else an error matching
// ErrInvalidToolHeaders that says what is wrong.
func headerError(name string, schema json.RawMessage) error {
	if !bytes.Contains(schema, []byte("x-mcp-header")) {
		return nil
	}
	if err := mcp.ValidateParamHeaderAnnotations(&mcp.Tool{Name: name, RawInputSchema: schema}); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidToolHeaders, err)
	}
	return nil
}

func (s *Session) isModern() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modern
}

// paramHeaders returns the Mcp-Param-* headers the modern protocol wants
// for a tool call whose input schema marks parameters with x-mcp-header.
func (s *Session) paramHeaders(tool *mcp.Tool, params json.RawMessage, h http.Header) http.Header {
	if !s.isModern() || tool == nil || !bytes.Contains(tool.RawInputSchema, []byte("x-mcp-header")) {
		return h
	}
	ph := mcp.GenerateParamHeaders(tool, params)
	if len(ph) == 0 {
		return h
	}
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	for k, v := range ph {
		out.Set(k, v)
	}
	return out
}
