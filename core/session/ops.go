package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/lineage"
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
	// Result is the typed tool result; nil when the server created a task
	// instead (see Task) or the result could not be decoded.
	Result *mcp.CallToolResult
	// Task is the task the server created for a task-augmented call.
	Task *mcp.Task
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
		if herr := headerError(&Tool{Tool: *tool}); herr != nil {
			argErr = fmt.Errorf("session: tools/call %s: %w", tc.Name, herr)
		}
	}
	if argErr != nil {
		a, err := s.endAttempt(att, nil, nil, argErr, lineage.ClassInput)
		return &ToolResult{Attempt: &a}, err
	}
	params, err := json.Marshal(p)
	if err != nil {
		a, err := s.endAttempt(att, nil, nil, fmt.Errorf("session: tools/call: %w", err), lineage.ClassInput)
		return &ToolResult{Attempt: &a}, err
	}
	o.Header = s.paramHeaders(tool, params, o.Header)
	rep, err := s.request(ctx, "tools/call", params, o)
	if err != nil {
		a, err := s.endAttempt(att, rep, nil, err, lineage.ClassNone)
		out := resultOf[ToolResult](rep)
		if out == nil {
			out = &ToolResult{}
		}
		out.Attempt = &a
		return out, err
	}
	out := &ToolResult{Reply: *rep}
	var probe struct {
		Task *mcp.Task `json:"task"`
	}
	if bytes.Contains(rep.Raw, []byte(`"task"`)) && json.Unmarshal(rep.Raw, &probe) == nil && probe.Task != nil && probe.Task.TaskId != "" {
		out.Task = probe.Task
		a, _ := s.endAttempt(att, rep, nil, nil, lineage.ClassNone)
		out.Attempt = &a
		return out, nil
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(rep.Raw, &res); err != nil {
		a, err := s.endAttempt(att, rep, nil, fmt.Errorf("session: tools/call: %w: %w", ErrDecode, err), lineage.ClassNone)
		out.Attempt = &a
		return out, err
	}
	out.Result = &res
	a, _ := s.endAttempt(att, rep, &res, nil, lineage.ClassNone)
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
	// NextCursor is the cursor of the next page when only one page was
	// fetched and there are more; "" otherwise.
	NextCursor string
	// Run is the run of all the pages.
	Run string
}

// Tool is one tool as listed: the typed view and the exact JSON.
type Tool struct {
	mcp.Tool
	// Raw is the tool's object exactly as the server sent it: its
	// inputSchema and outputSchema keep every keyword.
	Raw json.RawMessage
	// HeaderError, in the modern protocol, says why the tool is excluded:
	// its x-mcp-header declarations are invalid, and CallTool refuses it
	// (matching ErrInvalidToolHeaders). nil for a tool that can be called.
	HeaderError error
}

// MarshalJSON returns the tool exactly as the server sent it.
func (t Tool) MarshalJSON() ([]byte, error) { return t.Raw, nil }

// Tools is the answer to tools/list.
type Tools struct {
	List
	Tools []Tool
}

// Resource is one resource as listed, typed and exact.
type Resource struct {
	mcp.Resource
	Raw json.RawMessage
}

// MarshalJSON returns the resource exactly as the server sent it.
func (r Resource) MarshalJSON() ([]byte, error) { return r.Raw, nil }

// Resources is the answer to resources/list.
type Resources struct {
	List
	Resources []Resource
}

// ResourceTemplate is one resource template as listed, typed and exact.
type ResourceTemplate struct {
	mcp.ResourceTemplate
	Raw json.RawMessage
}

// MarshalJSON returns the template exactly as the server sent it.
func (r ResourceTemplate) MarshalJSON() ([]byte, error) { return r.Raw, nil }

// ResourceTemplates is the answer to resources/templates/list.
type ResourceTemplates struct {
	List
	Templates []ResourceTemplate
}

// Prompt is one prompt as listed, typed and exact.
type Prompt struct {
	mcp.Prompt
	Raw json.RawMessage
}

// MarshalJSON returns the prompt exactly as the server sent it.
func (p Prompt) MarshalJSON() ([]byte, error) { return p.Raw, nil }

// Prompts is the answer to prompts/list.
type Prompts struct {
	List
	Prompts []Prompt
}

// Task is one task as listed, typed and exact.
type Task struct {
	mcp.Task
	Raw json.RawMessage
}

// MarshalJSON returns the task exactly as the server sent it.
func (t Task) MarshalJSON() ([]byte, error) { return t.Raw, nil }

// Tasks is the answer to tasks/list.
type Tasks struct {
	List
	Tasks []Task
}

// ListTools lists the server's tools (every page unless paginated).
func (s *Session) ListTools(ctx context.Context, opts *ListOptions) (*Tools, error) {
	l, items, err := s.list(ctx, "tools/list", "tools", opts)
	out := &Tools{List: l}
	s.mu.Lock()
	modern := s.modern
	s.mu.Unlock()
	for _, raw := range items {
		t := Tool{Raw: raw}
		if derr := json.Unmarshal(raw, &t.Tool); derr != nil && err == nil {
			err = fmt.Errorf("session: tools/list: %w: %w", ErrDecode, derr)
		}
		if modern {
			t.HeaderError = headerError(&t)
		}
		out.Tools = append(out.Tools, t)
	}
	s.rememberTools(out.Tools)
	return out, err
}

// ListResources lists the server's resources.
func (s *Session) ListResources(ctx context.Context, opts *ListOptions) (*Resources, error) {
	l, items, err := s.list(ctx, "resources/list", "resources", opts)
	out := &Resources{List: l}
	for _, raw := range items {
		r := Resource{Raw: raw}
		if derr := json.Unmarshal(raw, &r.Resource); derr != nil && err == nil {
			err = fmt.Errorf("session: resources/list: %w: %w", ErrDecode, derr)
		}
		out.Resources = append(out.Resources, r)
	}
	return out, err
}

// ListResourceTemplates lists the server's resource templates.
func (s *Session) ListResourceTemplates(ctx context.Context, opts *ListOptions) (*ResourceTemplates, error) {
	l, items, err := s.list(ctx, "resources/templates/list", "resourceTemplates", opts)
	out := &ResourceTemplates{List: l}
	for _, raw := range items {
		r := ResourceTemplate{Raw: raw}
		if derr := json.Unmarshal(raw, &r.ResourceTemplate); derr != nil && err == nil {
			err = fmt.Errorf("session: resources/templates/list: %w: %w", ErrDecode, derr)
		}
		out.Templates = append(out.Templates, r)
	}
	return out, err
}

// ListPrompts lists the server's prompts.
func (s *Session) ListPrompts(ctx context.Context, opts *ListOptions) (*Prompts, error) {
	l, items, err := s.list(ctx, "prompts/list", "prompts", opts)
	out := &Prompts{List: l}
	for _, raw := range items {
		p := Prompt{Raw: raw}
		if derr := json.Unmarshal(raw, &p.Prompt); derr != nil && err == nil {
			err = fmt.Errorf("session: prompts/list: %w: %w", ErrDecode, derr)
		}
		out.Prompts = append(out.Prompts, p)
	}
	return out, err
}

// ListTasks lists the server's tasks.
func (s *Session) ListTasks(ctx context.Context, opts *ListOptions) (*Tasks, error) {
	l, items, err := s.list(ctx, "tasks/list", "tasks", opts)
	out := &Tasks{List: l}
	for _, raw := range items {
		t := Task{Raw: raw}
		if derr := json.Unmarshal(raw, &t.Task); derr != nil && err == nil {
			err = fmt.Errorf("session: tasks/list: %w: %w", ErrDecode, derr)
		}
		out.Tasks = append(out.Tasks, t)
	}
	return out, err
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

// list fetches one page or every page of a list method and returns the
// raw items under key.
func (s *Session) list(ctx context.Context, method, key string, opts *ListOptions) (List, []json.RawMessage, error) {
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
	var items []json.RawMessage
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
			return out, items, err
		}
		out.Pages = append(out.Pages, *rep)
		var page struct {
			NextCursor *string `json:"nextCursor"`
		}
		var fields map[string]span // windows on rep.Raw: no copy of a large page
		if err := json.Unmarshal(rep.Raw, &fields); err != nil {
			return out, items, fmt.Errorf("session: %s: %w: %w", method, ErrDecode, err)
		}
		_ = json.Unmarshal(rep.Raw, &page)
		if arr := bytes.TrimSpace(fields[key]); len(arr) > 0 && string(arr) != "null" {
			var its []span
			if err := json.Unmarshal(arr, &its); err != nil {
				return out, items, fmt.Errorf("session: %s: %w: %s: %w", method, ErrDecode, key, err)
			}
			for _, it := range its {
				items = append(items, json.RawMessage(it))
			}
		}
		next := ""
		if page.NextCursor != nil {
			next = *page.NextCursor
		}
		if next == "" {
			return out, items, nil
		}
		if onePage {
			out.NextCursor = next
			return out, items, nil
		}
		if len(out.Pages) >= maxPages {
			return out, items, fmt.Errorf("session: %s: %w (the last cursor: %s)", method, ErrTooManyPages, quoteCut(next))
		}
		if seen[next] || next == cursor {
			return out, items, fmt.Errorf("session: %s: %w: %s", method, ErrCursorLoop, quoteCut(next))
		}
		seen[next] = true
		cursor = next
	}
}

// ResourceContents is the answer to resources/read.
type ResourceContents struct {
	Reply
	// Result is the typed view (nil if it could not be decoded).
	Result *mcp.ReadResourceResult
}

// ReadResource reads a resource.
func (s *Session) ReadResource(ctx context.Context, uri string, opts *CallOptions) (*ResourceContents, error) {
	params, _ := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
	rep, err := s.request(ctx, "resources/read", params, opts)
	if err != nil {
		return resultOf[ResourceContents](rep), err
	}
	out := &ResourceContents{Reply: *rep}
	raw := rep.Raw
	res, err := mcp.ParseReadResourceResult(&raw)
	if err != nil {
		return out, fmt.Errorf("session: resources/read: %w: %w", ErrDecode, err)
	}
	out.Result = res
	return out, nil
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
	params, _ := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
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
	params, _ := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
	return s.request(ctx, "resources/unsubscribe", params, opts)
}

// PromptMessages is the answer to prompts/get.
type PromptMessages struct {
	Reply
	// Result is the typed view (nil if it could not be decoded).
	Result *mcp.GetPromptResult
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
	out := &PromptMessages{Reply: *rep}
	raw := rep.Raw
	res, err := mcp.ParseGetPromptResult(&raw)
	if err != nil {
		return out, fmt.Errorf("session: prompts/get: %w: %w", ErrDecode, err)
	}
	out.Result = res
	return out, nil
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
	Result *mcp.CompleteResult
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
	var res mcp.CompleteResult
	if err := json.Unmarshal(rep.Raw, &res); err != nil {
		return out, fmt.Errorf("session: completion/complete: %w: %w", ErrDecode, err)
	}
	out.Result = &res
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
	Task *mcp.Task
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
	params, _ := json.Marshal(struct {
		TaskID string `json:"taskId"`
	}{taskID})
	rep, err := s.request(ctx, method, params, s.taskRun(taskID, opts))
	if err != nil {
		return resultOf[TaskInfo](rep), err
	}
	out := &TaskInfo{Reply: *rep}
	var t mcp.Task
	if err := json.Unmarshal(rep.Raw, &t); err != nil {
		return out, fmt.Errorf("session: %s: %w: %w", method, ErrDecode, err)
	}
	out.Task = &t
	return out, nil
}

// TaskResult is the answer to tasks/result: for a tool call task, the
// tool's result.
type TaskResult struct {
	Reply
	// Result is the result decoded as a tool result (nil if it is not
	// one).
	Result *mcp.CallToolResult
}

// TaskResult waits for a task's result (the server answers when the task
// is done).
func (s *Session) TaskResult(ctx context.Context, taskID string, opts *CallOptions) (*TaskResult, error) {
	params, _ := json.Marshal(struct {
		TaskID string `json:"taskId"`
	}{taskID})
	rep, err := s.request(ctx, "tasks/result", params, s.taskRun(taskID, opts))
	if err != nil {
		return resultOf[TaskResult](rep), err
	}
	out := &TaskResult{Reply: *rep}
	var res mcp.CallToolResult
	if json.Unmarshal(rep.Raw, &res) == nil {
		out.Result = &res
	}
	return out, nil
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
