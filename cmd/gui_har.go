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

// forgetHAR drops the HTTP exchanges recorded with the server so far but
// the streams still open (the inspector's Clear, through ClearEvents): a
// stream's recorded body, up to har.MaxBody, and its events were kept
// past the Clear, 20-40 MB after a flood over HTTP.
func (b *guiBackend) forgetHAR(name string) {
	b.mu.Lock()
	rec := b.hars[name]
	b.mu.Unlock()
	if rec != nil {
		rec.Forget()
	}
}

// ExportHAR implements ui.HARExporter: the HTTP exchanges with the named
// server since the window opened or the inspector was last cleared, as
// HAR 1.2, secrets masked.
func (b *guiBackend) ExportHAR(server string, w io.Writer) error {
	b.mu.Lock()
	rec := b.hars[server]
	b.mu.Unlock()
	if rec == nil || rec.Len() == 0 {
		return errors.New("nothing to export yet: connect to the server first")
	}
	return rec.Write(w, har.Creator{Name: "spyglass", Version: version}, b.red)
}
