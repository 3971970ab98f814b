package session

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// spyRecorder keeps every event exactly as the session handed it to the
// log, before the log fills anything in.
type spyRecorder struct {
	*events.Log
	mu  sync.Mutex
	got []events.Event
}

func (r *spyRecorder) Append(e events.Event) uint64 {
	r.mu.Lock()
	r.got = append(r.got, e)
	r.mu.Unlock()
	return r.Log.Append(e)
}

func (r *spyRecorder) appended() []events.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]events.Event(nil), r.got...)
}

// TestRecordDescribesMessages (#10): the session tells the log each
// message's type, id and method (the log no longer scans the bytes), in
// both directions, and the bytes that are not a message — a batch member
// that is not an object, a line of garbage — are recorded exactly.
func TestRecordDescribesMessages(t *testing.T) {
	fs := newFakeServer(t)
	s, log := newTestSession(t, fs, nil)
	spy := &spyRecorder{Log: log}
	s.log = spy
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: "echo", Arguments: json.RawMessage(`{"a":1}`)}, nil); err != nil {
		t.Fatal(err)
	}
	c := fs.conn()
	c.emit(`{"jsonrpc":"2.0","id":"s-1","method":"ping"}`)
	waitUntil(t, "the answer to the server's ping", func() bool {
		for _, e := range spy.appended() {
			if e.Dir == events.DirOut && e.Type == events.MsgResult && e.ID == `"s-1"` {
				return true
			}
		}
		return false
	})
	garbage := []byte("not json \xff\xfe")
	c.emit(`[7,{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}]`)
	c.emit(string(garbage))

	var messages int
	for _, e := range spy.appended() {
		if e.Kind != events.KindMessage {
			continue
		}
		messages++
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(e.Raw, &env); err != nil {
			t.Fatalf("recorded message %q: %v", e.Raw, err)
		}
		want := events.MsgResult
		switch {
		case env.Method != "" && env.ID != nil:
			want = events.MsgRequest
		case env.Method != "":
			want = events.MsgNotification
		case env.Error != nil:
			want = events.MsgError
		}
		if e.Type != want || events.NormalizeID(e.ID) != events.NormalizeID(string(env.ID)) ||
			(want == events.MsgRequest || want == events.MsgNotification) && e.Method != env.Method {
			t.Errorf("%s message %s handed to the log as type %q id %q method %q", e.Dir, e.Raw, e.Type, e.ID, e.Method)
		}
	}
	// initialize, its result, notifications/initialized, tools/call, its
	// result, the server's ping, its answer, the batch's notification.
	if messages < 8 {
		t.Errorf("%d messages recorded, want at least 8", messages)
	}
	var invalid [][]byte
	for _, e := range log.Events() {
		if e.Kind == events.KindInvalid {
			invalid = append(invalid, e.Raw)
		}
	}
	if len(invalid) != 2 || string(invalid[0]) != "7" || !bytes.Equal(invalid[1], garbage) {
		t.Errorf("invalid input recorded as %q, want the batch member 7 and the garbage line exactly", invalid)
	}
}
