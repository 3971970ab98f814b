package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// hangingHTTP is a Streamable HTTP server that answers initialize, and
// opens an SSE stream for every other request without ever answering on
// it, except tools/call "late", answered after lateAfter. open counts the
// streams still open.
func hangingHTTP(t *testing.T, open *atomic.Int32, lateAfter time.Duration) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &m)
		switch {
		case m.Method == "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hang","version":"1"}}}`, m.ID)
			return
		case len(m.ID) == 0:
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		open.Add(1)
		defer open.Add(-1)
		if m.Params.Name == "late" {
			select {
			case <-time.After(lateAfter):
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", m.ID)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
		<-r.Context().Done()
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL + "/mcp"
}

// Requests that time out over Streamable HTTP do not leave their response
// streams open until the server ends them; a reply shortly after the
// timeout is still recorded as a late reply.
func TestHTTPTimedOutRequestsReleaseStreams(t *testing.T) {
	var open atomic.Int32
	url := hangingHTTP(t, &open, 200*time.Millisecond)
	log := events.New(nil)
	s := New(func(ctx context.Context) (wire.Conn, error) {
		return wire.NewStreamableHTTP(wire.HTTPConfig{Conn: DefaultConn, URL: url}, log), nil
	}, log, nil)
	t.Cleanup(func() { _ = s.Close() })
	ctx := testCtx(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}

	// A late reply within the grace is still delivered and recorded.
	rep, err := s.CallTool(ctx, ToolCall{Name: "late"}, &CallOptions{Timeout: 20 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v", err)
	}
	waitUntil(t, "the late reply", func() bool {
		for _, e := range log.Events() {
			if e.Kind == events.KindMessage && e.Dir == events.DirIn && e.ID == rep.ID && e.Late {
				return true
			}
		}
		return false
	})

	const n = 50
	for i := 0; i < n; i++ {
		if _, err := s.CallTool(ctx, ToolCall{Name: "hang"}, &CallOptions{Timeout: 20 * time.Millisecond}); !errors.Is(err, ErrTimeout) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	waitUntil(t, "the abandoned streams closed", func() bool { return open.Load() == 0 })
}
