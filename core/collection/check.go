package collection

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// Outcome is what one call gave.
type Outcome struct {
	// Result is the result as the server sent it, when it sent one.
	Result json.RawMessage
	// Error is the JSON-RPC error it answered with instead.
	Error *RPCError
	// Err is why there was no answer at all (the connection failed, a
	// timeout).
	Err error
	// Duration is how long the call took.
	Duration time.Duration
}

// RPCError is a JSON-RPC error answer.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Failure is one expectation that does not hold.
type Failure struct {
	// Expectation names it: answer, result, pointer /x, schema, error,
	// isError, maxDuration.
	Expectation string `json:"expectation"`
	// Message says what was found instead, for a person.
	Message string `json:"message"`
	// Changes are the differences from the expected result ("result").
	Changes []sessiondiff.Change `json:"changes,omitempty"`
}

// CheckOptions are what Check needs besides the call and its outcome.
type CheckOptions struct {
	// Ignore is the ignore list for "result" (sessiondiff patterns,
	// pointers into the message: /result/...); nil means
	// sessiondiff.DefaultIgnore.
	Ignore []string
	// OutputSchema is the called tool's outputSchema, for schema: true.
	OutputSchema json.RawMessage
}

// Check returns the expectations of call that out does not satisfy
// (none when every one holds). A call without expectations needs a
// result; with expectations, a JSON-RPC error is a failure unless
// "error" expects it.
func Check(call *Call, out Outcome, opts *CheckOptions) []Failure {
	if opts == nil {
		opts = &CheckOptions{}
	}
	e := call.Expect
	if e == nil {
		e = &Expect{}
	}
	var fs []Failure
	fail := func(what, format string, a ...any) {
		fs = append(fs, Failure{Expectation: what, Message: fmt.Sprintf(format, a...)})
	}
	if e.MaxDuration > 0 && out.Duration >= time.Duration(e.MaxDuration) {
		fail("maxDuration", "took %s, expected less than %s", out.Duration.Round(time.Millisecond), time.Duration(e.MaxDuration))
	}
	switch {
	case out.Err != nil:
		fail("answer", "no answer: %v", out.Err)
		return fs
	case e.Error != nil && out.Error == nil:
		fail("error", "expected JSON-RPC error %d, got a result", e.Error.Code)
		return fs
	case e.Error != nil && out.Error.Code != e.Error.Code:
		fail("error", "expected JSON-RPC error %d, got error %d: %s", e.Error.Code, out.Error.Code, out.Error.Message)
		return fs
	case e.Error != nil:
		return fs
	case out.Error != nil:
		fail("answer", "the server answered with JSON-RPC error %d: %s", out.Error.Code, out.Error.Message)
		return fs
	}
	if len(e.Result) > 0 {
		ig, err := sessiondiff.ParseIgnore(ignoreOf(opts))
		if err != nil {
			fail("result", "%v", err)
		} else if ch, err := sessiondiff.Messages(wrapResult(e.Result), wrapResult(out.Result), ig); err != nil {
			fail("result", "%v", err)
		} else if len(ch) > 0 {
			msg := fmt.Sprintf("the result differs from the expected one (expected → got): %s", ch[0].Describe(80))
			if len(ch) > 1 {
				msg = fmt.Sprintf("the result differs from the expected one in %d places (expected → got)", len(ch))
			}
			fs = append(fs, Failure{Expectation: "result", Changes: ch, Message: msg})
		}
	}
	doc, err := sessiondiff.Decode(out.Result)
	if err != nil {
		fail("answer", "the result is not JSON: %v", err)
		return fs
	}
	for _, p := range e.Pointers {
		got, ok := sessiondiff.Lookup(doc, p.Pointer)
		if !ok {
			fail("pointer "+p.Pointer, "the result has nothing at %s (expected %s)", p.Pointer, p.Equals)
			continue
		}
		want, err := sessiondiff.Decode(p.Equals)
		if err != nil {
			fail("pointer "+p.Pointer, "the expected value is not JSON: %v", err)
			continue
		}
		if ch, _ := sessiondiff.Messages(marshal(want), marshal(got), nil); len(ch) > 0 {
			fail("pointer "+p.Pointer, "%s is %s, expected %s", p.Pointer, short(marshal(got)), short(p.Equals))
		}
	}
	if e.IsError != nil {
		isErr, _ := sessiondiff.Lookup(doc, "/isError")
		if b, _ := isErr.(bool); b != *e.IsError {
			fail("isError", "isError is %v, expected %v", b, *e.IsError)
		}
	}
	if len(e.Schema) > 0 {
		fs = append(fs, checkSchema(call, e, doc, opts)...)
	}
	return fs
}

func checkSchema(call *Call, e *Expect, doc any, opts *CheckOptions) []Failure {
	schema := e.Schema
	if e.UsesOutputSchema() {
		if len(opts.OutputSchema) == 0 {
			return []Failure{{Expectation: "schema", Message: fmt.Sprintf("the tool %q has no outputSchema to check the result against", call.ToolName())}}
		}
		schema = opts.OutputSchema
	}
	target := doc
	what := "the result"
	if call.Method == "tools/call" {
		sc, ok := sessiondiff.Lookup(doc, "/structuredContent")
		if !ok {
			return []Failure{{Expectation: "schema", Message: "the result has no structuredContent to check"}}
		}
		target, what = sc, "structuredContent"
	}
	s, err := schemaform.CompileSchema(schema)
	if err != nil {
		return []Failure{{Expectation: "schema", Message: fmt.Sprintf("the schema cannot be used: %v", err)}}
	}
	issues := s.Validate(marshal(target))
	if len(issues) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(issues))
	for _, is := range issues {
		msgs = append(msgs, is.String())
	}
	return []Failure{{Expectation: "schema", Message: fmt.Sprintf("%s does not match the schema: %s", what, strings.Join(msgs, "; "))}}
}

func ignoreOf(opts *CheckOptions) []string {
	if opts.Ignore != nil {
		return opts.Ignore
	}
	return sessiondiff.DefaultIgnore
}

// wrapResult puts a result into a message, so that ignore patterns and
// paths read as in --diff (/result/...).
func wrapResult(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return nil
	}
	return append(append([]byte(`{"result":`), r...), '}')
}

func marshal(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func short(b json.RawMessage) string {
	if len(b) > 80 {
		return strings.ToValidUTF8(string(b[:80]), "") + "…"
	}
	return string(b)
}
