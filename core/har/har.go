package har

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// MaxBody is how many bytes of one request or response body a Recorder
// keeps; the rest is counted but not kept (the entry says so).
const MaxBody = 8 << 20

// Masker masks secrets before anything is written; *wire.Redactor is
// one.
type Masker interface {
	URL(u string) string
	Header(h http.Header) http.Header
	String(s string) string
}

// Recorder records every exchange that passes through it. It is safe for
// concurrent use.
type Recorder struct {
	// Base does the real work; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Now reads the clock; nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	entries []*entry
}

type entry struct {
	start             time.Time
	method, url, prot string
	reqHeader         http.Header
	reqBody           []byte
	reqSize           int64

	// set when the response headers arrive
	wait       time.Duration
	status     int
	statusText string
	respProto  string
	respHeader http.Header
	err        string

	// the body, as it is read
	body      bytes.Buffer
	bodySize  int64
	truncated bool
	done      bool
	end       time.Time
	events    []sseEvent
	pending   int   // bytes of body not yet split into SSE events
	forgotten int64 // bytes of body dropped by Forget
	// resync: a Forget cleared a stream cut at MaxBody; its body starts
	// again at the next complete event, the bytes before it forgotten
	resync bool
}

type sseEvent struct {
	at   time.Time
	text string
}

func (r *Recorder) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// RoundTrip performs req and records it.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	base := r.Base
	if base == nil {
		base = http.DefaultTransport
	}
	e := &entry{method: req.Method, url: req.URL.String(), prot: req.Proto, reqHeader: req.Header.Clone()}
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("har: read the request body: %w", err)
		}
		e.reqSize = int64(len(b))
		e.reqBody = b[:min(len(b), MaxBody)]
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	e.start = r.now()
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
	resp, err := base.RoundTrip(req)
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	e.wait = now.Sub(e.start)
	if err != nil {
		e.err, e.done, e.end = err.Error(), true, now
		return nil, err
	}
	e.status, e.statusText, e.respProto, e.respHeader = resp.StatusCode, http.StatusText(resp.StatusCode), resp.Proto, resp.Header.Clone()
	resp.Body = &body{ReadCloser: resp.Body, r: r, e: e}
	return resp, nil
}

// body records a response body as it is read.
type body struct {
	io.ReadCloser
	r *Recorder
	e *entry
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.r.mu.Lock()
	defer b.r.mu.Unlock()
	e := b.e
	if n > 0 {
		e.bodySize += int64(n)
		keep := min(n, MaxBody-e.body.Len())
		if e.truncated {
			keep = 0 // bytes are missing: what follows would not be whole
		}
		if keep < n {
			e.truncated = true
		}
		e.body.Write(p[:keep])
		if isSSE(e.respHeader) {
			e.splitEvents(b.r.now())
		}
	}
	if err != nil && !e.done {
		e.done, e.end = true, b.r.now()
	}
	return n, err
}

func (b *body) Close() error {
	err := b.ReadCloser.Close()
	b.r.mu.Lock()
	if !b.e.done {
		b.e.done, b.e.end = true, b.r.now()
	}
	b.r.mu.Unlock()
	return err
}

// splitEvents turns the complete SSE events read so far into events
// stamped with now.
func (e *entry) splitEvents(now time.Time) {
	if e.resync {
		rest := e.body.Bytes()
		i, sep := eventEnd(rest)
		if i < 0 {
			return
		}
		// the event that was cut goes; the stream is whole from the next
		e.forgotten += int64(i + sep)
		e.body = *bytes.NewBuffer(append([]byte(nil), rest[i+sep:]...))
		e.resync = false
	}
	all := e.body.Bytes()
	for {
		rest := all[e.pending:]
		i, sep := eventEnd(rest)
		if i < 0 {
			return
		}
		e.events = append(e.events, sseEvent{at: now, text: string(rest[:i])})
		e.pending += i + sep
	}
}

// eventEnd is where the first SSE event in b ends and the length of the
// blank line that ends it; i is -1 when no event in b is complete.
func eventEnd(b []byte) (i, sep int) {
	i = -1
	for _, s := range []string{"\n\n", "\r\n\r\n", "\r\r"} {
		if j := bytes.Index(b, []byte(s)); j >= 0 && (i < 0 || j < i) {
			i, sep = j, len(s)
		}
	}
	return i, sep
}

func isSSE(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/event-stream"
}

// Forget drops what was recorded so far (the window's Clear of the
// server, so that its memory goes back to what it was): the exchanges
// that have ended go, and one still open (a stream) keeps its request and
// headers and drops the body and events read so far, but an event not yet
// complete; its content says how many bytes went. A stream that had been
// cut at MaxBody is recorded again from its next complete event.
func (r *Recorder) Forget() {
	r.mu.Lock()
	defer r.mu.Unlock()
	kept := r.entries[:0]
	for _, e := range r.entries {
		if e.done {
			continue
		}
		rest := []byte(nil)
		switch {
		case !e.truncated:
			rest = e.body.Bytes()[e.pending:]
			e.forgotten += int64(e.body.Len() - len(rest))
		case isSSE(e.respHeader):
			// every byte so far goes, those never kept too
			e.truncated, e.resync = false, true
			e.forgotten = e.bodySize
		default:
			e.forgotten += int64(e.body.Len())
		}
		e.body = bytes.Buffer{} // the large array goes
		e.body.Write(rest)
		e.events, e.pending = nil, 0
		kept = append(kept, e)
	}
	clear(r.entries[len(kept):])
	r.entries = kept
}

// Len is how many exchanges were recorded.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.entries)
}

// Creator names the program in the HAR file.
type Creator struct {
	Name, Version string
}

// Write writes every exchange recorded so far as a HAR 1.2 file, with m
// masking secrets (URLs, header values, bodies). An exchange still
// running (a stream that is still open) is written as far as it got.
func (r *Recorder) Write(w io.Writer, c Creator, m Masker) error {
	r.mu.Lock()
	now := r.now()
	entries := make([]harEntry, 0, len(r.entries))
	for _, e := range r.entries {
		entries = append(entries, e.har(now, m))
	}
	r.mu.Unlock()
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].StartedDateTime < entries[j].StartedDateTime })
	doc := harFile{Log: harLog{Version: "1.2", Creator: harCreator(c), Entries: entries}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write HAR: %w", err)
	}
	return nil
}

// The HAR 1.2 file (http://www.softwareishard.com/blog/har-12-spec/).
type harFile struct {
	Log harLog `json:"log"`
}

type harLog struct {
	Version string     `json:"version"`
	Creator harCreator `json:"creator"`
	Entries []harEntry `json:"entries"`
}

type harCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type harEntry struct {
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         harRequest  `json:"request"`
	Response        harResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         harTimings  `json:"timings"`
	// Custom fields (HAR allows "_" names): the transport error of an
	// exchange without a response, the events of an SSE stream, and
	// whether the stream was still open when the file was written.
	Error     string     `json:"_error,omitempty"`
	SSEEvents []harEvent `json:"_sseEvents,omitempty"`
	Open      bool       `json:"_open,omitempty"`
}

type harNV struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harRequest struct {
	Method      string       `json:"method"`
	URL         string       `json:"url"`
	HTTPVersion string       `json:"httpVersion"`
	Cookies     []harNV      `json:"cookies"`
	Headers     []harNV      `json:"headers"`
	QueryString []harNV      `json:"queryString"`
	PostData    *harPostData `json:"postData,omitempty"`
	HeadersSize int          `json:"headersSize"`
	BodySize    int64        `json:"bodySize"`
}

type harPostData struct {
	MimeType string  `json:"mimeType"`
	Params   []harNV `json:"params"`
	Text     string  `json:"text"`
}

type harResponse struct {
	Status      int        `json:"status"`
	StatusText  string     `json:"statusText"`
	HTTPVersion string     `json:"httpVersion"`
	Cookies     []harNV    `json:"cookies"`
	Headers     []harNV    `json:"headers"`
	Content     harContent `json:"content"`
	RedirectURL string     `json:"redirectURL"`
	HeadersSize int        `json:"headersSize"`
	BodySize    int64      `json:"bodySize"`
}

type harContent struct {
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

type harTimings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

type harEvent struct {
	Time string `json:"time"`
	// Offset is the time since the request started, in milliseconds.
	Offset float64 `json:"offset"`
	Text   string  `json:"text"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// har converts e, as far as it got by now, with secrets masked.
func (e *entry) har(now time.Time, m Masker) harEntry {
	end := e.end
	open := !e.done
	if open {
		end = now
	}
	out := harEntry{StartedDateTime: e.start.UTC().Format("2006-01-02T15:04:05.000Z07:00"), Open: open}
	u := m.URL(e.url)
	out.Request = harRequest{Method: e.method, URL: u, HTTPVersion: proto(e.prot), Cookies: []harNV{},
		Headers: nvs(m.Header(e.reqHeader)), QueryString: query(u), HeadersSize: -1, BodySize: e.reqSize}
	if e.reqBody != nil {
		out.Request.PostData = &harPostData{MimeType: e.reqHeader.Get("Content-Type"), Params: []harNV{}, Text: m.String(string(e.reqBody))}
	}
	out.Response = harResponse{Status: e.status, StatusText: e.statusText, HTTPVersion: proto(e.respProto), Cookies: []harNV{},
		Headers: nvs(m.Header(e.respHeader)), RedirectURL: "", HeadersSize: -1, BodySize: e.bodySize,
		Content: harContent{Size: e.bodySize, MimeType: e.respHeader.Get("Content-Type"), Text: m.String(strings.ToValidUTF8(e.body.String(), "\uFFFD"))}}
	var notes []string
	if e.forgotten > 0 {
		notes = append(notes, fmt.Sprintf("the first %d bytes were cleared in the window", e.forgotten))
	}
	if e.truncated {
		notes = append(notes, fmt.Sprintf("only the first %d bytes are kept", MaxBody))
	}
	out.Response.Content.Comment = strings.Join(notes, "; ")
	if e.respHeader.Get("Location") != "" {
		out.Response.RedirectURL = m.URL(e.respHeader.Get("Location"))
	}
	if e.err != "" {
		out.Error = m.String(e.err)
		out.Response.StatusText = out.Error
		out.Response.HTTPVersion = proto(e.prot)
		out.Response.BodySize = -1
	}
	for _, ev := range e.events {
		out.SSEEvents = append(out.SSEEvents, harEvent{Time: ev.at.UTC().Format(time.RFC3339Nano), Offset: ms(ev.at.Sub(e.start)), Text: m.String(ev.text)})
	}
	receive := max(end.Sub(e.start)-e.wait, 0)
	out.Timings = harTimings{Send: 0, Wait: ms(e.wait), Receive: ms(receive)}
	out.Time = out.Timings.Send + out.Timings.Wait + out.Timings.Receive
	return out
}

func proto(p string) string {
	if p == "" {
		return "HTTP/1.1"
	}
	return p
}

// nvs lists a header's or a query's name/value pairs, names sorted.
func nvs[M ~map[string][]string](h M) []harNV {
	out := []harNV{}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[k] {
			out = append(out, harNV{Name: k, Value: v})
		}
	}
	return out
}

func query(u string) []harNV {
	pu, err := url.Parse(u)
	if err != nil {
		return []harNV{}
	}
	return nvs(pu.Query())
}
