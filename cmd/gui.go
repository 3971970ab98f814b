package cmd

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adrg/xdg"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/desktop"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// guiBackend adapts core (catalog, sessions, event log) to ui.Backend.
type guiBackend struct {
	mu     sync.Mutex
	cat    *catalog.Catalog
	roWhy  string // why the catalog is read-only ("" when writable)
	log    *events.Log
	events *guiEvents
	// dial overrides how a server is reached (tests); nil uses wire.
	dial func(name string, s catalog.Server) func(ctx context.Context) (wire.Conn, error)
	// session options every connection gets (handlers for the server's
	// own requests).
	handlers session.Handlers
	// red masks secrets in recorded events; override holds servers with
	// the command line's overrides applied (--server NAME -e ...).
	red      *wire.Redactor
	override map[string]catalog.Server
	// queue answers sampling and elicitation (ui/requests); without it
	// the server's requests are not advertised.
	queue *requests.Queue
	// live is the newest session of each server, for SetRoots.
	live map[string]*session.Session
	// secrets holds OAuth tokens (see secretStore).
	secrets secrets.Store
	// inputs holds the values typed for ${input:ID} placeholders, by
	// server name and input id (memory only).
	inputs map[string]map[string]string
}

// useQueue answers the server's own requests through ui/requests' queue
// (testing profiles, elicitation forms, URL mode), shown under the server's
// screens while requests wait. Call it on the UI thread before the first
// connection.
func (b *guiBackend) useQueue(w *ui.Window, profiles string) *requests.Queue {
	q := requests.NewQueue(&requests.QueueOptions{
		Window:    w.Window(),
		Profiles:  profileStore{file: profiles},
		Responder: responder{},
		Forms:     buildElicitationForm,
		Open:      openBrowser,
		OnCountChanged: func(n int) {
			w.SetRequestCount(n)
		},
		OnAdded: func(kind, server, _, _ string) {
			w.Toast("ok", server+" asks for "+kind+": answer it below the screens")
		},
	})
	w.SetRequests(q.Object())
	w.SetEditProfiles(q.EditProfiles)
	b.mu.Lock()
	b.queue = q
	b.handlers = session.Handlers{Sampling: requestHandlers{q}, Elicitation: requestHandlers{q}}
	b.mu.Unlock()
	return q
}

// openBrowser opens a URL-mode elicitation with the OAuth sign-in's
// opener: $BROWSER (split like a shell would, %s for the URL) when set,
// else the desktop's opener. It does not wait: it runs on the UI thread.
func openBrowser(u *url.URL) error {
	return oauth.SystemBrowser{}.Start(u.String())
}

// newGUIBackend wraps a loaded catalog. roWhy says why it is read-only
// ("" when it may be edited).
func newGUIBackend(cat *catalog.Catalog, roWhy string, log *events.Log) *guiBackend {
	red := wire.NewRedactor()
	if log == nil {
		log = events.New(&events.Options{Redact: red.Redact})
	}
	if roWhy == "" && cat.ReadOnly() {
		roWhy = "this server list cannot be saved"
	}
	b := &guiBackend{cat: cat, roWhy: roWhy, log: log, red: red, override: map[string]catalog.Server{}}
	b.events = &guiEvents{log: log, b: b}
	return b
}

// secretStore is where the window keeps OAuth tokens: the OS keyring (one
// store for every server; keys are namespaced by server name), or memory
// for the session where no keyring can be reached.
func (b *guiBackend) secretStore() secrets.Store {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.secrets == nil {
		b.secrets = cliStore(runtime.GOOS, os.Getenv, os.Stderr)
	}
	return b.secrets
}

// Servers implements ui.Backend.
func (b *guiBackend) Servers() []ui.ServerConfig {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []ui.ServerConfig
	for _, name := range b.cat.Names() {
		s, _ := b.cat.Get(name)
		out = append(out, toUIConfig(name, s))
	}
	return out
}

// ReadOnly implements ui.Backend.
func (b *guiBackend) ReadOnly() (bool, string) { return b.roWhy != "", b.roWhy }

// SaveServer implements ui.Backend.
func (b *guiBackend) SaveServer(oldName string, cfg ui.ServerConfig) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.roWhy != "" {
		return errors.New(b.roWhy)
	}
	var base catalog.Server
	if oldName != "" {
		base, _ = b.cat.Get(oldName)
	}
	s := fromUIConfig(base, cfg)
	if err := s.Validate(); err != nil {
		return err
	}
	if oldName != "" && oldName != cfg.Name {
		if err := b.cat.Rename(oldName, cfg.Name); err != nil {
			return err
		}
	}
	if oldName == "" {
		if err := b.cat.Add(cfg.Name, s); err != nil {
			return err
		}
	} else if err := b.cat.Put(cfg.Name, s); err != nil {
		return err
	}
	return b.saveLocked()
}

// RemoveServer implements ui.Backend.
func (b *guiBackend) RemoveServer(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.roWhy != "" {
		return errors.New(b.roWhy)
	}
	b.cat.Delete(name)
	return b.saveLocked()
}

// Import implements ui.Backend: the servers of another client's config
// (Claude, Cursor, Claude Code: "mcpServers"; VS Code: "servers") are
// added; names that exist already are skipped, never overwritten.
func (b *guiBackend) Import(data []byte, source string) (added, skipped []string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.roWhy != "" {
		return nil, nil, errors.New(b.roWhy)
	}
	im, err := catalog.ParseImport(source, data)
	if im == nil {
		return nil, nil, fmt.Errorf("%s is not a Claude, Cursor or VS Code config: %s", filepath.Base(source), explainCatalogError(err))
	}
	if err != nil {
		// a readable file with bad entries: import nothing until it is fixed
		return nil, nil, fmt.Errorf("%s: %s", filepath.Base(source), explainCatalogError(err))
	}
	res := b.cat.Import(im)
	if len(res.Added) > 0 {
		if err := b.saveLocked(); err != nil {
			return nil, nil, err
		}
	}
	return res.Added, res.Clashes, nil
}

// saveLocked saves the catalog. When another program changed the file
// since it was read (an editor, another Spyglass), the window's change is
// re-applied on top of theirs and saved, so neither is lost. b.mu is held.
func (b *guiBackend) saveLocked() error {
	err := b.cat.Save(nil)
	if !errors.Is(err, catalog.ErrConflict) {
		return err
	}
	if err := b.cat.Rebase(); err != nil {
		return err
	}
	return b.cat.Save(nil)
}

// watch follows the catalog file while the window is open: when another
// program changes it, the server list is read again (a change the window
// made itself is not a change) and notify is told, from the watching
// goroutine, with a toast level and a sentence for the user. A file that
// became unreadable leaves the list as it was. It returns at once; the
// watch ends with ctx.
func (b *guiBackend) watch(ctx context.Context, notify func(level, msg string)) {
	path := b.cat.Path()
	if path == "" {
		return
	}
	go func() {
		err := catalog.Watch(ctx, path, catalogSettle, func() {
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				// removed for a moment (a checkout, a sync client, mv
				// away and back): keep the list until the file is back
				notify("error", filepath.Base(path)+" was removed; the list stays until it is back")
				return
			}
			b.mu.Lock()
			changed, err := b.cat.DiskChanged()
			if err == nil && changed {
				err = b.cat.Rebase()
			}
			b.mu.Unlock()
			switch {
			case err != nil:
				notify("error", filepath.Base(path)+" cannot be read, list kept: "+explainCatalogError(err))
			case changed:
				notify("ok", filepath.Base(path)+" changed: list reloaded")
			}
		})
		if err != nil {
			notify("error", "changes to "+filepath.Base(path)+" made elsewhere will not show until restart: "+err.Error())
		}
	}()
}

// withInputs fills the server's ${input:ID} placeholders with the values
// given in this window (kept in memory for the app's life, masked in the
// record like any secret); when some are still missing it returns what
// the window should ask for.
func (b *guiBackend) withInputs(name string, s catalog.Server, refs []catalog.InputRef) (catalog.Server, *ui.InputsNeededError) {
	b.mu.Lock()
	have := maps.Clone(b.inputs[name])
	b.mu.Unlock()
	var ask []ui.Input
	seen := map[string]bool{}
	for _, r := range refs {
		if _, ok := have[r.ID]; !ok && !seen[r.ID] {
			seen[r.ID] = true
			ask = append(ask, ui.Input{ID: r.ID, Where: r.Field})
		}
	}
	if len(ask) == 0 {
		return s.WithInputs(have), nil
	}
	return s, &ui.InputsNeededError{Server: name, Inputs: ask, Err: inputsError(name, refs),
		Provide: func(values map[string]string) error {
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.inputs == nil {
				b.inputs = map[string]map[string]string{}
			}
			if b.inputs[name] == nil {
				b.inputs[name] = map[string]string{}
			}
			for id, v := range values {
				b.inputs[name][id] = v
				b.red.Add(v) // typed secrets never reach the record
			}
			return nil
		}}
}

// catalogSettle is how long the catalog file must be quiet before it is
// read again (editors write in several steps).
const catalogSettle = 150 * time.Millisecond

// SetRoots implements ui.Backend: the roots are saved in the catalog
// (when it is writable) and announced to the live session.
func (b *guiBackend) SetRoots(name string, roots []ui.Root) error {
	b.mu.Lock()
	sess := b.live[name]
	var saveErr error
	if s, ok := b.cat.Get(name); ok && b.roWhy == "" {
		s.Roots = nil
		for _, r := range roots {
			s.Roots = append(s.Roots, catalog.Root{URI: r.URI, Name: r.Name})
		}
		if saveErr = b.cat.Put(name, s); saveErr == nil {
			saveErr = b.saveLocked()
		}
	}
	b.mu.Unlock()
	if sess != nil {
		mr := make([]mcp.Root, 0, len(roots))
		for _, r := range roots {
			mr = append(mr, mcp.Root{URI: r.URI, Name: r.Name})
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := sess.SetRoots(ctx, mr); err != nil {
			return err
		}
	}
	return saveErr
}

// Events implements ui.Backend.
func (b *guiBackend) Events() ui.EventSource { return b.events }

// Open implements ui.Backend: a session for the named server.
func (b *guiBackend) Open(name string, onState func(ui.StateView)) (ui.Conn, error) {
	b.mu.Lock()
	s, ok := b.cat.Get(name)
	problem := b.cat.Problem(name)
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
			Browser: oauth.SystemBrowser{},
			// warnings reach the inspector's Logs tab (no widget touched here)
			OnWarning: func(w oauth.Warning) {
				log.Append(events.Event{Kind: events.KindWarning, Conn: name, Text: "sign-in: " + string(w.Code) + ": " + w.Detail})
			},
		})
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
	sess := session.New(dial, b.log, opts)
	c := &guiConn{s: sess, conn: conn, ttl: s.TaskTTLOrDefault(), target: toUIConfig(name, s).Summary(), name: name, queue: q}
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
		onState(ui.StateView{State: ui.ConnState(ch.To), Err: humanize(ch.Err)})
	})
	return c, nil
}

func toUIConfig(name string, s catalog.Server) ui.ServerConfig {
	c := ui.ServerConfig{
		Name: name, Transport: string(s.Type), Command: s.Command, Args: s.Args, Env: s.Env,
		Cwd: s.Cwd, URL: s.URL, Headers: s.Headers,
		ProtocolVersion: s.ProtocolVersion, ProtocolEra: string(s.ProtocolEra),
		ConnectionTimeout:        time.Duration(s.ConnectionTimeout) * time.Millisecond,
		RequestTimeout:           time.Duration(s.RequestTimeout) * time.Millisecond,
		TaskTTL:                  time.Duration(s.TaskTTL) * time.Millisecond,
		AutoRefreshOnListChanged: s.AutoRefreshOnListChanged,
		PaginatedLists:           s.PaginatedLists,
		Metadata:                 s.Metadata,
	}
	if c.Transport == "" {
		c.Transport = "stdio"
	}
	for _, r := range s.Roots {
		c.Roots = append(c.Roots, r.URI)
	}
	if s.OAuth != nil {
		c.OAuth = true
		c.OAuthClientID = s.OAuth.ClientID
		c.OAuthScopes = s.OAuth.Scopes
	}
	return c
}

func fromUIConfig(base catalog.Server, c ui.ServerConfig) catalog.Server {
	s := base.Clone()
	s.Type = catalog.Type(c.Transport)
	s.Command, s.Args, s.Env, s.Cwd = c.Command, c.Args, c.Env, c.Cwd
	s.URL, s.Headers = c.URL, c.Headers
	s.ProtocolVersion = c.ProtocolVersion
	s.ProtocolEra = catalog.Era(c.ProtocolEra)
	s.ConnectionTimeout = c.ConnectionTimeout.Milliseconds()
	s.RequestTimeout = c.RequestTimeout.Milliseconds()
	s.TaskTTL = c.TaskTTL.Milliseconds()
	s.AutoRefreshOnListChanged = c.AutoRefreshOnListChanged
	s.PaginatedLists = c.PaginatedLists
	s.Metadata = c.Metadata
	keep := map[string]catalog.Root{}
	for _, r := range base.Roots {
		keep[r.URI] = r
	}
	s.Roots = nil
	for _, u := range c.Roots {
		r, ok := keep[u]
		if !ok {
			r = catalog.Root{URI: u}
		}
		s.Roots = append(s.Roots, r)
	}
	if c.OAuthClientID != "" || c.OAuthScopes != "" || s.OAuth != nil {
		if s.OAuth == nil {
			s.OAuth = &catalog.OAuth{}
		}
		s.OAuth.ClientID = c.OAuthClientID
		s.OAuth.Scopes = c.OAuthScopes
	}
	return s
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
}

// Connect implements ui.Conn.
func (c *guiConn) Connect(ctx context.Context) error {
	err := c.conn.connect(ctx, c.s)
	if errors.Is(err, wire.ErrUnreachable) {
		return &humanError{err: err, text: "cannot reach " + c.target + " — is the server running, and is the URL right?"}
	}
	return humanize(err)
}

// humanError words an engine error for a person and keeps the technical
// chain for "Show full error".
type humanError struct {
	err  error
	text string
}

// Error implements error and the detail the window shows.
func (e *humanError) Error() string { return e.text }

// Unwrap implements error and the detail the window shows.
func (e *humanError) Unwrap() error { return e.err }

// Detail implements error and the detail the window shows.
func (e *humanError) Detail() string { return e.err.Error() }

func humanize(err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	return &humanError{err: err, text: describeError(err)}
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
		ProtocolVersion: in.ProtocolVersion, Name: in.Name, Title: in.Title, Version: in.Version,
		Instructions: in.Instructions, ServerCapabilities: in.Capabilities, ClientCapabilities: in.ClientCapabilities,
	}
	if len(in.Icons) > 0 {
		out.IconURL = in.Icons[0].Src
	}
	return out
}

// rawTool is the part of a tool object the window shows.
type rawTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  struct {
		Title           string `json:"title"`
		ReadOnlyHint    *bool  `json:"readOnlyHint"`
		DestructiveHint *bool  `json:"destructiveHint"`
		IdempotentHint  *bool  `json:"idempotentHint"`
		OpenWorldHint   *bool  `json:"openWorldHint"`
	} `json:"annotations"`
	Execution struct {
		TaskSupport string `json:"taskSupport"`
	} `json:"execution"`
	Icons []struct {
		Src string `json:"src"`
	} `json:"icons"`
}

func isTrue(b *bool) bool { return b != nil && *b }

// ListTools implements ui.Conn.
func (c *guiConn) ListTools(ctx context.Context, cursor string) ([]ui.Tool, string, error) {
	res, err := c.s.ListTools(ctx, &session.ListOptions{Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	out := make([]ui.Tool, 0, len(res.Tools))
	schemas := map[string]json.RawMessage{}
	for _, t := range res.Tools {
		var r rawTool
		_ = json.Unmarshal(t.Raw, &r)
		title := r.Title
		if title == "" {
			title = r.Annotations.Title
		}
		out = append(out, ui.Tool{
			Name: r.Name, Title: title, Description: r.Description,
			InputSchema: r.InputSchema, OutputSchema: r.OutputSchema,
			ReadOnly: isTrue(r.Annotations.ReadOnlyHint), Destructive: isTrue(r.Annotations.DestructiveHint),
			Idempotent: isTrue(r.Annotations.IdempotentHint), OpenWorld: isTrue(r.Annotations.OpenWorldHint),
			TaskSupport: r.Execution.TaskSupport, Raw: t.Raw,
		})
		if len(r.Icons) > 0 {
			out[len(out)-1].IconURL = r.Icons[0].Src
		}
		if len(r.OutputSchema) > 0 {
			schemas[r.Name] = r.OutputSchema
		}
	}
	c.mu.Lock()
	if cursor == "" {
		c.schemas = schemas
	} else {
		for k, v := range schemas {
			c.schemas[k] = v
		}
	}
	c.mu.Unlock()
	return out, res.NextCursor, nil
}

// CallTool implements ui.Conn.
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
		return ui.ToolResult{}, c.urlRequired(err, "run the tool again")
	}
	out := ui.ToolResult{Raw: res.Raw, Duration: res.Duration, Seq: res.Seq}
	if res.Task != nil {
		out.TaskID = res.Task.TaskId
		return out, nil
	}
	var r struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
	}
	_ = json.Unmarshal(res.Raw, &r)
	for _, raw := range r.Content {
		out.Content = append(out.Content, parseContent(raw))
	}
	out.IsError = r.IsError
	if len(r.StructuredContent) > 0 && string(r.StructuredContent) != "null" {
		out.StructuredContent = r.StructuredContent
		c.mu.Lock()
		schema := c.schemas[req.Name]
		c.mu.Unlock()
		out.SchemaAdvisory = validateOutput(schema, r.StructuredContent)
	}
	return out, nil
}

// urlRequired handles a URLElicitationRequiredError (-32042): the
// server needs the user to open URLs before the call can go through. Each
// URL waits in the request queue (domain shown, Open in Browser, Copy
// URL), and the error the screen shows tells the user to open them and
// then to try again, in the words of again ("run the tool again"). Any
// other error is returned as is.
func (c *guiConn) urlRequired(err error, again string) error {
	var re *session.RPCError
	if c.queue == nil || !errors.As(err, &re) || re.Code != session.CodeURLElicitationRequired {
		return err
	}
	reqs, perr := requests.ElicitationsFromError(re.Data)
	if perr != nil || len(reqs) == 0 {
		return err
	}
	ui.Do(func() { c.queue.AddURLRequired(c.name, reqs) })
	text := "Open the page below the screens in your browser, then " + again + "."
	if len(reqs) > 1 {
		text = "Open the " + strconv.Itoa(len(reqs)) + " pages below the screens in your browser, then " + again + "."
	}
	return &humanError{err: err, text: text}
}

// validateOutput checks structuredContent against the tool's outputSchema
// and says where it does not match ("" when it does, or there is none).
func validateOutput(schema, value json.RawMessage) string {
	if len(schema) == 0 {
		return ""
	}
	sch, err := schemaform.CompileSchema(schema)
	if err != nil {
		return "the outputSchema itself is invalid: " + err.Error()
	}
	var parts []string
	for _, is := range sch.Validate(value) {
		if is.Code == schemaform.CodeJSON {
			return "structuredContent is not JSON"
		}
		parts = append(parts, is.String())
	}
	return strings.Join(parts, "; ")
}

// parseContent reads one content block exactly as sent.
func parseContent(raw json.RawMessage) ui.Content {
	var r struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		MIMEType string `json:"mimeType"`
		URI      string `json:"uri"`
		Name     string `json:"name"`
		Resource *struct {
			URI      string  `json:"uri"`
			MIMEType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Blob     string  `json:"blob"`
		} `json:"resource"`
	}
	_ = json.Unmarshal(raw, &r)
	c := ui.Content{Type: r.Type, Text: r.Text, MIMEType: r.MIMEType, URI: r.URI, Name: r.Name}
	if r.Data != "" {
		c.Data, _ = base64.StdEncoding.DecodeString(r.Data)
	}
	if r.Resource != nil {
		c.URI, c.MIMEType = r.Resource.URI, r.Resource.MIMEType
		if r.Resource.Text != nil {
			c.Text = *r.Resource.Text
		} else {
			c.Data, _ = base64.StdEncoding.DecodeString(r.Resource.Blob)
			if c.Data == nil {
				c.Data = []byte{}
			}
		}
	}
	return c
}

// ListResources implements ui.Conn.
func (c *guiConn) ListResources(ctx context.Context, cursor string) ([]ui.Resource, string, error) {
	res, err := c.s.ListResources(ctx, &session.ListOptions{Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	var out []ui.Resource
	for _, r := range res.Resources {
		var x ui.Resource
		_ = json.Unmarshal(r.Raw, &struct {
			URI         *string `json:"uri"`
			Name        *string `json:"name"`
			Title       *string `json:"title"`
			Description *string `json:"description"`
			MIMEType    *string `json:"mimeType"`
		}{&x.URI, &x.Name, &x.Title, &x.Description, &x.MIMEType})
		out = append(out, x)
	}
	return out, res.NextCursor, nil
}

// ListResourceTemplates implements ui.Conn.
func (c *guiConn) ListResourceTemplates(ctx context.Context) ([]ui.ResourceTemplate, error) {
	res, err := c.s.ListResourceTemplates(ctx, nil)
	if err != nil {
		return nil, err
	}
	var out []ui.ResourceTemplate
	for _, r := range res.Templates {
		var x ui.ResourceTemplate
		_ = json.Unmarshal(r.Raw, &struct {
			URI         *string `json:"uriTemplate"`
			Name        *string `json:"name"`
			Title       *string `json:"title"`
			Description *string `json:"description"`
			MIMEType    *string `json:"mimeType"`
		}{&x.URITemplate, &x.Name, &x.Title, &x.Description, &x.MIMEType})
		out = append(out, x)
	}
	return out, nil
}

// ReadResource implements ui.Conn.
func (c *guiConn) ReadResource(ctx context.Context, uri string) (ui.ReadResult, error) {
	res, err := c.s.ReadResource(ctx, uri, nil)
	if err != nil {
		return ui.ReadResult{}, c.urlRequired(err, "read it again")
	}
	var r struct {
		Contents []struct {
			URI      string  `json:"uri"`
			MIMEType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Blob     string  `json:"blob"`
		} `json:"contents"`
	}
	_ = json.Unmarshal(res.Raw, &r)
	out := ui.ReadResult{Raw: res.Raw}
	for _, x := range r.Contents {
		ct := ui.Content{Type: "text", URI: x.URI, MIMEType: x.MIMEType}
		if x.Text != nil {
			ct.Text = *x.Text
		} else {
			ct.Type = "resource"
			ct.Data, _ = base64.StdEncoding.DecodeString(x.Blob)
			if ct.Data == nil {
				ct.Data = []byte{}
			}
		}
		out.Contents = append(out.Contents, ct)
	}
	return out, nil
}

// Subscribe implements ui.Conn.
func (c *guiConn) Subscribe(ctx context.Context, uri string) error {
	_, err := c.s.SubscribeResource(ctx, uri, nil)
	return err
}

// Unsubscribe implements ui.Conn.
func (c *guiConn) Unsubscribe(ctx context.Context, uri string) error {
	_, err := c.s.UnsubscribeResource(ctx, uri, nil)
	return err
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
		return nil, err
	}
	var v struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	_ = json.Unmarshal(res.Raw, &v)
	return v.Completion.Values, nil
}

// ListPrompts implements ui.Conn.
func (c *guiConn) ListPrompts(ctx context.Context, cursor string) ([]ui.Prompt, string, error) {
	res, err := c.s.ListPrompts(ctx, &session.ListOptions{Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	var out []ui.Prompt
	for _, p := range res.Prompts {
		var x struct {
			Name        string              `json:"name"`
			Title       string              `json:"title"`
			Description string              `json:"description"`
			Arguments   []ui.PromptArgument `json:"arguments"`
		}
		_ = json.Unmarshal(p.Raw, &x)
		out = append(out, ui.Prompt{Name: x.Name, Title: x.Title, Description: x.Description, Arguments: x.Arguments})
	}
	return out, res.NextCursor, nil
}

// GetPrompt implements ui.Conn.
func (c *guiConn) GetPrompt(ctx context.Context, name string, args map[string]string) (ui.PromptResult, error) {
	res, err := c.s.GetPrompt(ctx, name, args, nil)
	if err != nil {
		return ui.PromptResult{}, c.urlRequired(err, "get the prompt again")
	}
	var r struct {
		Description string `json:"description"`
		Messages    []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(res.Raw, &r)
	out := ui.PromptResult{Description: r.Description, Raw: res.Raw}
	for _, m := range r.Messages {
		out.Messages = append(out.Messages, ui.PromptMessage{Role: m.Role, Content: parseContent(m.Content)})
	}
	return out, nil
}

// SetLogLevel implements ui.Conn.
func (c *guiConn) SetLogLevel(ctx context.Context, level string) error {
	_, err := c.s.SetLogLevel(ctx, mcp.LoggingLevel(level), nil)
	return err
}

func toUITask(raw json.RawMessage) ui.Task {
	var t struct {
		TaskID        string    `json:"taskId"`
		Status        string    `json:"status"`
		StatusMessage string    `json:"statusMessage"`
		CreatedAt     time.Time `json:"createdAt"`
		LastUpdatedAt time.Time `json:"lastUpdatedAt"`
	}
	_ = json.Unmarshal(raw, &t)
	return ui.Task{ID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage, Created: t.CreatedAt, Updated: t.LastUpdatedAt}
}

// ListTasks implements ui.Conn.
func (c *guiConn) ListTasks(ctx context.Context) ([]ui.Task, error) {
	res, err := c.s.ListTasks(ctx, nil)
	if err != nil {
		return nil, err
	}
	var out []ui.Task
	for _, t := range res.Tasks {
		out = append(out, toUITask(t.Raw))
	}
	return out, nil
}

// GetTask implements ui.Conn.
func (c *guiConn) GetTask(ctx context.Context, id string) (ui.Task, error) {
	res, err := c.s.GetTask(ctx, id, nil)
	if err != nil {
		return ui.Task{}, err
	}
	return toUITask(res.Raw), nil
}

// TaskResult implements ui.Conn.
func (c *guiConn) TaskResult(ctx context.Context, id string) (json.RawMessage, error) {
	res, err := c.s.TaskResult(ctx, id, nil)
	if err != nil {
		return nil, err
	}
	return res.Raw, nil
}

// CancelTask implements ui.Conn.
func (c *guiConn) CancelTask(ctx context.Context, id string) error {
	_, err := c.s.CancelTask(ctx, id, nil)
	return err
}

// OnNotification implements ui.Conn.
func (c *guiConn) OnNotification(fn func(ui.Notification)) {
	c.s.OnNotification(func(n session.Notification) {
		fn(ui.Notification{Method: n.Method, Params: n.Params, Time: n.Time})
	})
}

// guiEvents adapts the event log to ui.EventSource.
type guiEvents struct {
	log *events.Log
	b   *guiBackend
}

// Subscribe implements ui.EventSource.
func (g *guiEvents) Subscribe(fn func(ui.EventBatch)) func() {
	return g.log.Subscribe(func(b events.Batch) {
		out := ui.EventBatch{Dropped: b.Dropped}
		for _, e := range b.Events {
			out.Events = append(out.Events, toEventView(e))
		}
		for _, e := range b.Updated {
			out.Updated = append(out.Updated, toEventView(e))
		}
		fn(out)
	})
}

// After implements ui.EventSource.
func (g *guiEvents) After(seq uint64, max int) ([]ui.EventView, error) {
	evs, err := g.log.After(seq, max)
	out := make([]ui.EventView, 0, len(evs))
	for _, e := range evs {
		out = append(out, toEventView(e))
	}
	return out, err
}

// Get implements ui.EventSource.
func (g *guiEvents) Get(seq uint64) (ui.EventView, bool) {
	e, ok := g.log.Get(seq)
	if !ok {
		return ui.EventView{}, false
	}
	return toEventView(e), true
}

// WriteTrace writes the trace file of one connection (every connection
// when conn is "").
func (g *guiEvents) WriteTrace(w io.Writer, conn string) error {
	var evs []events.Event
	for _, e := range g.log.Events() {
		if conn == "" || e.Conn == conn {
			evs = append(evs, e)
		}
	}
	meta := events.TraceMeta{App: "spyglass", Created: time.Now()}
	if conn != "" {
		meta.Conns = []events.ConnInfo{{Conn: conn}}
	}
	return events.WriteTrace(w, meta, evs)
}

// toEventView converts an event for the inspector.
func toEventView(e events.Event) ui.EventView {
	v := ui.EventView{
		Seq: e.Seq, Time: e.Time, Conn: e.Conn, Kind: string(e.Kind), Dir: string(e.Dir),
		Type: string(e.Type), ID: e.ID, Method: e.Method, Title: e.Title(), Badge: e.Badge(),
		Raw: e.Raw, Text: e.Text, Run: e.Run, Pair: e.Pair, Size: e.Size, Event: e,
	}
	if e.Kind == events.KindHTTP && e.HTTP != nil && v.Text == "" {
		v.Text = fmt.Sprintf("%s %s → %d %s", e.HTTP.Method, e.HTTP.URL, e.HTTP.Status, e.HTTP.Err)
	}
	for _, c := range e.Categories() {
		v.Categories = append(v.Categories, string(c))
	}
	if o := e.Outcome; o != nil {
		v.Latency = o.Latency
		switch o.State {
		case events.OK:
			v.BadgeLevel = "ok"
		case events.Failed, events.TimedOut, events.NoResponse:
			v.BadgeLevel = "error"
		case events.Cancelled, events.CancelledLate:
			v.BadgeLevel = "warning"
		}
	}
	if e.Kind == events.KindTool {
		a := &ui.AttemptView{ErrorClass: e.ErrorClass, OutcomeUnknown: e.OutcomeUnknown}
		if e.Lineage != nil {
			a.Lineage, a.Attempt = e.Lineage.ID, e.Lineage.Attempt
		}
		if e.Tool != nil {
			a.MayHaveRunTwice, a.SameCallAgain = e.Tool.MayHaveRunTwice, e.Tool.SameCallAgain
		}
		v.Attempt = a
	}
	return v
}

// runGUI opens the desktop window on the servers inv names and returns the
// exit code once it is closed.
func runGUI(inv *Invocation, stderr io.Writer) int {
	src, err := inv.Source()
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
		return 2
	}
	cat, _, err := src.Open()
	if cat == nil {
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
		return 1
	}
	if err != nil {
		// a usable catalog with entries that cannot be connected to: the
		// window shows each entry's problem when it is connected
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
	}
	roWhy := ""
	switch src.Kind {
	case catalog.SourceConfig:
		roWhy = "opened with --config " + src.Path + ", which Spyglass never changes"
	case catalog.SourceAdHoc:
		roWhy = "one server given on the command line; run without it to edit your catalog"
	}
	be := newGUIBackend(cat, roWhy, nil)
	opts := &ui.Options{}
	if src.Kind == catalog.SourceAdHoc || src.Server != "" {
		name, s, err := src.Resolve(cat)
		if err != nil {
			fmt.Fprintf(stderr, "spyglass: %v\n", err)
			return 2
		}
		be.override[name] = s
		opts.Select = name
		opts.AutoConnect = true
	}
	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	ready := func(w *ui.Window) {
		be.useQueue(w, filepath.Join(xdg.ConfigHome, "spyglass", "sampling-profiles.json"))
		be.watch(watchCtx, func(level, msg string) {
			ui.Do(func() {
				w.ServersChanged()
				w.Toast(level, msg)
			})
		})
		startScreenshots(w, stderr)
	}
	desktop.Run(be, opts, ready)
	return 0
}
