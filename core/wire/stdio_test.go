//go:build unix

package wire

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// startStdio starts cfg and stops it when the test ends.
func startStdio(t *testing.T, cfg StdioConfig, rec Recorder) (*Stdio, *sink) {
	t.Helper()
	c := NewStdio(cfg, rec)
	s := newSink()
	if err := c.Start(ctxT(t), s.handler()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, s
}

func TestStdioEcho(t *testing.T) {
	c, s := startStdio(t, helperConfig(t, "echo"), newMemRec())
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping", "params" : {}}`)
	if err := c.Send(ctxT(t), msg, nil); err != nil {
		t.Fatal(err)
	}
	if got := s.next(t); !bytes.Equal(got, msg) {
		t.Fatalf("got %q, want the exact bytes %q", got, msg)
	}
	// A pretty-printed message is compacted: the framing allows no newline.
	if err := c.Send(ctxT(t), []byte("{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"x\"\n}"), nil); err != nil {
		t.Fatal(err)
	}
	if got := s.next(t); string(got) != `{"jsonrpc":"2.0","method":"x"}` {
		t.Fatalf("got %q", got)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatalf("OnClose after Close got %v, want nil", err)
	}
	if err := c.Send(ctxT(t), msg, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send after Close = %v, want ErrClosed", err)
	}
}

func TestStdioSendBeforeStart(t *testing.T) {
	c := NewStdio(helperConfig(t, "echo"), nil)
	if err := c.Send(ctxT(t), []byte(`{}`), nil); !errors.Is(err, ErrNotStarted) {
		t.Fatalf("got %v, want ErrNotStarted", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close before Start: %v", err)
	}
}

func TestStdioCommandNotFound(t *testing.T) {
	for _, cmd := range []string{"spyglass-no-such-command", "/nonexistent/dir/server"} {
		c := NewStdio(StdioConfig{Command: cmd}, nil)
		err := c.Start(ctxT(t), Handler{})
		var se *StartError
		if !errors.As(err, &se) || !errors.Is(err, ErrCommandNotFound) {
			t.Fatalf("Start(%s) = %v, want a *StartError matching ErrCommandNotFound", cmd, err)
		}
	}
	// A missing working directory is a start error, but not "command not found".
	c := NewStdio(StdioConfig{Command: os.Args[0], Dir: filepath.Join(t.TempDir(), "gone")}, nil)
	err := c.Start(ctxT(t), Handler{})
	var se *StartError
	if !errors.As(err, &se) || errors.Is(err, ErrCommandNotFound) {
		t.Fatalf("Start with a missing dir = %v", err)
	}
}

func TestStdioExitsAtOnce(t *testing.T) {
	rec := newMemRec()
	c, s := startStdio(t, helperConfig(t, "exit3"), rec)
	err := s.waitClosed(t)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 3 || ee.Stderr != "fatal: no config" {
		t.Fatalf("OnClose got %#v, want *ExitError with code 3 and the stderr tail", err)
	}
	if got := c.ExitStatus(); got == nil || got.Code != 3 {
		t.Fatalf("ExitStatus = %v", got)
	}
	rec.waitFor(t, "stderr", func(e events.Event) bool {
		return e.Kind == events.KindStderr && e.Text == "fatal: no config"
	})
	// the exit is the process's state: the session records the failure
	// it causes as the one error
	ev := rec.waitFor(t, "exit", func(e events.Event) bool {
		return e.Kind == events.KindState && strings.HasPrefix(e.Text, "process exited: ")
	})
	if !strings.Contains(ev.Text, "exit status 3") {
		t.Fatalf("exit event text %q", ev.Text)
	}
	for _, e := range rec.all() {
		if e.Kind == events.KindError {
			t.Errorf("the exit was recorded as an error as well: %s", e.Text)
		}
	}
	if err := c.Send(ctxT(t), []byte(`{}`), nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send to an exited server = %v, want ErrClosed", err)
	}
}

func TestStdioJunkLines(t *testing.T) {
	rec := newMemRec()
	_, s := startStdio(t, helperConfig(t, "junk"), rec)
	if got := string(s.next(t)); got != `{"jsonrpc":"2.0","method":"ok"}` {
		t.Fatalf("first message %q", got)
	}
	if got := string(s.next(t)); got != `[{"jsonrpc":"2.0","method":"batch"}]` {
		t.Fatalf("second message %q", got)
	}
	inv := rec.ofKind(events.KindInvalid)
	if len(inv) != 3 {
		t.Fatalf("want 3 invalid events (text, broken JSON, a number), got %v", inv)
	}
	// Every line keeps its exact bytes (#11.8), whether JSON or not.
	if !strings.Contains(inv[0].Text, "hello, I am a log line") || string(inv[0].Raw) != "hello, I am a log line" {
		t.Fatalf("plain text line: %+v", inv[0])
	}
	if !strings.Contains(inv[1].Text, "invalid JSON") || string(inv[1].Raw) != `{"jsonrpc":"2.0","id":1,"result":{` {
		t.Fatalf("broken JSON line: %+v", inv[1])
	}
	if string(inv[2].Raw) != "42" {
		t.Fatalf("valid JSON that is no message keeps its Raw: %+v", inv[2])
	}
}

func TestStdioHugeMessage(t *testing.T) {
	_, s := startStdio(t, helperConfig(t, "big"), nil)
	big := s.next(t)
	if len(big) < 10<<20 || !bytes.HasPrefix(big, []byte(`{"jsonrpc":"2.0","id":7,`)) || !bytes.HasSuffix(big, []byte(`"}}`)) {
		t.Fatalf("10 MB message arrived as %d bytes", len(big))
	}
	if got := string(s.next(t)); got != `{"jsonrpc":"2.0","id":8,"result":{}}` {
		t.Fatalf("message after the big one: %q", got)
	}
}

func TestStdioStderrRecorded(t *testing.T) {
	rec := newMemRec()
	startStdio(t, helperConfig(t, "stderr"), rec)
	rec.waitFor(t, "third stderr line", func(e events.Event) bool { return e.Text == "line 2" })
	lines := rec.ofKind(events.KindStderr)
	for i, e := range lines {
		if e.Text != "line "+string(rune('0'+i)) || e.Time.IsZero() || e.Conn != "test" {
			t.Fatalf("stderr event %d: %+v", i, e)
		}
	}
}

func TestStdioCloseStubborn(t *testing.T) {
	rec := newMemRec()
	cfg := helperConfig(t, "stubborn")
	cfg.StopWait = 200 * time.Millisecond
	c, s := startStdio(t, cfg, rec)
	s.next(t) // ready: the signal handler is installed
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatalf("OnClose got %v", err)
	}
	if ee := c.ExitStatus(); ee == nil || ee.Signal != syscall.SIGKILL {
		t.Fatalf("a server ignoring EOF and SIGTERM must end by SIGKILL, got %v", ee)
	}
	if err := syscall.Kill(c.Pid(), 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process %d still exists: %v", c.Pid(), err)
	}
}

func TestStdioCloseShellTrap(t *testing.T) {
	// A shell that ignores TERM and whose child holds the pipes: the whole
	// group must go.
	cfg := StdioConfig{Command: "sh", Args: []string{"-c", `trap "" TERM; echo trapped >&2; sleep 100`}, StopWait: 200 * time.Millisecond}
	rec := newMemRec()
	c, s := startStdio(t, cfg, rec)
	rec.waitFor(t, "the trap installed", func(e events.Event) bool { return e.Kind == events.KindStderr && e.Text == "trapped" })
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatalf("OnClose got %v", err)
	}
	groupGone(t, c.Pid())
}

// TestStdioSendBlockedCancelled: a write blocked on a server that never
// reads ends with its context and says the message was not sent; a Send
// waiting behind it ends with its own context (it used to wait for the
// write lock forever).
func TestStdioSendBlockedCancelled(t *testing.T) {
	c := NewStdio(helperConfig(t, "noread"), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writing := make(chan struct{}, 1)
	c.beforeWrite = func() { writing <- struct{}{} }
	if err := c.Start(ctxT(t), Handler{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	big := append(append([]byte(`{"pad":"`), bytes.Repeat([]byte("x"), 4<<20)...), `"}`...)
	first := make(chan error, 1)
	go func() { first <- c.Send(ctx, big, nil) }()
	<-writing
	// The second waits behind the blocked write until its context ends.
	wctx, wcancel := context.WithCancel(context.Background())
	second := make(chan error, 1)
	go func() { second <- c.Send(wctx, []byte(`{"jsonrpc":"2.0","method":"x"}`), nil) }()
	wcancel()
	if err := <-second; !errors.Is(err, ErrNotSent) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Send waiting behind a blocked write = %v, want ErrNotSent and Canceled", err)
	}
	cancel()
	if err := <-first; !errors.Is(err, ErrNotSent) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Send to a server that never reads = %v, want ErrNotSent and Canceled", err)
	}
}

// everythingInit is a raw initialize request declaring roots (so that
// server-everything ignores stdin EOF).
const everythingInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"spyglass-test","version":"0"}}}`

func TestStdioEverything(t *testing.T) {
	node := peers.Node(t)
	file := peers.File(t, peers.Everything)
	rec := newMemRec()
	c, s := startStdio(t, StdioConfig{Conn: "everything", Command: node, Args: []string{file}}, rec)
	ctx := ctxT(t)
	if err := c.Send(ctx, []byte(everythingInit), nil); err != nil {
		t.Fatal(err)
	}
	res := s.nextWhere(t, `"id":1`)
	if !bytes.Contains(res, []byte(`"protocolVersion":"2025-11-25"`)) || !IsMessage(res) {
		t.Fatalf("initialize result: %s", res)
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), nil); err != nil {
		t.Fatal(err)
	}
	tools := s.nextWhere(t, `"id":2`)
	if !bytes.Contains(tools, []byte(`"get-sum"`)) {
		t.Fatalf("tools/list result lacks get-sum: %.300s", tools)
	}
	// With roots declared, the server asks for them.
	s.nextWhere(t, `"roots/list"`)
	rec.waitFor(t, "stderr", func(e events.Event) bool { return e.Kind == events.KindStderr })

	// It ignores EOF now: Close must still stop it.
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatalf("OnClose got %v", err)
	}
	groupGone(t, c.Pid())
	if ee := c.ExitStatus(); ee == nil {
		t.Fatal("no exit status after Close")
	}
}

func BenchmarkStdioRoundTrip(b *testing.B) {
	c := NewStdio(helperConfig(b, "echo"), nil)
	got := make(chan []byte, 1)
	if err := c.Start(context.Background(), Handler{OnMessage: func(m []byte) { got <- m }}); err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}`)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Send(ctx, msg, nil); err != nil {
			b.Fatal(err)
		}
		<-got
	}
}

// groupGone fails unless the process group led by pid disappears (its
// killed members may be zombies for a moment until they are reaped).
func groupGone(t *testing.T, pid int) {
	t.Helper()
	if eventually(func() bool { return errors.Is(syscall.Kill(-pid, 0), syscall.ESRCH) }) {
		return
	}
	out, _ := exec.Command("ps", "-o", "pid,pgid,stat,cmd", "-g", strconv.Itoa(pid)).CombinedOutput()
	t.Fatalf("process group %d still exists:\n%s", pid, out)
}

func TestStdioCloseUnblocksSend(t *testing.T) {
	cfg := helperConfig(t, "noread")
	cfg.StopWait = 100 * time.Millisecond
	c := NewStdio(cfg, nil)
	writing := make(chan struct{})
	c.beforeWrite = func() { close(writing) }
	s := newSink()
	if err := c.Start(ctxT(t), s.handler()); err != nil {
		t.Fatal(err)
	}
	big := append(append([]byte(`{"pad":"`), bytes.Repeat([]byte("x"), 4<<20)...), `"}`...)
	sent := make(chan error, 1)
	go func() { sent <- c.Send(context.Background(), big, nil) }()
	<-writing // 4 MB to a server that never reads: the write blocks
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-sent:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("blocked Send ended with %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close left a blocked Send hanging")
	}
	if err := s.waitClosed(t); err != nil {
		t.Fatal(err)
	}
}
