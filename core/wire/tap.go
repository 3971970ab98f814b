package wire

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
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
// records through a Tap and whose redirects to another origin carry none
// of the caller's headers (see keepAcrossOrigins).
func tappedClient(c *http.Client, rec Recorder, conn string, red *Redactor) *http.Client {
	var out http.Client
	if c != nil {
		out = *c
	}
	next := out.CheckRedirect
	r := recorder{rec: rec, conn: conn}
	out.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		from := via[0].URL
		if origin(req.URL) != origin(from) {
			var dropped []string
			for k := range req.Header {
				if !keepAcrossOrigins[http.CanonicalHeaderKey(k)] {
					dropped = append(dropped, k)
					delete(req.Header, k)
				}
			}
			slices.Sort(dropped)
			text := fmt.Sprintf("the server redirected %s %s to another origin, %s; followed without the request's own headers", via[0].Method, red.URL(from.String()), red.URL(req.URL.String()))
			if len(dropped) > 0 {
				text += " (" + strings.Join(dropped, ", ") + " not sent)"
			}
			r.add(events.Event{Kind: events.KindWarning, Text: text})
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	if _, ok := out.Transport.(*Tap); ok || rec == nil {
		return &out
	}
	out.Transport = &Tap{Base: out.Transport, Rec: rec, Conn: conn, Redactor: red}
	return &out
}

// keepAcrossOrigins are the headers a redirect to another origin keeps:
// the transport's own, which carry no secret. Everything else — the
// catalog's and the user's headers, Authorization, Cookie, the session
// id — stays with the origin it was meant for.
var keepAcrossOrigins = map[string]bool{
	"Accept": true, "Content-Type": true, "User-Agent": true,
	HeaderProtocolVersion: true, HeaderMethod: true, HeaderName: true, "Last-Event-Id": true,
}

// origin is the scheme, host and port of u (the port made explicit).
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
