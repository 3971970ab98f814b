package testpeers

import (
	"bytes"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"
)

// EverythingHTTP runs server-everything in an HTTP mode ("streamableHttp"
// or "sse") on a free 127.0.0.1 port and returns its base URL
// (http://127.0.0.1:PORT) once it accepts connections: the MCP endpoint is
// base+"/mcp", the legacy SSE one base+"/sse". The server is killed when
// the test ends; a server that exits or never listens fails the test with
// its output.
func EverythingHTTP(tb testing.TB, mode string) string {
	tb.Helper()
	node := Node(tb)
	file := File(tb, Everything)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(node, file, mode)
	cmd.Env = append(cmd.Environ(), "PORT="+strconv.Itoa(port))
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second // a forked grandchild holding the pipes cannot hang the cleanup
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	tb.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return "http://" + addr
		}
		select {
		case <-exited:
			tb.Fatalf("server-everything %s exited: %s", mode, out.String())
		default:
		}
		if time.Now().After(deadline) {
			tb.Fatalf("server-everything %s did not listen on %s: %s", mode, addr, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe for the process's writers and the
// test reading it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
