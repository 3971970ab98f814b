package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/redact"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// connection is everything every surface (window, --cli, conformance
// client) needs to reach one catalog server: the dial function for
// core/session and the session options derived from the entry.
type connection struct {
	name     string
	server   catalog.Server
	dial     func(ctx context.Context) (wire.Conn, error)
	opts     *session.Options
	warnings []catalog.Warning
	// http is the HTTP configuration of an http/sse server, nil for stdio.
	http *wire.HTTPConfig
	// auth signs in to an http/sse server that asks for it (see
	// enableOAuth); nil until then, and always for stdio. authBase bounds
	// its sign-ins; onAuthorizing, when set, hears when one starts and
	// ends; connected turns true once the first handshake succeeded.
	auth          *oauth.Authorizer
	authBase      context.Context
	onAuthorizing func(active bool)
	connected     atomic.Bool
}

// inputsError says that a server still holds VS Code input variables
// (${input:ID}, imported verbatim) and how to give their values: a server
// started with the placeholders would fail in ways that hide the cause.
func inputsError(name string, refs []catalog.InputRef) error {
	parts := make([]string, 0, len(refs))
	for _, r := range refs {
		parts = append(parts, "${input:"+r.ID+"} in "+r.Field)
	}
	return fmt.Errorf("needs values for VS Code inputs: %s — put them in the catalog (edit server %q); with --cli, -e NAME=VALUE or --header 'Name: value' also give them", strings.Join(parts, ", "), name)
}

// newConnection prepares the connection to one server. Secret values of
// the entry (by redact: env values and headers with secret names, secret
// flag values and URL parameters) are added to
// red so that they never reach the event log.
func newConnection(name string, s catalog.Server, rec wire.Recorder, red *wire.Redactor) (*connection, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if refs := s.InputRefs(); len(refs) > 0 {
		return nil, inputsError(name, refs)
	}
	c := &connection{name: name, server: s}
	switch s.Type {
	case catalog.TypeStdio, "":
		command, err := catalog.ResolveCommand(s.Command, s.Args)
		if err != nil {
			return nil, err
		}
		env := make([]string, 0, len(s.Env))
		for k, v := range s.Env {
			env = append(env, k+"="+v)
			if red != nil && redact.Name(k) && v != "" {
				red.Add(v)
			}
		}
		if red != nil {
			red.Add(redact.ArgSecrets(s.Args)...)
		}
		sort.Strings(env)
		cfg := wire.StdioConfig{Conn: name, Command: command, Args: s.Args, Env: env, Dir: s.Cwd, MaxMessageSize: messageLimit(s)}
		c.dial = func(context.Context) (wire.Conn, error) { return wire.NewStdio(cfg, rec), nil }
	default: // http and sse; Validate rejected every other type
		h := http.Header{}
		for k, v := range s.Headers {
			h.Set(k, v)
			if red != nil && redact.Name(k) && v != "" {
				red.Add(v)
			}
		}
		if red != nil {
			red.Add(redact.URLSecrets(s.URL)...)
		}
		c.http = &wire.HTTPConfig{Conn: name, URL: s.URL, Header: h, Redactor: red, MaxMessageSize: messageLimit(s)}
		sse := s.Type == catalog.TypeSSE
		c.dial = func(context.Context) (wire.Conn, error) {
			cfg := *c.http // read at dial time: enableOAuth may have set Prepare
			if sse {
				return wire.NewSSE(cfg, rec), nil
			}
			return wire.NewStreamableHTTP(cfg, rec), nil
		}
	}
	c.opts = &session.Options{
		Conn:              name,
		ProtocolVersion:   s.ProtocolVersion,
		Era:               session.Era(s.EffectiveEra()),
		ConnectionTimeout: s.ConnectionTimeoutDuration(),
		RequestTimeout:    s.RequestTimeoutDuration(),
		PaginatedLists:    s.PaginatedLists,
		WordError:         errorHeadline,
	}
	if len(s.Metadata) > 0 {
		meta, warns := catalog.SanitizeMeta(s.Metadata)
		for i := range warns {
			warns[i].Server = name
		}
		c.warnings = append(c.warnings, warns...)
		if len(meta) > 0 {
			_ = json.Unmarshal(meta, &c.opts.Metadata)
		}
	}
	for _, r := range s.Roots {
		c.opts.Roots = append(c.opts.Roots, mcp.Root{URI: r.URI, Name: r.Name})
	}
	var exp map[string]json.RawMessage
	if json.Unmarshal(s.ExperimentalCapabilities, &exp) == nil && len(exp) > 0 {
		// what nil would advertise, plus the experimental capabilities
		c.opts.Capabilities = session.DefaultCapabilities()
		c.opts.Capabilities.Experimental = exp
	}
	return c, nil
}

// messageLimit is the catalog's maxMessageSize for the wire (0 = the
// wire's default).
func messageLimit(s catalog.Server) int {
	if s.MaxMessageSize <= 0 {
		return 0
	}
	return int(min(s.MaxMessageSize, int64(math.MaxInt)))
}
