package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/redact"
)

// Backend is everything the window needs from the engine. cmd/ adapts
// core's catalog, sessions and event log to it; tests supply fakes.
type Backend interface {
	// Servers lists the catalog's servers in catalog order.
	Servers() []ServerConfig
	// ReadOnly reports whether the server list may not be edited, and why
	// (for example "opened with --config FILE, which Spyglass never changes").
	ReadOnly() (bool, string)
	// SaveServer adds (oldName "") or replaces the server oldName with cfg
	// and saves the catalog.
	SaveServer(oldName string, cfg ServerConfig) error
	// RemoveServer deletes a server from the catalog and saves it.
	RemoveServer(name string) error
	// Import merges another client's config file (Claude, Cursor, VS Code)
	// into the catalog. It returns the names added and those skipped
	// because a server of that name exists already.
	Import(data []byte, source string) (added, skipped []string, err error)
	// Open returns a connection handle for the named server; it does not
	// connect yet. Every state change is reported to onState.
	Open(name string, onState func(StateView)) (Conn, error)
	// Events is the live record of every connection.
	Events() EventSource
	// SetRoots replaces the filesystem roots offered to the named server:
	// saved in the catalog when it is writable, and announced to the
	// server (notifications/roots/list_changed) when it is connected.
	SetRoots(name string, roots []Root) error
}

// InputsNeededError is what Backend.Open returns when the server's settings
// hold placeholders for values typed at connect time (VS Code ${input:ID}
// variables): the window asks for them, hands them to Provide and
// connects again. Err is what is shown when the user does not give them.
type InputsNeededError struct {
	Server  string
	Inputs  []Input
	Provide func(values map[string]string) error // by Input.ID
	Err     error
}

// Input is one value InputsNeededError asks for.
type Input struct {
	ID    string
	Where string // where it is used, such as "env.API_KEY"
}

// Error implements error.
func (e *InputsNeededError) Error() string { return e.Err.Error() }

// Unwrap implements error.
func (e *InputsNeededError) Unwrap() error { return e.Err }

// Root is one filesystem root offered to a server.
type Root struct {
	Name, URI string
}

// ServerConfig is one catalog server as the edit form shows it.
type ServerConfig struct {
	Name string
	// Recorded is the trace file a recorded session was opened from ("" for
	// a live server): it shows what was recorded and never connects.
	Recorded  string
	Transport string // "stdio", "http" or "sse"
	Command   string
	Args      []string
	Env       map[string]string
	Cwd       string
	URL       string
	Headers   map[string]string

	// Server Settings: zero means the catalog default.
	ProtocolVersion          string
	ProtocolEra              string
	ConnectionTimeout        time.Duration
	RequestTimeout           time.Duration
	TaskTTL                  time.Duration
	AutoRefreshOnListChanged bool
	PaginatedLists           bool
	Roots                    []string
	Metadata                 json.RawMessage // a JSON object, or nil
	// ModernLogLevel is "" (debug) or an MCP logging level, or "off".
	ModernLogLevel string
	// AdvertisedExtensions is a JSON object, or nil.
	AdvertisedExtensions json.RawMessage
	// MaxFetchRequests: nil means the default (1000), 0 unlimited.
	MaxFetchRequests *int
	// MaxMessageSize in bytes; 0 means the engine's default.
	MaxMessageSize int64
	// Auth is the oauth block (the form's OAuth section).
	Auth OAuthConfig
	// OAuth says the server is set up for OAuth (the card shows it).
	OAuth bool
}

// Summary is the command line or URL of a server, for its card, with
// secrets masked (a URL's ?token=, a --api-key value) and each argument
// quoted as the server form writes it, so "--name" "My Project" reads
// as two arguments, not three.
func (c ServerConfig) Summary() string {
	if c.Transport == "stdio" || c.Transport == "" {
		words := []string{quoteArg(c.Command)}
		for _, a := range redact.Args(c.Args) {
			words = append(words, quoteArg(a))
		}
		return strings.Join(words, " ")
	}
	return redact.URL(c.URL)
}

// CardSummary is Summary shortened for a server's card, where a line
// holds about 20 characters: the command and each path among the
// arguments keep only their last two elements ("node …/dist/index.js
// stdio", not the head of /home/me/… nor "…js stdio" once cut from the
// end). The server's pane shows the whole Summary.
func (c ServerConfig) CardSummary() string {
	if c.Transport != "stdio" && c.Transport != "" {
		return c.Summary()
	}
	words := []string{quoteArg(shortPath(c.Command))}
	for _, a := range redact.Args(c.Args) {
		words = append(words, quoteArg(shortPath(a)))
	}
	return strings.Join(words, " ")
}

// shortPath keeps the end of an absolute path of more than two elements:
// its last two ("/usr/local/bin/node" reads "…/bin/node"), and before a
// build folder the folder it is in, which names the project ("…/
// server-memory/dist/index.js", where two npm servers both read
// "…/dist/index.js"). Anything else (a flag, a word, a relative path, a
// URL) stays as it is.
func shortPath(s string) string {
	if !strings.HasPrefix(s, "/") || strings.Contains(s, "://") {
		return s
	}
	parts := strings.Split(strings.TrimRight(s, "/"), "/")
	from := len(parts) - 2
	for from > 1 && buildFolders[parts[from]] {
		from--
	}
	if from <= 1 { // "", a, …: nothing to leave out
		return s
	}
	return "…/" + strings.Join(parts[from:], "/")
}

// buildFolders are folder names that say how a project is laid out, not
// which project it is.
var buildFolders = map[string]bool{"dist": true, "build": true, "out": true, "lib": true, "src": true,
	"target": true, "release": true, "debug": true}

// ConnState is a connection's state, as the server card shows it.
type ConnState string

// The connection states of the seed's connection-states table.
const (
	StateDisconnected ConnState = "disconnected"
	StateConnecting   ConnState = "connecting"
	StateConnected    ConnState = "connected"
	StateFailed       ConnState = "failed"
	StateAuthorizing  ConnState = "authorizing" // OAuth flow in the browser
)

// StateView is one state change of a connection.
type StateView struct {
	State ConnState
	// Err is the failure, for StateFailed (and an unexpected disconnect).
	Err error
	// SignIn is the sign-in waiting in the browser, for StateAuthorizing
	// (nil until the authorization URL is known).
	SignIn *SignInView
}

// SignInView is an OAuth sign-in waiting for the user in the browser.
type SignInView struct {
	// URL is the authorization URL the browser was sent to.
	URL string
	// Wait is how long the sign-in waits for the browser to come back,
	// Until when it gives up.
	Wait  time.Duration
	Until time.Time
}

// waitText says a sign-in's bound in whole minutes ("5 min"), or seconds
// below two minutes.
func (v *SignInView) waitText() string {
	if v.Wait >= 2*time.Minute-time.Second/2 {
		return fmt.Sprintf("%d min", int(v.Wait.Round(time.Minute)/time.Minute))
	}
	return fmt.Sprintf("%d s", int(v.Wait.Round(time.Second)/time.Second))
}

// Conn is one server connection. All methods may block on the network and
// are called from goroutines, never from the UI thread.
type Conn interface {
	Connect(ctx context.Context) error
	Close() error
	Info() ServerInfo

	// The list operations take the cursor of the page to fetch ("" for
	// the first) and return the next page's cursor ("" when there is none:
	// every page was fetched, or it was the last). A server set up with
	// paginatedLists returns one page at a time.
	ListTools(ctx context.Context, cursor string) ([]Tool, string, error)
	CallTool(ctx context.Context, req ToolCall, progress func(Progress)) (ToolResult, error)

	ListResources(ctx context.Context, cursor string) ([]Resource, string, error)
	ListResourceTemplates(ctx context.Context) ([]ResourceTemplate, error)
	ReadResource(ctx context.Context, uri string) (ReadResult, error)
	Subscribe(ctx context.Context, uri string) error
	Unsubscribe(ctx context.Context, uri string) error
	// Complete asks for completion suggestions of one argument; ref is
	// "ref/prompt" or "ref/resource" and name the prompt name or template.
	Complete(ctx context.Context, ref, name, arg, value string) ([]string, error)

	ListPrompts(ctx context.Context, cursor string) ([]Prompt, string, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (PromptResult, error)

	SetLogLevel(ctx context.Context, level string) error

	ListTasks(ctx context.Context) ([]Task, error)
	GetTask(ctx context.Context, id string) (Task, error)
	TaskResult(ctx context.Context, id string) (json.RawMessage, error)
	CancelTask(ctx context.Context, id string) error

	// OnNotification registers fn for every notification the server
	// sends (called from any goroutine).
	OnNotification(fn func(Notification))
}

// ServerInfo is what the handshake negotiated.
type ServerInfo struct {
	// ProtocolVersion is the negotiated version; RequestedVersion the one
	// Spyglass asked for first.
	ProtocolVersion  string
	RequestedVersion string
	// Modern is true when the handshake was server/discover (protocol
	// 2026-07-28 and later), false for initialize.
	Modern bool
	// Fallback says how the version was reached when the first handshake
	// request did not settle it ("" when it did).
	Fallback           string
	Name, Title        string
	Version            string
	IconURL            string
	Instructions       string
	ServerCapabilities json.RawMessage
	ClientCapabilities json.RawMessage
}

// The decoded MCP results the window shows are core's (see core/mcpresult).
type (
	Tool             = mcpresult.Tool
	Content          = mcpresult.Content
	Resource         = mcpresult.Resource
	ResourceTemplate = mcpresult.ResourceTemplate
	ReadResult       = mcpresult.ReadResult
	Prompt           = mcpresult.Prompt
	PromptArgument   = mcpresult.PromptArgument
	PromptMessage    = mcpresult.PromptMessage
	PromptResult     = mcpresult.PromptResult
	Task             = mcpresult.Task
)

// ToolCall is one tools/call request.
type ToolCall struct {
	Name      string
	Arguments json.RawMessage
	// AsTask asks the server to run it as a task.
	AsTask bool
}

// Progress is one notifications/progress of a running request.
type Progress struct {
	Progress, Total float64
	Message         string
}

// ToolResult is the outcome of tools/call.
type ToolResult struct {
	Content           []Content
	StructuredContent json.RawMessage
	IsError           bool
	// TaskID is set when the call started a task.
	TaskID string
	// SchemaAdvisory says where structuredContent does not match the
	// tool's outputSchema ("" when it matches or there is none).
	SchemaAdvisory string
	// Problems are where the result does not match the MCP schema (an
	// unknown content kind is kept in Content as sent).
	Problems mcpresult.Problems
	Raw      json.RawMessage
	// Duration is the request's round trip as the engine measured it.
	Duration time.Duration
	// Seq is the inspector event of the tools/call request (0 if unknown).
	Seq uint64
	// Attempt places the call in its retry lineage (its label and
	// warnings, as the inspector shows them); set on failures too, where
	// CallTool returns it beside the error. Nil when unknown.
	Attempt *AttemptView
}

// Notification is one notification from the server.
type Notification struct {
	Method string
	Params json.RawMessage
	Time   time.Time
}

// EventSource is the live record of events (core/events.Log, adapted).
type EventSource interface {
	// Subscribe delivers batches of new and updated events, already
	// batched (about every 50 ms), from a goroutine.
	Subscribe(fn func(EventBatch)) (cancel func())
	// After returns up to max events with Seq > seq.
	After(seq uint64, max int) ([]EventView, error)
	// Get returns one event.
	Get(seq uint64) (EventView, bool)
	// Search finds the events q asks for, oldest first, up to the last
	// event recorded when it starts (returned: later ones come in
	// batches). It calls found with their sequence numbers in batches as
	// it goes, from its own goroutine, and stops early with ctx's error.
	Search(ctx context.Context, q EventQuery, found func(seqs []uint64)) (last uint64, err error)
	// WriteTrace writes the trace file of one server ("" for every
	// server).
	WriteTrace(w io.Writer, server string) error
}

// EventQuery is what the inspector's list shows: the events of one
// server after its clear, of one tab, matching the search box (as
// core/events.Match matches).
type EventQuery struct {
	Text     string
	Server   string
	Category string // "" for every tab
	After    uint64 // the server's clear
}

// EventBatch is one delivery of new events and of requests whose outcome
// changed.
type EventBatch struct {
	Events  []EventView
	Updated []EventView
	Dropped uint64
}

// EventView is one event as the inspector shows it.
type EventView struct {
	Seq        uint64
	Time       time.Time
	Server     string
	Kind       string // message, stderr, http, state, invalid, warning, error
	Dir        string // "out", "in" or ""
	Type       string // request, notification, result, error
	ID, Method string
	// Title is the row's title when set; when it is empty, Heading makes
	// it from Event, only for the rows drawn and the event shown (it
	// parses a log message's payload).
	Title string
	Badge string // outcome badge of a request, "" otherwise
	// BadgeLevel is "ok", "error", "warning" or "" to colour the badge.
	BadgeLevel string
	Categories []string // llm, tools, rpc, logs
	Raw        json.RawMessage
	Text       string
	Run        string
	Pair       uint64
	Size       int
	// Latency is the request's round trip (0 while waiting).
	Latency time.Duration
	// Attempt is set on a tool call attempt (Kind "tool"): its place in
	// its retry lineage and what is known of its outcome.
	Attempt *AttemptView
	// Event is the recorded event itself: the inspector's search,
	// counters and run waterfall are core/events' own (Match, Stats.Add,
	// Waterfall) over it.
	Event events.Event
}

// Heading returns the event's title: Title, or else Event's title, which
// it keeps in Title so that it is made once.
func (e *EventView) Heading() string {
	if e.Title == "" && e.Event.Kind != "" {
		e.Title = e.Event.Title()
	}
	return e.Title
}

// AttemptView is one attempt of a tool call in its retry lineage: attempts
// of the same call (same server, tool and arguments) share a lineage and
// are numbered 1, 2, 3...
type AttemptView struct {
	Lineage string
	Attempt int
	// ErrorClass says why the attempt failed (timeout, cancelled,
	// transport, protocol, tool, declined, input); "" when it succeeded.
	ErrorClass string
	// OutcomeUnknown: the attempt failed, but a tool that may change
	// something may have done its work all the same.
	OutcomeUnknown bool
	// MayHaveRunTwice: the attempt succeeded after one whose outcome is
	// unknown.
	MayHaveRunTwice bool
	// SameCallAgain: the attempt repeated a write that had succeeded or
	// was still running.
	SameCallAgain bool
	// Idempotent: the tool is marked idempotentHint and not read-only, so
	// a retry is labelled "attempt N (idempotent)".
	Idempotent bool
}

// Label is the attempt's badge and its level: the warning when there is
// one, else "attempt N" for a retry, else "".
func (a AttemptView) Label() (text, level string) {
	switch {
	case a.OutcomeUnknown:
		return "outcome unknown", "warning"
	case a.MayHaveRunTwice:
		return "may have run twice", "warning"
	case a.SameCallAgain:
		return "same call again", "warning"
	case a.Attempt > 1 && a.Idempotent:
		return fmt.Sprintf("attempt %d (idempotent)", a.Attempt), "primary"
	case a.Attempt > 1:
		return fmt.Sprintf("attempt %d", a.Attempt), "primary"
	}
	return "", ""
}

// Explain says in a sentence or two what the attempt's label means.
func (a AttemptView) Explain() string {
	var parts []string
	if a.Attempt > 0 {
		parts = append(parts, fmt.Sprintf("Attempt %d of this call.", a.Attempt))
	}
	if a.ErrorClass != "" {
		parts = append(parts, "It failed: "+events.ClassWords(a.ErrorClass)+".")
	}
	switch {
	case a.OutcomeUnknown:
		parts = append(parts, "⚠ Outcome unknown: the tool may change something, and it may have done its work although the call failed. Check before you retry.")
	case a.MayHaveRunTwice:
		parts = append(parts, "⚠ May have run twice: this attempt succeeded after one whose outcome is unknown.")
	case a.SameCallAgain:
		parts = append(parts, "⚠ Same call again: this repeats a write that had already succeeded or was still running.")
	}
	return strings.Join(parts, " ")
}

// IsError reports whether the event is a failure of some kind.
func (e EventView) IsError() bool {
	return e.Type == "error" || e.Kind == "error" || e.BadgeLevel == "error"
}
