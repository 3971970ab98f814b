package tap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// errCut is what the HTTP tap's exchanges fail with once a cut rule cut
// the connection: the proxy aborts them, so that the host sees the
// server go away.
var errCut = errors.New("tap: connection cut by a fault rule")

// faultTap applies core/wire/fault's rules to the messages the HTTP tap
// carries: request bodies going up (out), JSON response bodies and the
// events of event streams coming back (in). Each message goes through
// fault.Conn.Pass; its exchange follows what the rules did with it:
//
//   - dropped: a request (it has an id and a method) gets no answer
//     (the exchange stays open until the host gives up); any other
//     message is taken with 202 Accepted and not sent on. A dropped JSON
//     answer leaves its exchange open the same way; a dropped event is
//     left out of its stream.
//   - delayed, late, held back (reorder): the exchange waits.
//   - duplicated: a request body is POSTed twice (the host gets the
//     first answer); an event is sent twice. A JSON body carries one
//     answer, so its duplicate is not delivered.
//   - corrupted, unknown-id: the changed bytes go on.
//   - error: the request is answered with the injected JSON-RPC error and
//     not sent on.
//   - cut: every exchange under way and every later one is aborted.
//
// Bytes no rule touched pass unchanged.
type faultTap struct {
	base http.RoundTripper
	fc   *fault.Conn
	gate *cutGate
	max  int
	rec  recorder
}

// cutGate is the fault.Conn's inner conn: a cut closes it.
type cutGate struct {
	once sync.Once
	cut  chan struct{}
}

func (g *cutGate) Start(context.Context, wire.Handler) error { return nil }
func (g *cutGate) Send(context.Context, []byte, *wire.SendOptions) error {
	return wire.ErrClosed // never called: messages travel through Pass
}
func (g *cutGate) Close() error { g.once.Do(func() { close(g.cut) }); return nil }

func (g *cutGate) isCut() bool {
	select {
	case <-g.cut:
		return true
	default:
		return false
	}
}

func newFaultTap(base http.RoundTripper, spec fault.Spec, rec wire.Recorder, conn string, max int) *faultTap {
	g := &cutGate{cut: make(chan struct{})}
	return &faultTap{base: base, fc: fault.New(spec, rec).Wrap(g, conn), gate: g, max: limit(max), rec: recorder{rec, conn}}
}

func (f *faultTap) RoundTrip(req *http.Request) (*http.Response, error) {
	if f.gate.isCut() {
		return nil, errCut
	}
	if req.Body == nil || req.Body == http.NoBody {
		resp, err := f.base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		return f.response(req, resp)
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, int64(f.max)+1))
	if err != nil {
		req.Body.Close()
		return nil, err
	}
	if len(body) > f.max || !wire.IsMessage(bytes.TrimSpace(body)) {
		// Too long to hold, or not a message: passed on as it is.
		req.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), req.Body), req.Body}
		resp, err := f.base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		return f.response(req, resp)
	}
	req.Body.Close()

	var (
		once     sync.Once
		got      = make(chan struct{})
		resp     *http.Response
		respErr  error
		ctx      = req.Context()
		isReq, _ = requestID(body)
	)
	forward := func(b []byte) error {
		out := req.Clone(ctx)
		out.Body = io.NopCloser(bytes.NewReader(b))
		out.ContentLength = int64(len(b))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		r, err := f.base.RoundTrip(out)
		first := false
		once.Do(func() { resp, respErr, first = r, err, true; close(got) })
		if !first && err == nil {
			go func() { io.Copy(io.Discard, r.Body); r.Body.Close() }() // a duplicate's answer: not the host's
		}
		return err
	}
	v, answer, err := f.fc.Pass(ctx, fault.Out, body, forward)
	switch {
	case errors.Is(err, wire.ErrClosed) && f.gate.isCut():
		return nil, errCut
	case v == fault.Answered:
		return synthetic(req, http.StatusOK, "application/json", answer), nil
	case v == fault.Dropped && isReq:
		<-ctx.Done() // no answer, ever: the host gives up when it does
		return nil, ctx.Err()
	case v == fault.Dropped:
		return synthetic(req, http.StatusAccepted, "", nil), nil
	}
	select {
	case <-got:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if respErr != nil {
		return nil, respErr
	}
	return f.response(req, resp)
}

// response applies the rules to what comes back: a JSON body as one
// message, an event stream event by event.
func (f *faultTap) response(req *http.Request, resp *http.Response) (*http.Response, error) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if enc := strings.ToLower(resp.Header.Get("Content-Encoding")); enc != "" && enc != "identity" {
		return resp, nil // an encoded body passes untouched
	}
	switch mt {
	case "text/event-stream":
		resp.Body = newFaultStream(resp.Body, f, req.Context())
		return resp, nil
	case "application/json":
	default:
		return resp, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(f.max)+1))
	if err != nil || len(body) > f.max || !wire.IsMessage(bytes.TrimSpace(body)) {
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	ctx := req.Context()
	var once sync.Once
	got := make(chan []byte, 1)
	v, _, err := f.fc.Pass(ctx, fault.In, body, func(b []byte) error {
		once.Do(func() { got <- b })
		return nil
	})
	switch {
	case errors.Is(err, wire.ErrClosed) && f.gate.isCut():
		return nil, errCut
	case err != nil:
		return nil, err
	case v == fault.Dropped:
		<-ctx.Done() // the answer never arrives
		return nil, ctx.Err()
	}
	var out []byte
	select {
	case out = <-got:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return resp, nil
}

// requestID reports whether msg is a request (an id and a method), and
// its id.
func requestID(msg []byte) (bool, string) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return false, ""
	}
	return true, string(m.ID)
}

// synthetic is a response the tap gives in the server's place.
func synthetic(req *http.Request, status int, contentType string, body []byte) *http.Response {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	return &http.Response{
		Status: strconv.Itoa(status) + " " + http.StatusText(status), StatusCode: status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
		Request: req,
	}
}

// faultStream is an event stream with the rules applied event by event:
// each event's raw bytes pass unchanged unless a rule changed, dropped,
// held or doubled its message.
type faultStream struct {
	pr *io.PipeReader
	up io.ReadCloser
}

func newFaultStream(up io.ReadCloser, f *faultTap, ctx context.Context) *faultStream {
	pr, pw := io.Pipe()
	s := &faultStream{pr: pr, up: up}
	var wmu sync.Mutex // events released later (reorder) write from a timer
	write := func(b []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		_, err := pw.Write(b)
		return err
	}
	done := make(chan struct{})
	go func() { // a cut ends the stream at once, even while it is idle
		select {
		case <-f.gate.cut:
			pw.CloseWithError(errCut)
			up.Close()
		case <-done:
		}
	}()
	go func() {
		defer close(done)
		cutter := &sseCutter{max: f.max, pass: write, over: func(n int) {
			f.rec.add(events.Event{Kind: events.KindWarning, Dir: events.DirIn, Size: n,
				Text: fmt.Sprintf("an event of the stream grew past the limit of %d bytes: its bytes were passed on with no rule applied", f.max)})
		}, emit: func(raw []byte) error {
			data, ok := eventData(raw)
			if !ok || !wire.IsMessage(bytes.TrimSpace(data)) {
				return write(raw)
			}
			raw = bytes.Clone(raw)
			_, _, err := f.fc.Pass(ctx, fault.In, data, func(b []byte) error {
				if bytes.Equal(b, data) {
					return write(raw)
				}
				return write(withData(raw, b))
			})
			if f.gate.isCut() {
				return errCut
			}
			return err
		}}
		buf := make([]byte, 32<<10)
		for {
			n, err := up.Read(buf)
			if n > 0 {
				if werr := cutter.write(buf[:n]); werr != nil {
					pw.CloseWithError(werr)
					up.Close()
					return
				}
			}
			if err != nil {
				if tail := cutter.rest(); len(tail) > 0 {
					write(tail)
				}
				if err == io.EOF {
					err = nil
				}
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return s
}

func (s *faultStream) Read(p []byte) (int, error) { return s.pr.Read(p) }

func (s *faultStream) Close() error {
	s.pr.Close()
	return s.up.Close()
}

// sseCutter cuts an event stream into its events' raw bytes (every line
// up to and including the blank line that ends the event; lines end with
// CRLF, LF or CR). An event longer than max is not held: its bytes so
// far and the rest of it, up to its end, go to pass as they come, and
// over is told once for that event.
type sseCutter struct {
	buf       []byte
	lineStart int  // where the current line starts in buf; -1: it started before buf
	afterCR   bool // the last byte was a CR that ended a line
	blankCR   bool // ... and that line was blank: the event ends after a possible LF
	passing   bool // the current event went past max: it is passed through
	max       int
	emit      func(raw []byte) error
	pass      func(raw []byte) error
	over      func(n int)
}

func (c *sseCutter) write(p []byte) error {
	for _, ch := range p {
		if c.afterCR {
			c.afterCR = false
			if ch == '\n' {
				c.buf = append(c.buf, ch)
				c.lineStart = len(c.buf)
				if c.blankCR {
					c.blankCR = false
					if err := c.event(); err != nil {
						return err
					}
				}
				continue
			}
			if c.blankCR {
				c.blankCR = false
				if err := c.event(); err != nil {
					return err
				}
			}
		}
		c.buf = append(c.buf, ch)
		if ch != '\n' && ch != '\r' {
			continue
		}
		blank := len(c.buf)-1 == c.lineStart
		c.lineStart = len(c.buf)
		if ch == '\r' {
			c.afterCR, c.blankCR = true, blank
			continue
		}
		if blank {
			if err := c.event(); err != nil {
				return err
			}
		}
	}
	if !c.passing && c.max > 0 && len(c.buf) > c.max && c.pass != nil {
		c.passing = true
		if c.over != nil {
			c.over(len(c.buf))
		}
	}
	if c.passing && len(c.buf) > 0 {
		return c.flush()
	}
	return nil // an event ending in a bare CR waits for the next byte (an LF or not)
}

// flush passes on what buf holds of an event too long to hold.
func (c *sseCutter) flush() error {
	if c.lineStart < len(c.buf) {
		c.lineStart = -1 // the line goes on past what is passed
	} else {
		c.lineStart = 0
	}
	raw := c.buf
	c.buf = c.buf[:0]
	return c.pass(raw)
}

func (c *sseCutter) event() error {
	raw := c.buf
	if c.passing {
		c.passing = false
		c.buf, c.lineStart = c.buf[:0], 0
		return c.pass(raw)
	}
	c.buf, c.lineStart = nil, 0
	return c.emit(raw)
}

// rest is what the stream held after its last complete event.
func (c *sseCutter) rest() []byte {
	r := c.buf
	c.buf, c.lineStart = nil, 0
	return r
}

// sseLines splits raw into its lines (without their endings).
func sseLines(raw []byte) [][]byte {
	var out [][]byte
	for len(raw) > 0 {
		i := bytes.IndexAny(raw, "\r\n")
		if i < 0 {
			out = append(out, raw)
			break
		}
		out = append(out, raw[:i])
		if raw[i] == '\r' && i+1 < len(raw) && raw[i+1] == '\n' {
			i++
		}
		raw = raw[i+1:]
	}
	return out
}

// eventData is the data of an event (its data lines joined with "\n").
func eventData(raw []byte) ([]byte, bool) {
	var data []byte
	has := false
	for _, l := range sseLines(raw) {
		field, value, _ := bytes.Cut(l, []byte{':'})
		if string(field) != "data" {
			continue
		}
		value = bytes.TrimPrefix(value, []byte{' '})
		if has {
			data = append(data, '\n')
		}
		data = append(data, value...)
		has = true
	}
	return data, has
}

// withData is the event raw with its data replaced by data.
func withData(raw, data []byte) []byte {
	var b bytes.Buffer
	for _, l := range sseLines(raw) {
		if len(l) == 0 {
			continue
		}
		if field, _, _ := bytes.Cut(l, []byte{':'}); string(field) == "data" {
			continue
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		b.WriteString("data: ")
		b.Write(l)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}
