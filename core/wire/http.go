package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// HTTPConfig describes a server reached over HTTP (Streamable HTTP or
// legacy SSE).
type HTTPConfig struct {
	// Conn names the connection in recorded events.
	Conn string
	// URL is the MCP endpoint (Streamable HTTP) or the SSE stream URL
	// (legacy SSE).
	URL string
	// Header holds headers sent with every request (Authorization, custom
	// headers from the catalog).
	Header http.Header
	// Client does the HTTP work; nil means a fresh client. Its transport
	// is wrapped in a Tap; it should have no Timeout (streams live long).
	Client *http.Client
	// Redactor masks secrets in recorded HTTP exchanges; nil masks secret
	// headers and bearer tokens only.
	Redactor *Redactor
	// DefaultRetry is the wait before reconnecting a dropped stream when
	// the server sent no retry field. Zero means 1 s.
	DefaultRetry time.Duration
	// MaxReconnects bounds consecutive failed reconnection attempts of
	// one stream. Zero means 5.
	MaxReconnects int
	// MaxMessageSize bounds one message read from the server (an SSE
	// event's data, a JSON response body), in bytes; a longer one is
	// recorded as invalid and skipped. Zero means DefaultMaxMessageSize.
	MaxMessageSize int
	// Prepare, when set, is called with every request just before it is
	// sent (after the transport's own headers are set), for example to set
	// a fresh OAuth access token. An error aborts the request and is
	// returned wrapped.
	Prepare func(req *http.Request) error
}

// do runs Prepare and sends req.
func do(client *http.Client, prepare func(*http.Request) error, req *http.Request) (*http.Response, error) {
	if prepare != nil {
		if err := prepare(req); err != nil {
			return nil, &prepareError{err}
		}
	}
	return client.Do(req)
}

// prepareError marks a failure of HTTPConfig.Prepare (not a transport
// failure).
type prepareError struct{ err error }

func (e *prepareError) Error() string { return "prepare request: " + e.err.Error() }
func (e *prepareError) Unwrap() error { return e.err }

func (c *HTTPConfig) defaults() {
	if c.DefaultRetry <= 0 {
		c.DefaultRetry = time.Second
	}
	if c.MaxReconnects <= 0 {
		c.MaxReconnects = 5
	}
}

// ErrUnreachable is wrapped by Send and Start errors when the server could
// not be connected to at all (connection refused, unknown host).
var ErrUnreachable = errors.New("wire: server unreachable")

// Header names of the Streamable HTTP transport.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderLastEventID     = "Last-Event-ID"
	// HeaderMethod mirrors the JSON-RPC method of a POSTed message
	// (protocol 2026-07-28 and later).
	HeaderMethod = "Mcp-Method"
	// HeaderName mirrors params.name (tools/call, prompts/get) or
	// params.uri (resources/read, subscribe, unsubscribe) of a POSTed
	// request (protocol 2026-07-28 and later); values that are not plain
	// ASCII travel Base64-wrapped as =?base64?...?=.
	HeaderName = "Mcp-Name"
)

// ModernVersion is the first protocol version of the stateless
// generation: no sessions, no GET stream, no resumption, and the
// MCP-Protocol-Version, Mcp-Method and Mcp-Name headers on every POST.
const ModernVersion = "2026-07-28"

// IsModern reports whether protocol version v belongs to the stateless
// generation (2026-07-28 or later; versions are dates).
func IsModern(v string) bool { return v >= ModernVersion }

// maxErrorBody bounds how much of an error response body is kept.
const maxErrorBody = 64 << 10

// StreamableHTTP is a Conn speaking the Streamable HTTP transport of MCP
// 2025-11-25: each message is POSTed; a response comes back as a JSON
// body or on an SSE stream (with server→client requests and notifications
// before it); after notifications/initialized a GET stream carries
// messages the server sends on its own. Dropped streams are resumed with
// Last-Event-ID after the server's retry delay. Close deletes the session.
type StreamableHTTP struct {
	cfg    HTTPConfig
	rec    recorder
	client *http.Client

	mu        sync.Mutex
	started   bool
	closed    bool
	sessionID string
	version   string
	getCancel context.CancelFunc // the standalone GET stream, if open
	getGen    int                // counts GET streams opened, to tell them apart
	disp      *dispatcher
	ctx       context.Context // lives until Close
	cancel    context.CancelFunc
	streams   sync.WaitGroup
	posts     map[string]*postStream // open POST response streams, by request id
	abandoned []*postStream          // abandoned posts still open, oldest first
}

// postStream is the open SSE response stream of one POSTed request.
type postStream struct {
	cancel    context.CancelFunc
	abandoned bool
	timer     *time.Timer // ends the stream after the grace, once abandoned
}

var _ Conn = (*StreamableHTTP)(nil)

// NewStreamableHTTP returns a StreamableHTTP for cfg recording into rec
// (which may be nil). Nothing is sent before the first Send.
func NewStreamableHTTP(cfg HTTPConfig, rec Recorder) *StreamableHTTP {
	cfg.defaults()
	return &StreamableHTTP{
		cfg:    cfg,
		rec:    recorder{rec: rec, conn: cfg.Conn},
		client: tappedClient(cfg.Client, rec, cfg.Conn, cfg.Redactor),
	}
}

// Start checks the URL and begins delivering to h. It sends nothing: the
// first request is the caller's initialize.
func (c *StreamableHTTP) Start(ctx context.Context, h Handler) error {
	if _, err := parseHTTPURL(c.cfg.URL); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	if c.started {
		return ErrAlreadyStarted
	}
	c.started = true
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.disp = newDispatcher(h)
	return nil
}

func parseHTTPURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("wire: bad URL %q: %w", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("wire: bad URL %q: want http:// or https://", s)
	}
	return u, nil
}

// SetProtocolVersion makes later requests carry MCP-Protocol-Version: v
// (the version negotiated by initialize). A modern version (see
// [IsModern]) must be set before the first request, server/discover
// included: from then on every POST carries MCP-Protocol-Version,
// Mcp-Method and Mcp-Name, and the transport keeps no session (no
// Mcp-Session-Id, no GET stream, no resumption, no DELETE on Close).
// The empty string sends no version header until the next call.
func (c *StreamableHTTP) SetProtocolVersion(v string) {
	c.mu.Lock()
	c.version = v
	c.mu.Unlock()
}

// SessionID returns the Mcp-Session-Id the server assigned, if any.
func (c *StreamableHTTP) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

// outgoing is what Send needs to know about a message.
type outgoing struct {
	id     string // compact JSON id of a request, "" otherwise
	method string
	name   string // params.name or params.uri, for the Mcp-Name header
}

func peek(msg []byte) outgoing {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name any `json:"name"`
			URI  any `json:"uri"`
		} `json:"params"`
	}
	t := bytes.TrimLeft(msg, " \t\r\n")
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &m) != nil {
		return outgoing{}
	}
	o := outgoing{method: m.Method}
	switch m.Method {
	case "tools/call", "prompts/get":
		o.name, _ = m.Params.Name.(string)
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		o.name, _ = m.Params.URI.(string)
	}
	if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
		o.id = string(bytes.TrimSpace(m.ID))
	}
	return o
}

// answers reports whether data is a response to the request with id.
func answers(data []byte, id string) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(data, &m) != nil || m.Method != "" {
		return false
	}
	return string(bytes.TrimSpace(m.ID)) == id
}

func (c *StreamableHTTP) setHeaders(req *http.Request, sid, version string, extra http.Header) {
	for k, vs := range c.cfg.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	for k, vs := range extra {
		req.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	if sid != "" {
		req.Header.Set(HeaderSessionID, sid)
	}
	if version != "" {
		req.Header.Set(HeaderProtocolVersion, version)
	}
}

// Send POSTs msg. It returns when the server has accepted it: after a 202,
// after a JSON body has been read, or once an SSE response stream has
// started (its messages, including the response, then arrive through
// OnMessage). ctx bounds only that wait. Failures are *HTTPError (which
// may match ErrUnauthorized or ErrSessionExpired), or wrap ErrUnreachable,
// ErrClosed or the context's error.
func (c *StreamableHTTP) Send(ctx context.Context, msg []byte, opts *SendOptions) error {
	o := peek(msg)
	c.mu.Lock()
	if !c.started {
		c.mu.Unlock()
		return ErrNotStarted
	}
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	if o.method == "initialize" {
		// A new session: forget the old one and its stream.
		c.sessionID = ""
		if c.getCancel != nil {
			c.getCancel()
			c.getCancel = nil
		}
	}
	sid, version, connCtx := c.sessionID, c.version, c.ctx
	c.mu.Unlock()
	modern := IsModern(version)
	if o.method == "initialize" {
		version = ""
		modern = false
	}
	if modern {
		sid = "" // the stateless protocol has no sessions
	}

	reqCtx, reqCancel := context.WithCancel(connCtx)
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, c.cfg.URL, bytes.NewReader(msg))
	if err != nil {
		reqCancel()
		return fmt.Errorf("wire: POST: %w", err)
	}
	var extra http.Header
	if opts != nil {
		extra = opts.Header
	}
	c.setHeaders(req, sid, version, extra)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if modern && o.method != "" {
		req.Header.Set(HeaderMethod, o.method)
		if o.name != "" {
			if v, ok := mcp.EncodeHeaderValue(o.name); ok {
				req.Header.Set(HeaderName, v)
			}
		}
	}

	// The standalone GET stream is opened alongside the initialized
	// notification rather than after it: it needs only the session id,
	// and dialling it in parallel saves a round trip on every connect.
	// Send still returns only once the server has the stream (below), so
	// that what the server sends after initialized has a stream to go to.
	var getReady <-chan struct{}
	if o.method == "notifications/initialized" && !modern {
		getReady = c.openGET()
	}

	stop := context.AfterFunc(ctx, reqCancel)
	resp, err := do(c.client, c.cfg.Prepare, req)
	if err != nil {
		stop()
		reqCancel()
		return c.transportError("POST", err, ctx)
	}
	if s := resp.Header.Get(HeaderSessionID); s != "" && !modern && (o.method == "initialize" || sid == "") {
		c.mu.Lock()
		c.sessionID = s
		c.mu.Unlock()
	}

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		stop()
		reqCancel()
		if o.id != "" && resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden &&
			!isEventStream(resp.Header) && answers(bytes.TrimSpace(body), o.id) {
			// A JSON-RPC error answering the request, sent with an HTTP
			// error status (the 2026-07-28 protocol maps error codes to
			// statuses): the answer is the message, not the status.
			c.disp.push(body)
			return nil
		}
		herr := &HTTPError{Method: "POST", URL: c.cfg.URL, Status: resp.StatusCode, Header: resp.Header, Body: body, SessionID: sid}
		if resp.StatusCode == http.StatusNotFound && sid != "" {
			c.mu.Lock()
			if c.sessionID == sid {
				c.sessionID = ""
			}
			c.mu.Unlock()
		}
		return herr
	}

	if isEventStream(resp.Header) {
		stop()
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			resp.Body.Close()
			reqCancel()
			return fmt.Errorf("wire: POST %s: %w", c.cfg.URL, ErrClosed)
		}
		c.streams.Add(1)
		var ps *postStream
		if o.id != "" {
			ps = &postStream{cancel: reqCancel}
			if c.posts == nil {
				c.posts = make(map[string]*postStream)
			}
			c.posts[o.id] = ps
		}
		c.mu.Unlock()
		go func() {
			defer c.streams.Done()
			defer reqCancel()
			defer c.endPost(o.id, ps)
			c.readStream(reqCtx, resp, o.id, false, modern)
		}()
	} else {
		limit := maxSize(c.cfg.MaxMessageSize)
		body, err := readBody(resp, limit)
		resp.Body.Close()
		stop()
		reqCancel()
		if err != nil {
			return c.transportError("POST", err, ctx)
		}
		if err := c.body(body, resp.StatusCode, resp.Header.Get("Content-Type"), limit); err != nil && o.id != "" {
			// No answer will come: fail the request now rather than
			// let it time out.
			return err
		}
	}

	if getReady != nil {
		// Wait (briefly) until the server has the GET stream.
		t := time.NewTimer(getReadyWait)
		select {
		case <-getReady:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	return nil
}

// getReadyWait bounds how long Send of notifications/initialized waits for
// the GET stream's response headers.
const getReadyWait = time.Second

// body delivers a JSON response body, or records it as invalid and
// returns an error matching ErrBadBody (an HTML page, truncated JSON, a
// body over limit).
func (c *StreamableHTTP) body(body []byte, status int, ctype string, limit int) error {
	if len(body) > limit {
		tl := &tooLongError{size: len(body), limit: limit, head: body[:min(len(body), headBytes)], unread: true}
		c.rec.tooLong(tl)
		return fmt.Errorf("wire: POST %s: %w: HTTP %d %s body: %w", c.cfg.URL, ErrBadBody, status, ctype, tl)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if IsMessage(body) {
		c.disp.push(body)
		return nil
	}
	c.rec.invalid(body, "response body ("+ctype+") is not a JSON-RPC message")
	head := body[:min(len(body), 200)]
	return fmt.Errorf("wire: POST %s: %w: HTTP %d, Content-Type %q, %d bytes beginning %q", c.cfg.URL, ErrBadBody, status, ctype, len(body), head)
}

func isEventStream(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/event-stream"
}

// transportError wraps a failed round trip: the caller's context error,
// ErrClosed after Close, ErrUnreachable for a failed dial.
func (c *StreamableHTTP) transportError(method string, err error, ctx context.Context) error {
	return wrapTransportError(method, c.cfg.URL, err, ctx, c.ctx)
}

func wrapTransportError(method, u string, err error, ctx, connCtx context.Context) error {
	switch {
	case ctx != nil && ctx.Err() != nil:
		return fmt.Errorf("wire: %s %s: %w", method, u, ctx.Err())
	case connCtx != nil && connCtx.Err() != nil:
		return fmt.Errorf("wire: %s %s: %w", method, u, ErrClosed)
	}
	var pe *prepareError
	if errors.As(err, &pe) {
		return fmt.Errorf("wire: %s %s: %w", method, u, pe.err)
	}
	var op *net.OpError
	var dns *net.DNSError
	if (errors.As(err, &op) && op.Op == "dial") || errors.As(err, &dns) {
		return fmt.Errorf("wire: %s %s: %w: %w", method, u, ErrUnreachable, err)
	}
	return fmt.Errorf("wire: %s %s: %w", method, u, err)
}

// openGET opens the standalone GET stream once per session. The channel
// it returns is closed when the server has answered the GET (or it
// failed); nil when no stream was opened.
func (c *StreamableHTTP) openGET() <-chan struct{} {
	c.mu.Lock()
	if c.closed || c.getCancel != nil {
		c.mu.Unlock()
		return nil
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.getCancel = cancel
	c.getGen++
	gen := c.getGen
	c.streams.Add(1)
	c.mu.Unlock()
	ready := make(chan struct{})
	go func() {
		defer c.streams.Done()
		defer cancel()
		resp, err := c.get(ctx, "")
		if err != nil {
			// Not open: a later notifications/initialized (sent again
			// after a sign-in) may try once more.
			c.mu.Lock()
			if c.getGen == gen {
				c.getCancel = nil
			}
			c.mu.Unlock()
		}
		close(ready)
		if err != nil {
			var herr *HTTPError
			if errors.As(err, &herr) && (herr.Status == http.StatusMethodNotAllowed || herr.Status == http.StatusNotFound) {
				return // the server offers no GET stream (405, or 404 from a POST-only route)
			}
			if ctx.Err() == nil {
				c.warn("GET stream not opened: " + err.Error())
			}
			return
		}
		c.readStream(ctx, resp, "", true, false)
	}()
	return ready
}

// get opens a GET event stream, resuming after lastID when given.
func (c *StreamableHTTP) get(ctx context.Context, lastID string) (*http.Response, error) {
	c.mu.Lock()
	sid, version := c.sessionID, c.version
	c.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("wire: GET: %w", err)
	}
	c.setHeaders(req, sid, version, nil)
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set(HeaderLastEventID, lastID)
	}
	resp, err := do(c.client, c.cfg.Prepare, req)
	if err != nil {
		return nil, wrapTransportError("GET", c.cfg.URL, err, nil, ctx)
	}
	if resp.StatusCode != http.StatusOK || !isEventStream(resp.Header) {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		status := resp.StatusCode
		if status == http.StatusOK {
			status = http.StatusNotAcceptable // 200 but no event stream
		}
		return nil, &HTTPError{Method: "GET", URL: c.cfg.URL, Status: status, Header: resp.Header, Body: body, SessionID: sid}
	}
	return resp, nil
}

// readStream reads an SSE stream (a POST response when standalone is
// false, the GET stream otherwise), delivering its messages. When the
// stream drops before it is done (a POST stream before the response to
// wantID, the GET stream any time) it reconnects with GET and
// Last-Event-ID after the server's retry delay. A modern (stateless)
// stream is never resumed: the request is lost with it.
func (c *StreamableHTTP) readStream(ctx context.Context, resp *http.Response, wantID string, standalone, modern bool) {
	lastID := ""
	retry := time.Duration(0)
	failures := 0
	for {
		answered := false
		sr := newSSEReader(resp.Body, c.cfg.MaxMessageSize)
		for {
			ev, err := sr.next()
			if err != nil {
				break
			}
			if ev.HasID {
				lastID = ev.ID
			}
			if ev.Retry > 0 {
				retry = ev.Retry
			}
			if ev.tooLong != nil {
				c.rec.tooLong(ev.tooLong)
				continue
			}
			if ev.Type != "" && ev.Type != "message" {
				continue
			}
			if len(bytes.TrimSpace(ev.Data)) == 0 {
				continue // a priming event
			}
			if !IsMessage(ev.Data) {
				c.rec.invalid(ev.Data, "SSE event is not a JSON-RPC message")
				continue
			}
			if wantID != "" && answers(ev.Data, wantID) {
				answered = true
			}
			c.disp.push(ev.Data)
		}
		resp.Body.Close()
		if ctx.Err() != nil || (!standalone && (wantID == "" || answered)) {
			return
		}
		if !standalone && modern {
			c.warn("response stream ended before the response to request " + wantID + " (streams of protocol " + ModernVersion + " cannot be resumed)")
			c.disp.lost(wantID, fmt.Errorf("%w (streams of protocol %s cannot be resumed)", ErrResponseLost, ModernVersion))
			return
		}
		if !standalone && lastID == "" {
			c.warn("response stream ended before the response to request " + wantID + " and carried no event id to resume from")
			c.disp.lost(wantID, fmt.Errorf("%w (no event id to resume from)", ErrResponseLost))
			return
		}
		// Reconnect, honouring retry, until a stream opens.
		for {
			wait := retry
			if wait <= 0 {
				wait = c.cfg.DefaultRetry
			}
			if failures > 0 {
				wait *= time.Duration(1) << min(failures, 5)
			}
			fired, stop := resumeTimer(wait)
			select {
			case <-ctx.Done():
				stop()
				return
			case <-fired:
			}
			var err error
			resp, err = c.get(ctx, lastID)
			if err == nil {
				failures = 0
				break
			}
			if ctx.Err() != nil {
				return
			}
			var herr *HTTPError
			if errors.As(err, &herr) && (herr.Status == http.StatusMethodNotAllowed || herr.Status == http.StatusNotFound ||
				herr.Status == http.StatusUnauthorized || herr.Status == http.StatusForbidden || herr.Status == http.StatusBadRequest) {
				c.warn("cannot resume the event stream: " + err.Error())
				if !standalone {
					c.disp.lost(wantID, fmt.Errorf("%w: cannot resume: %w", ErrResponseLost, err))
				}
				return
			}
			failures++
			if failures >= c.cfg.MaxReconnects {
				c.warn(fmt.Sprintf("gave up resuming the event stream after %d attempts: %v", failures, err))
				if !standalone {
					c.disp.lost(wantID, fmt.Errorf("%w: gave up resuming: %w", ErrResponseLost, err))
				}
				return
			}
		}
	}
}

// abandonGrace is how long the response stream of an abandoned request
// stays open, so that a late answer is still delivered (and recorded as
// such) instead of being cut off.
var abandonGrace = 5 * time.Second

// resumeTimer starts the wait before a dropped stream is resumed; tests
// replace it to see the delay the client chose without waiting for it.
var resumeTimer = func(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// maxAbandoned bounds the abandoned response streams kept open for their
// grace; past it the oldest is closed at once.
const maxAbandoned = 16

// Abandon tells c that the caller stopped waiting for the request with
// JSON-RPC id (its JSON text): its response stream, if still open, is
// closed after a short grace (during which a late answer is still
// delivered). At most a few abandoned streams are kept open: when more
// are, the oldest is closed at once. See [Abandoner].
func (c *StreamableHTTP) Abandon(id string) {
	c.mu.Lock()
	ps := c.posts[id]
	if ps == nil || ps.abandoned {
		c.mu.Unlock()
		return
	}
	ps.abandoned = true
	ps.timer = time.AfterFunc(abandonGrace, ps.cancel)
	c.abandoned = append(c.abandoned, ps)
	var evict []*postStream
	for len(c.abandoned) > maxAbandoned {
		evict = append(evict, c.abandoned[0])
		c.abandoned[0] = nil
		c.abandoned = c.abandoned[1:]
	}
	c.mu.Unlock()
	for _, e := range evict {
		e.timer.Stop()
		e.cancel()
	}
}

// endPost forgets the response stream ps of request id once it ended.
func (c *StreamableHTTP) endPost(id string, ps *postStream) {
	if ps == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.posts[id] == ps {
		delete(c.posts, id)
	}
	if ps.timer != nil {
		ps.timer.Stop()
	}
	for i, a := range c.abandoned {
		if a == ps {
			c.abandoned = append(c.abandoned[:i], c.abandoned[i+1:]...)
			break
		}
	}
}

func (c *StreamableHTTP) warn(text string) {
	c.rec.add(events.Event{Kind: events.KindWarning, Text: text})
}

// Close stops every stream, deletes the session on the server (DELETE
// with Mcp-Session-Id; 405 is fine) and calls OnClose(nil) after the last
// message was delivered.
func (c *StreamableHTTP) Close() error {
	c.mu.Lock()
	if c.closed || !c.started {
		c.closed = true
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	sid, version := c.sessionID, c.version
	c.mu.Unlock()
	if IsModern(version) {
		sid = "" // no session to delete
	}

	c.cancel()
	var err error
	if sid != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, rerr := http.NewRequestWithContext(ctx, http.MethodDelete, c.cfg.URL, nil)
		if rerr == nil {
			c.setHeaders(req, sid, version, nil)
			resp, derr := do(c.client, c.cfg.Prepare, req)
			if derr == nil {
				io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
				resp.Body.Close()
				if resp.StatusCode >= 300 && resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound {
					err = &HTTPError{Method: "DELETE", URL: c.cfg.URL, Status: resp.StatusCode, Header: resp.Header, SessionID: sid}
				}
			}
		}
		cancel()
	}
	finished := make(chan struct{})
	go func() { c.streams.Wait(); close(finished) }()
	waitChan(finished, 2*time.Second)
	c.disp.stop(nil)
	waitChan(c.disp.done, time.Second)
	return err
}

// String names the transport and URL (for logs).
func (c *StreamableHTTP) String() string {
	return "streamable-http " + strings.TrimSpace(c.cfg.URL)
}

// readBody reads a JSON response's body, up to limit+1 bytes (a longer
// one is the caller's to refuse). A body whose Content-Length is given
// is read into one buffer of that size, and one without (a chunked
// response) is gathered in a stage and moved into a buffer of its size
// (readAllStaged): io.ReadAll grows its buffer by a quarter at a time, and the
// garbage of a 50 MB body summed to several times the body (issue #17).
func readBody(resp *http.Response, limit int) ([]byte, error) {
	n := resp.ContentLength
	if n < 0 || n > int64(limit) {
		return readAllStaged(resp.Body, limit+1)
	}
	body := make([]byte, n, n+1)
	if _, err := io.ReadFull(resp.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}
