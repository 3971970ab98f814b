package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// headBytes is how much of a line that is not a message, or is too long,
// is kept in the record's Text.
const headBytes = 200

// Splitter cuts a newline-delimited byte stream into messages and records
// each as it completes: a JSON object or array as an events.KindMessage
// in Dir (its exact bytes, the line ending left out), anything else as
// events.KindInvalid. A line longer than Max is recorded as invalid with
// its size and first bytes, and the rest of it is not kept. It only
// observes: feed it a copy of what was passed on.
//
// A Splitter is not safe for concurrent use; use one per stream.
type Splitter struct {
	// Rec receives the events; Conn names them.
	Rec  wire.Recorder
	Conn string
	// Dir is the direction of the stream: events.DirOut for what the host
	// sends to the server, events.DirIn for the server's output.
	Dir events.Direction
	// Max bounds one message; zero means wire.DefaultMaxMessageSize.
	Max int

	buf  []byte
	size int       // bytes of the current line, kept or not
	over bool      // the current line passed Max
	skip bool      // bytes were lost: discard up to the next newline
	at   time.Time // when the bytes being written were read (zero: now)
}

// Write records the complete lines in p and keeps the rest for the next
// call. It never fails.
func (s *Splitter) Write(p []byte) (int, error) {
	n := len(p)
	if s.skip {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			return n, nil
		}
		s.skip = false
		p = p[i+1:]
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		s.add(part)
		if i < 0 {
			break
		}
		s.line()
		p = p[i+1:]
	}
	return n, nil
}

// Flush records a last line that ended without a newline (the stream
// closed in the middle of it), as invalid.
func (s *Splitter) Flush() {
	if s.size == 0 {
		return
	}
	if !s.over {
		line := s.buf
		s.record(events.Event{Kind: events.KindInvalid, Raw: bytes.Clone(line),
			Text: "stream ended inside a message (no newline): " + head(line)})
	}
	s.reset()
}

// lost tells the splitter that bytes of its stream were passed on but
// not handed to it: the line under way and, unless the lost bytes ended
// a line, the rest of the line they were lost from are not recorded.
func (s *Splitter) lost(endsLine bool) {
	s.reset()
	s.skip = !endsLine
}

func (s *Splitter) add(part []byte) {
	s.size += len(part)
	limit := s.Max
	if limit <= 0 {
		limit = wire.DefaultMaxMessageSize
	}
	if s.over {
		return
	}
	if s.size > limit+1 { // 1: room for a '\r'
		s.over = true
		s.buf = append(s.buf, part[:min(len(part), max(0, headBytes-len(s.buf)))]...)
		return
	}
	s.buf = append(s.buf, part...)
}

func (s *Splitter) line() {
	defer s.reset()
	if s.over {
		s.record(events.Event{Kind: events.KindInvalid, Size: s.size,
			Text: fmt.Sprintf("message of %d bytes exceeds the limit: %s", s.size, head(s.buf))})
		return
	}
	line := bytes.TrimSuffix(s.buf, []byte{'\r'})
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	raw := bytes.Clone(line)
	t := bytes.TrimLeft(raw, " \t")
	switch {
	case t[0] != '{' && t[0] != '[':
		s.record(events.Event{Kind: events.KindInvalid, Raw: raw, Text: "not a JSON-RPC message: " + head(raw)})
	case !json.Valid(t):
		s.record(events.Event{Kind: events.KindInvalid, Raw: raw, Text: "invalid JSON: " + head(raw)})
	default:
		recordMessage(s.record, s.Dir, raw)
	}
}

// BatchElement starts the Text of a message event that is one element
// of a JSON-RPC batch: the batch itself is recorded as one message event
// with its exact bytes (the whole array), followed by one event per
// element, so that each request and response pairs on its own.
const BatchElement = "batch element "

// recordMessage records raw, a valid JSON object or array, in dir: an
// object as one message; an array (a JSON-RPC batch) as itself, then each
// element as a message of its own with the element's exact bytes (or as
// invalid when it is not an object).
func recordMessage(record func(events.Event), dir events.Direction, raw []byte) {
	record(events.Event{Kind: events.KindMessage, Dir: dir, Raw: raw})
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 || t[0] != '[' {
		return
	}
	var elems []json.RawMessage
	if json.Unmarshal(t, &elems) != nil {
		return
	}
	for i, el := range elems {
		text := fmt.Sprintf("%s%d of %d", BatchElement, i+1, len(elems))
		if len(el) == 0 || el[0] != '{' {
			record(events.Event{Kind: events.KindInvalid, Dir: dir, Raw: el, Text: text + ": not a JSON-RPC message: " + head(el)})
			continue
		}
		record(events.Event{Kind: events.KindMessage, Dir: dir, Raw: el, Text: text})
	}
}

func (s *Splitter) reset() {
	if cap(s.buf) > 1<<20 {
		s.buf = nil
	}
	s.buf, s.size, s.over = s.buf[:0], 0, false
}

func (s *Splitter) record(e events.Event) {
	if s.Rec == nil {
		return
	}
	e.Conn = s.Conn
	if e.Time.IsZero() {
		e.Time = s.at
	}
	s.Rec.Append(e)
}

// head is the start of b as valid UTF-8 text.
func head(b []byte) string {
	return strings.ToValidUTF8(string(b[:min(len(b), headBytes)]), "\uFFFD")
}
