package tap

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// inspectorCLI is the entry point of @modelcontextprotocol/inspector's
// CLI, a client nobody on this team wrote.
const inspectorCLI = "@modelcontextprotocol/inspector/clients/launcher/build/index.js"

// script writes an executable shell script into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// teeServer writes a script that runs server-everything over stdio with
// what it reads copied to in and what it writes copied to out: both ends
// of the server's pipes, recorded by tee, not by us.
func teeServer(t *testing.T, dir string) (path, in, out string) {
	node := peers.Node(t)
	ev := peers.File(t, peers.Everything)
	in, out = filepath.Join(dir, "server-in"), filepath.Join(dir, "server-out")
	// In the background with a TERM trap, so that a client's SIGTERM
	// (sent when server-everything ignores EOF, as it does once roots were
	// offered) reaches the whole pipeline.
	body := "exec 3<&0\n" +
		"tee '" + in + "' <&3 3<&- | '" + node + "' '" + ev + "' 3<&- | tee '" + out + "' 3<&- &\n" +
		"exec 3<&-\ntrap 'pkill -TERM -P $$' TERM\nwait"
	return script(t, dir, "server.sh", body), in, out
}

// tapScript writes a script that runs the tap (this test binary, see
// TestMain) in front of server, recording into trace.
func tapScript(t *testing.T, dir, trace, server string, extra ...string) string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := ""
	for _, a := range extra {
		args += " '" + a + "'"
	}
	return script(t, dir, "tap.sh", "TAP_TEST_MAIN=1 exec '"+self+"' --trace '"+trace+"'"+args+" -- '"+server+"'")
}

// fifoTrace makes a FIFO for a tap's trace and reads it in the
// background; the returned function waits for the tap to close it (the
// tap has ended) and returns the trace's events.
func fifoTrace(t *testing.T, dir string) (path string, wait func() []events.Event) {
	t.Helper()
	path = filepath.Join(dir, "trace.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	opened := make(chan struct{})
	go func() {
		f, err := os.Open(path) // blocks until the tap opens it; counts as a reader meanwhile
		close(opened)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	return path, func() []events.Event {
		t.Helper()
		select {
		case b := <-got:
			_, evs, err := events.ReadTrace(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("the streamed trace does not read back: %v\n%s", err, b)
			}
			return evs
		case <-time.After(60 * time.Second):
			t.Fatal("the tap never finished its trace")
		}
		return nil
	}
}

// runClient runs a client command and returns its stdout.
func runClient(t *testing.T, home string, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_SDK="+sdkURL(t))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\nstdout: %s\nstderr: %s", filepath.Base(name), args, err, out, stderr.String())
	}
	if len(out) == 0 {
		t.Fatalf("%v printed nothing; stderr: %s", args, stderr.String())
	}
	return out
}

// sdkURL is the file URL of the TypeScript SDK's ESM build.
func sdkURL(t *testing.T) string {
	return (&url.URL{Scheme: "file", Path: peers.File(t, "@modelcontextprotocol/sdk/dist/esm")}).String()
}

// stdioClients are the real clients, each given the server command (one
// script path) it should start.
func stdioClients(t *testing.T) map[string]func(home, server string) []byte {
	node := peers.Node(t)
	inspector := peers.File(t, inspectorCLI)
	client, _ := filepath.Abs("testdata/sdk_client.mjs")
	return map[string]func(home, server string) []byte{
		"inspector tools/list": func(home, server string) []byte {
			return runClient(t, home, node, inspector, "--cli", server, "--method", "tools/list")
		},
		"inspector tools/call": func(home, server string) []byte {
			return runClient(t, home, node, inspector, "--cli", server, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hello tap")
		},
		"ts sdk client": func(home, server string) []byte {
			return runClient(t, home, node, client, "stdio", server)
		},
	}
}

// TestStdioRealClients: the official inspector's CLI and a client on the
// TypeScript SDK print the same bytes with and without the tap in front
// of server-everything, and the trace holds exactly the bytes the server
// read and wrote (as tee saw them on both of its pipes).
func TestStdioRealClients(t *testing.T) {
	for name, run := range stdioClients(t) {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			directDir, tapDir := t.TempDir(), t.TempDir()
			server, _, _ := teeServer(t, directDir)
			direct := run(home, server)

			server, in, out := teeServer(t, tapDir)
			trace, wait := fifoTrace(t, tapDir)
			tapped := run(home, tapScript(t, tapDir, trace, server))
			evs := wait()

			if !bytes.Equal(direct, tapped) {
				t.Errorf("output differs through the tap:\ndirect: %s\ntapped: %s", direct, tapped)
			}
			if bad := invalid(evs); len(bad) > 0 {
				t.Errorf("invalid events recorded: %q", bad)
			}
			gotIn, gotOut := read(t, in), read(t, out)
			if m := messages(evs, events.DirOut); !bytes.Equal(m, gotIn) || len(m) == 0 {
				t.Errorf("trace's host→server messages differ from what the server read:\ntrace:  %q\nserver: %q", m, gotIn)
			}
			if m := messages(evs, events.DirIn); !bytes.Equal(m, gotOut) || len(m) == 0 {
				t.Errorf("trace's server→host messages differ from what the server wrote:\ntrace:  %q\nserver: %q", m, gotOut)
			}
			for _, e := range evs {
				if e.Kind == events.KindMessage && (e.Type == events.MsgResult || e.Type == events.MsgError) && (e.Pair == 0 || e.Unpaired) {
					t.Errorf("response %s (id %s) is not paired with its request in the record", e.Dir, e.ID)
				}
			}
			if !hasStderr(evs, "Starting default (STDIO) server") {
				t.Errorf("the server's stderr line is not in the trace: %s", kinds(evs))
			}
		})
	}
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hasStderr(evs []events.Event, text string) bool {
	for _, e := range evs {
		if e.Kind == events.KindStderr && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// TestHTTPRealClients: the same clients over Streamable HTTP and legacy
// SSE print the same bytes through the HTTP tap as without it; the record
// holds each exchange and every request paired with its answer.
func TestHTTPRealClients(t *testing.T) {
	node := peers.Node(t)
	inspector := peers.File(t, inspectorCLI)
	client, _ := filepath.Abs("testdata/sdk_client.mjs")
	cases := []struct {
		name, mode, path string
		run              func(home, url string) []byte
	}{
		{"inspector streamable http", "streamableHttp", "/mcp", func(home, u string) []byte {
			return runClient(t, home, node, inspector, "--cli", u, "--transport", "http", "--method", "tools/call", "--tool-name", "get-sum", "--tool-arg", "a=2", "--tool-arg", "b=40")
		}},
		{"ts sdk streamable http", "streamableHttp", "/mcp", func(home, u string) []byte {
			return runClient(t, home, node, client, "http", u)
		}},
		{"ts sdk legacy sse", "sse", "/sse", func(home, u string) []byte {
			return runClient(t, home, node, client, "sse", u)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := peers.EverythingHTTP(t, tc.mode)
			direct := tc.run(t.TempDir(), base+tc.path)

			// The tap reaches the server through a plain TCP relay that
			// keeps every byte the server was sent.
			addr, received := tcpRelay(t, strings.TrimPrefix(base, "http://"))
			up, _ := url.Parse("http://" + addr)
			log := events.New(nil)
			tr := http.DefaultTransport.(*http.Transport).Clone()
			proxy := httptest.NewServer(NewProxy(ProxyOptions{Upstream: up, Rec: log, Conn: "tapped", Transport: tr}))
			defer proxy.Close()
			tapped := tc.run(t.TempDir(), proxy.URL+tc.path)
			if !bytes.Equal(direct, tapped) {
				t.Errorf("output differs through the tap:\ndirect: %s\ntapped: %s", direct, tapped)
			}
			proxy.CloseClientConnections()
			tr.CloseIdleConnections()
			evs := log.Events()
			var sent, got []string
			for _, e := range evs {
				if e.Kind == events.KindMessage && e.Dir == events.DirOut {
					sent = append(sent, string(e.Raw))
				}
			}
			for _, b := range received() {
				got = append(got, string(b))
			}
			slices.Sort(sent)
			slices.Sort(got)
			if !slices.Equal(sent, got) {
				t.Errorf("the record's host→server messages differ from the bodies the server was sent:\nrecord: %q\nserver: %q", sent, got)
			}
			var httpN, out, in int
			methods := map[string]bool{}
			for _, e := range evs {
				switch {
				case e.Kind == events.KindHTTP:
					httpN++
				case e.Kind == events.KindMessage && e.Dir == events.DirOut:
					out++
					methods[e.Method] = true
					if e.Type == events.MsgRequest && (e.Outcome == nil || e.Outcome.State != events.OK) {
						if cur, _ := log.Get(e.Seq); cur.Outcome == nil || cur.Outcome.State != events.OK {
							t.Errorf("request %s %s has no answer in the record: %+v", e.Method, e.ID, cur.Outcome)
						}
					}
				case e.Kind == events.KindMessage && e.Dir == events.DirIn:
					in++
				}
			}
			if httpN == 0 || out == 0 || in == 0 || !methods["initialize"] || !methods["tools/call"] {
				t.Errorf("record lacks exchanges or messages: %d http, %d out, %d in, methods %v (%s)", httpN, out, in, methods, kinds(evs))
			}
		})
	}
}

// tcpRelay listens on loopback and relays each connection to target byte
// for byte. received waits for every relayed connection to end and
// returns the bodies of the HTTP requests the target was sent.
func tcpRelay(t *testing.T, target string) (addr string, received func() [][]byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var streams []*bytes.Buffer
	var conns sync.WaitGroup
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			buf := &bytes.Buffer{}
			mu.Lock()
			streams = append(streams, buf)
			mu.Unlock()
			conns.Add(2)
			go func() { // to the server, kept
				defer conns.Done()
				io.Copy(io.MultiWriter(u, lockedWriter{&mu, buf}), c)
				u.(*net.TCPConn).CloseWrite()
			}()
			go func() {
				defer conns.Done()
				io.Copy(c, u)
				c.Close()
				u.Close()
			}()
		}
	}()
	return ln.Addr().String(), func() [][]byte {
		ln.Close()
		done := make(chan struct{})
		go func() { conns.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("relayed connections never ended")
		}
		var bodies [][]byte
		for _, s := range streams {
			br := bufio.NewReader(bytes.NewReader(s.Bytes()))
			for {
				req, err := http.ReadRequest(br)
				if err != nil {
					break
				}
				b, _ := io.ReadAll(req.Body)
				if len(b) > 0 {
					bodies = append(bodies, b)
				}
			}
		}
		return bodies
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
