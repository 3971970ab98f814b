package demo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/adrg/xdg"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Name and Version identify the demo server in its initialize result.
const (
	Name    = "spyglass-demo"
	Version = "1.0.0"
)

// NotesEnv is the environment variable that overrides the folder of the
// notes file when [Options.NotesDir] is empty.
const NotesEnv = "SPYGLASS_DEMO_NOTES_DIR"

// NotesFile is the name of the notes file inside the notes folder.
const NotesFile = "demo-notes.json"

// NotesURI is the resource that shows the saved notes.
const NotesURI = "demo://notes"

// ExperimentalCapability is the key the demo server declares under
// capabilities.experimental; its value lists the custom methods.
const ExperimentalCapability = "spyglass.demo"

// ExperimentalMethod is the custom JSON-RPC method the serve helpers answer:
// it echoes its params back with "pong": true.
const ExperimentalMethod = "spyglass.demo/ping"

// CrashExitCode is the status the process exits with when flaky_write
// crashes it (the default [Options.Crash]).
const CrashExitCode = 3

// Options configure the demo server. The zero value (or nil) is ready to use.
type Options struct {
	// NotesDir is the folder of the notes file that flaky_write, read_notes
	// and demo://notes use. Empty means $SPYGLASS_DEMO_NOTES_DIR, else
	// $XDG_DATA_HOME/spyglass.
	NotesDir string

	// Crash is what flaky_write does after saving its note, instead of
	// answering. The default exits the process with [CrashExitCode]. In-process
	// tests inject their own (for example closing the transport); if Crash
	// returns, the call still never answers: it waits until the request's
	// context ends.
	Crash func()

	// Instructions, when set, replaces the server's default instructions.
	Instructions string
}

// NotesPath returns the path of the notes file these options select.
func (o *Options) NotesPath() string {
	dir := ""
	if o != nil {
		dir = o.NotesDir
	}
	if dir == "" {
		dir = os.Getenv(NotesEnv)
	}
	if dir == "" {
		dir = filepath.Join(xdg.DataHome, "spyglass")
	}
	return filepath.Join(dir, NotesFile)
}

// demo holds the state behind one demo server's handlers.
type demo struct {
	srv   *server.MCPServer
	notes *notesStore
	crash func()

	mu       sync.Mutex
	subs     map[string]map[string]bool // session id → subscribed URIs
	levels   map[string]bool            // sessions that called logging/setLevel
	sessions map[string]server.ClientSession
	tasks    taskTracker
	counter  int
	roots    []mcp.Root             // the client's roots as last listed
	rootsGen int                    // how many times roots were (re)listed
	extraOn  bool                   // whether the extra tool is registered
	linked   map[string]bool        // sessions whose demo account is linked (link_account)
	pending  map[string]pendingLink // link_account pages not finished, by elicitation id
	listens  map[*listenSub]bool    // open subscriptions/listen streams with resources
}

// listenSub is an open subscriptions/listen (protocol 2026-07-28) that
// asked for resource updates: its request context reaches the stream
// while it is open.
type listenSub struct {
	ctx  context.Context
	id   any
	uris []string
}

// New builds the demo MCP server. Serve it with [ServeStdio] or
// [NewHTTPHandler]/[ServeHTTP], or connect to it in-process.
func New(opts *Options) *server.MCPServer {
	if opts == nil {
		opts = &Options{}
	}
	d := &demo{
		notes:    &notesStore{path: opts.NotesPath()},
		crash:    opts.Crash,
		subs:     map[string]map[string]bool{},
		levels:   map[string]bool{},
		sessions: map[string]server.ClientSession{},
		linked:   map[string]bool{},
		pending:  map[string]pendingLink{},
		listens:  map[*listenSub]bool{},
	}
	if d.crash == nil {
		d.crash = func() { os.Exit(CrashExitCode) }
	}
	instructions := opts.Instructions
	if instructions == "" {
		instructions = defaultInstructions
	}

	hooks := &server.Hooks{}
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		d.subscribe(sessionID(ctx), req.Params.URI, true)
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		d.subscribe(sessionID(ctx), req.Params.URI, false)
	})
	hooks.AddBeforeSubscriptionsListen(func(ctx context.Context, id any, req *mcp.SubscriptionsListenRequest) {
		if uris := req.Params.Notifications.ResourceSubscriptions; len(uris) > 0 {
			d.mu.Lock()
			d.listens[&listenSub{ctx: ctx, id: id, uris: slices.Clone(uris)}] = true
			d.mu.Unlock()
		}
	})
	hooks.AddAfterSetLevel(func(ctx context.Context, _ any, _ *mcp.SetLevelRequest, _ *mcp.EmptyResult) {
		d.mu.Lock()
		d.levels[sessionID(ctx)] = true
		d.mu.Unlock()
	})
	hooks.AddOnRegisterSession(func(_ context.Context, s server.ClientSession) {
		d.mu.Lock()
		d.sessions[s.SessionID()] = s
		d.mu.Unlock()
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		d.mu.Lock()
		delete(d.sessions, s.SessionID())
		delete(d.subs, s.SessionID())
		delete(d.levels, s.SessionID())
		d.mu.Unlock()
	})

	// After, not before: mcp-go must mark the task cancelled before the
	// handler stops, or it refuses the tasks/cancel as "terminal".
	hooks.AddAfterCancelTask(func(_ context.Context, _ any, req *mcp.CancelTaskRequest, _ *mcp.CancelTaskResult) {
		d.tasks.cancel(req.Params.TaskId)
	})
	taskHooks := &server.TaskHooks{}
	taskHooks.AddOnTaskCreated(func(_ context.Context, m server.TaskMetrics) {
		d.tasks.created(m.SessionID, m.ToolName, m.TaskID)
	})

	d.srv = server.NewMCPServer(Name, Version,
		server.WithTitle("Spyglass demo server"),
		server.WithDescription("A server that exercises every MCP feature Spyglass can show."),
		server.WithIcons(iconPNG()),
		server.WithInstructions(instructions),
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithCompletions(),
		server.WithElicitation(),
		server.WithRoots(),
		server.WithTaskCapabilities(true, true, true),
		server.WithTaskHooks(taskHooks),
		server.WithExperimental(map[string]any{
			ExperimentalCapability: map[string]any{"methods": []string{ExperimentalMethod}},
		}),
		server.WithPromptCompletionProvider(promptCompleter{}),
		server.WithResourceCompletionProvider(resourceCompleter{}),
		server.WithHooks(hooks),
		server.WithRecovery(),
	)
	d.srv.EnableSampling()
	d.addTools()
	d.addResources()
	d.addPrompts()
	d.srv.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, d.onRootsListChanged)
	return d.srv
}

const defaultInstructions = `This is Spyglass's built-in demo server. Try slow_task (progress and ` +
	`cancellation), flaky_write (it saves a note, then crashes before answering; read_notes shows the ` +
	`write happened), the form_* tools (every kind of form field), and the sampling, elicitation and ` +
	`roots tools (the server asks you).`

// sessionID returns the id of the client session serving ctx, or "".
func sessionID(ctx context.Context) string {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		return s.SessionID()
	}
	return ""
}

// withSession returns ctx carrying a client session: mcp-go's in-process
// transport hands notifications over without one, so when ctx has none and
// exactly one session is connected, that one is used.
func (d *demo) withSession(ctx context.Context) context.Context {
	if server.ClientSessionFromContext(ctx) != nil {
		return ctx
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.sessions) != 1 {
		return ctx
	}
	for _, s := range d.sessions {
		ctx = d.srv.WithContext(ctx, s)
	}
	return ctx
}

func (d *demo) subscribe(session, uri string, on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := d.subs[session]
	if m == nil {
		m = map[string]bool{}
		d.subs[session] = m
	}
	if on {
		m[uri] = true
	} else {
		delete(m, uri)
	}
}

// notifyUpdated sends notifications/resources/updated for uri to every
// session subscribed to it.
func (d *demo) notifyUpdated(uri string) {
	d.mu.Lock()
	var sessions []string
	for s, m := range d.subs {
		if m[uri] {
			sessions = append(sessions, s)
		}
	}
	// 2026-07-28 clients subscribe through subscriptions/listen.
	var streams []*listenSub
	for l := range d.listens {
		if l.ctx.Err() != nil {
			delete(d.listens, l) // the stream has ended
		} else if slices.Contains(l.uris, uri) {
			streams = append(streams, l)
		}
	}
	d.mu.Unlock()
	for _, l := range streams {
		_ = d.srv.SendNotificationToClient(l.ctx, mcp.MethodNotificationResourceUpdated, map[string]any{
			"uri": uri, "_meta": map[string]any{mcp.MetaKeySubscriptionID: l.id},
		})
	}
	for _, s := range sessions {
		err := d.srv.SendNotificationToSpecificClient(s, mcp.MethodNotificationResourceUpdated, map[string]any{"uri": uri})
		if errors.Is(err, server.ErrSessionNotFound) {
			d.mu.Lock()
			delete(d.subs, s)
			d.mu.Unlock()
		}
	}
}
