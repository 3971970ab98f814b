package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestLatestRequestAfterDrops: once the log has dropped its oldest
// events (After answers with the events it holds and ErrDropped), Save
// to collection… still finds the newest matching request among those
// held.
func TestLatestRequestAfterDrops(t *testing.T) {
	l := events.New(&events.Options{Capacity: 100, NoSpill: true})
	defer l.Close()
	for i := range 300 {
		l.Append(events.Event{Conn: "demo", Kind: events.KindMessage, Dir: events.DirOut,
			Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"prompts/get","params":{"name":"p%d"}}`, i, i%3))})
	}
	if _, err := l.After(0, 0); !errors.Is(err, events.ErrDropped) {
		t.Fatalf("the log dropped nothing (err %v): the test needs dropped events", err)
	}
	want := uint64(0)
	evs, _ := l.After(0, 0)
	for _, e := range evs {
		var m struct {
			Params struct{ Name string } `json:"params"`
		}
		if json.Unmarshal(e.Raw, &m) == nil && m.Params.Name == "p1" {
			want = e.Seq
		}
	}
	match, _ := paramIs("name", "p1")()
	if got := latestRequest(logSource{l}, "demo", "prompts/get", match); got != want || got == 0 {
		t.Fatalf("latestRequest = %d, want %d (the newest p1 request held)", got, want)
	}
}

// TestLatestRequestOfItsServer: the newest matching request is the
// server's own, a client→server request: not another server's newer one
// of the same method, nor an answer (which carries the request's method),
// nor one whose params do not match; among sealed chunks of a long log.
func TestLatestRequestOfItsServer(t *testing.T) {
	l := events.New(&events.Options{MaxBytes: 1 << 20, SpillDir: t.TempDir()})
	defer l.Close()
	req := func(conn string, id int, name string) uint64 {
		return l.Append(events.Event{Conn: conn, Kind: events.KindMessage, Dir: events.DirOut,
			Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"prompts/get","params":{"name":%q}}`, id, name))})
	}
	answer := func(conn string, id int) {
		l.Append(events.Event{Conn: conn, Kind: events.KindMessage, Dir: events.DirIn,
			Raw: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"messages":[]}}`, id))})
	}
	req("demo", 0, "p1")
	answer("demo", 0)
	want := req("demo", 1, "p1")
	answer("demo", 1)
	for i := range 20000 {
		l.Append(events.Event{Conn: "other", Kind: events.KindStderr, Text: fmt.Sprintf("line %d of prompts/get noise", i)})
	}
	req("demo", 2, "p2")
	answer("demo", 2)
	req("other", 3, "p1")
	answer("other", 3)
	if r := l.Retention(); r.Sealed == 0 {
		t.Fatalf("nothing sealed: %+v", r)
	}
	match, _ := paramIs("name", "p1")()
	if got := latestRequest(logSource{l}, "demo", "prompts/get", match); got != want {
		t.Errorf("latestRequest(demo, p1) = %d, want %d", got, want)
	}
	if got := latestRequest(logSource{l}, "demo", "resources/read", nil); got != 0 {
		t.Errorf("latestRequest of a method never sent = %d, want 0", got)
	}
}
