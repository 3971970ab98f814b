//go:build unix

package wire

import (
	"bytes"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestWithEventsLog records through a real events.Log with the Redactor as
// its redaction hook: secrets never reach the log, and every wire event
// (stderr, invalid lines, the exit) survives a trace round trip.
func TestWithEventsLog(t *testing.T) {
	red := NewRedactor("hunter2-secret")
	log := events.New(&events.Options{Redact: red.Redact})
	cfg := StdioConfig{Conn: "sh", Command: "sh", Args: []string{"-c",
		`echo "token is hunter2-secret" >&2; echo 'Authorization: Bearer abcdef123456' >&2; echo 'not json'; echo '{"broken":'; exit 4`}}
	c := NewStdio(cfg, log)
	s := newSink()
	if err := c.Start(ctxT(t), s.handler()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, ok := s.waitClosed(t).(*ExitError); !ok {
		t.Fatal("no exit error")
	}
	var kinds = map[events.Kind]int{}
	eventually(func() bool {
		kinds = map[events.Kind]int{}
		for _, e := range log.Events() {
			kinds[e.Kind]++
		}
		return kinds[events.KindStderr] == 2 && kinds[events.KindInvalid] == 2 && kinds[events.KindState] == 1 // the exit
	})
	if kinds[events.KindStderr] != 2 || kinds[events.KindInvalid] != 2 || kinds[events.KindState] != 1 || kinds[events.KindError] != 0 {
		t.Fatalf("recorded kinds %v", kinds)
	}
	var buf bytes.Buffer
	if err := log.WriteTrace(&buf, events.TraceMeta{}); err != nil {
		t.Fatalf("trace: %v", err)
	}
	if bytes.Contains(buf.Bytes(), []byte("hunter2-secret")) || bytes.Contains(buf.Bytes(), []byte("abcdef123456")) {
		t.Fatalf("a secret reached the trace: %s", buf.String())
	}
	_, evs, err := events.ReadTrace(&buf)
	if err != nil || len(evs) != 5 {
		t.Fatalf("trace read back: %d events, %v", len(evs), err)
	}
	var lines []string
	for _, e := range evs {
		if e.Kind == events.KindInvalid {
			lines = append(lines, string(e.Raw))
		}
	}
	if len(lines) != 2 || lines[0] != "not json" || lines[1] != `{"broken":` {
		t.Fatalf("invalid lines read back from the trace: %q, want their exact bytes", lines)
	}
}
