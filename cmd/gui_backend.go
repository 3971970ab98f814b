package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/har"
	"github.com/spyglass-mcp/spyglass/core/history"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/secrets"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/ui"
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
	// session lists servers handed over by a second start (gui_handoff.go),
	// shown after the catalog's for this session only; override holds them.
	session []string
	// recorded holds the trace file of each recorded session among them.
	recorded map[string]string
	// testerDir and callsDir hold the tester's and the History's files,
	// fixed when the backend is made (the XDG data folder then).
	testerDir, callsDir string
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
	// removed holds the servers removed last, by name, for Undo;
	// auths the authorizer of each server's live connection (gui_oauth.go).
	removed map[string]removedServer
	auths   map[string]*oauth.Authorizer
	// hars records each http/sse server's exchanges for File → Export
	// HAR… (gui_har.go).
	hars map[string]*har.Recorder
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
	b := &guiBackend{cat: cat, roWhy: roWhy, log: log, red: red, override: map[string]catalog.Server{}, recorded: map[string]string{},
		testerDir: history.DefaultDir(), callsDir: history.CallsDir()}
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
	for _, name := range b.session {
		c := toUIConfig(name, b.override[name])
		c.Recorded = b.recorded[name]
		out = append(out, c)
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
		var ee *catalog.EntryError
		if errors.As(err, &ee) {
			return &ui.FieldError{Field: ee.Field, Err: err}
		}
		return err
	}
	if err := b.storeSecrets(cfg.Name, cfg.Auth); err != nil {
		return err
	}
	if oldName != "" && oldName != cfg.Name {
		if err := b.cat.Rename(oldName, cfg.Name); err != nil {
			return err
		}
		// the keyring items follow the name
		if err := b.putSecrets(cfg.Name, b.takeSecrets(oldName, false)); err != nil {
			return fmt.Errorf("the OS keyring did not take the server's secrets under its new name: %w", err)
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
	r, ok := b.cat.Remove(name)
	if !ok {
		return nil
	}
	if err := b.saveLocked(); err != nil {
		_ = b.cat.Restore(r)
		return err
	}
	// its keyring items go with it; Undo (RestoreServer) puts both back
	if b.removed == nil {
		b.removed = map[string]removedServer{}
	}
	b.removed[name] = removedServer{entry: r, secrets: b.takeSecrets(name, false)}
	delete(b.auths, name)
	return nil
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
	roots = slices.Clone(roots)
	for i := range roots { // the window's folders, as RFC 8089 URIs
		roots[i].URI = catalog.NormalizeRootURI(roots[i].URI)
	}
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
		c.Auth = toUIOAuth(s.OAuth)
	}
	c.ModernLogLevel, c.AdvertisedExtensions, c.MaxMessageSize = s.ModernLogLevel, s.AdvertisedExtensions, s.MaxMessageSize
	if s.MaxFetchRequests != nil {
		n := *s.MaxFetchRequests
		c.MaxFetchRequests = &n
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
		u = catalog.NormalizeRootURI(u)
		r, ok := keep[u]
		if !ok {
			r = catalog.Root{URI: u}
		}
		s.Roots = append(s.Roots, r)
	}
	if c.Transport != "stdio" {
		s.OAuth = fromUIOAuth(s.OAuth, c.Auth)
	}
	s.ModernLogLevel, s.AdvertisedExtensions, s.MaxMessageSize = c.ModernLogLevel, c.AdvertisedExtensions, c.MaxMessageSize
	s.MaxFetchRequests = nil
	if c.MaxFetchRequests != nil {
		n := *c.MaxFetchRequests
		s.MaxFetchRequests = &n
	}
	return s
}
