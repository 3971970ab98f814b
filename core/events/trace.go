package events

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"
)

// The trace file format identifiers (see TRACE.md). TraceVersion is the
// formatVersion WriteTrace writes and the newest ReadTrace reads.
const (
	TraceFormat  = "spyglass-trace"
	TraceVersion = 1
)

// Errors ReadTrace returns (wrapped).
var (
	ErrNotTrace     = errors.New("not a spyglass trace")
	ErrTraceVersion = errors.New("unsupported trace version")
	// ErrTraceDamaged: the file stops being a valid trace part way (it
	// was cut short or edited by hand). The events before that point are
	// returned with it, inside a *TraceError that says where.
	ErrTraceDamaged = errors.New("damaged trace")
)

// TraceMeta is the context saved with a trace: what is needed to read a
// session later besides its events.
type TraceMeta struct {
	// App names the program and version that wrote the trace.
	App string `json:"app,omitempty"`
	// Created is when the trace was written.
	Created time.Time `json:"created"`
	// Conns describes each connection the events refer to (Event.Conn).
	Conns []ConnInfo `json:"conns,omitempty"`
	// Dropped is how many events were evicted from the log before the
	// first event of the trace (history the trace does not hold).
	Dropped uint64 `json:"dropped,omitempty"`
}

// ConnInfo is what was negotiated on one connection.
type ConnInfo struct {
	// Conn is the connection's name, as in Event.Conn.
	Conn string `json:"conn"`
	// Transport is "stdio", "http" or "sse".
	Transport string `json:"transport,omitempty"`
	// Target is the command line or URL, with secrets masked.
	Target string `json:"target,omitempty"`
	// ProtocolVersion is the negotiated MCP protocol version.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// ServerInfo is the server's implementation info as it sent it.
	ServerInfo json.RawMessage `json:"serverInfo,omitempty"`
	// ServerCapabilities and ClientCapabilities are both sides'
	// capabilities as exchanged in initialize.
	ServerCapabilities json.RawMessage `json:"serverCapabilities,omitempty"`
	ClientCapabilities json.RawMessage `json:"clientCapabilities,omitempty"`
	// Instructions are the server's instructions, if any.
	Instructions string `json:"instructions,omitempty"`
}

// eventFields are an Event's fields without its JSON methods: their tags
// are the trace file's names (TRACE.md).
type eventFields Event

// traceEvent is the file form of an Event. Raw is written separately:
// verbatim under "raw" when it is valid JSON and UTF-8, otherwise as
// "rawText" (valid UTF-8) or "rawBase64".
type traceEvent struct {
	eventFields
	RawText   *string `json:"rawText,omitempty"`
	RawBase64 []byte  `json:"rawBase64,omitempty"`
	// Raw (which hides eventFields.Raw) is only read; writing splices
	// the bytes in verbatim.
	Raw json.RawMessage `json:"raw,omitempty"`
}

type traceHead struct {
	Format        string    `json:"format"`
	FormatVersion int       `json:"formatVersion"`
	Meta          TraceMeta `json:"meta"`
}

// rawVerbatim reports whether raw can be written as a JSON value as is
// and read back byte for byte.
func rawVerbatim(raw []byte) bool {
	return len(raw) > 0 && len(bytes.TrimSpace(raw)) == len(raw) && utf8.Valid(raw) && json.Valid(raw)
}

// utf8JSON returns v as a value a strict reader accepts: v itself when it
// is valid UTF-8 JSON; with invalid UTF-8 replaced by U+FFFD when that
// makes it valid (encoding/json passes a RawMessage's bytes through
// unchecked); nil when it is not JSON at all.
func utf8JSON(v json.RawMessage) json.RawMessage {
	if len(v) == 0 || utf8.Valid(v) && json.Valid(v) {
		return v
	}
	if v = bytes.ToValidUTF8(v, []byte("\uFFFD")); json.Valid(v) {
		return v
	}
	return nil
}

// toTrace converts e to its file form; verbatim says Raw must be spliced
// in as is under "raw".
func toTrace(e *Event) (te traceEvent, verbatim bool) {
	te.eventFields = eventFields(*e)
	switch {
	case len(e.Raw) == 0:
	case rawVerbatim(e.Raw):
		verbatim = true
	case utf8.Valid(e.Raw):
		s := string(e.Raw)
		te.RawText = &s
	default:
		te.RawBase64 = e.Raw
	}
	return te, verbatim
}

// fromTrace converts the file form back to an Event.
func fromTrace(te *traceEvent) Event {
	e := Event(te.eventFields)
	e.Raw = nil
	switch {
	case len(te.Raw) > 0:
		e.Raw = te.Raw
	case te.RawText != nil:
		e.Raw = json.RawMessage(*te.RawText)
	case te.RawBase64 != nil:
		e.Raw = te.RawBase64
	}
	return e
}

// MarshalJSON encodes the event as one element of a trace file's
// "events" (TRACE.md): Raw that is not valid JSON is written as "rawText"
// or "rawBase64", so every event marshals. To write many events, or large
// ones, WriteJSONLines and WriteTrace stream them instead.
func (e Event) MarshalJSON() ([]byte, error) {
	te, verbatim := toTrace(&e)
	b, err := json.Marshal(&te)
	if err != nil || !verbatim {
		return b, err
	}
	out := make([]byte, 0, len(b)+len(e.Raw)+8)
	out = append(out, b[:len(b)-1]...)
	out = append(out, `,"raw":`...)
	out = append(out, e.Raw...)
	return append(out, '}'), nil
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (e *Event) UnmarshalJSON(b []byte) error {
	var te traceEvent
	if err := json.Unmarshal(b, &te); err != nil {
		return err
	}
	*e = fromTrace(&te)
	return nil
}

// eventWriter writes events in their trace form. A message's bytes go
// straight from Raw to the writer: only the small fields around them are
// encoded into a buffer.
type eventWriter struct {
	bw  *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

func newEventWriter(w io.Writer) *eventWriter {
	ew := &eventWriter{bw: bufio.NewWriterSize(w, 64<<10)}
	ew.enc = json.NewEncoder(&ew.buf)
	ew.enc.SetEscapeHTML(false)
	return ew
}

// event writes e as one JSON object (no newline).
func (w *eventWriter) event(e *Event) error {
	te, verbatim := toTrace(e)
	w.buf.Reset()
	if err := w.enc.Encode(&te); err != nil {
		return fmt.Errorf("event %d: %w", e.Seq, err)
	}
	b := bytes.TrimSpace(w.buf.Bytes())
	if !verbatim {
		_, err := w.bw.Write(b)
		return err
	}
	w.bw.Write(b[:len(b)-1])
	w.bw.WriteString(`,"raw":`)
	w.bw.Write(e.Raw)
	return w.bw.WriteByte('}')
}

// WriteJSONLines writes each event as one line of JSON, in the form of a
// trace file's events (see MarshalJSON), without copying their bytes.
func WriteJSONLines(w io.Writer, events []Event) error {
	ew := newEventWriter(w)
	for i := range events {
		if err := ew.event(&events[i]); err != nil {
			return fmt.Errorf("write events: %w", err)
		}
		ew.bw.WriteByte('\n')
	}
	if err := ew.bw.Flush(); err != nil {
		return fmt.Errorf("write events: %w", err)
	}
	return nil
}

// WriteTrace writes meta and events as a trace file (TRACE.md): one JSON
// object, one event per line. Each message's bytes are written verbatim,
// straight to w. Events should come from a Log, so Options.Redact has
// already masked their secrets.
func WriteTrace(w io.Writer, meta TraceMeta, events []Event) error {
	return writeTrace(w, meta, func(yield func(*Event) bool) {
		for i := range events {
			if !yield(&events[i]) {
				return
			}
		}
	})
}

// writeTrace is WriteTrace over the events seq yields.
func writeTrace(w io.Writer, meta TraceMeta, seq func(yield func(*Event) bool)) error {
	if meta.Created.IsZero() {
		meta.Created = time.Now()
	}
	meta.Conns = append([]ConnInfo(nil), meta.Conns...)
	for i := range meta.Conns {
		c := &meta.Conns[i]
		c.ServerInfo, c.ServerCapabilities, c.ClientCapabilities =
			utf8JSON(c.ServerInfo), utf8JSON(c.ServerCapabilities), utf8JSON(c.ClientCapabilities)
	}
	ew := newEventWriter(w)
	if err := ew.enc.Encode(traceHead{Format: TraceFormat, FormatVersion: TraceVersion, Meta: meta}); err != nil {
		return fmt.Errorf("write trace: meta: %w", err)
	}
	head := bytes.TrimSpace(ew.buf.Bytes())
	ew.bw.Write(head[:len(head)-1]) // reopen the object
	ew.bw.WriteString(",\n\"events\":[")
	i := 0
	var err error
	seq(func(e *Event) bool {
		if i > 0 {
			ew.bw.WriteByte(',')
		}
		i++
		ew.bw.WriteByte('\n')
		err = ew.event(e)
		return err == nil
	})
	if err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	ew.bw.WriteString("\n]}\n")
	if err := ew.bw.Flush(); err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	return nil
}

// WriteTrace writes every event the log holds as a trace file, with
// meta.Dropped set to the events evicted before them (since the last
// Clear).
func (l *Log) WriteTrace(w io.Writer, meta TraceMeta) error {
	l.mu.Lock()
	_, n := l.missingLocked(0)
	l.mu.Unlock()
	meta.Dropped = n
	return l.WriteTraceOf(w, meta, "")
}

// WriteTraceOf writes the events of one connection (every one when conn
// is "") as a trace file, reading the log a chunk at a time (Scan), so
// that a long session is never decoded whole and another connection's
// chunks not at all. meta.Dropped is left as given.
func (l *Log) WriteTraceOf(w io.Writer, meta TraceMeta, conn string) error {
	return writeTrace(w, meta, func(yield func(*Event) bool) {
		for e := range l.Scan(conn) {
			if !yield(&e) {
				return
			}
		}
	})
}
