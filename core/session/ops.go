package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/tidwall/gjson"

	"github.com/spyglass-mcp/spyglass/core/lineage"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
)

// Ping sends ping and returns its (normally empty) result. (The 2026-07-28
// protocol removed ping; a modern server answers it with an error.)
func (s *Session) Ping(ctx context.Context, opts *CallOptions) (*Reply, error) {
	return s.request(ctx, "ping", nil, opts)
}

// ToolCall describes one tools/call.
type ToolCall struct {
	Name string
	// Arguments are sent as "arguments": a json.RawMessage is sent as
	// given, anything else is marshalled. nil sends none.
	Arguments any
	// Task, when set, asks the server to run the call as a task; the
	// result then holds the task instead of the tool's result.
	Task *mcp.TaskParams
}

// ToolResult is the answer to tools/call.
type ToolResult struct {
	Reply
	// Result is the decoded result (see core/mcpresult): Result.TaskID is
	// set when the server created a task instead, Result.Problems says
	// where the result does not match the MCP schema. Zero when the call
	// failed.
	Result mcpresult.ToolResult
	// Attempt places the call in its retry lineage: its number, error
	// class, whether its outcome is unknown, whether it may have run
	// twice or repeats a write (see core/lineage). Set on failures too.
	Attempt *lineage.Attempt
}

// CallTool calls a tool. CallOptions.Meta becomes params._meta (over
// Options.Metadata); CallOptions.Progress asks for progress. A tool that
// fails reports it in Result.IsError, not as an error.
//
// Every call is an attempt in a retry lineage (ToolResult.Attempt, and a
// events.KindTool event when it ends); its messages carry the attempt's
// rpc.callId. When a tool that may change something times out, is
// cancelled or loses its connection, the error matches
// [ErrOutcomeUnknown]: the tool may have run.
func (s *Session) CallTool(ctx context.Context, tc ToolCall, opts *CallOptions) (*ToolResult, error) {
	p := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
		Task      *mcp.TaskParams `json:"task,omitempty"`
	}{Name: tc.Name, Task: tc.Task}
	var argErr error
	switch a := tc.Arguments.(type) {
	case nil:
	case json.RawMessage:
		if len(a) > 0 && !json.Valid(a) {
			argErr = fmt.Errorf("session: tools/call: arguments are not valid JSON")
		}
		p.Arguments = a
	default:
		b, err := json.Marshal(a)
		if err != nil {
			argErr = fmt.Errorf("session: tools/call: arguments: %w", err)
		}
		p.Arguments = b
	}
	att, o, tool := s.beginAttempt(tc.Name, p.Arguments, opts)
	if argErr == nil && tool != nil && s.isModern() {
		if herr := headerError(tool.Name, tool.RawInputSchema); herr != nil {
			argErr = fmt.Errorf("session: tools/call %s: %w", tc.Name, herr)
		}
	}
	if argErr != nil {
		a, err := s.endAttempt(att, nil, false, argErr, lineage.ClassInput)
		return &ToolResult{Attempt: &a}, err
	}
	params, err := json.Marshal(p)
	if err != nil {
		a, err := s.endAttempt(att, nil, false, fmt.Errorf("session: tools/call: %w", err), lineage.ClassInput)
		return &ToolResult{Attempt: &a}, err
	}
	o.Header = s.paramHeaders(tool, params, o.Header)
	rep, err := s.request(ctx, "tools/call", params, o)
	if err != nil {
		a, err := s.endAttempt(att, rep, false, err, lineage.ClassNone)
		out := resultOf[ToolResult](rep)
		if out == nil {
			out = &ToolResult{}
		}
		out.Attempt = &a
		return out, err
	}
	out := &ToolResult{Reply: *rep, Result: mcpresult.DecodeToolResult(rep.Raw)}
	a, _ := s.endAttempt(att, rep, out.Result.IsError, nil, lineage.ClassNone)
	out.Attempt = &a
	return out, nil
}

// resultOf wraps a possibly nil reply in an empty result of type T, so a
// failed operation still returns what is known (id, run, seq).
func resultOf[T any, PT interface {
	*T
	setReply(*Reply)
}](rep *Reply) *T {
	if rep == nil {
		return nil
	}
	var t T
	PT(&t).setReply(rep)
	return &t
}

func (r *Reply) setReply(rep *Reply) { *r = *rep }

// ListOptions select pages of a list operation.
type ListOptions struct {
	CallOptions
	// Cursor starts at this page instead of the first.
	Cursor string
	// OnePage returns a single page (with NextCursor) even when
	// Options.PaginatedLists is off.
	OnePage bool
}

// Page is one list page's request and raw result.
type Page = Reply

// List is what every list operation returns besides its items.
type List struct {
	// Pages holds every page fetched, in order (Raw is each page's result
	// as sent).
	Pages []Page
	// Items holds every item of every page exactly as the server sent it
	// (a tool's inputSchema and outputSchema keep every keyword).
	Items []json.RawMessage
	// Problems are the places where the items do not match the MCP schema
	// (see core/mcpresult); the decoded items keep what could be read.
	Problems mcpresult.Problems
	// NextCursor is the cursor of the next page when only one page was
	// fetched and there are more; "" otherwise.
	NextCursor string
	// Run is the run of all the pages.
	Run string
}

// Tools is the answer to tools/list.
type Tools struct {
	List
	// Tools are the decoded tools; in the modern protocol a tool whose
	// x-mcp-header declarations are invalid has HeaderError set (matching
	// ErrInvalidToolHeaders) and CallTool refuses it.
	Tools []mcpresult.Tool
}

// Resources is the answer to resources/list.
type Resources struct {
	List
	Resources []mcpresult.Resource
}

// ResourceTemplates is the answer to resources/templates/list.
type ResourceTemplates struct {
	List
	Templates []mcpresult.ResourceTemplate
}

// Prompts is the answer to prompts/list.
type Prompts struct {
	List
	Prompts []mcpresult.Prompt
}

// Tasks is the answer to tasks/list.
type Tasks struct {
	List
	Tasks []mcpresult.Task
}

// ListTools lists the server's tools (every page unless paginated).
func (s *Session) ListTools(ctx context.Context, opts *ListOptions) (*Tools, error) {
	l, tools, err := listOf(ctx, s, "tools/list", "tools", opts, mcpresult.DecodeTools)
	out := &Tools{List: l, Tools: tools}
	if s.isModern() {
		for i := range out.Tools {
			out.Tools[i].HeaderError = headerError(out.Tools[i].Name, out.Tools[i].InputSchema)
		}
	}
	s.rememberTools(out.Tools)
	return out, err
}

// ListResources lists the server's resources.
func (s *Session) ListResources(ctx context.Context, opts *ListOptions) (*Resources, error) {
	l, items, err := listOf(ctx, s, "resources/list", "resources", opts, mcpresult.DecodeResources)
	return &Resources{List: l, Resources: items}, err
}

// ListResourceTemplates lists the server's resource templates.
func (s *Session) ListResourceTemplates(ctx context.Context, opts *ListOptions) (*ResourceTemplates, error) {
	l, items, err := listOf(ctx, s, "resources/templates/list", "resourceTemplates", opts, mcpresult.DecodeResourceTemplates)
	return &ResourceTemplates{List: l, Templates: items}, err
}

// ListPrompts lists the server's prompts.
func (s *Session) ListPrompts(ctx context.Context, opts *ListOptions) (*Prompts, error) {
	l, items, err := listOf(ctx, s, "prompts/list", "prompts", opts, mcpresult.DecodePrompts)
	return &Prompts{List: l, Prompts: items}, err
}

// ListTasks lists the server's tasks.
func (s *Session) ListTasks(ctx context.Context, opts *ListOptions) (*Tasks, error) {
	l, items, err := listOf(ctx, s, "tasks/list", "tasks", opts, mcpresult.DecodeTasks)
	return &Tasks{List: l, Tasks: items}, err
}

// maxPages bounds how many pages a list follows.
const maxPages = 10000

// quoteCut quotes a cursor for an error message, cut to its first 64 bytes.
func quoteCut(s string) string {
	if len(s) <= 64 {
		return strconv.Quote(s)
	}
	return strconv.Quote(strings.ToValidUTF8(s[:64], "")) + fmt.Sprintf("… (%d bytes)", len(s))
}

// listOf lists with s.list and decodes the items with decode, whose
// Problems become the List's.
func listOf[T any](ctx context.Context, s *Session, method, key string, opts *ListOptions, decode func([]json.RawMessage) ([]T, mcpresult.Problems)) (List, []T, error) {
	l, err := s.list(ctx, method, key, opts)
	var items []T
	items, l.Problems = decode(l.Items)
	return l, items, err
}

// list fetches one page or every page of a list method, with the raw
// items under key in List.Items.
func (s *Session) list(ctx context.Context, method, key string, opts *ListOptions) (List, error) {
	if opts == nil {
		opts = &ListOptions{}
	}
	co := opts.CallOptions
	if co.Run == "" {
		co.Run = s.NewRun()
	}
	out := List{Run: co.Run}
	onePage := opts.OnePage || s.opts.PaginatedLists
	cursor := opts.Cursor
	seen := map[string]bool{}
	for {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(struct {
				Cursor string `json:"cursor"`
			}{cursor})
		}
		rep, err := s.request(ctx, method, params, &co)
		if err != nil {
			if rep != nil {
				out.Pages = append(out.Pages, *rep)
			}
			return out, err
		}
		out.Pages = append(out.Pages, *rep)
		// The page was checked as JSON when its message was read
		// (decodeEnvelope); one gjson pass finds its members as windows
		// on rep.Raw, no copy, and another splits the items off their
		// array. encoding/json, checking and skipping a page of 10,000
		// tools twice, took a third of the client's time (#17).
		page := bytes.TrimSpace(rep.Raw)
		if string(page) == "null" {
			page = nil
		}
		if len(page) > 0 && page[0] != '{' {
			return out, fmt.Errorf("session: %s: %w: the result is not an object", method, ErrDecode)
		}
		var arr, cur span
		gjson.Parse(aliasString(page)).ForEach(func(k, v gjson.Result) bool {
			switch k.Str { // the last of a key sent twice, as encoding/json
			case key:
				arr = spanIn(page, v)
			case "nextCursor":
				cur = spanIn(page, v)
			}
			return true
		})
		if len(arr) > 0 && string(arr) != "null" {
			if arr[0] != '[' {
				return out, fmt.Errorf("session: %s: %w: %s is not an array", method, ErrDecode, key)
			}
			gjson.Parse(aliasString(arr)).ForEach(func(_, v gjson.Result) bool {
				out.Items = append(out.Items, json.RawMessage(spanIn(arr, v)))
				return true
			})
		}
		next := ""
		if len(cur) > 0 {
			_ = json.Unmarshal(cur, &next) // not a string: no next page, as before
		}
		if next == "" {
			return out, nil
		}
		if onePage {
			out.NextCursor = next
			return out, nil
		}
		if len(out.Pages) >= maxPages {
			return out, fmt.Errorf("session: %s: %w (the last cursor: %s)", method, ErrTooManyPages, quoteCut(next))
		}
		if seen[next] || next == cursor {
			return out, fmt.Errorf("session: %s: %w: %s", method, ErrCursorLoop, quoteCut(next))
		}
		seen[next] = true
		cursor = next
	}
}

// uriParams and taskParams are the params of the requests that name one
// resource or one task.
type (
	uriParams struct {
		URI string `json:"uri"`
	}
	taskParams struct {
		TaskID string `json:"taskId"`
	}
)

// ResourceContents is the answer to resources/read.
type ResourceContents struct {
	Reply
	// Result is the decoded result, with its Problems.
	Result mcpresult.ReadResult
}

// ReadResource reads a resource.
func (s *Session) ReadResource(ctx context.Context, uri string, opts *CallOptions) (*ResourceContents, error) {
	params, _ := json.Marshal(uriParams{uri})
	rep, err := s.request(ctx, "resources/read", params, opts)
	if err != nil {
		return resultOf[ResourceContents](rep), err
	}
	return &ResourceContents{Reply: *rep, Result: mcpresult.DecodeReadResult(rep.Raw)}, nil
}

// SubscribeResource sends resources/subscribe; updates arrive as
// notifications/resources/updated (see OnNotification). In the modern era,
// which has no resources/subscribe, the resource joins the session's
// subscriptions/listen instead (see subscribe.go); the Reply then holds
// the server's acknowledgement.
func (s *Session) SubscribeResource(ctx context.Context, uri string, opts *CallOptions) (*Reply, error) {
	if modern, err := s.speaksModern(ctx); err != nil {
		return nil, err
	} else if modern {
		return s.subscribeModern(ctx, uri)
	}
	params, _ := json.Marshal(uriParams{uri})
	return s.request(ctx, "resources/subscribe", params, opts)
}

// UnsubscribeResource sends resources/unsubscribe (in the modern era: the
// resource leaves the session's subscriptions/listen).
func (s *Session) UnsubscribeResource(ctx context.Context, uri string, opts *CallOptions) (*Reply, error) {
	if modern, err := s.speaksModern(ctx); err != nil {
		return nil, err
	} else if modern {
		return s.unsubscribeModern(ctx, uri)
	}
	params, _ := json.Marshal(uriParams{uri})
	return s.request(ctx, "resources/unsubscribe", params, opts)
}

// PromptMessages is the answer to prompts/get.
type PromptMessages struct {
	Reply
	// Result is the decoded result, with its Problems.
	Result mcpresult.PromptResult
}

// GetPrompt gets a prompt with its arguments.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string, opts *CallOptions) (*PromptMessages, error) {
	params, _ := json.Marshal(struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments,omitempty"`
	}{name, args})
	rep, err := s.request(ctx, "prompts/get", params, opts)
	if err != nil {
		return resultOf[PromptMessages](rep), err
	}
	return &PromptMessages{Reply: *rep, Result: mcpresult.DecodePromptResult(rep.Raw)}, nil
}

// CompletionRef names what completion/complete completes: a prompt
// (Type "ref/prompt", Name) or a resource template (Type "ref/resource",
// URI).
type CompletionRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// Completion is the answer to completion/complete.
type Completion struct {
	Reply
	// Result is the decoded completion.
	Result mcpresult.Completion
	// Problems says where the result does not match the MCP schema.
	Problems mcpresult.Problems
}

// Complete asks for completions of one argument; resolved holds the other
// arguments already filled in (sent as context.arguments).
func (s *Session) Complete(ctx context.Context, ref CompletionRef, arg mcp.CompleteArgument, resolved map[string]string, opts *CallOptions) (*Completion, error) {
	p := struct {
		Ref      CompletionRef        `json:"ref"`
		Argument mcp.CompleteArgument `json:"argument"`
		Context  *mcp.CompleteContext `json:"context,omitempty"`
	}{Ref: ref, Argument: arg}
	if len(resolved) > 0 {
		p.Context = &mcp.CompleteContext{Arguments: resolved}
	}
	params, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("session: completion/complete: %w", err)
	}
	rep, err := s.request(ctx, "completion/complete", params, opts)
	if err != nil {
		return resultOf[Completion](rep), err
	}
	out := &Completion{Reply: *rep}
	out.Result, out.Problems = mcpresult.DecodeCompletion(rep.Raw)
	return out, nil
}

// SetLogLevel sends logging/setLevel. With the modern protocol, which has
// no such method, the level is sent in the _meta of every later request
// instead and no request is made (the Reply is nil).
func (s *Session) SetLogLevel(ctx context.Context, level mcp.LoggingLevel, opts *CallOptions) (*Reply, error) {
	// Connect first: the protocol generation decides what to do.
	if _, err := s.ensureLink(ctx, false); err != nil {
		return nil, fmt.Errorf("session: logging/setLevel: %w", err)
	}
	s.mu.Lock()
	modern := s.modern && s.info != nil
	if modern {
		s.logLevel = string(level)
	}
	s.mu.Unlock()
	if modern {
		return nil, nil
	}
	params, _ := json.Marshal(struct {
		Level mcp.LoggingLevel `json:"level"`
	}{level})
	return s.request(ctx, "logging/setLevel", params, opts)
}

// TaskInfo is the answer to tasks/get and tasks/cancel.
type TaskInfo struct {
	Reply
	// Task is the decoded task.
	Task mcpresult.Task
	// Problems says where the result does not match the MCP schema.
	Problems mcpresult.Problems
}

// GetTask asks for a task's state. The request joins the run of the call
// that created the task unless CallOptions.Run says otherwise.
func (s *Session) GetTask(ctx context.Context, taskID string, opts *CallOptions) (*TaskInfo, error) {
	return s.taskOp(ctx, "tasks/get", taskID, opts)
}

// CancelTask cancels a task.
func (s *Session) CancelTask(ctx context.Context, taskID string, opts *CallOptions) (*TaskInfo, error) {
	return s.taskOp(ctx, "tasks/cancel", taskID, opts)
}

func (s *Session) taskOp(ctx context.Context, method, taskID string, opts *CallOptions) (*TaskInfo, error) {
	params, _ := json.Marshal(taskParams{taskID})
	rep, err := s.request(ctx, method, params, s.taskRun(taskID, opts))
	if err != nil {
		return resultOf[TaskInfo](rep), err
	}
	out := &TaskInfo{Reply: *rep}
	out.Task, out.Problems = mcpresult.DecodeTask(rep.Raw)
	return out, nil
}

// TaskResult is the answer to tasks/result: for a tool call task, the
// tool's result.
type TaskResult struct {
	Reply
	// Result is the result decoded as a tool result (its Problems say
	// where it is not one).
	Result mcpresult.ToolResult
}

// TaskResult waits for a task's result (the server answers when the task
// is done).
func (s *Session) TaskResult(ctx context.Context, taskID string, opts *CallOptions) (*TaskResult, error) {
	params, _ := json.Marshal(taskParams{taskID})
	rep, err := s.request(ctx, "tasks/result", params, s.taskRun(taskID, opts))
	if err != nil {
		return resultOf[TaskResult](rep), err
	}
	return &TaskResult{Reply: *rep, Result: mcpresult.DecodeToolResult(rep.Raw)}, nil
}

// taskRun puts a task request in the run of the call that created it.
func (s *Session) taskRun(taskID string, opts *CallOptions) *CallOptions {
	var o CallOptions
	if opts != nil {
		o = *opts
	}
	if o.Run == "" {
		s.mu.Lock()
		o.Run = s.tasks[taskID]
		s.mu.Unlock()
	}
	return &o
}
