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
