package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/tidwall/gjson"
)

// StdioConfig describes a server process spoken to over stdin/stdout.
type StdioConfig struct {
	// Conn names the connection in recorded events.
	Conn string
	// Command is the program (looked up in PATH when it has no slash).
	Command string
	// Args are the program's arguments.
	Args []string
	// Env holds KEY=VALUE pairs added to the inherited environment (a
	// key given here wins over the inherited one).
	Env []string
	// Dir is the working directory; empty means the current one.
	Dir string
	// MaxMessageSize bounds one message (line) read from the server, in
	// bytes; a longer one is recorded as invalid and skipped. Zero means
	// DefaultMaxMessageSize.
	MaxMessageSize int
	// StopWait is how long Close waits after closing stdin, and again
	// after SIGTERM, before escalating. Zero means 500 ms.
	StopWait time.Duration
}

// Stdio is a Conn to a process it spawns: messages go to its stdin, one
// per line; newline-delimited messages (up to MaxMessageSize) are read
// from its stdout; stderr lines are recorded as events.KindStderr.
type Stdio struct {
	cfg StdioConfig
	rec recorder

	mu      sync.Mutex // guards the fields below
	started bool
	closing bool
	cmd     *exec.Cmd
	stdin   *os.File
	exited  chan struct{} // closed when the process has been reaped
	done    chan struct{} // closed after OnClose returned
	exitErr *ExitError
	inClose bool // OnClose is being called

	tailMu sync.Mutex
	tail   []string // last stderr lines

	wlock chan struct{} // holds a token while a write to stdin runs
	wbuf  []byte        // guarded by wlock
	torn  bool          // the last write ended inside its line; guarded by wlock

	beforeWrite func() // a test's hook, called just before writing to stdin
}

var _ Conn = (*Stdio)(nil)

// NewStdio returns a Stdio for cfg recording into rec (which may be nil).
// Nothing is spawned before Start.
func NewStdio(cfg StdioConfig, rec Recorder) *Stdio {
	if cfg.StopWait <= 0 {
		cfg.StopWait = 500 * time.Millisecond
	}
	return &Stdio{cfg: cfg, rec: recorder{rec: rec, conn: cfg.Conn}, wlock: make(chan struct{}, 1)}
}

// Pid returns the process id of the running server, 0 before Start.
func (s *Stdio) Pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Start spawns the process in its own process group and begins reading
// its stdout and stderr. A command that cannot be started returns a
// *StartError at once (errors.Is(err, ErrCommandNotFound) when it does
// not exist). A process that starts and exits at once is reported
// through h.OnClose with an *ExitError.
func (s *Stdio) Start(ctx context.Context, h Handler) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("wire: start %s: %w", s.cfg.Command, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return ErrClosed
	}
	if s.started {
		return ErrAlreadyStarted
	}
	if s.cfg.Dir != "" {
		if fi, err := os.Stat(s.cfg.Dir); err != nil {
			return &StartError{Command: s.cfg.Command, Err: fmt.Errorf("working directory: %w", err)}
		} else if !fi.IsDir() {
			return &StartError{Command: s.cfg.Command, Err: fmt.Errorf("working directory %s: %w", s.cfg.Dir, syscall.ENOTDIR)}
		}
	}

	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Env = append(os.Environ(), s.cfg.Env...)
	cmd.Dir = s.cfg.Dir
	setGroup(cmd)

	inR, inW, err := os.Pipe()
	if err != nil {
		return &StartError{Command: s.cfg.Command, Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return &StartError{Command: s.cfg.Command, Err: err}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return &StartError{Command: s.cfg.Command, Err: err}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	var readers sync.WaitGroup
	readers.Add(2)
	if err := startLocked(cmd, func() { s.wait(cmd, &readers, []*os.File{outR, errR}, h.OnClose) }); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		notFound := errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist)
		return &StartError{Command: s.cfg.Command, Err: err, notFound: notFound}
	}
	// The child holds its own copies now.
	closeAll(inR, outW, errW)

	s.started = true
	s.cmd = cmd
	s.stdin = inW
	s.exited = make(chan struct{})
	s.done = make(chan struct{})

	go func() { defer readers.Done(); s.readStdout(outR, h.OnMessage) }()
	go func() { defer readers.Done(); s.readStderr(errR) }()
	return nil
}

// startLocked starts cmd from a goroutine locked to its OS thread and
// runs wait (which reaps it) on that same goroutine: Linux's parent-death
// signal (setDeathSignal) fires when the thread that forked the child
// ends, not the process, so the thread must outlive the child. wait runs
// only when cmd started; it must not use what the caller sets after
// startLocked returns before taking the lock the caller holds.
func startLocked(cmd *exec.Cmd, wait func()) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		started <- err
		if err == nil {
			wait()
		}
	}()
	return <-started
}

// drainGrace bounds how long the readers may take to reach EOF after the
// process exited (longer only when a child of the server keeps the pipes
// open).
const drainGrace = 250 * time.Millisecond

// wait reaps the process, lets the readers drain, records the exit and
// calls onClose.
func (s *Stdio) wait(cmd *exec.Cmd, readers *sync.WaitGroup, pipes []*os.File, onClose func(error)) {
	werr := cmd.Wait()
	ee := exitStatus(cmd.ProcessState, werr)
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	close(s.exited)

	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainGrace):
		closeAll(pipes...) // unblocks the readers
		<-drained
	}
	closeAll(pipes...)
	ee.Stderr = s.stderrTail()
	s.mu.Lock()
	s.exitErr = ee
	s.mu.Unlock()

	// The exit is the process's state, not an error of its own: the
	// session above records the failure it causes as the one error row,
	// worded with its cause ("Error: connect ECONNREFUSED … — the server
	// process exited with status 1 before answering"), so a server that
	// crashed at start counted two errors an attempt.
	if closing {
		s.rec.add(events.Event{Kind: events.KindState, Text: "process stopped: " + describeExit(ee)})
		ee = nil
	} else {
		s.rec.add(events.Event{Kind: events.KindState, Text: "process exited: " + describeExit(ee)})
	}
	s.mu.Lock()
	in := s.stdin
	s.mu.Unlock()
	in.Close()
	s.mu.Lock()
	s.inClose = true
	s.mu.Unlock()
	if onClose != nil {
		if ee == nil {
			onClose(nil)
		} else {
			onClose(ee)
		}
	}
	close(s.done)
}

func exitStatus(ps *os.ProcessState, werr error) *ExitError {
	if ps == nil {
		return &ExitError{Code: -1}
	}
	ee := &ExitError{Code: ps.ExitCode()}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		ee.Signal = ws.Signal()
		ee.Code = -1
	}
	return ee
}

func describeExit(ee *ExitError) string {
	if ee.Signal != 0 {
		return "killed by signal " + ee.Signal.String()
	}
	return fmt.Sprintf("exit status %d", ee.Code)
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// readStdout reads newline-delimited messages of up to MaxMessageSize
// bytes; a longer one is recorded as invalid and skipped.
func (s *Stdio) readStdout(r io.Reader, onMessage func([]byte)) {
	br := bufio.NewReaderSize(r, 64<<10)
	limit := maxSize(s.cfg.MaxMessageSize)
	for {
		line, err := readLine(br, limit)
		var tl *tooLongError
		if errors.As(err, &tl) {
			s.rec.tooLong(tl)
			continue
		}
		if len(line) > 0 {
			s.deliver(line, onMessage)
		}
		if err != nil {
			return
		}
	}
}

// deliver hands one line (newline stripped) to onMessage, or records it
// as invalid.
func (s *Stdio) deliver(line []byte, onMessage func([]byte)) {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	t := bytes.TrimLeft(line, " \t")
	switch {
	case t[0] != '{' && t[0] != '[':
		s.rec.invalid(line, "not a JSON-RPC message")
	case !gjson.ValidBytes(t): // encoding/json's Valid cost a flood more than the session's reading (#17)
		s.rec.invalid(line, "invalid JSON")
	case onMessage != nil:
		onMessage(line)
	}
}

// readStderr records every stderr line with the time it was read. '\n',
// '\r' and "\r\n" end a line (so that a progress bar redrawn with '\r'
// reads as a line per update); a line longer than maxStderrLine is
// recorded cut to it, marked truncated, with its full length in Size,
// and the rest of it is not kept in memory.
func (s *Stdio) readStderr(r io.Reader) {
	br := bufio.NewReaderSize(r, 16<<10)
	var line []byte
	size := 0 // bytes of the current line, kept or not
	emit := func() {
		e := events.Event{Kind: events.KindStderr, Text: string(line)}
		if size > len(line) {
			e.Text += fmt.Sprintf(" … [line truncated: %d bytes]", size)
			e.Size = size
		}
		s.rec.add(e)
		s.keepTail(e.Text)
		line, size = line[:0], 0
	}
	afterCR := false
	for {
		chunk, err := br.ReadSlice('\n')
		for len(chunk) > 0 {
			if afterCR && chunk[0] == '\n' {
				chunk = chunk[1:] // the '\n' of "\r\n"
				afterCR = false
				continue
			}
			afterCR = false
			i := bytes.IndexAny(chunk, "\r\n")
			part := chunk
			if i >= 0 {
				part = chunk[:i]
			}
			size += len(part)
			if room := maxStderrLine - len(line); room > 0 {
				line = append(line, part[:min(room, len(part))]...)
			}
			if i < 0 {
				break
			}
			afterCR = chunk[i] == '\r'
			chunk = chunk[i+1:]
			emit()
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if size > 0 {
				emit()
			}
			return
		}
	}
}

// maxStderrLine bounds one recorded stderr line.
const maxStderrLine = 64 << 10

// Stderr tail bounds.
const (
	tailLines = 20
	tailBytes = 4 << 10
)

func (s *Stdio) keepTail(line string) {
	if len(line) > tailBytes {
		line = line[len(line)-tailBytes:]
	}
	s.tailMu.Lock()
	s.tail = append(s.tail, line)
	if len(s.tail) > tailLines {
		s.tail = s.tail[len(s.tail)-tailLines:]
	}
	s.tailMu.Unlock()
}

func (s *Stdio) stderrTail() string {
	s.tailMu.Lock()
	defer s.tailMu.Unlock()
	n := 0
	i := len(s.tail)
	for i > 0 && n+len(s.tail[i-1])+1 <= tailBytes {
		i--
		n += len(s.tail[i]) + 1
	}
	return strings.Join(s.tail[i:], "\n")
}

// Send writes msg and a newline to the server's stdin. A message holding
// a newline (pretty-printed JSON) is compacted first, since the framing
// forbids newlines inside a message; send compact JSON to keep the
// recorded bytes identical. The context bounds a write that blocks
// because the server does not read, and the wait behind such a write:
// the error then matches ErrNotSent and the context's error.
func (s *Stdio) Send(ctx context.Context, msg []byte, _ *SendOptions) error {
	s.mu.Lock()
	started, in, exited := s.started, s.stdin, s.exited
	s.mu.Unlock()
	if !started {
		return ErrNotStarted
	}
	select {
	case <-exited:
		return ErrClosed
	default:
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("wire: send: %w: %w", ErrNotSent, err)
	}

	// The write lock is a channel so that waiting for it (behind a write
	// blocked on a server that stopped reading) ends with ctx.
	select {
	case s.wlock <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("wire: send: %w: %w", ErrNotSent, ctx.Err())
	case <-exited:
		return ErrClosed
	}
	defer func() { <-s.wlock }()
	buf := s.wbuf[:0]
	if s.torn {
		// The last write was cut short: end its line so that this one
		// parses.
		buf = append(buf, '\n')
	}
	if bytes.ContainsAny(msg, "\r\n") {
		var c bytes.Buffer
		if err := json.Compact(&c, msg); err != nil {
			return fmt.Errorf("wire: send: message with a newline is not valid JSON: %w", err)
		}
		buf = append(buf, c.Bytes()...)
	} else {
		buf = append(buf, msg...)
	}
	buf = append(buf, '\n')
	if cap(buf) <= 1<<20 {
		s.wbuf = buf
	}

	// A cancelled ctx unblocks the write through a deadline. The callback
	// may start just as the write ends (the reply can beat Write's
	// return); "written" keeps it from setting a deadline after we
	// cleared it, which would fail every later write with a timeout.
	var dmu sync.Mutex
	written := false
	stop := context.AfterFunc(ctx, func() {
		dmu.Lock()
		defer dmu.Unlock()
		if !written {
			in.SetWriteDeadline(time.Now())
		}
	})
	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	n, err := in.Write(buf)
	dmu.Lock()
	written = true
	dmu.Unlock()
	if !stop() {
		// The deadline may have been set: clear it for the next write.
		in.SetWriteDeadline(time.Time{})
	}
	if err == nil {
		s.torn = false
		return nil
	}
	s.torn = s.torn && n == 0 || n > 0 && n < len(buf)
	if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
		return fmt.Errorf("wire: send: %w: %w", ErrNotSent, ctx.Err())
	}
	select {
	case <-exited:
		return fmt.Errorf("wire: send: %w", ErrClosed)
	default:
	}
	if errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EPIPE) {
		return fmt.Errorf("wire: send: %w", ErrClosed)
	}
	return fmt.Errorf("wire: send: %w", err)
}

// Close stops the server: it closes stdin, waits StopWait for the process
// to exit, then sends SIGTERM to its process group, waits StopWait again,
// then SIGKILL. It returns once the process is gone and OnClose (with nil)
// has been called, or shortly after when Close is called from a handler.
func (s *Stdio) Close() error {
	s.mu.Lock()
	if s.closing {
		done, inClose := s.done, s.inClose
		s.mu.Unlock()
		if done != nil && !inClose {
			waitChan(done, 2*time.Second)
		}
		return nil
	}
	s.closing = true
	started, in, exited, done := s.started, s.stdin, s.exited, s.done
	s.mu.Unlock()
	if !started {
		return nil
	}
	pid := s.cmd.Process.Pid
	in.Close()
	var err error
	if !waitChan(exited, s.cfg.StopWait) {
		signalGroup(pid, syscall.SIGTERM)
		if !waitChan(exited, s.cfg.StopWait) {
			if kerr := signalGroup(pid, syscall.SIGKILL); kerr != nil && !errors.Is(kerr, syscall.ESRCH) {
				err = fmt.Errorf("wire: kill process group %d: %w", pid, kerr)
			}
			if !waitChan(exited, 5*time.Second) && err == nil {
				err = fmt.Errorf("wire: process %d did not exit after SIGKILL", pid)
			}
		}
	}
	// Whatever the server left behind in its group goes too.
	if signalGroup(pid, 0) == nil {
		signalGroup(pid, syscall.SIGTERM)
	}
	// done waits for the readers (bounded by drainGrace) and OnClose; a
	// Close called from OnClose must not wait for itself, one called from
	// OnMessage gives up after a bound.
	s.mu.Lock()
	inClose := s.inClose
	s.mu.Unlock()
	if !inClose {
		waitChan(done, drainGrace+time.Second)
	}
	return err
}

// waitChan waits up to d for c to close and reports whether it did.
func waitChan(c <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c:
		return true
	case <-t.C:
		return false
	}
}

// ExitStatus returns how the process ended, nil while it runs.
func (s *Stdio) ExitStatus() *ExitError {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitErr
}
