package tap

import (
	"bytes"
	"compress/gzip"
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"syscall"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// ProxyOptions configure NewProxy.
type ProxyOptions struct {
	// Upstream is the server's URL: requests go to its scheme and host,
	// with the path and query the host asked for.
	Upstream *url.URL
	// Rec receives the record; nil records nothing. Conn names it.
	Rec  wire.Recorder
	Conn string
	// Redactor masks secrets in the recorded headers and URLs (the log's
	// own Redact option masks message payloads); nil uses the defaults.
	Redactor *wire.Redactor
	// Transport does the upstream requests; nil means a clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
	// MaxMessageSize bounds one recorded message (zero: the wire
	// default); longer bodies and events still pass, unrecorded.
	MaxMessageSize int
	// Fault, when it has rules, is applied to the messages passing
	// through (see faultTap); the record holds what the host sent and
	// what it received, and each fault as a warning.
	Fault *fault.Spec
	// OnUpstreamError, when set, is told when a request could not be
	// carried to the upstream (it was answered 502): once per kind of
	// failure (see UpstreamFailure), so that a host retrying does not
	// repeat it. It may be called from several goroutines, one at a time.
	OnUpstreamError func(kind UpstreamFailure, err error)
}

// UpstreamFailure is a kind of failure to reach the upstream.
type UpstreamFailure string

// The kinds of UpstreamFailure.
const (
	UpstreamRefused UpstreamFailure = "connection refused"
	UpstreamNoHost  UpstreamFailure = "host not found"
	UpstreamTimeout UpstreamFailure = "timed out"
	UpstreamTLS     UpstreamFailure = "TLS failed"
	UpstreamReset   UpstreamFailure = "connection closed"
	UpstreamOther   UpstreamFailure = "failed"
)

// ClassifyUpstream is the kind of failure err is.
func ClassifyUpstream(err error) UpstreamFailure {
	var dns *net.DNSError
	var ne net.Error
	var cert *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return UpstreamRefused
	case errors.As(err, &dns):
		return UpstreamNoHost
	case errors.As(err, &cert), errors.As(err, &rec):
		return UpstreamTLS
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return UpstreamReset
	case errors.As(err, &ne) && ne.Timeout():
		return UpstreamTimeout
	}
	return UpstreamOther
}

// onceByKind calls f once per kind.
type onceByKind struct {
	mu   sync.Mutex
	seen map[UpstreamFailure]bool
	f    func(UpstreamFailure, error)
}

func (o *onceByKind) tell(err error) {
	if o == nil || o.f == nil {
		return
	}
	k := ClassifyUpstream(err)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen[k] {
		return
	}
	o.seen[k] = true
	o.f(k, err)
}

// NewProxy returns the HTTP tap: a reverse proxy to o.Upstream for
// Streamable HTTP and legacy SSE servers. Requests, bodies and headers
// (Mcp-Session-Id, Last-Event-ID, Authorization included) pass unchanged
// apart from what any HTTP proxy must change (hop-by-hop headers, Host);
// event streams are flushed event by event. Every exchange is recorded
// as an events.KindHTTP event, and the JSON-RPC messages of request
// bodies, JSON responses and event streams as events.KindMessage.
func NewProxy(o ProxyOptions) http.Handler {
	base := o.Transport
	if base == nil {
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	inner := base
	if o.Fault != nil && len(o.Fault.Rules) > 0 {
		inner = newFaultTap(base, *o.Fault, o.Rec, o.Conn, o.MaxMessageSize)
	}
	rt := inner
	if o.Rec != nil {
		rt = &wire.Tap{Base: &bodyTap{base: inner, o: &o}, Rec: o.Rec, Conn: o.Conn, Redactor: o.Redactor}
	}
	up := o.Upstream
	tell := &onceByKind{seen: map[UpstreamFailure]bool{}, f: o.OnUpstreamError}
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host = up.Scheme, up.Host
			pr.Out.Host = up.Host
			// Rewrite drops the X-Forwarded-* headers the host sent:
			// they pass unchanged.
			for _, k := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"} {
				if v, ok := pr.In.Header[k]; ok {
					pr.Out.Header[k] = v
				}
			}
		},
		Transport:     rt,
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if errors.Is(err, errCut) {
				panic(http.ErrAbortHandler) // the host sees the connection go
			}
			if r.Context().Err() == nil {
				tell.tell(err)
				w.WriteHeader(http.StatusBadGateway)
			}
		},
	}
}

// bodyTap records the messages in the bodies it passes on.
type bodyTap struct {
	base http.RoundTripper
	o    *ProxyOptions
}

func (b *bodyTap) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = &teeBody{rc: req.Body, max: b.o.MaxMessageSize, done: func(body []byte) {
			b.message(events.DirOut, body)
		}}
	}
	resp, err := b.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	enc := strings.ToLower(resp.Header.Get("Content-Encoding"))
	switch {
	case enc != "" && enc != "identity" && enc != "gzip":
		// Passed on, not read: an encoding this tap cannot decode.
	case mt == "text/event-stream":
		sp := &sseSplitter{max: b.o.MaxMessageSize, emit: func(data []byte) { b.message(events.DirIn, data) }}
		resp.Body = &observedBody{rc: resp.Body, obs: sp, gz: enc == "gzip"}
	case mt == "application/json":
		resp.Body = &teeBody{rc: resp.Body, max: b.o.MaxMessageSize, gz: enc == "gzip", done: func(body []byte) {
			b.message(events.DirIn, body)
		}}
	}
	return resp, nil
}

// message records body when it is a JSON-RPC message or batch (other
// JSON, an OAuth token response say, is left to the HTTP event).
func (b *bodyTap) message(dir events.Direction, body []byte) {
	t := bytes.TrimSpace(body)
	if len(t) == 0 || !wire.IsMessage(t) || !bytes.Contains(t, []byte(`"jsonrpc"`)) {
		return
	}
	recordMessage(func(e events.Event) {
		e.Conn = b.o.Conn
		b.o.Rec.Append(e)
	}, dir, bytes.Clone(body))
}

// teeBody keeps a copy of what is read through it (up to max bytes) and
// hands it to done at EOF.
type teeBody struct {
	rc   io.ReadCloser
	max  int
	gz   bool
	buf  bytes.Buffer
	over bool
	sent bool
	done func([]byte)
	mu   sync.Mutex // Read and Close may come from different goroutines
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	if n > 0 && !t.over {
		if t.buf.Len()+n > limit(t.max) {
			t.over = true
			t.buf = bytes.Buffer{}
		} else {
			t.buf.Write(p[:n])
		}
	}
	if err == io.EOF {
		t.finish()
	}
	return n, err
}

// finish hands the body to done, once.
func (t *teeBody) finish() {
	if t.sent || t.over {
		return
	}
	t.sent = true
	body := t.buf.Bytes()
	if t.gz {
		body = gunzip(body, limit(t.max))
	}
	if body != nil {
		t.done(body)
	}
}

// Close closes the body; a body read to its end whose EOF was not seen
// (the reader stopped at its Content-Length) is recorded here.
func (t *teeBody) Close() error {
	err := t.rc.Close()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.buf.Len() > 0 {
		t.finish()
	}
	return err
}

// observedBody hands each chunk read through it to obs.
type observedBody struct {
	rc  io.ReadCloser
	obs io.Writer
	gz  bool
	pw  *io.PipeWriter
}

func (o *observedBody) Read(p []byte) (int, error) {
	n, err := o.rc.Read(p)
	if n > 0 {
		if o.gz {
			if o.pw == nil {
				pr, pw := io.Pipe()
				o.pw = pw
				go func() {
					zr, zerr := gzip.NewReader(pr)
					if zerr == nil {
						io.Copy(o.obs, zr)
					}
					io.Copy(io.Discard, pr)
				}()
			}
			o.pw.Write(p[:n])
		} else {
			o.obs.Write(p[:n])
		}
	}
	if err != nil && o.pw != nil {
		o.pw.Close()
	}
	return n, err
}

func (o *observedBody) Close() error {
	if o.pw != nil {
		o.pw.Close()
	}
	return o.rc.Close()
}

func gunzip(b []byte, max int) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	out, err := io.ReadAll(io.LimitReader(zr, int64(max)+1))
	if err != nil || len(out) > max {
		return nil
	}
	return out
}

func limit(n int) int {
	if n <= 0 {
		return wire.DefaultMaxMessageSize
	}
	return n
}

// sseSplitter cuts a text/event-stream into events as it is written and
// hands each event's data to emit (the event-stream format of the HTML
// standard: data lines joined with "\n", dispatched at a blank line).
type sseSplitter struct {
	max     int
	emit    func([]byte)
	line    []byte
	data    []byte
	hasData bool
	over    bool
	afterCR bool
}

func (s *sseSplitter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if s.afterCR && p[0] == '\n' {
			p = p[1:]
			s.afterCR = false
			continue
		}
		s.afterCR = false
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			s.appendLine(p)
			break
		}
		s.appendLine(p[:i])
		s.afterCR = p[i] == '\r'
		s.endLine()
		p = p[i+1:]
	}
	return n, nil
}

func (s *sseSplitter) appendLine(b []byte) {
	if len(s.line)+len(b) > limit(s.max)+16 {
		s.over = true
		return
	}
	s.line = append(s.line, b...)
}

func (s *sseSplitter) endLine() {
	line := s.line
	s.line = s.line[:0]
	switch {
	case len(line) == 0:
		if s.hasData && !s.over {
			s.emit(bytes.Clone(s.data))
		}
		s.data, s.hasData, s.over = s.data[:0], false, false
		return
	case line[0] == ':':
		return
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], bytes.TrimPrefix(line[i+1:], []byte{' '})
	}
	if string(field) != "data" {
		return
	}
	if s.hasData {
		s.data = append(s.data, '\n')
	}
	if len(s.data)+len(value) > limit(s.max) {
		s.over = true
		return
	}
	s.data = append(s.data, value...)
	s.hasData = true
}
