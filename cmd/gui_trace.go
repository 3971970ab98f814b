package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/ui"
)

// maxTraceOpen bounds a trace file opened in the window: the log keeps
// what it holds in memory.
const maxTraceOpen = 512 << 20

// openTrace loads a trace file into the window as recorded sessions: one
// server entry per connection the trace holds (named after the file, and
// the connection when there are several), marked recorded, whose events
// go into the log as they were recorded, paired again as they arrive. A
// damaged trace opens as far as it is valid, and warning says where it
// stopped.
func (b *guiBackend) openTrace(path string) (names []string, warning string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxTraceOpen {
		return nil, "", fmt.Errorf("the file is %d MB; the window opens traces of up to %d MB", fi.Size()>>20, maxTraceOpen>>20)
	}
	t, err := events.DecodeTrace(f)
	var damaged *events.TraceError
	switch {
	case errors.As(err, &damaged) && t != nil && len(t.Events) > 0:
		warning = "it is damaged; opened up to " + damaged.Pos.String()
	case errors.As(err, &damaged):
		return nil, "", fmt.Errorf("it is damaged at %s before its first event", damaged.Pos)
	case errors.Is(err, events.ErrNotTrace):
		return nil, "", errors.New("it is not a Spyglass trace")
	case err != nil:
		return nil, "", err
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var conns []string
	seen := map[string]bool{}
	for _, e := range t.Events {
		if !seen[e.Conn] {
			seen[e.Conn] = true
			conns = append(conns, e.Conn)
		}
	}
	entry := map[string]string{}
	for _, c := range conns {
		name := base
		if len(conns) > 1 && c != "" {
			name += " · " + c
		}
		entry[c] = b.addRecorded(name, path, t.Meta, c)
		names = append(names, entry[c])
	}
	for _, e := range t.Events {
		e.Conn = entry[e.Conn]
		e.Seq = 0
		b.log.Append(e)
	}
	return names, warning, nil
}

// addRecorded adds a recorded session's entry for this session only and
// returns the name used (name, or name (2)… when taken).
func (b *guiBackend) addRecorded(name, path string, meta events.TraceMeta, conn string) string {
	// what the recording says it talked to, for the card (never run)
	var s catalog.Server
	for _, ci := range meta.Conns {
		if ci.Conn != conn {
			continue
		}
		if ci.Transport == "http" || ci.Transport == "sse" {
			s.Type, s.URL = catalog.Type(ci.Transport), ci.Target
		} else {
			s.Command = ci.Target
		}
	}
	use := b.addSessionServer(name, s)
	b.setRecorded(use, path)
	return use
}

// traceArgs returns the command line's positional arguments, as absolute
// paths (relative ones are in dir), when every one is a trace file to open
// (`spyglass session.spyglass-trace`), else nil.
func traceArgs(dir string, target []string) []string {
	var out []string
	for _, p := range target {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		head := make([]byte, 64)
		n, _ := f.Read(head)
		fi, serr := f.Stat()
		f.Close()
		if serr != nil || !fi.Mode().IsRegular() || !ui.IsTrace(p, head[:n]) {
			return nil
		}
		out = append(out, p)
	}
	return out
}
