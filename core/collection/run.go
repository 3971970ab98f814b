package collection

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// Client is what Run needs of a session; *session.Session is one.
type Client interface {
	Call(ctx context.Context, method string, params json.RawMessage, opts *session.CallOptions) (*session.Reply, error)
	ListTools(ctx context.Context, opts *session.ListOptions) (*session.Tools, error)
}

// Result is one call's outcome and the expectations it failed.
type Result struct {
	Call     *Call
	Outcome  Outcome
	Failures []Failure
}

// Passed reports whether every expectation held.
func (r *Result) Passed() bool { return len(r.Failures) == 0 }

// Report is a run of a whole collection.
type Report struct {
	Collection *Collection
	Results    []Result
	// Started is when the run began; Duration how long it took.
	Started  time.Time
	Duration time.Duration
}

// Passed reports whether every call passed.
func (r *Report) Passed() bool {
	for i := range r.Results {
		if !r.Results[i].Passed() {
			return false
		}
	}
	return true
}

// Failed counts the calls that failed.
func (r *Report) Failed() int {
	n := 0
	for i := range r.Results {
		if !r.Results[i].Passed() {
			n++
		}
	}
	return n
}

// RunOptions tune Run.
type RunOptions struct {
	// Ignore is added to sessiondiff.DefaultIgnore and the collection's
	// own ignore list for "result" expectations.
	Ignore []string
	// Now reads the clock (time.Now when nil).
	Now func() time.Time
}

// Run sends every call in order and checks its expectations. A call whose
// connection failed is a failure ("answer") like any other; the run goes
// on with the next call, which reconnects or fails the same way.
func Run(ctx context.Context, c *Collection, cl Client, opts *RunOptions) *Report {
	if opts == nil {
		opts = &RunOptions{}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	rep := &Report{Collection: c, Started: now()}
	ignore := append(append(append([]string(nil), defaultIgnore()...), c.Ignore...), opts.Ignore...)
	var schemas map[string]json.RawMessage
	for i := range c.Calls {
		call := &c.Calls[i]
		copts := &CheckOptions{Ignore: ignore}
		if call.Expect.UsesOutputSchema() {
			if schemas == nil {
				schemas = outputSchemas(ctx, cl)
			}
			copts.OutputSchema = schemas[call.ToolName()]
		}
		start := now()
		reply, err := cl.Call(ctx, call.Method, call.Params, nil)
		out := Outcome{Duration: now().Sub(start)}
		var rpc *session.RPCError
		switch {
		case errors.As(err, &rpc):
			out.Error = &RPCError{Code: rpc.Code, Message: rpc.Message}
		case err != nil:
			out.Err = err
		default:
			out.Result = reply.Raw
			if reply.Duration > 0 {
				out.Duration = reply.Duration
			}
		}
		rep.Results = append(rep.Results, Result{Call: call, Outcome: out, Failures: Check(call, out, copts)})
	}
	rep.Duration = now().Sub(rep.Started)
	return rep
}

func defaultIgnore() []string { return sessiondiff.DefaultIgnore }

// outputSchemas reads every tool's outputSchema from tools/list (nil
// entries for tools without one; an empty map when listing fails, so
// that schema: true fails with "no outputSchema").
func outputSchemas(ctx context.Context, cl Client) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	l, err := cl.ListTools(ctx, nil)
	if l == nil || (err != nil && !errors.Is(err, session.ErrDecode)) {
		return out
	}
	for _, t := range l.Tools {
		out[t.Name] = t.OutputSchema
	}
	return out
}
