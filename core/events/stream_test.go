package events

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

// allocBytes is how many bytes f allocates (MemStats.TotalAlloc).
func allocBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestWriteStreamsLargeMessages: writing a trace or JSON lines of large
// messages writes their bytes straight through: what it allocates does
// not grow with them (#11.6: the CLI's trace of one 16 MB message held
// the message twice more).
func TestWriteStreamsLargeMessages(t *testing.T) {
	const size = 4 << 20
	evs := make([]Event, 3)
	for i := range evs {
		raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", size) + `"}}`)
		evs[i] = Event{Seq: uint64(i + 1), Kind: KindMessage, Dir: DirIn, Type: MsgNotification, Method: "notifications/message", Raw: raw, Size: len(raw)}
	}
	writers := map[string]func(io.Writer) error{
		"WriteTrace":     func(w io.Writer) error { return WriteTrace(w, TraceMeta{}, evs) },
		"WriteJSONLines": func(w io.Writer) error { return WriteJSONLines(w, evs) },
	}
	for name, write := range writers {
		var err error
		n := allocBytes(func() { err = write(io.Discard) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n > 512<<10 {
			t.Errorf("%s of %d messages of %d bytes allocated %d bytes, want at most 512 KiB (no copy of a message)", name, len(evs), size, n)
		}
	}
	// And what they write is what MarshalJSON says, message bytes as sent.
	var lines bytes.Buffer
	if err := WriteJSONLines(&lines, evs); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for _, e := range evs {
		b, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want.Write(b)
		want.WriteByte('\n')
	}
	if !bytes.Equal(lines.Bytes(), want.Bytes()) {
		t.Error("WriteJSONLines wrote other bytes than MarshalJSON, line by line")
	}
	var trace bytes.Buffer
	if err := WriteTrace(&trace, TraceMeta{}, evs); err != nil {
		t.Fatal(err)
	}
	_, got, err := ReadTrace(&trace)
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		if !bytes.Equal(got[i].Raw, evs[i].Raw) {
			t.Errorf("event %d: the trace changed its bytes", i+1)
		}
	}
}
