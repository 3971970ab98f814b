package wire

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestRedirectToAnotherOriginDropsHeaders: a 307 to another origin (here
// another port of 127.0.0.1, which Go's own rule lets Authorization
// through to) must carry none of the caller's headers, and the record
// says where the server sent the client. A same-origin redirect keeps
// them.
func TestRedirectToAnotherOriginDropsHeaders(t *testing.T) {
	var mu sync.Mutex
	var got []http.Header // headers the other origin received
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	t.Cleanup(other.Close)
	var sameHeader http.Header
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/mcp":
			http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
		case "/same":
			http.Redirect(w, r, "/here", http.StatusTemporaryRedirect)
		case "/here":
			mu.Lock()
			sameHeader = r.Header.Clone()
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		}
	}))
	t.Cleanup(origin.Close)

	secrets := http.Header{"X-Api-Key": {"key-123"}, "Authorization": {"Bearer tok-456"}}
	for _, path := range []string{"/mcp", "/same"} {
		rec := newMemRec()
		c := NewStreamableHTTP(HTTPConfig{Conn: "redir", URL: origin.URL + path, Header: secrets}, rec)
		s := newSink()
		if err := c.Start(ctxT(t), s.handler()); err != nil {
			t.Fatal(err)
		}
		extra := &SendOptions{Header: http.Header{"X-Catalog-Token": {"cat-789"}}}
		if err := c.Send(ctxT(t), []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`), extra); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		s.next(t)
		c.Close()
		warnings := rec.ofKind(events.KindWarning)
		if path == "/same" {
			if sameHeader.Get("X-Api-Key") != "key-123" || sameHeader.Get("X-Catalog-Token") != "cat-789" || len(warnings) != 0 {
				t.Fatalf("same-origin redirect: headers %v, warnings %v; want the headers kept and no warning", sameHeader, warnings)
			}
			continue
		}
		mu.Lock()
		h := got[0]
		mu.Unlock()
		for _, k := range []string{"X-Api-Key", "Authorization", "X-Catalog-Token"} {
			if v := h.Get(k); v != "" {
				t.Fatalf("the other origin received %s: %s", k, v)
			}
		}
		if h.Get("Content-Type") != "application/json" {
			t.Fatalf("the transport's own headers went missing: %v", h)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0].Text, other.URL+"/steal") ||
			!strings.Contains(warnings[0].Text, "X-Api-Key") || strings.Contains(warnings[0].Text, "key-123") {
			t.Fatalf("want one warning naming %s/steal and the dropped headers (not their values), got %v", other.URL, warnings)
		}
	}
}

// TestStdioOversizeLineSkipped: a stdout line over MaxMessageSize is
// recorded as invalid with its size and first bytes, not held, and the
// messages after it still arrive.
func TestStdioOversizeLineSkipped(t *testing.T) {
	rec := newMemRec()
	cfg := helperConfig(t, "oversize")
	cfg.MaxMessageSize = 1000
	_, s := startStdio(t, cfg, rec)
	if got := string(s.next(t)); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Fatalf("first message %q", got)
	}
	if got := string(s.next(t)); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("message after the oversize line %q", got)
	}
	inv := rec.ofKind(events.KindInvalid)
	if len(inv) != 1 || inv[0].Size != 200000 || !strings.Contains(inv[0].Text, "1000-byte limit") ||
		!strings.Contains(inv[0].Text, `{"jsonrpc":"2.0","id":9,"result":"zzz`) || len(inv[0].Text) > 2000 {
		t.Fatalf("want one invalid event with size 200000, the limit and the first bytes, got %+v", inv)
	}
}

// TestSSEOversizeEventSkipped: an SSE event whose data is over the limit
// is recorded and skipped; the stream goes on.
func TestSSEOversizeEventSkipped(t *testing.T) {
	big := strings.Repeat("q", 5000)
	stream := "data: {\"a\":1}\n\n" +
		"data: " + big + "\n\n" + // one long line
		"data: " + big[:600] + "\ndata: " + big[:600] + "\n\n" + // many lines
		"id: 7\ndata: {\"b\":2}\n\n"
	r := newSSEReader(bufio.NewReaderSize(strings.NewReader(stream), 16), 1000)
	var datas []string
	var over []*tooLongError
	for {
		ev, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.tooLong != nil {
			over = append(over, ev.tooLong)
			continue
		}
		datas = append(datas, string(ev.Data))
	}
	if strings.Join(datas, " ") != `{"a":1} {"b":2}` || len(over) != 2 {
		t.Fatalf("events %q, oversize %v", datas, over)
	}
	if over[1].size != 1201 || !strings.HasPrefix(string(over[1].head), "qqq") {
		t.Fatalf("multi-line oversize event: size %d head %q", over[1].size, over[1].head)
	}
}
