package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/lineage"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// signInShower tells the window a sign-in's page and bound, then opens
// the page with inner. The bound is the deadline core/oauth gives the
// browser leg (its SignInTimeout, within the connection's own bound).
func signInShower(inner oauth.Browser, onState func(ui.StateView)) oauth.Browser {
	return oauth.BrowserFunc(func(ctx context.Context, u string) error {
		until, ok := ctx.Deadline()
		if !ok {
			until = time.Now().Add(oauth.DefaultSignInTimeout)
		}
		onState(ui.StateView{State: ui.StateAuthorizing, SignIn: &ui.SignInView{URL: u, Wait: time.Until(until), Until: until}})
		return inner.Open(ctx, u)
	})
}

// Open implements ui.Backend: a session for the named server.
func (b *guiBackend) Open(name string, onState func(ui.StateView)) (ui.Conn, error) {
	b.mu.Lock()
	s, ok := b.cat.Get(name)
	problem := b.cat.Problem(name)
	if !ok && slices.Contains(b.session, name) {
		if b.recorded[name] != "" {
			b.mu.Unlock()
			return nil, fmt.Errorf("%s is a recorded session (%s): it does not connect", name, b.recorded[name])
		}
		s, ok = b.override[name], true // handed over for this session
	}
	b.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no server named %q in the catalog", name)
	}
	if problem != nil {
		return nil, fmt.Errorf("fix this server's entry first: %w", problem)
	}
	if o, ok := b.override[name]; ok {
		s = o
	}
	if refs := s.InputRefs(); len(refs) > 0 {
		var need *ui.InputsNeededError
		if s, need = b.withInputs(name, s, refs); need != nil {
			return nil, need
		}
	}
	conn, err := newConnection(name, s, b.log, b.red)
	if err != nil {
		return nil, err
	}
	if conn.http != nil {
		log := b.log
		conn.enableOAuth(context.Background(), b.secretStore(), b.log, b.red, oauth.Options{
			Browser: signInShower(oauth.SystemBrowser{}, onState),
			// warnings reach the inspector's Logs tab (no widget touched here)
			OnWarning: func(w oauth.Warning) {
				log.Append(events.Event{Kind: events.KindWarning, Conn: name, Text: "sign-in: " + string(w.Code) + ": " + w.Detail})
			},
		})
		b.noteAuthorizer(name, conn.auth)
		b.recordHAR(name, conn)
		conn.onAuthorizing = func(active bool) {
			if active {
				onState(ui.StateView{State: ui.StateAuthorizing})
			} else {
				onState(ui.StateView{State: ui.StateConnecting})
			}
		}
	}
	dial, opts := conn.dial, conn.opts
	if b.dial != nil {
		dial = b.dial(name, s)
	}
	// a crashed server is started again by the next request (the window
	// keeps its screens and says so)
	if opts.Roots == nil {
		// the window can always answer roots/list (the Roots screen), so
		// the roots capability is advertised even before any root exists
		opts.Roots = []mcp.Root{}
	}
	// modern-era servers send list_changed only on a subscriptions/listen
	// the client keeps open; the window refreshes its lists on them
	opts.ListChanged = true
	b.mu.Lock()
	opts.Handlers = b.handlers
	q := b.queue
	b.mu.Unlock()
	var c *guiConn
	// the error event of a failed connection says what its card says
	opts.WordError = func(err error) string { return headlineOf(c.word(err)) }
	sess := session.New(dial, b.log, opts)
	c = &guiConn{s: sess, conn: conn, ttl: s.TaskTTLOrDefault(), target: toUIConfig(name, s).Summary(), name: name, queue: q}
	b.mu.Lock()
	if b.live == nil {
		b.live = map[string]*session.Session{}
	}
	b.live[name] = sess
	b.mu.Unlock()
	if q != nil {
		c.cancelWatch = watchCompletions(sess, q, name)
	}
	c.cancelState = sess.OnState(func(ch session.StateChange) {
		onState(ui.StateView{State: uiState(ch.To), Err: humanize(ch.Err)})
	})
	return c, nil
}

// guiConn adapts a session to ui.Conn.
type guiConn struct {
	s           *session.Session
	conn        *connection // signs in between connection attempts (OAuth)
	ttl         int64
	target      string // the command line or URL, for error messages
	cancelState func()
	cancelWatch func()
	name        string          // the server's catalog name
	queue       *requests.Queue // where the server's requests wait; nil without one
	mu          sync.Mutex
	schemas     map[string]json.RawMessage // output schemas by tool name
	hints       map[string]ui.CacheHint    // the last list's cache hint by method (gui_skills.go)
}

// Connect implements ui.Conn.
func (c *guiConn) Connect(ctx context.Context) error {
	return c.word(c.conn.connect(ctx, c.s))
}

// word words err, a failure of this connection, as its card shows it: an
// unreachable server with its URL, the rest as humanize does.
func (c *guiConn) word(err error) error {
	var dns *net.DNSError
	if errors.Is(err, wire.ErrUnreachable) && !tlsProblem(err) && (!errors.As(err, &dns) || !dns.IsNotFound) {
		return worded(err, "cannot reach "+c.target+" — is the server running, and is the URL right?")
	}
	return humanize(err)
}

// Close implements ui.Conn.
func (c *guiConn) Close() error {
	err := c.s.Close()
	if c.cancelState != nil {
		c.cancelState()
	}
	if c.cancelWatch != nil {
		c.cancelWatch()
	}
	return err
}

// Info implements ui.Conn.
func (c *guiConn) Info() ui.ServerInfo {
	in := c.s.Info()
	if in == nil {
		return ui.ServerInfo{ClientCapabilities: c.s.ClientCapabilities()}
	}
	out := ui.ServerInfo{
		ProtocolVersion: in.ProtocolVersion, RequestedVersion: in.RequestedVersion, Modern: in.Modern, Fallback: in.Fallback,
		Name: in.Name, Title: in.Title, Version: in.Version,
		Instructions: in.Instructions, ServerCapabilities: in.Capabilities, ClientCapabilities: in.ClientCapabilities,
	}
	if len(in.Icons) > 0 {
		out.IconURL = in.Icons[0].Src
	}
	return out
}

// handshakeSummary says for a person what the handshake negotiated and
// how: "protocol 2025-11-25 (legacy era, via initialize)", with the
// fallback taken and why when the first request did not settle it.
func handshakeSummary(si *session.ServerInfo) string {
	how := "legacy era, via initialize"
	if si.Modern {
		how = "modern era, via server/discover"
	}
	msg := "protocol " + si.ProtocolVersion + " (" + how + ")"
	if si.Fallback != "" {
		msg += ": " + si.Fallback
	}
	return msg
}

// ListTools implements ui.Conn.
func (c *guiConn) ListTools(ctx context.Context, cursor string) ([]ui.Tool, string, error) {
	if err := c.notOffered("tools", "tools"); err != nil {
		return nil, "", err
	}
	res, err := c.s.ListTools(ctx, &session.ListOptions{Cursor: cursor})
	if err != nil {
		return nil, "", humanize(err)
	}
	out := res.Tools
	c.mu.Lock()
	if cursor == "" || c.schemas == nil {
		c.schemas = map[string]json.RawMessage{}
	}
	for i, t := range out {
		if err := t.HeaderError; err != nil {
			out[i].HeaderError = humanize(err)
		}
		if len(t.OutputSchema) > 0 {
			c.schemas[t.Name] = t.OutputSchema
		}
	}
	c.mu.Unlock()
	c.noteHint("tools/list", cursor, res.List)
	return out, res.NextCursor, nil
}

// CallTool implements ui.Conn. A result that does not match the MCP
// schema is shown as far as it can be, with its Problems.
func (c *guiConn) CallTool(ctx context.Context, req ui.ToolCall, progress func(ui.Progress)) (ui.ToolResult, error) {
	tc := session.ToolCall{Name: req.Name, Arguments: req.Arguments}
	if req.AsTask {
		ttl := c.ttl
		tc.Task = &mcp.TaskParams{TTL: &ttl}
	}
	opts := &session.CallOptions{}
	if progress != nil {
		opts.Progress = func(p session.Progress) {
			progress(ui.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
		}
	}
	res, err := c.s.CallTool(ctx, tc, opts)
	if err != nil {
		var att *ui.AttemptView
		if res != nil {
			att = attemptView(res.Attempt)
		}
		return ui.ToolResult{Attempt: att}, c.urlRequired(err, "run the tool again")
	}
	r := res.Result
	out := ui.ToolResult{Content: r.Content, StructuredContent: r.StructuredContent, IsError: r.IsError, TaskID: r.TaskID,
		Problems: r.Problems, Raw: res.Raw, Duration: res.Duration, Seq: res.Seq, Attempt: attemptView(res.Attempt)}
	if r.StructuredContent != nil {
		c.mu.Lock()
		schema := c.schemas[req.Name]
		c.mu.Unlock()
		out.SchemaAdvisory = mcpresult.CheckOutput(schema, r.StructuredContent)
	}
	return out, nil
}

// urlRequired handles a URLElicitationRequiredError (-32042): the
// server needs the user to open URLs before the call can go through. Each
// URL waits in the request queue (domain shown, Open in Browser, Copy
// URL), and the error the screen shows tells the user to open them and
// then to try again, in the words of again ("run the tool again"). Any
// other error is worded by humanize.
func (c *guiConn) urlRequired(err error, again string) error {
	var re *session.RPCError
	if c.queue == nil || !errors.As(err, &re) || re.Code != session.CodeURLElicitationRequired {
		return humanize(err)
	}
	reqs, perr := requests.ElicitationsFromError(re.Data)
	if perr != nil || len(reqs) == 0 {
		return humanize(err)
	}
	ui.Do(func() { c.queue.AddURLRequired(c.name, reqs) })
	text := "Open the page below the screens in your browser, then " + again + "."
	if len(reqs) > 1 {
		text = "Open the " + strconv.Itoa(len(reqs)) + " pages below the screens in your browser, then " + again + "."
	}
	return worded(err, text)
}

// ListResources implements ui.Conn.
func (c *guiConn) ListResources(ctx context.Context, cursor string) ([]ui.Resource, string, error) {
	if err := c.notOffered("resources", "resources"); err != nil {
		return nil, "", err
	}
	res, err := c.s.ListResources(ctx, &session.ListOptions{Cursor: cursor})
	if err != nil {
		return nil, "", humanize(err)
	}
	c.noteHint("resources/list", cursor, res.List)
	return res.Resources, res.NextCursor, nil
}

// ListResourceTemplates implements ui.Conn.
func (c *guiConn) ListResourceTemplates(ctx context.Context) ([]ui.ResourceTemplate, error) {
	if err := c.notOffered("resources", "resources"); err != nil {
		return nil, err
	}
	res, err := c.s.ListResourceTemplates(ctx, nil)
	if err != nil {
		return nil, humanize(err)
	}
	return res.Templates, nil
}

// ReadResource implements ui.Conn.
func (c *guiConn) ReadResource(ctx context.Context, uri string) (ui.ReadResult, error) {
	res, err := c.s.ReadResource(ctx, uri, nil)
	if err != nil {
		return ui.ReadResult{}, c.urlRequired(err, "read it again")
	}
	return res.Result, nil
}

// Subscribe implements ui.Conn.
func (c *guiConn) Subscribe(ctx context.Context, uri string) error {
	if err := c.notOffered("resource subscriptions", "resources", "subscribe"); err != nil {
		return err
	}
	_, err := c.s.SubscribeResource(ctx, uri, nil)
	return humanize(err)
}

// Unsubscribe implements ui.Conn.
func (c *guiConn) Unsubscribe(ctx context.Context, uri string) error {
	_, err := c.s.UnsubscribeResource(ctx, uri, nil)
	return humanize(err)
}

// Complete implements ui.Conn.
func (c *guiConn) Complete(ctx context.Context, ref, name, arg, value string) ([]string, error) {
	return c.CompleteWith(ctx, ref, name, arg, value, nil)
}

// CompleteWith implements ui.ContextCompleter: the other filled arguments
// are sent as context.arguments.
func (c *guiConn) CompleteWith(ctx context.Context, ref, name, arg, value string, resolved map[string]string) ([]string, error) {
	if len(resolved) == 0 {
		resolved = nil
	}
	r := session.CompletionRef{Type: ref, Name: name}
	if ref == "ref/resource" {
		r = session.CompletionRef{Type: ref, URI: name}
	}
	res, err := c.s.Complete(ctx, r, mcp.CompleteArgument{Name: arg, Value: value}, resolved, nil)
	if err != nil {
		return nil, humanize(err)
	}
	return res.Result.Values, nil
}

// ListPrompts implements ui.Conn.
func (c *guiConn) ListPrompts(ctx context.Context, cursor string) ([]ui.Prompt, string, error) {
	if err := c.notOffered("prompts", "prompts"); err != nil {
		return nil, "", err
	}
	res, err := c.s.ListPrompts(ctx, &session.ListOptions{Cursor: cursor})
	if err != nil {
		return nil, "", humanize(err)
	}
	c.noteHint("prompts/list", cursor, res.List)
	return res.Prompts, res.NextCursor, nil
}

// GetPrompt implements ui.Conn.
func (c *guiConn) GetPrompt(ctx context.Context, name string, args map[string]string) (ui.PromptResult, error) {
	res, err := c.s.GetPrompt(ctx, name, args, nil)
	if err != nil {
		return ui.PromptResult{}, c.urlRequired(err, "get the prompt again")
	}
	return res.Result, nil
}

// SetLogLevel implements ui.Conn.
func (c *guiConn) SetLogLevel(ctx context.Context, level string) error {
	if err := c.notOffered("logging", "logging"); err != nil {
		return err
	}
	_, err := c.s.SetLogLevel(ctx, mcp.LoggingLevel(level), nil)
	return humanize(err)
}

// ListTasks implements ui.Conn.
func (c *guiConn) ListTasks(ctx context.Context) ([]ui.Task, error) {
	if err := c.notOffered("task listing", "tasks", "list"); err != nil {
		return nil, err
	}
	res, err := c.s.ListTasks(ctx, nil)
	if err != nil {
		return nil, humanize(err)
	}
	return res.Tasks, nil
}

// GetTask implements ui.Conn.
func (c *guiConn) GetTask(ctx context.Context, id string) (ui.Task, error) {
	res, err := c.s.GetTask(ctx, id, nil)
	if err != nil {
		return ui.Task{}, humanize(err)
	}
	return res.Task, nil
}

// TaskResult implements ui.Conn.
func (c *guiConn) TaskResult(ctx context.Context, id string) (json.RawMessage, error) {
	res, err := c.s.TaskResult(ctx, id, nil)
	if err != nil {
		return nil, humanize(err)
	}
	return res.Raw, nil
}

// CancelTask implements ui.Conn.
func (c *guiConn) CancelTask(ctx context.Context, id string) error {
	_, err := c.s.CancelTask(ctx, id, nil)
	return humanize(err)
}

// OnNotification implements ui.Conn.
func (c *guiConn) OnNotification(fn func(ui.Notification)) {
	c.s.OnNotification(func(n session.Notification) {
		fn(ui.Notification{Method: n.Method, Params: n.Params, Time: n.Time})
	})
}

// uiState is the state the server card shows for a session state.
func uiState(s session.State) ui.ConnState {
	switch s {
	case session.StateConnecting:
		return ui.StateConnecting
	case session.StateConnected:
		return ui.StateConnected
	case session.StateFailed:
		return ui.StateFailed
	case session.StateAuthorizing:
		return ui.StateAuthorizing
	}
	return ui.StateDisconnected
}

// attemptView is a tool call attempt as the window shows it (the
// inspector's tool events carry the same, see toEventView).
func attemptView(a *lineage.Attempt) *ui.AttemptView {
	if a == nil {
		return nil
	}
	return &ui.AttemptView{Lineage: a.Lineage, Attempt: a.N, ErrorClass: string(a.Class), OutcomeUnknown: a.OutcomeUnknown,
		MayHaveRunTwice: a.MayHaveRunTwice, SameCallAgain: a.SameCallAgain, Idempotent: a.Hints.Idempotent && !a.Hints.ReadOnly}
}
