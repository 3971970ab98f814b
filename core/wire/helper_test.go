package wire

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/spyglass-mcp/spyglass/internal/testwait"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// TestMain doubles as a tiny stdio server when WIRE_HELPER names a mode,
// so that the tests need nothing but the test binary itself.
func TestMain(m *testing.M) {
	if mode := os.Getenv("WIRE_HELPER"); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

func helper(mode string) int {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	switch mode {
	case "echo": // echo every line back
		r := bufio.NewReaderSize(os.Stdin, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				out.Write(line)
				if r.Buffered() == 0 {
					out.Flush()
				}
			}
			if err != nil {
				return 0
			}
		}
	case "exit3":
		fmt.Fprintln(os.Stderr, "fatal: no config")
		return 3
	case "junk":
		fmt.Fprintln(out, "hello, I am a log line")
		fmt.Fprintln(out, `{"jsonrpc":"2.0","id":1,"result":{`)
		fmt.Fprintln(out, `42`)
		fmt.Fprintln(out, "")
		fmt.Fprint(out, "{\"jsonrpc\":\"2.0\",\"method\":\"ok\"}\r\n")
		fmt.Fprintln(out, `[{"jsonrpc":"2.0","method":"batch"}]`)
		out.Flush()
		io := bufio.NewReader(os.Stdin)
		io.ReadBytes('\n') // until stdin closes
		return 0
	case "big": // one 10 MB message, then a small one
		pad := strings.Repeat("x", 10<<20)
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":7,"result":{"pad":"%s"}}`+"\n", pad)
		fmt.Fprintln(out, `{"jsonrpc":"2.0","id":8,"result":{}}`)
		out.Flush()
		bufio.NewReader(os.Stdin).ReadBytes('\n')
		return 0
	case "stderr":
		for i := 0; i < 3; i++ {
			fmt.Fprintf(os.Stderr, "line %d\n", i)
		}
		bufio.NewReader(os.Stdin).ReadBytes('\n')
		return 0
	case "stderrflood": // a 1 MiB stderr line, then a progress bar
		w := bufio.NewWriter(os.Stderr)
		w.WriteString(strings.Repeat("y", 1<<20) + "\n")
		w.WriteString("10%\r50%\r100%\r\ndone\n")
		w.Flush()
		bufio.NewReader(os.Stdin).ReadBytes('\n')
		return 0
	case "stubborn": // ignores EOF and SIGTERM
		signal.Ignore(syscall.SIGTERM)
		fmt.Fprintln(out, `{"jsonrpc":"2.0","method":"ready"}`)
		out.Flush()
		waitForever()
		return 0
	case "oversize": // a message, one line over any small limit, a message
		fmt.Fprintln(out, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		line := `{"jsonrpc":"2.0","id":9,"result":"`
		fmt.Fprintln(out, line+strings.Repeat("z", 200000-len(line)-2)+`"}`)
		fmt.Fprintln(out, `{"jsonrpc":"2.0","id":2,"result":{}}`)
		out.Flush()
		bufio.NewReader(os.Stdin).ReadBytes('\n')
		return 0
	case "conformance":
		return conformanceClient()
	case "noread": // never reads stdin, never answers
		waitForever()
		return 0
	case "spawner": // starts a "noread" server, prints its PID, waits to be killed
		st := NewStdio(helperConfig(nil, "noread"), nil)
		if err := st.Start(context.Background(), Handler{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintln(out, st.Pid())
		out.Flush()
		waitForever()
		return 0
	}
	return 2
}

// waitForever blocks until the process is killed (a signal wait, so the
// runtime does not call it a deadlock).
func waitForever() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR2)
	for {
		<-c
	}
}

// helperConfig returns a StdioConfig running this test binary in mode.
func helperConfig(t testing.TB, mode string) StdioConfig {
	return StdioConfig{Conn: "test", Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{"WIRE_HELPER=" + mode}}
}

// memRec is a tiny events recorder for tests.
type memRec struct {
	mu     sync.Mutex
	events []events.Event
	signal chan struct{}
}

func newMemRec() *memRec { return &memRec{signal: make(chan struct{}, 1)} }

func (r *memRec) Append(e events.Event) uint64 {
	r.mu.Lock()
	e.Seq = uint64(len(r.events) + 1)
	r.events = append(r.events, e)
	r.mu.Unlock()
	select {
	case r.signal <- struct{}{}:
	default:
	}
	return e.Seq
}

func (r *memRec) all() []events.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]events.Event(nil), r.events...)
}

func (r *memRec) ofKind(k events.Kind) []events.Event {
	var out []events.Event
	for _, e := range r.all() {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// waitFor waits (bounded) until some recorded event satisfies ok.
func (r *memRec) waitFor(t testing.TB, what string, ok func(events.Event) bool) events.Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		for _, e := range r.all() {
			if ok(e) {
				return e
			}
		}
		select {
		case <-r.signal:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no %s event recorded; got %v", what, r.all())
		}
	}
}

// sink collects what a Handler receives.
type sink struct {
	msgs   chan []byte
	closed chan error
}

func newSink() *sink { return &sink{msgs: make(chan []byte, 1000), closed: make(chan error, 1)} }

func (s *sink) handler() Handler {
	return Handler{
		OnMessage: func(b []byte) { s.msgs <- b },
		OnClose:   func(err error) { s.closed <- err },
	}
}

func (s *sink) next(t testing.TB) []byte {
	t.Helper()
	select {
	case m := <-s.msgs:
		return m
	case <-time.After(15 * time.Second):
		t.Fatal("no message arrived")
		return nil
	}
}

// nextWhere returns the next message containing sub, skipping others.
func (s *sink) nextWhere(t testing.TB, sub string) []byte {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case m := <-s.msgs:
			if bytes.Contains(m, []byte(sub)) {
				return m
			}
		case <-deadline:
			t.Fatalf("no message containing %s arrived", sub)
			return nil
		}
	}
}

func (s *sink) waitClosed(t testing.TB) error {
	t.Helper()
	select {
	case err := <-s.closed:
		return err
	case <-time.After(15 * time.Second):
		t.Fatal("OnClose was not called")
		return nil
	}
}

// eventually reports whether cond came to hold in time.
var eventually = testwait.Eventually

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
