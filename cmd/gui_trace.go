package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/history"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
	"github.com/spyglass-mcp/spyglass/ui"
)

// maxTraceOpen bounds a trace file opened in the window: the log keeps
// what it holds in memory.
const maxTraceOpen = 512 << 20

// openTrace loads a trace file into the window as recorded sessions: one
// server entry per connection the trace holds (named after the file, and
// the connection when there are several), marked recorded, whose events
// go into the log as they were recorded, paired again as they arrive. A
// damaged trace opens as far as it is valid, and warning says where it
// stopped.
func (b *guiBackend) openTrace(path string) (names []string, warning string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxTraceOpen {
		return nil, "", fmt.Errorf("the file is %d MB; the window opens traces of up to %d MB", fi.Size()>>20, maxTraceOpen>>20)
	}
	t, err := events.DecodeTrace(f)
	var damaged *events.TraceError
	switch {
	case errors.As(err, &damaged) && t != nil && len(t.Events) > 0:
		warning = "it is damaged; opened up to " + damaged.Pos.String()
	case errors.As(err, &damaged):
		return nil, "", fmt.Errorf("it is damaged at %s before its first event", damaged.Pos)
	case errors.Is(err, events.ErrNotTrace):
		return nil, "", errors.New("it is not a Spyglass trace")
	case err != nil:
		return nil, "", err
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var conns []string
	seen := map[string]bool{}
	for _, e := range t.Events {
		if !seen[e.Conn] {
			seen[e.Conn] = true
			conns = append(conns, e.Conn)
		}
	}
	entry := map[string]string{}
	for _, c := range conns {
		name := base
		if len(conns) > 1 && c != "" {
			name += " · " + c
		}
		entry[c] = b.addRecorded(name, path, t.Meta, c)
		names = append(names, entry[c])
	}
	for _, e := range t.Events {
		e.Conn = entry[e.Conn]
		e.Seq = 0
		b.log.Append(e)
	}
	return names, warning, nil
}

// addRecorded adds a recorded session's entry for this session only and
// returns the name used (name, or name (2)… when taken).
func (b *guiBackend) addRecorded(name, path string, meta events.TraceMeta, conn string) string {
	// what the recording says it talked to, for the card (never run)
	var s catalog.Server
	for _, ci := range meta.Conns {
		if ci.Conn != conn {
			continue
		}
		if ci.Transport == "http" || ci.Transport == "sse" {
			s.Type, s.URL = catalog.Type(ci.Transport), ci.Target
		} else {
			s.Command = ci.Target
		}
	}
	use := b.addSessionServer(name, s)
	b.setRecorded(use, path)
	return use
}

// traceArgs returns the command line's positional arguments, as absolute
// paths (relative ones are in dir), when every one is a trace file to open
// (`spyglass session.spyglass-trace`), else nil.
func traceArgs(dir string, target []string) []string {
	var out []string
	for _, p := range target {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		head := make([]byte, 64)
		n, _ := f.Read(head)
		fi, serr := f.Stat()
		f.Close()
		if serr != nil || !fi.Mode().IsRegular() || !ui.IsTrace(p, head[:n]) {
			return nil
		}
		out = append(out, p)
	}
	return out
}

// OpenRecorded implements ui.RecordedOpener: what the recorded session of
// the entry name offered, read from its events in the log (the trace's
// tools/list, resources/list, prompts/list answers and the recorded
// calls), for its screens; it sends nothing anywhere.
func (b *guiBackend) OpenRecorded(name string) (ui.RecordedConn, error) {
	b.mu.Lock()
	from := b.recorded[name]
	b.mu.Unlock()
	if from == "" {
		return nil, fmt.Errorf("%s is not a recorded session", name)
	}
	evs := b.log.EventsOf(name)
	if len(evs) == 0 {
		return nil, fmt.Errorf("the log holds no events of %s", name)
	}
	return newRecordedConn(evs), nil
}

// errRecorded is what a recorded session's screens get for anything they
// would send.
var errRecorded = errors.New("a recorded session is read-only: it sends nothing (Replay against… sends its requests to a live server)")

// recordedConn is a recorded session's ui.Conn: its lists and results are
// the recorded answers, and it never connects.
type recordedConn struct {
	at    time.Time
	info  ui.ServerInfo
	xs    []sessiondiff.Exchange // client→server requests with their answers
	tools []ui.Tool
	res   []ui.Resource
	tmpl  []ui.ResourceTemplate
	proms []ui.Prompt
}

// recordedResult is the result of a recorded answer, or its error.
func recordedResult(resp json.RawMessage) (json.RawMessage, *session.RPCError) {
	var m struct {
		Result json.RawMessage   `json:"result"`
		Error  *session.RPCError `json:"error"`
	}
	if json.Unmarshal(resp, &m) != nil {
		return nil, &session.RPCError{Code: session.CodeInternalError, Message: "the recorded answer is not JSON-RPC"}
	}
	if m.Error != nil {
		return nil, m.Error
	}
	return m.Result, nil
}

// recordedParams are a recorded request's params.
func recordedParams(req json.RawMessage) json.RawMessage {
	var m struct {
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(req, &m)
	return m.Params
}

func newRecordedConn(evs []events.Event) *recordedConn {
	c := &recordedConn{at: evs[0].Time}
	lists := map[string]map[string]bool{} // method → names seen, so a refresh does not list twice
	items := func(method, field string, result json.RawMessage, key func(json.RawMessage) string) []json.RawMessage {
		var m map[string]json.RawMessage
		var raws []json.RawMessage
		if json.Unmarshal(result, &m) != nil || json.Unmarshal(m[field], &raws) != nil {
			return nil
		}
		if lists[method] == nil {
			lists[method] = map[string]bool{}
		}
		var out []json.RawMessage
		for _, r := range raws {
			if k := key(r); !lists[method][k] {
				lists[method][k] = true
				out = append(out, r)
			}
		}
		return out
	}
	field := func(name string) func(json.RawMessage) string {
		return func(r json.RawMessage) string {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(r, &m)
			return string(m[name])
		}
	}
	for _, x := range sessiondiff.Exchanges(evs) {
		if x.Dir != events.DirOut || x.Response == nil {
			continue
		}
		c.xs = append(c.xs, x)
		result, rerr := recordedResult(x.Response)
		if rerr != nil {
			continue
		}
		// a list asked for again (after list_changed, say) starts over:
		// the latest list wins; a cursor's page adds to it
		again := strings.HasSuffix(x.Method, "/list") && !hasCursor(x.Request)
		if again {
			delete(lists, x.Method)
		}
		switch x.Method {
		case "initialize", "server/discover":
			c.info = recordedInfo(x, result)
		case "tools/list":
			ts, _ := mcpresult.DecodeTools(items(x.Method, "tools", result, field("name")))
			c.tools = listPage(c.tools, again, ts)
		case "resources/list":
			rs, _ := mcpresult.DecodeResources(items(x.Method, "resources", result, field("uri")))
			c.res = listPage(c.res, again, rs)
		case "resources/templates/list":
			ts, _ := mcpresult.DecodeResourceTemplates(items(x.Method, "resourceTemplates", result, field("uriTemplate")))
			c.tmpl = listPage(c.tmpl, again, ts)
		case "prompts/list":
			ps, _ := mcpresult.DecodePrompts(items(x.Method, "prompts", result, field("name")))
			c.proms = listPage(c.proms, again, ps)
		}
	}
	return c
}

// listPage is a recorded list with a page of items added, or started over
// with them when the list was asked for again.
func listPage[T any](had []T, again bool, items []T) []T {
	if again {
		had = nil
	}
	return append(had, items...)
}

// hasCursor reports whether a recorded list request asks for a page
// after the first.
func hasCursor(req json.RawMessage) bool {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	_ = json.Unmarshal(recordedParams(req), &p)
	return p.Cursor != nil && *p.Cursor != ""
}

// recordedInfo is what the recorded handshake negotiated.
func recordedInfo(x sessiondiff.Exchange, result json.RawMessage) ui.ServerInfo {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name, Title, Version string
		} `json:"serverInfo"`
		Capabilities json.RawMessage `json:"capabilities"`
		Instructions string          `json:"instructions"`
	}
	_ = json.Unmarshal(result, &r)
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(recordedParams(x.Request), &p)
	return ui.ServerInfo{ProtocolVersion: r.ProtocolVersion, RequestedVersion: p.ProtocolVersion, Modern: x.Method == "server/discover",
		Name: r.ServerInfo.Name, Title: r.ServerInfo.Title, Version: r.ServerInfo.Version,
		Instructions: r.Instructions, ServerCapabilities: r.Capabilities, ClientCapabilities: p.Capabilities}
}

// RecordedAt implements ui.RecordedConn.
func (c *recordedConn) RecordedAt() time.Time { return c.at }

// ToolCalls implements ui.RecordedConn.
func (c *recordedConn) ToolCalls(name string) []ui.RecordedCall {
	var out []ui.RecordedCall
	for _, x := range c.xs {
		if x.Method != "tools/call" || x.Name != name {
			continue
		}
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(recordedParams(x.Request), &p)
		// a secret argument is masked as History masks it: the screens
		// show what was sent, never the secret (Replay sends x itself)
		rc := ui.RecordedCall{Seq: x.Seq, Arguments: history.MaskJSON(p.Arguments)}
		result, rerr := recordedResult(x.Response)
		if rerr != nil {
			rc.Err = fmt.Sprintf("the server answered with error %d: %s", rerr.Code, rerr.Message)
		} else {
			r := mcpresult.DecodeToolResult(result)
			rc.Result = ui.ToolResult{Content: r.Content, StructuredContent: r.StructuredContent, IsError: r.IsError, TaskID: r.TaskID,
				Problems: r.Problems, Raw: result, Duration: x.Latency, Seq: x.Seq}
		}
		out = append(out, rc)
	}
	return out
}

// Connect implements ui.Conn: there is nothing to connect to.
func (c *recordedConn) Connect(context.Context) error { return nil }

// Close implements ui.Conn.
func (c *recordedConn) Close() error { return nil }

// Info implements ui.Conn.
func (c *recordedConn) Info() ui.ServerInfo { return c.info }

// ListTools implements ui.Conn: the tools the recorded session listed.
func (c *recordedConn) ListTools(context.Context, string) ([]ui.Tool, string, error) {
	return c.tools, "", nil
}

// CallTool implements ui.Conn: a recorded session calls nothing.
func (c *recordedConn) CallTool(context.Context, ui.ToolCall, func(ui.Progress)) (ui.ToolResult, error) {
	return ui.ToolResult{}, errRecorded
}

// ListResources implements ui.Conn.
func (c *recordedConn) ListResources(context.Context, string) ([]ui.Resource, string, error) {
	return c.res, "", nil
}

// ListResourceTemplates implements ui.Conn.
func (c *recordedConn) ListResourceTemplates(context.Context) ([]ui.ResourceTemplate, error) {
	return c.tmpl, nil
}

// recorded finds the latest recorded answer to method whose params
// match: the result, or why there is none.
func (c *recordedConn) recorded(method, what string, match func(params json.RawMessage) bool) (json.RawMessage, error) {
	for i := len(c.xs) - 1; i >= 0; i-- {
		x := c.xs[i]
		if x.Method != method || !match(recordedParams(x.Request)) {
			continue
		}
		result, rerr := recordedResult(x.Response)
		if rerr != nil {
			return nil, fmt.Errorf("the server answered the recorded %s with error %d: %s", method, rerr.Code, rerr.Message)
		}
		return result, nil
	}
	return nil, fmt.Errorf("the recording holds no %s of %s: a recorded session is read-only and shows only the answers it holds", method, what)
}

// ReadResource implements ui.Conn: the recorded answer to reading uri.
func (c *recordedConn) ReadResource(_ context.Context, uri string) (ui.ReadResult, error) {
	result, err := c.recorded("resources/read", uri, func(p json.RawMessage) bool {
		var m struct {
			URI string `json:"uri"`
		}
		return json.Unmarshal(p, &m) == nil && m.URI == uri
	})
	if err != nil {
		return ui.ReadResult{}, err
	}
	return mcpresult.DecodeReadResult(result), nil
}

// Subscribe implements ui.Conn.
func (c *recordedConn) Subscribe(context.Context, string) error { return errRecorded }

// Unsubscribe implements ui.Conn.
func (c *recordedConn) Unsubscribe(context.Context, string) error { return errRecorded }

// Complete implements ui.Conn: no suggestions.
func (c *recordedConn) Complete(context.Context, string, string, string, string) ([]string, error) {
	return nil, nil
}

// ListPrompts implements ui.Conn.
func (c *recordedConn) ListPrompts(context.Context, string) ([]ui.Prompt, string, error) {
	return c.proms, "", nil
}

// GetPrompt implements ui.Conn: the recorded answer to getting the prompt
// with these arguments.
func (c *recordedConn) GetPrompt(_ context.Context, name string, args map[string]string) (ui.PromptResult, error) {
	result, err := c.recorded("prompts/get", name+" with these arguments", func(p json.RawMessage) bool {
		var m struct {
			Name      string            `json:"name"`
			Arguments map[string]string `json:"arguments"`
		}
		return json.Unmarshal(p, &m) == nil && m.Name == name && maps.Equal(m.Arguments, args)
	})
	if err != nil {
		return ui.PromptResult{}, err
	}
	return mcpresult.DecodePromptResult(result), nil
}

// SetLogLevel implements ui.Conn.
func (c *recordedConn) SetLogLevel(context.Context, string) error { return errRecorded }

// ListTasks implements ui.Conn: a recorded session has no tasks to follow.
func (c *recordedConn) ListTasks(context.Context) ([]ui.Task, error) { return nil, nil }

// GetTask implements ui.Conn.
func (c *recordedConn) GetTask(context.Context, string) (ui.Task, error) {
	return ui.Task{}, errRecorded
}

// TaskResult implements ui.Conn.
func (c *recordedConn) TaskResult(context.Context, string) (json.RawMessage, error) {
	return nil, errRecorded
}

// CancelTask implements ui.Conn.
func (c *recordedConn) CancelTask(context.Context, string) error { return errRecorded }

// OnNotification implements ui.Conn: a recording sends none.
func (c *recordedConn) OnNotification(func(ui.Notification)) {}
