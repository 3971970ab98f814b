package tap

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Record is a tap's record: an events.Log whose secrets are masked by a
// wire.Redactor, written to a trace file. A regular file is saved whole
// when the tap ends (atomically, with every request's final outcome); a
// FIFO, a device or a terminal is written while the tap runs
// (TraceStream), so that a reader follows it live.
type Record struct {
	// Log is the record; hand it to RunStdio or NewProxy as their Rec.
	Log *events.Log
	// Redactor masks secrets in what is recorded.
	Redactor *wire.Redactor

	path    string
	meta    events.TraceMeta
	conn    string
	onError func(error)

	once   sync.Once
	done   chan struct{}
	closed chan error
}

// NewRecord returns the record of one tap on connection info.Conn,
// written to the trace at path (none when path is empty: a record only
// fed live to the app). onError is told, once, when the trace
// cannot be written (no reader on a FIFO, a full disk, a reader that went
// away); the traffic is never held up by it.
func NewRecord(path, app string, info events.ConnInfo, onError func(error)) *Record {
	red := wire.NewRedactor()
	r := &Record{
		Log:      events.New(&events.Options{Redact: red.Redact}),
		Redactor: red,
		path:     path, conn: info.Conn,
		meta: events.TraceMeta{App: app, Conns: []events.ConnInfo{info}},
	}
	r.onError = func(err error) {
		r.once.Do(func() {
			if onError != nil {
				onError(err)
			}
		})
	}
	if path != "" && Streamed(path) {
		r.startStream()
	}
	return r
}

// Streamed reports whether the trace at path is written while the tap
// runs (an existing FIFO, device or terminal, or a path under /dev or
// /proc) rather than saved when it ends (a regular file).
func Streamed(path string) bool {
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	clean := filepath.Clean(path)
	return !st.Mode().IsRegular() || strings.HasPrefix(clean, "/dev/") || strings.HasPrefix(clean, "/proc/")
}

func (r *Record) startStream() {
	r.done = make(chan struct{})
	r.closed = make(chan error, 1)
	started := make(chan struct{})
	var startOnce sync.Once
	go func() {
		err := catalog.WriteOutputFunc(r.path, func(w io.Writer) error {
			ts := StartTrace(r.Log, w, r.meta, r.onError)
			startOnce.Do(func() { close(started) })
			<-r.done
			return ts.Close()
		})
		startOnce.Do(func() { close(started) })
		if err != nil {
			r.onError(err)
		}
		r.closed <- err
	}()
	<-started
}

// FinishWait bounds how long Finish waits for a trace reader that
// stopped reading.
const FinishWait = 5 * time.Second

// Finish completes the trace: the end of a streamed one, or the whole of
// a saved one, with what the handshake negotiated in its meta. It returns
// the error that kept the trace from being written, if any (also given to
// onError).
func (r *Record) Finish() error {
	Handshake(r.Log.Events(), r.conn, &r.meta.Conns[0])
	if r.path == "" {
		return nil
	}
	if r.done != nil {
		close(r.done)
		select {
		case err := <-r.closed:
			return err
		case <-time.After(FinishWait):
			err := fmt.Errorf("tap: write %s: the reader stopped reading", r.path)
			r.onError(err)
			return err
		}
	}
	err := catalog.WriteOutputFunc(r.path, func(w io.Writer) error {
		return r.Log.WriteTrace(w, r.meta)
	})
	if err != nil {
		err = fmt.Errorf("tap: %w", err)
		r.onError(err)
	}
	return err
}
