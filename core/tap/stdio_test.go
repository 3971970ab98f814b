package tap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/spyglass-mcp/spyglass/core/events"
	"golang.org/x/sys/unix"
)

// hostTap is a tap process (this test binary, see TestMain) driven by the
// test as its host: it writes to the tap's stdin and reads its stdout.
type hostTap struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startTap starts the tap with args (flags, "--", the server command).
func startTap(t *testing.T, args ...string) *hostTap {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "TAP_TEST_MAIN=1")
	h := &hostTap{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = h.stderr
	if h.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.out = bufio.NewReader(out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return h
}

// roundTrips sends n messages and checks that each comes back unchanged
// (the server is cat, which echoes its input).
func (h *hostTap) roundTrips(t *testing.T, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"m%d"}}}`+"\n", i, i)
		if _, err := io.WriteString(h.in, msg); err != nil {
			t.Fatalf("message %d: the tap stopped taking input: %v (stderr: %s)", i, err, h.stderr.String())
		}
		got, err := h.out.ReadString('\n')
		if err != nil || got != msg {
			t.Fatalf("message %d came back as %q (%v); sent %q; stderr: %s", i, got, err, msg, h.stderr.String())
		}
	}
}

// end closes the host's side and returns the tap's exit code.
func (h *hostTap) end(t *testing.T) int {
	t.Helper()
	h.in.Close()
	err := h.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestTraceReaderGoesAway: the reader of a FIFO trace stops reading in
// the middle of the session; the host's traffic goes on unchanged, the tap
// says once that the trace is not being written, and exits with the
// server's status.
func TestTraceReaderGoesAway(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "trace")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	readerOpen := make(chan *os.File, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			t.Error(err)
		}
		readerOpen <- f
	}()
	h := startTap(t, "--trace", fifo, "--", "cat")
	r := <-readerOpen
	h.roundTrips(t, 1, 10)
	// The reader has seen the trace begin, then goes away.
	br := bufio.NewReader(r)
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, `"format"`) {
		t.Fatalf("trace began with %q (%v)", line, err)
	}
	r.Close()
	h.roundTrips(t, 11, 2000)
	if code := h.end(t); code != 0 {
		t.Errorf("exit %d, want cat's 0; stderr: %s", code, h.stderr.String())
	}
	if n := strings.Count(h.stderr.String(), "the trace is not being written"); n != 1 {
		t.Errorf("the recording failure was reported %d times, want once: %s", n, h.stderr.String())
	}
}

// TestTraceDiskFull: a trace that cannot be written at all (/dev/full)
// leaves the traffic unchanged; the failure is reported.
func TestTraceDiskFull(t *testing.T) {
	h := startTap(t, "--trace", "/dev/full", "--", "cat")
	h.roundTrips(t, 1, 500)
	if code := h.end(t); code != 0 {
		t.Errorf("exit %d, want 0; stderr: %s", code, h.stderr.String())
	}
	if s := h.stderr.String(); !strings.Contains(s, "no space left on device") || strings.Count(s, "not being written") != 1 {
		t.Errorf("stderr does not report the full disk once: %s", s)
	}
}

// TestExitStatus: the server's exit status becomes the tap's, and a
// server that ignores both EOF and SIGTERM is ended by the ladder.
func TestExitStatus(t *testing.T) {
	h := startTap(t, "--", "sh", "-c", "read line; echo \"$line\"; exit 7")
	h.roundTrips(t, 1, 1)
	if code := h.end(t); code != 7 {
		t.Errorf("exit %d, want the server's 7; stderr: %s", code, h.stderr.String())
	}

	trace := filepath.Join(t.TempDir(), "trace.json")
	h = startTap(t, "--trace", trace, "--", "sh", "-c", `trap "" TERM; echo ready; while :; do read x || sleep 0.05; done`)
	if line, err := h.out.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("server said %q (%v)", line, err)
	}
	if code := h.end(t); code != 128+int(syscall.SIGKILL) {
		t.Errorf("exit %d, want %d (SIGKILL after EOF and SIGTERM were ignored); stderr: %s", code, 128+int(syscall.SIGKILL), h.stderr.String())
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, evs, err := events.ReadTrace(f)
	if err != nil {
		t.Fatal(err)
	}
	last := evs[len(evs)-1]
	if last.Kind != events.KindState || !strings.Contains(last.Text, "process stopped: killed by signal killed") {
		t.Errorf("last event %v %q, want the kill", last.Kind, last.Text)
	}
	if bad := invalid(evs); len(bad) != 1 || !strings.Contains(bad[0], "ready") {
		t.Errorf("the server's non-JSON line should be recorded as invalid, once: %q", bad)
	}
}

// TestFaultInTheMiddle: --fault applies between host and server: the
// echoed tools/call is dropped on its way back to the host, ping passes,
// and the record says what was done.
func TestFaultInTheMiddle(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.json")
	h := startTap(t, "--trace", trace, "--fault", "drop=in:tools/call", "--", "cat")
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}` + "\n"
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"
	io.WriteString(h.in, call)
	io.WriteString(h.in, ping)
	got, err := h.out.ReadString('\n')
	if err != nil || got != ping {
		t.Fatalf("host got %q (%v), want the ping only", got, err)
	}
	if code := h.end(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, evs, err := events.ReadTrace(f)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, e := range evs {
		warned = warned || e.Kind == events.KindWarning && strings.Contains(e.Text, "fault injected: dropped")
	}
	if !warned {
		t.Errorf("no fault warning in the record (%s)", kinds(evs))
	}
	if out := messages(evs, events.DirOut); string(out) != call+ping {
		t.Errorf("host→server in the record: %q", out)
	}
	if in := messages(evs, events.DirIn); string(in) != ping {
		t.Errorf("server→host in the record (what the host got): %q", in)
	}
}

// TestSplitter: however the stream is cut into chunks, the same messages
// come out with their exact bytes; other lines are invalid; an oversize
// line is recorded by size.
func TestSplitter(t *testing.T) {
	stream := `{"jsonrpc":"2.0","id":1,"method":"a"}` + "\n" +
		`{"jsonrpc":"2.0","id":"x","result":{"s":"é\u00e9"}}` + "\r\n" +
		"\n" +
		"not json\n" +
		`{"broken":` + "\n" +
		`[{"jsonrpc":"2.0","method":"n"}]` + "\n" +
		strings.Repeat("x", 100) + "\n" +
		`{"tail":1}`
	for _, size := range []int{1, 2, 3, 7, 64, len(stream)} {
		log := events.New(nil)
		s := &Splitter{Rec: log, Conn: "c", Dir: events.DirIn, Max: 64}
		for b := []byte(stream); len(b) > 0; {
			n := min(size, len(b))
			s.Write(b[:n])
			b = b[n:]
		}
		s.Flush()
		var got []string
		for _, e := range log.Events() {
			got = append(got, string(e.Kind)+" "+string(e.Raw)+" "+fmt.Sprint(e.Size))
		}
		want := []string{
			`message {"jsonrpc":"2.0","id":1,"method":"a"} 37`,
			`message {"jsonrpc":"2.0","id":"x","result":{"s":"é\u00e9"}} 52`,
			`invalid not json 8`,
			`invalid {"broken": 10`,
			`message [{"jsonrpc":"2.0","method":"n"}] 32`,
			`message {"jsonrpc":"2.0","method":"n"} 30`,
			`invalid  100`,
			`invalid {"tail":1} 10`,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("chunks of %d:\n%s\nwant\n%s", size, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestSplitterBatch: a JSON-RPC batch is recorded as itself (the whole
// array, byte for byte) and then as its elements, each with its exact
// bytes, so that the requests of a batch pair with the responses of the
// answering batch, whatever their order in it.
func TestSplitterBatch(t *testing.T) {
	log := events.New(nil)
	out := &Splitter{Rec: log, Conn: "c", Dir: events.DirOut}
	in := &Splitter{Rec: log, Conn: "c", Dir: events.DirIn}
	reqs := `[ {"jsonrpc":"2.0","id":1,"method":"tools/list"},` + "\t" + `{"jsonrpc":"2.0","method":"notifications/x"} , {"jsonrpc":"2.0","id":"b", "method":"ping"}, 7 ]`
	resps := `[{"jsonrpc":"2.0","id":"b","result":{}},{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}]`
	out.Write([]byte(reqs + "\n"))
	in.Write([]byte(resps + "\r\n"))
	var got []string
	bySeq := map[uint64]events.Event{}
	for _, e := range log.Events() {
		bySeq[e.Seq] = e
	}
	for _, e := range log.Events() {
		line := fmt.Sprintf("%s %s %s %s|%s", e.Kind, e.Dir, e.Type, e.Raw, e.Text)
		if e.Pair != 0 {
			line += " paired with " + string(bySeq[e.Pair].Raw)
		}
		got = append(got, line)
	}
	want := []string{
		`message out  ` + reqs + `|`,
		`message out request {"jsonrpc":"2.0","id":1,"method":"tools/list"}|batch element 1 of 4 paired with {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
		`message out notification {"jsonrpc":"2.0","method":"notifications/x"}|batch element 2 of 4`,
		`message out request {"jsonrpc":"2.0","id":"b", "method":"ping"}|batch element 3 of 4 paired with {"jsonrpc":"2.0","id":"b","result":{}}`,
		`invalid out  7|batch element 4 of 4: not a JSON-RPC message: 7`,
		`message in  ` + resps + `|`,
		`message in result {"jsonrpc":"2.0","id":"b","result":{}}|batch element 1 of 2 paired with {"jsonrpc":"2.0","id":"b", "method":"ping"}`,
		`message in result {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}|batch element 2 of 2 paired with {"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("recorded:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// blockingRec is a recorder whose Append waits until release is closed.
type blockingRec struct {
	log     *events.Log
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (r *blockingRec) Append(e events.Event) uint64 {
	r.once.Do(func() { close(r.entered) })
	<-r.release
	return r.log.Append(e)
}

// TestObserverNeverBlocks: a recorder that stops (a stuck disk, a slow
// log) never holds up the copy: once the queue is full the chunks pass
// unrecorded, the record says once that it is missing traffic, and the
// messages after the gap are recorded whole again.
func TestObserverNeverBlocks(t *testing.T) {
	rec := &blockingRec{log: events.New(nil), entered: make(chan struct{}), release: make(chan struct{})}
	o := newObserver(rec, "c")
	o.max = 1 << 10
	s := &Splitter{Rec: rec, Conn: "c", Dir: events.DirOut}
	msg := func(i int) []byte {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"n","params":{"i":%d}}`+"\n", i))
	}
	o.write(s, msg(0))
	<-rec.entered               // the recorder is stuck in Append with message 0
	for i := 1; i <= 200; i++ { // 10 KB, ten times the queue: none of it waits
		b := msg(i)
		o.write(s, b[:20]) // cut mid-message: the gap may fall inside one
		o.write(s, b[20:])
	}
	close(rec.release)
	o.sync() // the queue is empty again
	o.write(s, msg(1000))
	o.stop()
	var got []string
	warnings := 0
	for _, e := range rec.log.Events() {
		switch e.Kind {
		case events.KindWarning:
			warnings++
		case events.KindMessage:
			got = append(got, string(e.Raw))
		default:
			t.Errorf("unexpected %s event %q %q", e.Kind, e.Raw, e.Text)
		}
	}
	if warnings != 1 {
		t.Errorf("%d warnings about the missing traffic, want 1", warnings)
	}
	if len(got) < 3 || len(got) > 100 || got[0] != strings.TrimSpace(string(msg(0))) || got[len(got)-1] != strings.TrimSpace(string(msg(1000))) {
		t.Errorf("recorded %d messages: %q", len(got), got)
	}
	last := -1
	for _, m := range got { // whole messages only, in order
		var v struct {
			Params struct{ I int } `json:"params"`
		}
		if err := json.Unmarshal([]byte(m), &v); err != nil || v.Params.I <= last {
			t.Errorf("message %q after #%d (%v)", m, last, err)
		}
		last = v.Params.I
	}
}

// TestKilledTapLeavesNoServer: a host that kills the tap outright
// (SIGKILL, no chance to stop anything) leaves no server behind: the
// kernel's parent-death signal ends it. The server's exit is waited for
// through a pidfd, not by polling.
func TestKilledTapLeavesNoServer(t *testing.T) {
	h := startTap(t, "--", "sh", "-c", `echo $$; exec sleep 1000`)
	line, err := h.out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("server said %q", line)
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd of the server %d: %v", pid, err)
	}
	defer unix.Close(fd)
	h.cmd.Process.Kill()
	h.cmd.Wait()
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 30_000)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			t.Fatalf("the server %d outlived the killed tap (poll: %d, %v)", pid, n, err)
		}
		return
	}
}

// TestObserverWriteAllocates: queuing a chunk for the record allocates
// nothing on the copier's side (the bytes go into the queue's buffer;
// bytes.Clone per chunk did before), so the copy path makes no garbage.
func TestObserverWriteAllocates(t *testing.T) {
	rec := &blockingRec{log: events.New(nil), entered: make(chan struct{}), release: make(chan struct{})}
	o := newObserver(rec, "c")
	defer func() { close(rec.release); o.stop() }()
	s := &Splitter{Rec: rec, Conn: "c", Dir: events.DirOut}
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}` + "\n")
	o.write(s, msg)
	<-rec.entered // the recorder holds still: what is measured is the copier's side only
	if n := testing.AllocsPerRun(2000, func() { o.write(s, msg) }); n != 0 {
		t.Errorf("%v allocations per queued chunk, want 0", n)
	}
}
