package cmd

import (
	"fmt"
	"io"
	"net/http"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/har"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// recordHAR puts a HAR recorder under the connection's HTTP client, for
// --har FILE. A stdio server has no HTTP to record.
func (r *cliRun) recordHAR() error {
	if r.conn.http == nil {
		return fmt.Errorf("--har records HTTP exchanges, but %q is a stdio server; use --trace FILE for its messages", r.conn.name)
	}
	r.har = &har.Recorder{}
	recordHTTP(r.conn.http, r.har)
	return nil
}

// recordHTTP puts rec under cfg's HTTP client: every exchange over it is
// recorded for a HAR file (the --har flag, the window's File → Export HAR…).
// A recorder already in use (the window's, over reconnections) keeps
// the transport it was first given.
func recordHTTP(cfg *wire.HTTPConfig, rec *har.Recorder) {
	if rec.Base == nil {
		rec.Base = http.DefaultTransport
		if c := cfg.Client; c != nil && c.Transport != nil {
			rec.Base = c.Transport
		}
	}
	client := &http.Client{Transport: rec}
	if c := cfg.Client; c != nil {
		cp := *c
		cp.Transport = rec
		client = &cp
	}
	cfg.Client = client
}

// writeHAR saves the HTTP exchanges to --har FILE, secrets masked.
func (r *cliRun) writeHAR() (ok bool) {
	if r.har == nil {
		return true
	}
	if err := catalog.WriteOutputFunc(r.inv.HAR, func(w io.Writer) error {
		return r.har.Write(w, har.Creator{Name: "spyglass", Version: version}, r.red)
	}); err != nil {
		fmt.Fprintf(r.stderr, "error: writing the HAR file to %s: %v\n", r.inv.HAR, err)
		return false
	}
	return true
}
