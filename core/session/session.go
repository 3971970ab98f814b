package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/lineage"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Protocol versions the session knows how to speak.
const (
	// VersionLegacy is the newest protocol version that uses the
	// initialize handshake; the default.
	VersionLegacy = "2025-11-25"
	// VersionModern is the stateless protocol (server/discover, no
	// initialize, identity and capabilities in every request's _meta).
	VersionModern = "2026-07-28"
)

// Versions lists every protocol version that can be pinned, newest first.
var Versions = []string{VersionModern, VersionLegacy, "2025-06-18", "2025-03-26", "2024-11-05"}

// Era selects the protocol generation when no exact version is pinned.
type Era string

// The eras.
const (
	// EraLegacy speaks 2025-11-25 with the initialize handshake (the
	// default).
	EraLegacy Era = "legacy"
	// EraModern speaks 2026-07-28: server/discover, no initialize.
	EraModern Era = "modern"
	// EraAuto tries server/discover and falls back to initialize when the
	// server answers it with an error.
	EraAuto Era = "auto"
)

// Defaults for the zero values of [Options].
const (
	DefaultConnectionTimeout = 30 * time.Second
	DefaultRequestTimeout    = 60 * time.Second
	// DefaultConn is the event connection name when Options.Conn is empty.
	DefaultConn = "ad-hoc"
)

// Options configure a [Session]. The zero value is usable.
type Options struct {
	// Conn names the connection in every recorded event (the catalog
	// server name); DefaultConn when empty.
	Conn string
	// ClientInfo is sent as clientInfo; Spyglass's own when empty.
	ClientInfo mcp.Implementation
	// ProtocolVersion pins an exact version (one of [Versions], or any
	// other string to see what a server does with it). It wins over Era.
	ProtocolVersion string
	// Era chooses the protocol generation when ProtocolVersion is empty;
	// EraLegacy when empty.
	Era Era
	// Capabilities chooses what to advertise. nil advertises
	// [DefaultCapabilities] (everything Spyglass supports) for which a
	// handler in Handlers exists; a capability without a handler is never
	// advertised.
	Capabilities *Capabilities
	// Roots answer roots/list when Handlers.Roots is nil. A non-nil
	// slice, even an empty one, is enough for the roots capability to be
	// advertised; nil without Handlers.Roots means no roots capability.
	// Change them later with [Session.SetRoots].
	Roots []mcp.Root
	// Metadata is merged into the params._meta of every request the
	// session sends; keys the request already has win.
	Metadata map[string]any
	// ConnectionTimeout bounds dial, start and handshake
	// (DefaultConnectionTimeout when 0, none when negative).
	ConnectionTimeout time.Duration
	// RequestTimeout bounds each request; it restarts whenever progress
	// for the request arrives and pauses while a handler answers a
	// server request of the same run (DefaultRequestTimeout when 0,
	// none when negative).
	RequestTimeout time.Duration
	// PaginatedLists makes the list operations return one page and its
	// next cursor instead of following every cursor.
	PaginatedLists bool
	// ListChanged keeps, in the modern era, a subscriptions/listen open
	// for the list_changed notifications the server offers (tools,
	// prompts, resources), so that they arrive as a legacy server's do on
	// its own. Resource subscriptions need no option.
	ListChanged bool
	// NoReconnect stops an operation from dialing again after the
	// connection ended by itself; it then fails with ErrConnectionClosed.
	NoReconnect bool
	// WordError words a failure for a person, cause first ("Command not
	// found: node — check the command, or give its full path"): the
	// error event that records a failed connection says it first
	// (events.Event.Summary), its Text keeping the whole chain. Nil, or
	// words the same as the chain, records none.
	WordError func(error) string
	// Handlers answer the server's own requests.
	Handlers Handlers
	// Lineage groups tool call attempts into retry lineages; a tracker
	// of the session's own when nil. Share one between sessions to keep
	// lineages across them (the fingerprint includes Conn).
	Lineage *lineage.Tracker
}

// Capabilities are the client capabilities the user switched on. Each is
// advertised only when the handler that answers it exists.
type Capabilities struct {
	Roots           bool // roots (with listChanged); needs Handlers.Roots or Options.Roots
	Sampling        bool // sampling; needs Handlers.Sampling
	SamplingTools   bool // sampling.tools (tools and toolChoice in sampling requests)
	SamplingContext bool // sampling.context (includeContext honoured)
	ElicitationForm bool // elicitation.form; needs Handlers.Elicitation
	ElicitationURL  bool // elicitation.url; needs Handlers.Elicitation
	// Tasks advertises task-augmented sampling and elicitation requests
	// (answered synchronously: no client-side task is ever created) and
	// tasks/list and tasks/cancel.
	Tasks bool
	// Experimental holds the experimental capabilities, sent as given.
	Experimental map[string]json.RawMessage
}

// State is the state of a session's connection.
type State string

// The states.
const (
	StateDisconnected State = "disconnected"
	StateConnecting   State = "connecting"
	StateConnected    State = "connected"
	StateFailed       State = "failed"
	// StateAuthorizing is reserved for the OAuth flow: the server asked
	// for authorization and the user is being sent to the browser.
	StateAuthorizing State = "authorizing"
)

// StateChange is handed to state listeners.
type StateChange struct {
	From, To State
	// Err is why the connection failed or ended; nil for an orderly
	// change.
	Err error
	// Time is when the change happened.
	Time time.Time
}

// ServerInfo is what the server said about itself during the handshake.
type ServerInfo struct {
	// Run is the run of the handshake's messages.
	Run string
	// ProtocolVersion is the negotiated version; RequestedVersion the one
	// the client asked for.
	ProtocolVersion  string
	RequestedVersion string
	// Modern is true when the session speaks the stateless protocol
	// (server/discover instead of initialize).
	Modern bool
	// SupportedVersions is what server/discover listed (modern only).
	SupportedVersions []string
	// Fallback says how the version was reached when the first try did
	// not succeed: server/discover refused with -32022 and asked again,
	// or (auto era) server/discover failed and initialize was used. ""
	// when the first handshake request succeeded.
	Fallback string

	Name, Title, Version, Description, WebsiteURL string
	Icons                                         []mcp.Icon
	Instructions                                  string

	// Capabilities is the server's capabilities as sent; Caps the typed
	// view (which may lack fields newer than mcp-go).
	Capabilities json.RawMessage
	Caps         mcp.ServerCapabilities
	// ClientCapabilities is what the session advertised, as sent.
	ClientCapabilities json.RawMessage
	// Implementation is the serverInfo object as sent.
	Implementation json.RawMessage
	// Result is the whole initialize (or server/discover) result as sent.
	Result json.RawMessage
}

// recorder is what the session needs of an *events.Log.
type recorder interface {
	Append(e events.Event) uint64
	MarkCancelled(conn string, dir events.Direction, id string)
	MarkTimedOut(conn string, dir events.Direction, id string)
	MarkNoResponse(conn string, dir events.Direction, id string)
	CloseConn(conn string)
}

// Session is one live connection to an MCP server. It is safe for
// concurrent use.
type Session struct {
	dial     func(ctx context.Context) (wire.Conn, error)
	log      recorder
	opts     Options
	conn     string
	caps     effectiveCaps
	connSem  chan struct{} // held while connecting
	stateLsn listeners[StateChange]
	subs     subscribers

	mu         sync.Mutex
	state      State
	lastErr    error
	link       *link
	userClosed bool
	info       *ServerInfo
	nextID     int64
	nextRun    int64
	pending    map[string]*call  // our requests waiting for an answer, by id text
	gaveUp     map[string]gaveUp // requests we stopped waiting for, by id (late replies)
	tokens     map[string]*call  // progress token text → call
	tasks      map[string]string // task id → run (at most maxTasks)
	taskOrder  []string          // the ids in tasks, oldest first
	roots      []mcp.Root
	logLevel   string
	tools      map[string]toolMeta // the last listing of each tool, for lineage
	nextCall   int64
	modern     bool   // requests carry the modern _meta (2026-07-28)
	version    string // the protocol version being spoken
	stateQ     []StateChange
	firing     bool

	lis listener // the modern era's subscriptions/listen (subscribe.go)
}

// New returns a session that dials with dial and records into log. It
// does not connect: call [Session.Connect], or let the first operation do
// it. opts may be nil.
func New(dial func(ctx context.Context) (wire.Conn, error), log *events.Log, opts *Options) *Session {
	return newSession(dial, log, opts)
}

func newSession(dial func(ctx context.Context) (wire.Conn, error), log recorder, opts *Options) *Session {
	s := &Session{
		dial:    dial,
		log:     log,
		connSem: make(chan struct{}, 1),
		state:   StateDisconnected,
		pending: make(map[string]*call),
		gaveUp:  make(map[string]gaveUp),
		tools:   make(map[string]toolMeta),
		tokens:  make(map[string]*call),
		tasks:   make(map[string]string),
	}
	if opts != nil {
		s.opts = *opts
	}
	s.conn = s.opts.Conn
	if s.conn == "" {
		s.conn = DefaultConn
	}
	if s.opts.ClientInfo.Name == "" {
		s.opts.ClientInfo = mcp.Implementation{Name: "spyglass", Title: "Spyglass", Version: "dev"}
	}
	if s.opts.ConnectionTimeout == 0 {
		s.opts.ConnectionTimeout = DefaultConnectionTimeout
	}
	if s.opts.RequestTimeout == 0 {
		s.opts.RequestTimeout = DefaultRequestTimeout
	}
	s.roots = append([]mcp.Root(nil), s.opts.Roots...)
	if s.opts.Lineage == nil {
		s.opts.Lineage = lineage.NewTracker(nil)
	}
	s.caps = computeCaps(&s.opts)
	return s
}

// Conn returns the connection name used in events.
func (s *Session) Conn() string { return s.conn }

// State returns the current state and the error that caused it (nil for
// an orderly state).
func (s *Session) State() (State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.lastErr
}

// Info returns what the server said about itself in the last handshake,
// or nil before the first successful one. The value is a copy.
func (s *Session) Info() *ServerInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.info == nil {
		return nil
	}
	c := *s.info
	c.Icons = append([]mcp.Icon(nil), c.Icons...)
	c.SupportedVersions = append([]string(nil), c.SupportedVersions...)
	return &c
}

// ClientCapabilities returns the client capabilities the session
// advertises, as JSON.
func (s *Session) ClientCapabilities() json.RawMessage {
	return append(json.RawMessage(nil), s.caps.raw...)
}

// OnState registers fn to be told of every state change, in order, outside
// any lock of the session, on the goroutine that caused the change (which
// may be the connection's reader): fn must return quickly. Calling cancel
// stops it.
func (s *Session) OnState(fn func(StateChange)) (cancel func()) {
	return s.stateLsn.add(fn)
}

// setState changes the state and records it. Call with s.mu held; the
// listeners are told by fireStates, which the caller runs after unlocking.
func (s *Session) setStateLocked(to State, err error, run string) {
	from := s.state
	if from == to && err == nil {
		return
	}
	s.state = to
	s.lastErr = err
	now := time.Now()
	s.stateQ = append(s.stateQ, StateChange{From: from, To: to, Err: err, Time: now})
	s.log.Append(events.Event{Time: now, Conn: s.conn, Kind: events.KindState, Text: string(to), Run: run})
	if err != nil && to != StateConnected {
		ev := events.Event{Time: now, Conn: s.conn, Kind: events.KindError, Text: err.Error(), Run: run}
		if s.opts.WordError != nil {
			if w := s.opts.WordError(err); w != ev.Text {
				ev.Summary = w
			}
		}
		s.log.Append(ev)
	}
}

// fireStates tells the state listeners about queued changes. Only one
// goroutine fires at a time, so listeners see changes in order.
func (s *Session) fireStates() {
	s.mu.Lock()
	if s.firing {
		s.mu.Unlock()
		return
	}
	s.firing = true
	for len(s.stateQ) > 0 {
		q := s.stateQ
		s.stateQ = nil
		s.mu.Unlock()
		for _, c := range q {
			s.stateLsn.each(func(fn func(StateChange)) { fn(c) })
		}
		s.mu.Lock()
	}
	s.firing = false
	s.mu.Unlock()
}

// newRun allocates a run id. Call with s.mu held.
func (s *Session) newRunLocked() string {
	s.nextRun++
	return s.conn + "#" + strconv.FormatInt(s.nextRun, 10)
}

// NewRun allocates a fresh run id, for a caller that groups several
// operations into one run (pass it in CallOptions.Run).
func (s *Session) NewRun() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newRunLocked()
}

// Connect connects (dial, start, handshake) unless the session is already
// connected. It undoes a previous Close.
func (s *Session) Connect(ctx context.Context) error {
	s.mu.Lock()
	s.userClosed = false
	s.mu.Unlock()
	_, err := s.ensureLink(ctx, true)
	return err
}

// Close ends the connection. Requests still waiting fail with
// ErrConnectionClosed; later operations fail with ErrClosed until Connect
// is called again.
func (s *Session) Close() error {
	s.mu.Lock()
	s.userClosed = true
	l := s.link
	s.mu.Unlock()
	s.stopListen()
	if l == nil {
		return nil
	}
	err := l.conn.Close()
	// Conns call OnClose from Close or soon after; make sure the session
	// does not wait for a conn that never calls it.
	s.linkClosed(l, nil)
	return err
}

// ensureLink returns the live link, dialing and handshaking when there is
// none. explicit is true for Connect (which ignores NoReconnect).
func (s *Session) ensureLink(ctx context.Context, explicit bool) (*link, error) {
	s.mu.Lock()
	if l := s.link; l != nil && l.ready && !l.isClosed() {
		s.mu.Unlock()
		return l, nil
	}
	if s.userClosed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	if !explicit && s.opts.NoReconnect && s.info != nil {
		err := s.lastErr
		s.mu.Unlock()
		return nil, &ClosedError{Err: err}
	}
	s.mu.Unlock()

	select {
	case s.connSem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("session: connect: %w", ctx.Err())
	}
	defer func() { <-s.connSem }()
	// Another caller may have connected while we waited.
	s.mu.Lock()
	if l := s.link; l != nil && l.ready && !l.isClosed() {
		s.mu.Unlock()
		return l, nil
	}
	if s.userClosed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	run := s.newRunLocked()
	s.setStateLocked(StateConnecting, nil, run)
	s.mu.Unlock()
	s.fireStates()

	l, err := s.connect(ctx, run)
	if err == nil {
		s.mu.Lock()
		closedByUser := s.userClosed
		s.mu.Unlock()
		switch {
		case closedByUser:
			// Close was called while the handshake ran.
			s.dropLink(l)
			err = ErrClosed
		case l.isClosed():
			err = &ClosedError{Method: "initialize", Err: l.closeErr()}
		}
	}
	s.mu.Lock()
	if err != nil {
		if s.state == StateConnecting {
			if s.userClosed {
				// Close was called while connecting.
				s.setStateLocked(StateDisconnected, nil, run)
			} else {
				s.setStateLocked(StateFailed, err, run)
			}
		}
		s.mu.Unlock()
		s.fireStates()
		return nil, err
	}
	l.ready = true
	s.setStateLocked(StateConnected, nil, run)
	s.mu.Unlock()
	s.fireStates()
	s.listenAfterConnect()
	return l, nil
}

// connect dials, starts the conn and performs the handshake.
func (s *Session) connect(ctx context.Context, run string) (*link, error) {
	cctx := ctx
	if s.opts.ConnectionTimeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, s.opts.ConnectionTimeout)
		defer cancel()
	}
	c, err := s.dial(cctx)
	if err != nil {
		return nil, fmt.Errorf("session: dial: %w", err)
	}
	l := newLink(c)
	s.mu.Lock()
	s.link = l
	s.mu.Unlock()
	err = c.Start(cctx, wire.Handler{
		OnMessage: func(raw []byte) { s.onMessage(l, raw) },
		OnClose:   func(err error) { s.linkClosed(l, err) },
		OnLost:    func(id string, err error) { s.onLost(l, id, err) },
	})
	if err != nil {
		s.mu.Lock()
		if s.link == l {
			s.link = nil
		}
		s.mu.Unlock()
		l.markClosed(err, nil)
		_ = c.Close()
		return nil, fmt.Errorf("session: start: %w", err)
	}
	info, err := s.handshake(cctx, l, run)
	if err != nil {
		s.dropLink(l)
		return nil, err
	}
	if v, ok := c.(interface{ SetProtocolVersion(string) }); ok {
		v.SetProtocolVersion(info.ProtocolVersion)
	}
	s.mu.Lock()
	s.info = info
	s.mu.Unlock()
	if !info.Modern {
		// Only after the initialize result arrived, in its own write.
		if err := s.notify(cctx, l, "notifications/initialized", nil, run, nil); err != nil {
			s.dropLink(l)
			return nil, fmt.Errorf("session: initialized: %w", err)
		}
	}
	return l, nil
}

// dropLink closes a link whose handshake failed.
func (s *Session) dropLink(l *link) {
	_ = l.conn.Close()
	s.linkClosed(l, nil)
}

// handshake performs initialize (legacy) or server/discover (modern),
// following the pinned version or era.
func (s *Session) handshake(ctx context.Context, l *link, run string) (*ServerInfo, error) {
	version := s.opts.ProtocolVersion
	modern := false
	auto := false
	switch {
	case version != "":
		modern = version >= VersionModern
	case s.opts.Era == EraModern:
		version, modern = VersionModern, true
	case s.opts.Era == EraAuto:
		version, modern, auto = VersionModern, true, true
	default:
		version = VersionLegacy
	}
	s.setVersion(version, modern)
	// The HTTP transport needs the version from the first request on:
	// modern requests carry it (and Mcp-Method, Mcp-Name) as headers.
	setWireVersion(l.conn, version, modern)
	if !modern {
		return s.initialize(ctx, l, run, version)
	}
	info, err := s.discover(ctx, l, run, version, auto)
	fallback := ""
	if retry, ok := versionRetry(err); ok && (auto || retry >= VersionModern) {
		// The server refused the version (-32022) and named the ones it
		// speaks: ask again with the newest one we know (a legacy one
		// only in the auto era).
		fallback = "server/discover for " + version + " was refused (" + err.Error() + "); asked again with " + retry
		version, modern = retry, retry >= VersionModern
		s.setVersion(version, modern)
		setWireVersion(l.conn, version, modern)
		if modern {
			info, err = s.discover(ctx, l, run, version, auto)
		} else {
			info, err = s.initialize(ctx, l, run, version)
		}
	}
	if err == nil {
		info.Fallback = fallback
		return info, nil
	}
	if !modern {
		return nil, err
	}
	// A legacy server answers server/discover with an error (a JSON-RPC
	// error, or over HTTP a 4xx status), or not at all (then the shorter
	// discover timeout ends the wait).
	var rpcErr *RPCError
	var httpErr *wire.HTTPError
	if !isRPCError(err, &rpcErr) && !errors.Is(err, ErrTimeout) && !errors.Is(err, ErrUnsupportedVersion) &&
		!(errors.As(err, &httpErr) && httpErr.Status >= 400 && httpErr.Status < 500 && !errors.Is(err, wire.ErrUnauthorized)) {
		return nil, err
	}
	if !auto {
		return nil, &LegacyServerError{Version: version, Refusal: err}
	}
	s.setVersion(VersionLegacy, false)
	setWireVersion(l.conn, "", false)
	refusal := err
	if info, err = s.initialize(ctx, l, run, VersionLegacy); err != nil {
		return nil, err
	}
	info.Fallback = "server/discover failed (" + refusal.Error() + "); fell back to initialize"
	return info, nil
}

// versionRetry returns the version to ask for again when err is an
// "unsupported protocol version" error (-32022) whose data lists supported
// versions: the newest of [Versions] the server supports (which may be
// the one refused: a server answers -32022 to a request that lacked it).
func versionRetry(err error) (string, bool) {
	var rpcErr *RPCError
	if !isRPCError(err, &rpcErr) || rpcErr.Code != CodeUnsupportedVersion {
		return "", false
	}
	var data struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(rpcErr.Data, &data) != nil {
		return "", false
	}
	for _, v := range Versions {
		if slices.Contains(data.Supported, v) {
			return v, true
		}
	}
	return "", false
}

// setWireVersion tells a conn that puts the protocol version in its
// requests (HTTP) the version before the handshake: the modern one, which
// every request must carry, or none (initialize negotiates it).
func setWireVersion(c wire.Conn, version string, modern bool) {
	v, ok := c.(interface{ SetProtocolVersion(string) })
	if !ok {
		return
	}
	if !modern {
		version = ""
	}
	v.SetProtocolVersion(version)
}

func (s *Session) setVersion(version string, modern bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version, s.modern = version, modern
}

func (s *Session) initialize(ctx context.Context, l *link, run, version string) (*ServerInfo, error) {
	params, err := json.Marshal(struct {
		ProtocolVersion string             `json:"protocolVersion"`
		Capabilities    json.RawMessage    `json:"capabilities"`
		ClientInfo      mcp.Implementation `json:"clientInfo"`
	}{version, s.caps.raw, s.opts.ClientInfo})
	if err != nil {
		return nil, fmt.Errorf("session: initialize: %w", err)
	}
	rep, err := s.roundTrip(ctx, l, "initialize", params, &CallOptions{Run: run, Timeout: -1}, false)
	if err != nil {
		return nil, fmt.Errorf("session: initialize: %w", err)
	}
	var res struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ServerInfo      json.RawMessage `json:"serverInfo"`
		Instructions    string          `json:"instructions"`
	}
	if err := json.Unmarshal(rep.Raw, &res); err != nil {
		return nil, fmt.Errorf("session: initialize: %w: %w", ErrDecode, err)
	}
	info := &ServerInfo{
		Run:                run,
		ProtocolVersion:    res.ProtocolVersion,
		RequestedVersion:   version,
		Instructions:       res.Instructions,
		Capabilities:       res.Capabilities,
		ClientCapabilities: s.caps.raw,
		Implementation:     res.ServerInfo,
		Result:             rep.Raw,
	}
	info.fill()
	if info.ProtocolVersion != version {
		known := false
		for _, v := range Versions {
			known = known || v == info.ProtocolVersion
		}
		text := "the server answered protocol version " + strconv.Quote(info.ProtocolVersion) + " to a request for " + strconv.Quote(version)
		if !known {
			text += " (a version this client does not know)"
		}
		s.log.Append(events.Event{Conn: s.conn, Kind: events.KindWarning, Text: text, Run: run})
	}
	return info, nil
}

// autoDiscoverTimeout bounds server/discover in the auto era, where a
// legacy server may never answer it.
const autoDiscoverTimeout = 5 * time.Second

func (s *Session) discover(ctx context.Context, l *link, run, version string, auto bool) (*ServerInfo, error) {
	opts := &CallOptions{Run: run, Timeout: -1}
	if auto {
		opts.Timeout = autoDiscoverTimeout
		if c := s.opts.ConnectionTimeout; c > 0 && c/2 < opts.Timeout {
			opts.Timeout = c / 2
		}
	}
	rep, err := s.roundTrip(ctx, l, "server/discover", json.RawMessage(`{}`), opts, false)
	if err != nil {
		return nil, fmt.Errorf("session: server/discover: %w", err)
	}
	var res struct {
		SupportedVersions []string        `json:"supportedVersions"`
		Capabilities      json.RawMessage `json:"capabilities"`
		Instructions      string          `json:"instructions"`
		// ServerInfo is where some servers put it instead of _meta.
		ServerInfo json.RawMessage `json:"serverInfo"`
	}
	var meta struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(rep.Raw, &res); err != nil {
		return nil, fmt.Errorf("session: server/discover: %w: %w", ErrDecode, err)
	}
	_ = json.Unmarshal(rep.Raw, &meta)
	info := &ServerInfo{
		Run:                run,
		RequestedVersion:   version,
		Modern:             true,
		SupportedVersions:  res.SupportedVersions,
		Instructions:       res.Instructions,
		Capabilities:       res.Capabilities,
		ClientCapabilities: s.caps.raw,
		Implementation:     meta.Meta[mcp.MetaKeyServerInfo],
		Result:             rep.Raw,
	}
	if len(info.Implementation) == 0 {
		info.Implementation = res.ServerInfo
	}
	info.ProtocolVersion = version
	supported := false
	for _, v := range res.SupportedVersions {
		if v == version {
			supported = true
		}
	}
	if !supported {
		return nil, fmt.Errorf("session: server/discover: %w: %s (server supports %v)", ErrUnsupportedVersion, version, res.SupportedVersions)
	}
	info.fill()
	return info, nil
}

// fill decodes the typed views of the raw handshake fields.
func (i *ServerInfo) fill() {
	if len(i.Implementation) > 0 {
		var impl mcp.Implementation
		if json.Unmarshal(i.Implementation, &impl) == nil {
			i.Name, i.Title, i.Version = impl.Name, impl.Title, impl.Version
			i.Description, i.WebsiteURL, i.Icons = impl.Description, impl.WebsiteURL, impl.Icons
		}
	}
	if len(i.Capabilities) > 0 {
		_ = json.Unmarshal(i.Capabilities, &i.Caps)
	}
}

// linkClosed handles the end of a link: every waiter is failed, the log
// marks the open requests as unanswered and the state changes.
//
// The state changes before the link's waiters are woken, so a request that
// fails because its connection closed returns to a session that already
// says disconnected (and the next call's reconnect comes after it).
func (s *Session) linkClosed(l *link, err error) {
	if l.isClosed() {
		return
	}
	s.mu.Lock()
	if s.link == l {
		s.link = nil
		if s.state == StateConnected {
			s.setStateLocked(StateDisconnected, err, "")
		}
	}
	s.mu.Unlock()
	if !l.markClosed(err, func() { s.log.CloseConn(s.conn) }) {
		s.fireStates()
		return
	}
	s.mu.Lock()
	// Calls of this link are woken by l.done; forget them here.
	for id, c := range s.pending {
		if c.link == l {
			delete(s.pending, id)
			if c.token != "" {
				delete(s.tokens, c.token)
			}
		}
	}
	s.mu.Unlock()
	s.fireStates()
	l.cancelServerRequests()
}

// listeners is a set of callbacks.
type listeners[T any] struct {
	mu   sync.Mutex
	next int
	fns  map[int]func(T)
}

func (ls *listeners[T]) add(fn func(T)) func() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.fns == nil {
		ls.fns = make(map[int]func(T))
	}
	ls.next++
	id := ls.next
	ls.fns[id] = fn
	return func() {
		ls.mu.Lock()
		defer ls.mu.Unlock()
		delete(ls.fns, id)
	}
}

// each calls f for a copy of the registered callbacks, outside the lock.
func (ls *listeners[T]) each(f func(func(T))) {
	ls.mu.Lock()
	fns := make([]func(T), 0, len(ls.fns))
	for _, fn := range ls.fns {
		fns = append(fns, fn)
	}
	ls.mu.Unlock()
	for _, fn := range fns {
		f(fn)
	}
}
