package cmd

import (
	"fmt"
	"io"
	"net/http"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/har"
)

// recordHAR puts a HAR recorder under the connection's HTTP client, for
// --har FILE. A stdio server has no HTTP to record.
func (r *cliRun) recordHAR() error {
	if r.conn.http == nil {
		return fmt.Errorf("--har records HTTP exchanges, but %q is a stdio server; use --trace FILE for its messages", r.conn.name)
	}
	base := http.DefaultTransport
	if c := r.conn.http.Client; c != nil && c.Transport != nil {
		base = c.Transport
	}
	r.har = &har.Recorder{Base: base}
	client := &http.Client{Transport: r.har}
	if c := r.conn.http.Client; c != nil {
		cp := *c
		cp.Transport = r.har
		client = &cp
	}
	r.conn.http.Client = client
	return nil
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
