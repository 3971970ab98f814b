package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/tidwall/gjson"
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
	record(describe(events.Event{Kind: events.KindMessage, Dir: dir, Raw: raw}))
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
		record(describe(events.Event{Kind: events.KindMessage, Dir: dir, Raw: el, Text: text}))
	}
}

// describe sets e's Type, ID and Method from e.Raw, a valid JSON value,
// the way the log derives them when they are left empty
// (events.Log.Append), in one walk over the top-level keys instead of a
// reflective decode: about a third of the recording's CPU per message.
// Where the shortcut could differ from encoding/json's reading (a key
// that matches id, method, result or error only case-insensitively, a
// repeated key, a non-ASCII or escaped key), e is left as it is and the
// log decodes it itself.
func describe(e events.Event) events.Event {
	if len(e.Raw) == 0 {
		return e
	}
	// Read in place: e.Raw is not modified once recorded (the log keeps
	// it), and what is kept of it below is cloned.
	v := gjson.Parse(unsafe.String(&e.Raw[0], len(e.Raw)))
	if !v.IsObject() {
		return e
	}
	var id, method string
	var seen uint8 // 1 id, 2 method, 4 result, 8 error
	ok := true
	v.ForEach(func(k, val gjson.Result) bool {
		name := k.Raw
		if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
			ok = false
			return false
		}
		name = name[1 : len(name)-1]
		for i := 0; i < len(name); i++ {
			if c := name[i]; c == '\\' || c >= utf8.RuneSelf {
				ok = false // encoding/json would unescape or fold it
				return false
			}
		}
		var bit uint8
		switch {
		case name == "id":
			bit, id = 1, val.Raw
		case name == "method":
			bit, method = 2, val.Raw
		case name == "result":
			bit = 4
		case name == "error":
			bit = 8
		case strings.EqualFold(name, "id"), strings.EqualFold(name, "method"),
			strings.EqualFold(name, "result"), strings.EqualFold(name, "error"):
			ok = false // encoding/json matches keys case-insensitively
			return false
		default:
			return true
		}
		if seen&bit != 0 || val.Raw == "" {
			ok = false // a repeated key: the last one wins there
			return false
		}
		seen |= bit
		return true
	})
	if !ok {
		return e
	}
	switch {
	case seen&3 == 3:
		e.Type = events.MsgRequest
	case seen&2 != 0:
		e.Type = events.MsgNotification
	case seen&8 != 0:
		e.Type = events.MsgError
	case seen&4 != 0:
		e.Type = events.MsgResult
	default:
		return e // not a JSON-RPC message: the log says so its own way
	}
	e.ID = events.NormalizeID(strings.Clone(id))
	if seen&2 != 0 {
		plain := len(method) >= 2 && method[0] == '"' && strings.IndexByte(method, '\\') < 0 && utf8.ValidString(method)
		switch {
		case plain:
			e.Method = strings.Clone(method[1 : len(method)-1])
		case json.Unmarshal([]byte(method), &e.Method) != nil:
			e.Method = strings.Clone(method)
		}
	}
	return e
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
