package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// ErrStreamEnded is passed to OnClose when the event stream of a legacy
// SSE connection ends or fails: that stream is the connection.
var ErrStreamEnded = errors.New("wire: event stream ended")

// SSE is a Conn speaking the legacy HTTP+SSE transport of MCP 2024-11-05:
// a GET event stream announces, in an `endpoint` event, the URL that
// messages are POSTed to; every server message (responses and the
// server's own requests and notifications) arrives on that stream.
type SSE struct {
	cfg    HTTPConfig
	rec    recorder
	client *http.Client

	mu       sync.Mutex
	started  bool
	closed   bool
	endpoint string
	version  string
	disp     *dispatcher
	cancel   context.CancelFunc
	reading  chan struct{} // closed when the stream reader is done
}

var _ Conn = (*SSE)(nil)

// NewSSE returns an SSE connection for cfg (URL is the event stream URL)
// recording into rec (which may be nil).
func NewSSE(cfg HTTPConfig, rec Recorder) *SSE {
	cfg.defaults()
	return &SSE{
		cfg:    cfg,
		rec:    recorder{rec: rec, conn: cfg.Conn},
		client: tappedClient(cfg.Client, rec, cfg.Conn, cfg.Redactor),
	}
}

// Start opens the event stream and waits (bounded by ctx) for the
// endpoint event. Failures are *HTTPError, or wrap ErrUnreachable,
// ErrNoEndpoint or the context's error. When the stream later ends,
// OnClose gets an error matching ErrStreamEnded.
func (s *SSE) Start(ctx context.Context, h Handler) error {
	base, err := parseHTTPURL(s.cfg.URL)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if s.started {
		s.mu.Unlock()
		return ErrAlreadyStarted
	}
	s.started = true
	streamCtx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.mu.Unlock()

	req, err := http.NewRequestWithContext(streamCtx, http.MethodGet, s.cfg.URL, nil)
	if err != nil {
		cancel()
		return fmt.Errorf("wire: GET: %w", err)
	}
	for k, vs := range s.cfg.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Accept", "text/event-stream")
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	resp, err := do(s.client, s.cfg.Prepare, req)
	if err != nil {
		cancel()
		return wrapTransportError("GET", s.cfg.URL, err, ctx, nil)
	}
	if resp.StatusCode != http.StatusOK || !isEventStream(resp.Header) {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		cancel()
		status := resp.StatusCode
		if status == http.StatusOK {
			status = http.StatusNotAcceptable
		}
		return &HTTPError{Method: "GET", URL: s.cfg.URL, Status: status, Header: resp.Header, Body: body}
	}

	disp := newDispatcher(h)
	endpoint := make(chan endpointEvent, 1)
	reading := make(chan struct{})
	s.mu.Lock()
	s.disp, s.reading = disp, reading
	s.mu.Unlock()
	go func() {
		defer close(reading)
		err := s.read(resp.Body, base, endpoint)
		resp.Body.Close()
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			disp.stop(nil)
			return
		}
		s.rec.add(events.Event{Kind: events.KindError, Text: "event stream ended: " + err.Error()})
		disp.stop(fmt.Errorf("%w: %w", ErrStreamEnded, err))
	}()

	accept := func(ev endpointEvent) error {
		if ev.err != nil {
			disp.abort()
			s.Close()
			return fmt.Errorf("wire: GET %s: %w", s.cfg.URL, ev.err)
		}
		s.mu.Lock()
		s.endpoint = ev.url
		s.mu.Unlock()
		return nil
	}
	select {
	case ev := <-endpoint:
		return accept(ev)
	case <-reading:
		select {
		case ev := <-endpoint: // the stream ended just after its endpoint event
			return accept(ev)
		default:
		}
		disp.abort()
		s.Close()
		if ctx.Err() != nil {
			return fmt.Errorf("wire: GET %s: %w: %w", s.cfg.URL, ErrNoEndpoint, ctx.Err())
		}
		return fmt.Errorf("wire: GET %s: %w", s.cfg.URL, ErrNoEndpoint)
	case <-ctx.Done():
		disp.abort()
		s.Close()
		return fmt.Errorf("wire: GET %s: %w: %w", s.cfg.URL, ErrNoEndpoint, ctx.Err())
	}
}

// endpointEvent is the first endpoint event of a legacy SSE stream: the
// URL to POST to, or why it cannot be used.
type endpointEvent struct {
	url string
	err error
}

// ErrForeignEndpoint means the legacy SSE stream's first endpoint event names
// another origin. Our POSTs carry the catalog's headers and the OAuth token,
// so the client does not follow it, and says where it pointed.
var ErrForeignEndpoint = errors.New("the server's endpoint event names another origin")

// read reads the event stream until it ends, sending the first endpoint
// (resolved against base), or the refusal of a foreign one, on endpoint.
func (s *SSE) read(body io.Reader, base *url.URL, endpoint chan<- endpointEvent) error {
	sr := newSSEReader(body, s.cfg.MaxMessageSize)
	sent := false
	for {
		ev, err := sr.next()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		if ev.tooLong != nil {
			s.rec.tooLong(ev.tooLong)
			continue
		}
		switch ev.Type {
		case "endpoint":
			ref, perr := url.Parse(strings.TrimSpace(string(ev.Data)))
			if perr != nil {
				s.rec.invalid(ev.Data, "endpoint event is not a URL")
				continue
			}
			resolved := base.ResolveReference(ref)
			if resolved.Scheme != base.Scheme || resolved.Host != base.Host {
				// Our POSTs carry the catalog's headers and the OAuth
				// token: never to a host the stream's server merely names.
				where := resolved.Scheme + "://" + resolved.Host
				s.rec.invalid(ev.Data, "endpoint event names another origin ("+where+"); ignored")
				if !sent {
					sent = true
					endpoint <- endpointEvent{err: fmt.Errorf("%w (%s, not %s://%s): not followed, since requests carry your headers and tokens", ErrForeignEndpoint, where, base.Scheme, base.Host)}
				}
				continue
			}
			ep := resolved.String()
			if !sent {
				sent = true
				endpoint <- endpointEvent{url: ep}
			} else {
				s.mu.Lock()
				s.endpoint = ep
				s.mu.Unlock()
			}
		case "", "message":
			if len(bytes.TrimSpace(ev.Data)) == 0 {
				continue
			}
			if !IsMessage(ev.Data) {
				s.rec.invalid(ev.Data, "SSE event is not a JSON-RPC message")
				continue
			}
			s.mu.Lock()
			disp := s.disp
			s.mu.Unlock()
			disp.push(ev.Data)
		}
	}
}

// Endpoint returns the URL messages are POSTed to, "" before Start.
func (s *SSE) Endpoint() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.endpoint
}

// SetProtocolVersion makes later POSTs carry MCP-Protocol-Version: v.
func (s *SSE) SetProtocolVersion(v string) {
	s.mu.Lock()
	s.version = v
	s.mu.Unlock()
}

// Send POSTs msg to the endpoint. The reply arrives on the event stream.
// Failures are *HTTPError, or wrap ErrUnreachable, ErrClosed or the
// context's error. A body in the POST's answer is ignored unless it is a
// JSON-RPC message, which is delivered.
func (s *SSE) Send(ctx context.Context, msg []byte, opts *SendOptions) error {
	s.mu.Lock()
	started, closed, ep, version, disp, reading := s.started, s.closed, s.endpoint, s.version, s.disp, s.reading
	s.mu.Unlock()
	switch {
	case closed:
		return ErrClosed
	case !started || ep == "":
		return ErrNotStarted
	}
	select {
	case <-reading:
		return fmt.Errorf("wire: POST %s: %w", ep, ErrClosed)
	default:
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep, bytes.NewReader(msg))
	if err != nil {
		return fmt.Errorf("wire: POST: %w", err)
	}
	for k, vs := range s.cfg.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if opts != nil {
		for k, vs := range opts.Header {
			req.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
		}
	}
	if version != "" {
		req.Header.Set(HeaderProtocolVersion, version)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := do(s.client, s.cfg.Prepare, req)
	if err != nil {
		return wrapTransportError("POST", ep, err, ctx, nil)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if len(body) > maxErrorBody {
			body = body[:maxErrorBody]
		}
		return &HTTPError{Method: "POST", URL: ep, Status: resp.StatusCode, Header: resp.Header, Body: body}
	}
	if IsMessage(body) {
		disp.push(body)
	}
	return nil
}

// Close ends the event stream and calls OnClose(nil) after the last
// message was delivered.
func (s *SSE) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	cancel, reading, disp := s.cancel, s.reading, s.disp
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if reading != nil {
		waitChan(reading, 2*time.Second)
	}
	if disp != nil {
		disp.stop(nil)
		waitChan(disp.done, time.Second)
	}
	return nil
}
