package events

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"
	"unicode/utf8"
)

// strictJSON is what a strict reader demands of a file: valid JSON that
// is valid UTF-8.
func strictJSON(b []byte) bool { return utf8.Valid(b) && json.Valid(b) }

// TestTraceInvalidUTF8 (#11.8): a server that writes invalid UTF-8
// anywhere (a garbage line, inside a JSON string, a batch member that is
// not an object, its serverInfo, stderr, a header) still yields a trace
// every strict reader accepts, and each message's bytes come back exact.
func TestTraceInvalidUTF8(t *testing.T) {
	l, _ := newTestLog(nil)
	raws := map[uint64][]byte{}
	for _, e := range []Event{
		{Conn: "srv", Kind: KindInvalid, Raw: []byte("garbage \xff\xfe line"), Text: "not JSON-RPC"},
		{Conn: "srv", Kind: KindMessage, Dir: DirIn, Raw: []byte("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"\xc3\x28\"}}")},
		{Conn: "srv", Kind: KindInvalid, Raw: []byte("7"), Text: "batch member that is not an object"},
		{Conn: "srv", Kind: KindInvalid, Raw: []byte("plain text")},
		{Conn: "srv", Kind: KindInvalid, Raw: []byte("\"\xed\xa0\x80\"")}, // a UTF-16 surrogate in UTF-8 form
	} {
		seq := l.Append(e)
		raws[seq] = e.Raw
	}
	l.Append(Event{Conn: "srv", Kind: KindStderr, Text: "warn \xff"})
	l.Append(Event{Conn: "srv", Kind: KindHTTP, HTTP: &HTTPInfo{Method: "POST", URL: "http://127.0.0.1/\xff", Status: 200,
		RespHeader: http.Header{"X-Odd": {"\xfe"}}}})

	meta := TraceMeta{Conns: []ConnInfo{{Conn: "srv", Target: "srv \xff",
		ServerInfo:         json.RawMessage("{\"name\":\"bad \xff\",\"version\":\"1\"}"),
		ServerCapabilities: json.RawMessage("{\"tools\":{}}"),
		ClientCapabilities: json.RawMessage("{\xff"),
		Instructions:       "\xff"}}}
	var buf bytes.Buffer
	if err := l.WriteTrace(&buf, meta); err != nil {
		t.Fatal(err)
	}
	if !strictJSON(buf.Bytes()) {
		t.Fatalf("trace is not valid UTF-8 JSON:\n%q", buf.String())
	}
	if meta.Conns[0].ClientCapabilities == nil {
		t.Error("WriteTrace changed the caller's meta")
	}

	var file struct {
		Meta struct {
			Conns []struct {
				ServerInfo         map[string]string `json:"serverInfo"`
				ServerCapabilities json.RawMessage   `json:"serverCapabilities"`
				ClientCapabilities json.RawMessage   `json:"clientCapabilities"`
			} `json:"conns"`
		} `json:"meta"`
		Events []struct {
			Seq       uint64          `json:"seq"`
			Raw       json.RawMessage `json:"raw"`
			RawText   *string         `json:"rawText"`
			RawBase64 *string         `json:"rawBase64"`
		} `json:"events"`
	}
	if err := json.Unmarshal(buf.Bytes(), &file); err != nil {
		t.Fatal(err)
	}
	c := file.Meta.Conns[0]
	if c.ServerInfo["name"] != "bad \uFFFD" || string(c.ServerCapabilities) != `{"tools":{}}` || c.ClientCapabilities != nil {
		t.Errorf("meta conns: serverInfo %q, serverCapabilities %s, clientCapabilities %s", c.ServerInfo, c.ServerCapabilities, c.ClientCapabilities)
	}
	wantForm := map[uint64]string{1: "rawBase64", 2: "rawBase64", 3: "raw", 4: "rawText", 5: "rawBase64"}
	for _, e := range file.Events {
		want, ok := raws[e.Seq]
		if !ok {
			continue
		}
		var form string
		var got []byte
		switch {
		case e.Raw != nil:
			form, got = "raw", e.Raw
		case e.RawText != nil:
			form, got = "rawText", []byte(*e.RawText)
		case e.RawBase64 != nil:
			form = "rawBase64"
			var err error
			if got, err = base64.StdEncoding.DecodeString(*e.RawBase64); err != nil {
				t.Errorf("event %d: rawBase64: %v", e.Seq, err)
			}
		}
		if form != wantForm[e.Seq] || !bytes.Equal(got, want) {
			t.Errorf("event %d: %s %q, want %s %q", e.Seq, form, got, wantForm[e.Seq], want)
		}
	}
	// ReadTrace gives the same bytes back, and each event alone marshals
	// to strict JSON too (the CLI's JSON lines).
	_, evs, err := ReadTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if want, ok := raws[e.Seq]; ok && !bytes.Equal(e.Raw, want) {
			t.Errorf("ReadTrace: event %d raw %q, want %q", e.Seq, e.Raw, want)
		}
		b, err := json.Marshal(e)
		if err != nil || !strictJSON(b) {
			t.Errorf("event %d marshals to %q (%v)", e.Seq, b, err)
		}
	}
}
