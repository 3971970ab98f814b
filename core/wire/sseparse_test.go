package wire

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestSSEParse(t *testing.T) {
	stream := ": keep-alive\n\n" +
		"id: 1\nretry: 250\ndata:\n\n" + // a priming event
		"event: message\r\nid: 2\r\ndata: {\"a\":\r\ndata:  1}\r\n\r\n" +
		"data:no-space\nunknown: x\n\n" +
		"event: endpoint\ndata: /message?s=1\n\n" +
		"data: partial at the end"
	r := newSSEReader(strings.NewReader(stream), 0)
	want := []sseEvent{
		{ID: "1", HasID: true, Retry: 250 * time.Millisecond},
		{Type: "message", ID: "2", HasID: true, Data: []byte("{\"a\":\n 1}")},
		{Data: []byte("no-space")},
		{Type: "endpoint", Data: []byte("/message?s=1")},
	}
	for i, w := range want {
		got, err := r.next()
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if got.Type != w.Type || got.ID != w.ID || got.HasID != w.HasID || got.Retry != w.Retry || string(got.Data) != string(w.Data) {
			t.Fatalf("event %d: got %+v (data %q), want %+v (data %q)", i, got, got.Data, w, w.Data)
		}
	}
	if _, err := r.next(); err != io.EOF {
		t.Fatalf("a partial last event must be dropped, got err %v", err)
	}
}

func TestSSEParseHugeEvent(t *testing.T) {
	big := strings.Repeat("y", 5<<20)
	r := newSSEReader(strings.NewReader("data: "+big+"\n\n"), 0)
	ev, err := r.next()
	if err != nil || len(ev.Data) != len(big) {
		t.Fatalf("5 MB event: %d bytes, %v", len(ev.Data), err)
	}
}

func TestIsMessage(t *testing.T) {
	for in, want := range map[string]bool{
		`{"jsonrpc":"2.0"}`: true,
		` [{}]`:             true,
		`42`:                false,
		`"str"`:             false,
		`{"a":`:             false,
		``:                  false,
		`hello`:             false,
	} {
		if IsMessage([]byte(in)) != want {
			t.Errorf("IsMessage(%q) = %v", in, !want)
		}
	}
}
