package wire

import (
	"bytes"
	"io"
	"strconv"
	"testing"
	"time"
)

// FuzzSSEStream reads random bytes as a text/event-stream (#10). The
// parser must not panic; with a limit larger than the stream its events
// are those of a plain line-by-line reading of the specification (data
// lines joined with "\n"); with a small limit the same events come out,
// except that one holding a longer line or more data is marked too long
// and holds no data, so nothing beyond the limit is kept.
func FuzzSSEStream(f *testing.F) {
	for _, seed := range []string{
		"data: {}\n\n",
		": keep-alive\n\nid: 1\nretry: 250\ndata:\n\n",
		"event: message\r\nid: 2\r\ndata: {\"a\":\r\ndata:  1}\r\n\r\n",
		"event: endpoint\ndata: /message?s=1\n\ndata: partial",
		"data: " + string(bytes.Repeat([]byte("y"), 100)) + "\n\n",
		"data: a\ndata: b\nid: x\x00y\nretry: -1\nfield\n\n",
	} {
		f.Add([]byte(seed))
	}
	const small = 16
	f.Fuzz(func(t *testing.T, data []byte) {
		want := specEvents(data)
		got := readAll(t, data, len(data)+16)
		if len(got) != len(want) {
			t.Fatalf("%d events, want %d (stream %q)", len(got), len(want), data)
		}
		for i := range got {
			if !sameEvent(got[i], want[i]) {
				t.Fatalf("event %d = %+v (data %q), want %+v (data %q); stream %q", i, got[i], got[i].Data, want[i], want[i].Data, data)
			}
		}
		bounded := readAll(t, data, small)
		if len(bounded) != len(want) {
			t.Fatalf("limit %d: %d events, want %d (stream %q)", small, len(bounded), len(want), data)
		}
		for i, ev := range bounded {
			if ev.tooLong != nil {
				if ev.Data != nil || ev.tooLong.size <= small || len(ev.tooLong.head) > headBytes {
					t.Fatalf("limit %d: event %d too long with data %q, size %d", small, i, ev.Data, ev.tooLong.size)
				}
				continue
			}
			if len(ev.Data) > small || !sameEvent(ev, want[i]) {
				t.Fatalf("limit %d: event %d = %+v (data %q), want %+v (data %q); stream %q", small, i, ev, ev.Data, want[i], want[i].Data, data)
			}
		}
	})
}

func readAll(t *testing.T, data []byte, limit int) []sseEvent {
	r := newSSEReader(bytes.NewReader(data), limit)
	var out []sseEvent
	for {
		ev, err := r.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("reading from memory: %v", err)
		}
		out = append(out, ev)
	}
}

func sameEvent(a, b sseEvent) bool {
	return a.Type == b.Type && a.ID == b.ID && a.HasID == b.HasID && a.Retry == b.Retry &&
		bytes.Equal(a.Data, b.Data) && (a.Data == nil) == (b.Data == nil)
}

// specEvents reads a stream the plain way: lines end with "\n" (a "\r"
// before it is dropped), a blank line ends an event that had any field,
// ":" starts a comment, an unfinished last event is dropped.
func specEvents(data []byte) []sseEvent {
	var out []sseEvent
	var ev sseEvent
	var lines [][]byte
	any, hasData := false, false
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if bytes.HasSuffix(l, []byte("\n")) {
			lines = append(lines, bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r")))
		}
	}
	for _, l := range lines {
		if len(l) == 0 {
			if any {
				if !hasData {
					ev.Data = nil
				}
				out = append(out, ev)
			}
			ev, any, hasData = sseEvent{}, false, false
			continue
		}
		if l[0] == ':' {
			continue
		}
		any = true
		name, value, _ := bytes.Cut(l, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "data":
			if hasData {
				ev.Data = append(ev.Data, '\n')
			}
			ev.Data = append(append([]byte{}, ev.Data...), value...)
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
	return out
}
