package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestTraceRoundTrip(t *testing.T) {
	l, clk := newTestLog(&Options{Capacity: 13})
	for i := 0; i < 3; i++ {
		l.Append(Event{Kind: KindStderr, Text: "evicted"})
	}
	l.Append(Event{Kind: KindState, Conn: "srv", Text: "connected", Run: "r1"})
	l.Append(request("srv", DirOut, "1", "tools/call"))
	clk.Advance(17 * time.Millisecond)
	// Exact bytes: whitespace, key order, escapes and HTML characters kept.
	l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirIn,
		Raw: []byte("{\"id\": 1 ,\n \"jsonrpc\":\"2.0\", \"result\":{\"t\":\"<b>\\u00e9 & é\\/\"}}")})
	l.Append(request("srv", DirIn, `"s1"`, "sampling/createMessage"))
	l.MarkCancelled("srv", DirIn, `"s1"`)
	l.Append(request("srv", DirOut, "2", "ping"))
	clk.Advance(60 * time.Second)
	l.MarkTimedOut("srv", DirOut, "2")
	l.Append(request("srv", DirOut, "3", "tools/list"))
	l.CloseConn("srv")
	l.Append(result("srv", DirIn, "77"))
	l.Append(Event{Conn: "srv", Kind: KindInvalid, Raw: []byte("not json \xff\xfe binary"), Text: "invalid line"})
	l.Append(Event{Conn: "srv", Kind: KindInvalid, Raw: []byte("plain text line")})
	l.Append(Event{Conn: "srv", Kind: KindInvalid, Raw: []byte("{\"truncated\":")})
	l.Append(Event{Conn: "srv", Kind: KindMessage, Dir: DirIn, Raw: []byte(" {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n")})
	l.Append(Event{Conn: "srv", Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 401,
		ReqHeader: http.Header{"Accept": {"application/json", "text/event-stream"}}, Duration: 3 * time.Millisecond}})
	l.Append(Event{Conn: "srv", Kind: KindHTTP, HTTP: &HTTPInfo{Method: "GET", URL: "http://127.0.0.1:1/mcp", Err: "refused"}, Text: "GET failed"})

	meta := TraceMeta{App: "spyglass test", Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Conns: []ConnInfo{{Conn: "srv", Transport: "stdio", Target: "node server.js", ProtocolVersion: "2025-11-25",
			ServerInfo:         json.RawMessage(`{"name":"everything","version":"1.0.0"}`),
			ServerCapabilities: json.RawMessage(`{"tools":{"listChanged":true}}`),
			ClientCapabilities: json.RawMessage(`{"sampling":{}}`), Instructions: "be nice"}}}
	var buf bytes.Buffer
	if err := l.WriteTrace(&buf, meta); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(buf.Bytes()) {
		t.Fatalf("trace is not valid JSON:\n%s", buf.String())
	}
	gotMeta, got, err := ReadTrace(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want := l.Events()
	meta.Dropped = 3
	if !gotMeta.Created.Equal(meta.Created) {
		t.Errorf("created %v", gotMeta.Created)
	}
	gotMeta.Created = meta.Created
	if !reflect.DeepEqual(gotMeta, meta) {
		t.Errorf("meta\n got %+v\nwant %+v", gotMeta, meta)
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if !g.Time.Equal(w.Time) {
			t.Errorf("event %d time %v, want %v", w.Seq, g.Time, w.Time)
		}
		g.Time = w.Time
		if !bytes.Equal(g.Raw, w.Raw) {
			t.Errorf("event %d raw\n got %q\nwant %q", w.Seq, g.Raw, w.Raw)
		}
		if len(w.Raw) == 0 {
			w.Raw = nil
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("event %d\n got %+v\nwant %+v", w.Seq, g, w)
		}
		if g.Title() != w.Title() || g.Badge() != w.Badge() {
			t.Errorf("event %d reads %q [%s], want %q [%s]", w.Seq, g.Title(), g.Badge(), w.Title(), w.Badge())
		}
	}
	// The badges survive: pairing, outcomes and timings are in the file.
	var badges []string
	for _, e := range got {
		if b := e.Badge(); b != "" {
			badges = append(badges, b)
		}
	}
	wantBadges := []string{"17ms", "cancelled", "timed out · 60.0s", "no response"}
	if !reflect.DeepEqual(badges, wantBadges) {
		t.Errorf("badges %q, want %q", badges, wantBadges)
	}
}

func TestTraceEmptyAndErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTrace(&buf, TraceMeta{}, nil); err != nil {
		t.Fatal(err)
	}
	m, evs, err := ReadTrace(&buf)
	if err != nil || len(evs) != 0 || m.Created.IsZero() {
		t.Fatalf("empty trace: %+v %v %v", m, evs, err)
	}
	for _, tt := range []struct {
		in   string
		want error
	}{
		{`{"format":"other","version":1}`, ErrNotTrace},
		{`not json`, ErrNotTrace},
		{`{"format":"spyglass-trace","version":99,"events":[]}`, ErrTraceVersion},
	} {
		if _, _, err := ReadTrace(strings.NewReader(tt.in)); !errors.Is(err, tt.want) {
			t.Errorf("%s: err %v, want %v", tt.in, err, tt.want)
		}
	}
}

// Secrets are masked by Options.Redact on Append, so neither readers nor
// a trace ever see them.
func TestRedactedBeforeRecording(t *testing.T) {
	const secret = "sk-SECRET-123"
	redact := func(e *Event) {
		if e.HTTP != nil {
			h := e.HTTP.ReqHeader.Clone()
			if h.Get("Authorization") != "" {
				h.Set("Authorization", "Bearer ***")
			}
			e.HTTP.ReqHeader = h
		}
		if bytes.Contains(e.Raw, []byte(secret)) {
			e.Raw = bytes.ReplaceAll(e.Raw, []byte(secret), []byte("***"))
		}
		e.Text = strings.ReplaceAll(e.Text, secret, "***")
	}
	l := New(&Options{Redact: redact})
	l.Append(Event{Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://h/mcp", Status: 200,
		ReqHeader: http.Header{"Authorization": {"Bearer " + secret}}}})
	seq := l.Append(Event{Kind: KindMessage, Dir: DirOut,
		Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"token":"` + secret + `"}}}`)})
	l.Append(Event{Kind: KindStderr, Text: "using token " + secret})
	if e, _ := l.Get(seq); e.Method != "tools/call" || e.ID != "1" {
		t.Errorf("redaction broke derivation: %+v", e)
	}
	var buf bytes.Buffer
	if err := l.WriteTrace(&buf, TraceMeta{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), secret) {
		t.Fatalf("trace leaks the secret:\n%s", buf.String())
	}
	for _, e := range l.Events() {
		if Match(e, secret) {
			t.Errorf("event %d still holds the secret", e.Seq)
		}
	}
	if !strings.Contains(buf.String(), "***") {
		t.Error("masked values missing")
	}
}

func TestEventJSON(t *testing.T) {
	evs := []Event{
		{Seq: 1, Kind: KindInvalid, Raw: []byte("oops \xff"), Time: time.Unix(1, 0).UTC()},
		{Seq: 2, Kind: KindInvalid, Raw: []byte("text line"), Time: time.Unix(2, 0).UTC()},
		{Seq: 3, Kind: KindMessage, Dir: DirIn, Type: MsgResult, ID: "1", Method: "ping", Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`),
			Pair: 2, Time: time.Unix(3, 0).UTC()},
		{Seq: 4, Kind: KindMessage, Type: MsgRequest, ID: "1", Outcome: &Outcome{State: OK, Latency: time.Millisecond}, Time: time.Unix(4, 0).UTC()},
	}
	for _, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("marshal %d: %v", e.Seq, err)
		}
		var got Event
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if !reflect.DeepEqual(got, e) {
			t.Errorf("round trip of %s\n got %+v\nwant %+v", b, got, e)
		}
	}
}
