package events

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func sampleTrace(t *testing.T) []byte {
	t.Helper()
	evs := []Event{
		{Seq: 1, Time: time.Unix(1, 0).UTC(), Conn: "s", Kind: KindMessage, Dir: DirOut, Type: MsgRequest, ID: "1", Method: "ping",
			Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)},
		{Seq: 2, Time: time.Unix(2, 0).UTC(), Conn: "s", Kind: KindMessage, Dir: DirIn, Type: MsgResult, ID: "1", Method: "ping",
			Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)},
		{Seq: 3, Time: time.Unix(3, 0).UTC(), Conn: "s", Kind: KindStderr, Text: "bye"},
	}
	var buf bytes.Buffer
	if err := WriteTrace(&buf, TraceMeta{App: "test", Created: time.Unix(9, 0).UTC()}, evs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestTraceFormatVersion(t *testing.T) {
	b := sampleTrace(t)
	if !bytes.HasPrefix(b, []byte(`{"format":"spyglass-trace","formatVersion":1,`)) {
		t.Fatalf("header: %.80s", b)
	}
	tr, err := DecodeTrace(bytes.NewReader(b))
	if err != nil || tr.FormatVersion != 1 || len(tr.Events) != 3 || tr.Meta.App != "test" {
		t.Fatalf("DecodeTrace: %+v, %v", tr, err)
	}
	// A trace written before formatVersion existed ("version") still reads.
	old := bytes.Replace(b, []byte(`"formatVersion":1`), []byte(`"version":1`), 1)
	if tr, err := DecodeTrace(bytes.NewReader(old)); err != nil || tr.FormatVersion != 1 || len(tr.Events) != 3 {
		t.Fatalf("old trace: %+v, %v", tr, err)
	}
	// Keys may come in any order and unknown keys are skipped.
	moved := `{"extra":{"a":[1,2]},"meta":{"created":"2026-01-01T00:00:00Z"},"formatVersion":1,"format":"spyglass-trace","events":[]}`
	if tr, err := DecodeTrace(strings.NewReader(moved)); err != nil || tr.Meta.Created.Year() != 2026 {
		t.Fatalf("reordered: %+v, %v", tr, err)
	}
}

func TestTraceNewerVersion(t *testing.T) {
	b := bytes.Replace(sampleTrace(t), []byte(`"formatVersion":1`), []byte(`"formatVersion":7`), 1)
	tr, err := DecodeTrace(bytes.NewReader(b))
	if !errors.Is(err, ErrTraceVersion) || tr != nil {
		t.Fatalf("err %v, trace %+v", err, tr)
	}
	if msg := err.Error(); !strings.Contains(msg, "format version 7") || !strings.Contains(msg, "newer Spyglass") || !strings.Contains(msg, "versions 1 to 1") {
		t.Errorf("message does not say why: %s", msg)
	}
	if _, err := DecodeTrace(strings.NewReader(`{"format":"spyglass-trace","events":[]}`)); !errors.Is(err, ErrTraceVersion) {
		t.Errorf("no version: %v", err)
	}
}

func TestTraceDamaged(t *testing.T) {
	b := sampleTrace(t)
	lines := strings.Split(string(b), "\n")
	// lines: 0 header, 1 `"events":[`+first? — find the event lines.
	var evLines []int
	for i, l := range lines {
		if strings.Contains(l, `"seq":`) {
			evLines = append(evLines, i)
		}
	}
	if len(evLines) != 3 {
		t.Fatalf("event lines %v in\n%s", evLines, b)
	}
	for _, tt := range []struct {
		name       string
		edit       func() string
		events     int
		line, col  int
		wantInText string
	}{
		{"cut in the second event", func() string {
			l := lines[evLines[1]]
			return strings.Join(lines[:evLines[1]], "\n") + "\n" + l[:30]
		}, 1, evLines[1] + 1, 31, "cut short"},
		{"cut after the second event", func() string {
			return strings.Join(lines[:evLines[1]+1], "\n")
		}, 2, evLines[1] + 1, len(lines[evLines[1]]) + 1, "cut short"},
		{"hand-edited third event", func() string {
			c := append([]string(nil), lines...)
			c[evLines[2]] = strings.Replace(c[evLines[2]], `"kind":"stderr"`, `"kind":stderr`, 1)
			return strings.Join(c, "\n")
		}, 2, evLines[2] + 1, strings.Index(lines[evLines[2]], `"kind":"stderr"`) + len(`"kind":`) + 1, "invalid character"},
		{"wrong type in the first event", func() string {
			c := append([]string(nil), lines...)
			c[evLines[0]] = strings.Replace(c[evLines[0]], `"seq":1`, `"seq":"one"`, 1)
			return strings.Join(c, "\n")
		}, 0, evLines[0] + 1, 0, "seq"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := DecodeTrace(strings.NewReader(tt.edit()))
			var te *TraceError
			if !errors.As(err, &te) || !errors.Is(err, ErrTraceDamaged) {
				t.Fatalf("err %v, want a *TraceError", err)
			}
			if tr == nil || len(tr.Events) != tt.events || te.Events != tt.events {
				t.Fatalf("events read %v / %d, want %d", tr, te.Events, tt.events)
			}
			if te.Pos.Line != tt.line || (tt.col != 0 && te.Pos.Column != tt.col) {
				t.Errorf("stopped at %s, want line %d column %d", te.Pos, tt.line, tt.col)
			}
			if !strings.Contains(err.Error(), tt.wantInText) || !strings.Contains(err.Error(), te.Pos.String()) {
				t.Errorf("message: %s", err)
			}
			for i, e := range tr.Events {
				if e.Seq != uint64(i+1) {
					t.Errorf("event %d has seq %d", i, e.Seq)
				}
			}
		})
	}
	// ReadTrace returns the valid events with the error too.
	_, evs, err := ReadTrace(strings.NewReader(strings.Join(lines[:evLines[1]+1], "\n")))
	if len(evs) != 2 || !errors.Is(err, ErrTraceDamaged) {
		t.Errorf("ReadTrace: %d events, %v", len(evs), err)
	}
}
