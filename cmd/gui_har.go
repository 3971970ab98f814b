package cmd

import (
	"errors"
	"io"

	"github.com/spyglass-mcp/spyglass/core/har"
)

// recordHAR puts the server's HAR recorder (one per server, kept over
// reconnections) under a new HTTP connection to it.
func (b *guiBackend) recordHAR(name string, conn *connection) {
	if conn.http == nil {
		return
	}
	b.mu.Lock()
	if b.hars == nil {
		b.hars = map[string]*har.Recorder{}
	}
	rec := b.hars[name]
	if rec == nil {
		rec = &har.Recorder{}
		b.hars[name] = rec
	}
	b.mu.Unlock()
	recordHTTP(conn.http, rec)
}

// ExportHAR implements ui.HARExporter: the HTTP exchanges with the named
// server since the window opened, as HAR 1.2, secrets masked.
func (b *guiBackend) ExportHAR(server string, w io.Writer) error {
	b.mu.Lock()
	rec := b.hars[server]
	b.mu.Unlock()
	if rec == nil || rec.Len() == 0 {
		return errors.New("nothing to export yet: connect to the server first")
	}
	return rec.Write(w, har.Creator{Name: "spyglass", Version: version}, b.red)
}
