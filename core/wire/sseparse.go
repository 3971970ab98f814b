package wire

import (
	"bufio"
	"bytes"
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
}

// sseReader parses a text/event-stream of any line length.
type sseReader struct {
	br *bufio.Reader
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 32<<10)}
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
		line, err := s.br.ReadBytes('\n')
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
			if !hasData {
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
			if hasData {
				data = append(data, '\n')
			}
			if data == nil {
				data = make([]byte, 0, len(value))
			}
			data = append(data, value...)
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
