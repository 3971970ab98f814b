package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// ServeStdio serves srv over a stdio pipe pair (newline-delimited JSON-RPC)
// until in ends or ctx is cancelled. Diagnostics go to errLog (nil discards
// them). It also answers [ExperimentalMethod]. Tool calls run at the same
// time, up to [stdioToolCalls] of them.
//
// mcp-go keeps the state of its stdio session in one package-level value, so
// a process serves at most one stdio connection at a time.
func ServeStdio(ctx context.Context, srv *server.MCPServer, in io.Reader, out io.Writer, errLog io.Writer) error {
	if errLog == nil {
		errLog = io.Discard
	}
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(in, 64*1024)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				if reply, ok := answerExperimental(line); ok {
					if reply != nil {
						_, _ = w.Write(append(reply, '\n'))
					}
				} else if _, werr := pw.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				pw.CloseWithError(err)
				return
			}
		}
	}()
	stdio := server.NewStdioServer(srv)
	stdio.SetErrorLogger(log.New(errLog, "spyglass-demo: ", log.LstdFlags))
	// mcp-go runs five tool calls at a time by default: a sixth, sent while
	// five wait for the user (elicitation, sampling) or run long, was
	// answered only once one of them ended. A server author expects calls
	// to run at once; this is mcp-go's most.
	server.WithWorkerPoolSize(stdioToolCalls)(stdio)
	err := stdio.Listen(ctx, pr, w)
	pr.Close()
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// stdioToolCalls is how many tool calls [ServeStdio] runs at the same time
// (mcp-go's maximum); more wait for one of them to end.
const stdioToolCalls = 100

// lockedWriter makes each Write atomic: mcp-go writes responses and its own
// server→client requests from different goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// answerExperimental answers msg when it is a request or notification for
// [ExperimentalMethod]: ok reports that msg was one, reply is the response to
// send (nil for a notification).
func answerExperimental(msg []byte) (reply []byte, ok bool) {
	if !bytes.Contains(msg, []byte(ExperimentalMethod)) {
		return nil, false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != ExperimentalMethod {
		return nil, false
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		return nil, true
	}
	params := m.Params
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	b, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      m.ID,
		"result": map[string]any{
			"pong":   true,
			"params": params,
			"time":   time.Now().UTC().Format(time.RFC3339Nano),
		},
	})
	if err != nil {
		return nil, false
	}
	return b, true
}

// HTTPPath is the endpoint of the demo server over Streamable HTTP.
const HTTPPath = "/mcp"

// NewHTTPHandler returns an http.Handler serving srv over Streamable HTTP at
// [HTTPPath] (mcp-go's default session handling: ids are issued, not
// checked); it also answers [ExperimentalMethod] posted to that path.
func NewHTTPHandler(srv *server.MCPServer) http.Handler {
	h := server.NewStreamableHTTPServer(srv,
		server.WithEndpointPath(HTTPPath),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	)
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, loopbackOrigin{next: experimentalHTTP{next: h}})
	return mux
}

// loopbackOrigin refuses, with 403 Forbidden, a request whose Origin header
// names anything but this machine: the MCP transport spec requires servers
// to validate Origin, so that a web page the user visits cannot drive a
// local server (DNS rebinding). Requests without Origin (every non-browser
// client) pass.
type loopbackOrigin struct{ next http.Handler }

func (o loopbackOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !isLoopbackOrigin(origin) {
		http.Error(w, "Origin "+origin+" is not allowed: the demo server answers pages on this machine only", http.StatusForbidden)
		return
	}
	o.next.ServeHTTP(w, r)
}

// isLoopbackOrigin reports whether origin is an http(s) origin on localhost
// or a loopback address.
func isLoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

type experimentalHTTP struct{ next http.Handler }

func (e experimentalHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		e.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "cannot read request body", http.StatusBadRequest)
		return
	}
	if reply, ok := answerExperimental(body); ok {
		if reply == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	e.next.ServeHTTP(w, r)
}

// ServeHTTP serves srv over Streamable HTTP on 127.0.0.1:port (0 picks a free
// port) until ctx is cancelled. ready, when not nil, receives the endpoint URL
// once the listener is open.
func ServeHTTP(ctx context.Context, srv *server.MCPServer, port int, ready func(url string)) error {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("demo: listen: %w", err)
	}
	hs := &http.Server{Handler: NewHTTPHandler(srv), ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(fmt.Sprintf("http://%s%s", ln.Addr(), HTTPPath))
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("demo: serve: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			hs.Close()
		}
		return nil
	}
}
