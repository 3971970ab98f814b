package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// traceEnd closes the event list and the trace, as WriteTrace does.
const traceEnd = "\n]}\n"

// TraceStream writes a log as a trace file (core/events/TRACE.md) while
// events arrive: the head first, then each batch of events as the log
// hands it over, and the closing brackets on Close. Requests are written
// when they are sent, so their outcome in the stream is the one they had
// then ("waiting"); the response's pair names its request. A write that
// fails ends the stream (the error is kept for Close and given to
// OnError once); the log and the traffic behind it never wait for it.
type TraceStream struct {
	log     *events.Log
	w       io.Writer
	onError func(error)

	mu     sync.Mutex // guards the fields below and serialises writes
	last   uint64     // seq of the last event written
	wrote  bool       // an event has been written
	err    error
	cancel func()
	buf    bytes.Buffer
}

// StartTrace writes the head of a trace with meta to w and streams the
// events of log from its next event on. onError (which may be nil) is
// told once when writing fails.
func StartTrace(log *events.Log, w io.Writer, meta events.TraceMeta, onError func(error)) *TraceStream {
	t := &TraceStream{log: log, w: w, onError: onError}
	if meta.Created.IsZero() {
		meta.Created = time.Now()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = log.LastSeq()
	// The head is WriteTrace's own, for a trace without events, cut
	// before the end of its event list.
	var head bytes.Buffer
	err := events.WriteTrace(&head, meta, nil)
	if err == nil {
		_, err = w.Write(bytes.TrimSuffix(head.Bytes(), []byte(traceEnd)))
	}
	if err != nil {
		t.failLocked(err)
		return t
	}
	t.cancel = log.SubscribeAfter(t.last, func(b events.Batch) {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.writeLocked(b.Events)
	})
	return t
}

// Err returns the error that ended the stream, nil while it writes.
func (t *TraceStream) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// writeLocked writes the events after t.last.
func (t *TraceStream) writeLocked(evs []events.Event) {
	if t.err != nil {
		return
	}
	for len(evs) > 0 && evs[0].Seq <= t.last {
		evs = evs[1:]
	}
	if len(evs) == 0 {
		return
	}
	t.buf.Reset()
	if err := events.WriteJSONLines(&t.buf, evs); err != nil {
		t.failLocked(err)
		return
	}
	// One event per line, separated as WriteTrace separates them.
	out := make([]byte, 0, t.buf.Len()+2*len(evs))
	for _, line := range bytes.SplitAfter(bytes.TrimSuffix(t.buf.Bytes(), []byte{'\n'}), []byte{'\n'}) {
		if t.wrote {
			out = append(out, ',')
		}
		if !bytes.HasSuffix(line, []byte{'\n'}) {
			line = append(line[:len(line):len(line)], '\n')
		}
		out = append(out, '\n')
		out = append(out, line[:len(line)-1]...)
		t.wrote = true
	}
	if _, err := t.w.Write(out); err != nil {
		t.failLocked(err)
		return
	}
	t.last = evs[len(evs)-1].Seq
}

func (t *TraceStream) failLocked(err error) {
	if t.err != nil {
		return
	}
	t.err = fmt.Errorf("tap: write trace: %w", err)
	if t.cancel != nil {
		go t.cancel()
	}
	if t.onError != nil {
		go t.onError(t.err)
	}
}

// Close writes the events not written yet and the end of the trace, and
// stops following the log. It returns the error that ended the stream,
// if any.
func (t *TraceStream) Close() error {
	t.mu.Lock()
	cancel := t.cancel
	t.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return t.err
	}
	evs, _ := t.log.After(t.last, 0)
	t.writeLocked(evs)
	if t.err != nil {
		return t.err
	}
	if _, err := io.WriteString(t.w, traceEnd); err != nil {
		t.failLocked(err)
		return t.err
	}
	return nil
}

// Handshake fills info from the initialize exchange of conn among evs:
// the protocol version, serverInfo, instructions and both sides'
// capabilities, as they were sent. Fields it cannot find stay as they are.
func Handshake(evs []events.Event, conn string, info *events.ConnInfo) {
	for i := range evs {
		e := &evs[i]
		if e.Conn != conn || e.Kind != events.KindMessage || e.Method != "initialize" {
			continue
		}
		switch {
		case e.Dir == events.DirOut && e.Type == events.MsgRequest:
			var m struct {
				Params struct {
					Capabilities json.RawMessage `json:"capabilities"`
				} `json:"params"`
			}
			if json.Unmarshal(e.Raw, &m) == nil && len(m.Params.Capabilities) > 0 {
				info.ClientCapabilities = m.Params.Capabilities
			}
		case e.Dir == events.DirIn && e.Type == events.MsgResult:
			var m struct {
				Result struct {
					ProtocolVersion string          `json:"protocolVersion"`
					ServerInfo      json.RawMessage `json:"serverInfo"`
					Capabilities    json.RawMessage `json:"capabilities"`
					Instructions    string          `json:"instructions"`
				} `json:"result"`
			}
			if json.Unmarshal(e.Raw, &m) == nil {
				r := m.Result
				info.ProtocolVersion, info.ServerInfo, info.ServerCapabilities, info.Instructions =
					r.ProtocolVersion, r.ServerInfo, r.Capabilities, r.Instructions
			}
		}
	}
}
