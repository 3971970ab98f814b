package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"time"
)

// sseEvent is one dispatched Server-Sent Event.
type sseEvent struct {
	Type  string // the event field; "" means "message"
	Data  []byte // data lines joined with "\n"
	ID    string
	HasID bool          // the event carried an id field (possibly empty)
	Retry time.Duration // a retry field in this event, 0 if none
	// tooLong is set, and Data nil, when the event's data or one of its
	// lines was longer than the reader's limit.
	tooLong *tooLongError
}

// sseReader parses a text/event-stream whose events carry at most limit
// bytes of data (and no longer lines).
type sseReader struct {
	br    *bufio.Reader
	limit int
}

// newSSEReader reads r with a limit of max bytes per event (zero means
// DefaultMaxMessageSize).
func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 32<<10), limit: maxSize(max)}
}

// next returns the next event. Events without data are returned too (a
// priming event carries only id and retry). It returns io.EOF (or the
// read error) when the stream ends; a partial event at the end is
// dropped, as the specification says.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	var data []byte
	hasData, any := false, false
	for {
		line, err := readLine(s.br, s.limit)
		var tl *tooLongError
		if errors.As(err, &tl) {
			if len(tl.head) > 0 && tl.head[0] == ':' {
				continue // a long comment is still no event
			}
			any = true
			if ev.tooLong == nil {
				ev.tooLong = tl
			}
			continue
		}
		if err != nil {
			return sseEvent{}, err
		}
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) == 0 {
			if !any {
				continue
			}
			ev.Data = data
			if !hasData || ev.tooLong != nil {
				ev.Data = nil
			}
			return ev, nil
		}
		if line[0] == ':' {
			continue // comment, keep-alive
		}
		any = true
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte{' '})
		}
		switch string(field) {
		case "data":
			if ev.tooLong != nil || len(data)+1+len(value) > s.limit {
				if ev.tooLong == nil {
					h := data
					if !hasData {
						h = value
					}
					ev.tooLong = &tooLongError{limit: s.limit, size: len(data), head: bytes.Clone(h[:min(len(h), headBytes)])}
					data = nil
				}
				if hasData {
					ev.tooLong.size++ // the "\n" joining data lines
				}
				ev.tooLong.size += len(value)
				hasData = true
				continue
			}
			if !hasData {
				// One data line (a message's usual event) is the line's own
				// bytes: readLine made them for this line alone.
				data = value[:len(value):len(value)]
				if data == nil {
					data = []byte{} // "data" without a colon: an empty line of data
				}
			} else {
				data = append(append(data, '\n'), value...)
			}
			hasData = true
		case "event":
			ev.Type = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.ID, ev.HasID = string(value), true
			}
		case "retry":
			if ms, err := strconv.Atoi(string(value)); err == nil && ms >= 0 {
				ev.Retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
}
