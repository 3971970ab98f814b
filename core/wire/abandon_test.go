package wire

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// streamingServer opens an SSE response stream for every POST request
// and never answers on it, unless the request's id is in answer (then it
// answers once release is closed). open counts the streams still open.
func streamingServer(t *testing.T, open *atomic.Int32, release chan struct{}, answer string) string {
	return fakeMCP(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		open.Add(1)
		defer open.Add(-1)
		if answer != "" && bytes.Contains(body, []byte(`"id":`+answer+`,`)) {
			select {
			case <-release:
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"late\":true}}\n\n", answer)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
		<-r.Context().Done()
	})
}

func setAbandonGrace(t *testing.T, d time.Duration) {
	old := abandonGrace
	abandonGrace = d
	t.Cleanup(func() { abandonGrace = old })
}

// A request the caller gave up on must not keep its response stream (and
// its TCP connection) open until the server ends it.
func TestHTTPAbandonClosesStream(t *testing.T) {
	setAbandonGrace(t, 20*time.Millisecond)
	var open atomic.Int32
	url := streamingServer(t, &open, nil, "")
	c, _ := startHTTP(t, url, nil)
	const n = 10
	for i := 1; i <= n; i++ {
		if err := c.Send(ctxT(t), []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hang"}}`, i)), nil); err != nil {
			t.Fatal(err)
		}
	}
	waitCount(t, "every stream open", &open, n)
	for i := 1; i <= n; i++ {
		c.Abandon(fmt.Sprint(i))
	}
	waitCount(t, "the abandoned streams closed", &open, 0)
}

// An abandoned request's stream stays open for the grace, so that a late
// answer is still delivered.
func TestHTTPAbandonKeepsLateReply(t *testing.T) {
	setAbandonGrace(t, time.Hour)
	var open atomic.Int32
	release := make(chan struct{})
	url := streamingServer(t, &open, release, "7")
	c, s := startHTTP(t, url, nil)
	if err := c.Send(ctxT(t), []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}`), nil); err != nil {
		t.Fatal(err)
	}
	waitCount(t, "the stream open", &open, 1)
	c.Abandon("7")
	close(release)
	if m := s.next(t); !bytes.Contains(m, []byte(`"late":true`)) {
		t.Fatalf("got %s, want the late reply", m)
	}
}

// However long the grace, only a bounded number of abandoned streams stay
// open: the oldest go first.
func TestHTTPAbandonBounded(t *testing.T) {
	setAbandonGrace(t, time.Hour)
	var open atomic.Int32
	url := streamingServer(t, &open, nil, "")
	c, _ := startHTTP(t, url, nil)
	n := maxAbandoned + 10
	for i := 1; i <= n; i++ {
		if err := c.Send(ctxT(t), []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hang"}}`, i)), nil); err != nil {
			t.Fatal(err)
		}
	}
	waitCount(t, "every stream open", &open, int32(n))
	for i := 1; i <= n; i++ {
		c.Abandon(fmt.Sprint(i))
	}
	waitCount(t, "all but the newest abandoned streams closed", &open, maxAbandoned)
}

func waitCount(t *testing.T, what string, n *atomic.Int32, want int32) {
	t.Helper()
	if !eventually(func() bool { return n.Load() == want }) {
		t.Fatalf("%s: %d streams open, want %d", what, n.Load(), want)
	}
}
