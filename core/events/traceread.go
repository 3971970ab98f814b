package events

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// TracePos is a place in a trace file: the byte offset and the line and
// column (both from 1; the column counts characters) it falls on.
type TracePos struct {
	Offset int64
	Line   int
	Column int
}

// String is "line L, column C".
func (p TracePos) String() string { return fmt.Sprintf("line %d, column %d", p.Line, p.Column) }

// TraceError says where a trace file stopped being valid. Events is how
// many events were read before that point (the events ReadTrace returns
// with it); Event is the index of the event that failed, -1 when the
// failure is outside the events array.
type TraceError struct {
	Pos    TracePos
	Events int
	Event  int
	Err    error
}

func (e *TraceError) Error() string {
	where := e.Pos.String()
	if e.Event >= 0 {
		where = fmt.Sprintf("event %d at %s", e.Event+1, where)
	}
	return fmt.Sprintf("%s: %s: %v (%d events read before it)", ErrTraceDamaged, where, e.Err, e.Events)
}

// Unwrap returns ErrTraceDamaged and the decoding error.
func (e *TraceError) Unwrap() []error { return []error{ErrTraceDamaged, e.Err} }

// Trace is a trace file read back: its format version, its meta and its
// events.
type Trace struct {
	// FormatVersion is the file's formatVersion ("version" in files
	// written before formatVersion existed).
	FormatVersion int
	Meta          TraceMeta
	Events        []Event
}

// ReadTrace reads a trace file written by WriteTrace and returns its meta
// and events exactly as they were written (Raw byte for byte). See
// DecodeTrace for damaged files.
func ReadTrace(r io.Reader) (TraceMeta, []Event, error) {
	t, err := DecodeTrace(r)
	if t == nil {
		return TraceMeta{}, nil, err
	}
	return t.Meta, t.Events, err
}

// DecodeTrace reads a trace file. A file that is not a trace fails with
// ErrNotTrace; one of a format version this reader does not know with
// ErrTraceVersion (the message names both versions). A file that is cut
// short or was edited into something invalid part way returns the
// events before that point together with a *TraceError (wrapping
// ErrTraceDamaged) that says where it stopped.
func DecodeTrace(r io.Reader) (*Trace, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	d := &traceDecoder{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	return d.decode()
}

type traceDecoder struct {
	data []byte
	dec  *json.Decoder
}

// pos turns a byte offset into a TracePos.
func (d *traceDecoder) pos(off int64) TracePos {
	off = max(0, min(off, int64(len(d.data))))
	before := d.data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return TracePos{Offset: off, Line: line, Column: utf8.RuneCount(before[start:]) + 1}
}

// failAt finds where the value starting at byte off (after any
// separator) stops being valid JSON of the right shape, decoding it
// alone so that the offsets are its own.
func (d *traceDecoder) failAt(off int64, into any, fallback error) (TracePos, error) {
	rest := d.data[off:]
	skip := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n,:"))
	off += int64(skip)
	dec := json.NewDecoder(bytes.NewReader(d.data[off:]))
	err := dec.Decode(into)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return d.pos(off), fallback
	case errors.As(err, &syn):
		return d.pos(off + syn.Offset - 1), err
	case errors.As(err, &typ):
		return d.pos(off + typ.Offset), err
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return d.pos(int64(len(d.data))), errors.New("the file ends in the middle of it (cut short?)")
	}
	return d.pos(off), err
}

func (d *traceDecoder) damaged(t *Trace, event int, off int64, into any, err error) (*Trace, error) {
	pos, cause := d.failAt(off, into, err)
	return t, &TraceError{Pos: pos, Events: len(t.Events), Event: event, Err: cause}
}

func (d *traceDecoder) decode() (*Trace, error) {
	dec := d.dec
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		pos := d.pos(0)
		if err == nil {
			err = errors.New("it is not a JSON object")
		} else if syn := (*json.SyntaxError)(nil); errors.As(err, &syn) {
			pos = d.pos(syn.Offset - 1)
		}
		return nil, fmt.Errorf("read trace: %w: %s: %w", ErrNotTrace, pos, err)
	}
	t := &Trace{}
	var format string
	version, legacy := 0, 0
	checked := false
	check := func() error {
		if checked {
			return nil
		}
		checked = true
		if format != TraceFormat {
			if format == "" {
				return fmt.Errorf("read trace: %w: no \"format\": \"%s\" before the events", ErrNotTrace, TraceFormat)
			}
			return fmt.Errorf("read trace: %w: format %q", ErrNotTrace, format)
		}
		if version == 0 {
			version = legacy
		}
		t.FormatVersion = version
		switch {
		case version > TraceVersion:
			return fmt.Errorf("read trace: %w: the file is format version %d, written by a newer Spyglass; this one reads versions 1 to %d", ErrTraceVersion, version, TraceVersion)
		case version < 1:
			return fmt.Errorf("read trace: %w: formatVersion %d (a trace has formatVersion 1 to %d)", ErrTraceVersion, version, TraceVersion)
		}
		return nil
	}
	for dec.More() {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return d.damaged(t, -1, off, new(any), err)
		}
		key, _ := tok.(string)
		off = dec.InputOffset()
		var into any
		switch key {
		case "format":
			into = &format
		case "formatVersion":
			into = &version
		case "version":
			into = &legacy
		case "meta":
			into = &t.Meta
		case "events":
			if err := check(); err != nil {
				return nil, err
			}
			if err := d.events(t); err != nil {
				return t, err
			}
			continue
		default:
			into = new(json.RawMessage)
		}
		if err := dec.Decode(into); err != nil {
			if key == "format" || key == "formatVersion" || key == "version" {
				pos, cause := d.failAt(off, into, err)
				return nil, fmt.Errorf("read trace: %w: %q at %s: %w", ErrNotTrace, key, pos, cause)
			}
			return d.damaged(t, -1, off, into, err)
		}
	}
	if err := check(); err != nil {
		return nil, err
	}
	off := dec.InputOffset()
	if _, err := dec.Token(); err != nil {
		return d.damaged(t, -1, off, new(any), err)
	}
	return t, nil
}

// events reads the "events" array, keeping every event before the first
// one that fails.
func (d *traceDecoder) events(t *Trace) error {
	dec := d.dec
	off := dec.InputOffset()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		if err == nil {
			err = errors.New(`"events" is not an array`)
		}
		_, err = d.damaged(t, -1, off, new([]json.RawMessage), err)
		return err
	}
	for dec.More() {
		off := dec.InputOffset()
		var te traceEvent
		if err := dec.Decode(&te); err != nil {
			_, err = d.damaged(t, len(t.Events), off, new(traceEvent), err)
			return err
		}
		t.Events = append(t.Events, fromTrace(&te))
	}
	off = dec.InputOffset()
	if _, err := dec.Token(); err != nil {
		_, err = d.damaged(t, -1, off, new(any), err)
		return err
	}
	return nil
}

// TraceSchema is trace.schema.json, the JSON Schema (draft 2020-12) that
// every trace WriteTrace writes validates against.
//
//go:embed trace.schema.json
var TraceSchema []byte
