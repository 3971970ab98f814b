package wire

import (
	"fmt"
	"net/http"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// Tap is an http.RoundTripper that records every exchange as an
// events.KindHTTP event (method, URL, status, request and response
// headers with secrets masked, time to the response headers, transport
// error) before handing the response on. Bodies are not recorded: the
// messages they carry are recorded by the session.
type Tap struct {
	// Base does the real work; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Rec receives the events; nil records nothing.
	Rec Recorder
	// Conn names the connection in the events.
	Conn string
	// Redactor masks secrets; nil masks secret headers, bearer tokens and
	// secret query parameters only.
	Redactor *Redactor
}

// RoundTrip performs req and records the exchange.
func (t *Tap) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	start := time.Now()
	resp, err := base.RoundTrip(req)
	if t.Rec == nil {
		return resp, err
	}
	info := &events.HTTPInfo{
		Method:    req.Method,
		URL:       t.Redactor.URL(req.URL.String()),
		ReqHeader: t.Redactor.Header(req.Header),
		Duration:  time.Since(start),
	}
	text := fmt.Sprintf("%s %s", req.Method, info.URL)
	if err != nil {
		info.Err = t.Redactor.String(err.Error())
		text += " → " + info.Err
	} else {
		info.Status = resp.StatusCode
		info.RespHeader = t.Redactor.Header(resp.Header)
		text += fmt.Sprintf(" → %d", resp.StatusCode)
	}
	t.Rec.Append(events.Event{Time: start, Conn: t.Conn, Kind: events.KindHTTP, Text: text, HTTP: info})
	return resp, err
}

// tappedClient returns a copy of c (or a fresh client) whose transport
// records through a Tap.
func tappedClient(c *http.Client, rec Recorder, conn string, red *Redactor) *http.Client {
	var out http.Client
	if c != nil {
		out = *c
	}
	if _, ok := out.Transport.(*Tap); ok || rec == nil {
		return &out
	}
	out.Transport = &Tap{Base: out.Transport, Rec: rec, Conn: conn, Redactor: red}
	return &out
}
