package tap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// StdioOptions configure RunStdio.
type StdioOptions struct {
	// Server is the server to start: Command, Args, Env, Dir and StopWait
	// are used; Conn names the recorded events.
	Server wire.StdioConfig
	// Stdin, Stdout and Stderr are the host's side: what the host writes
	// to the tap, and where the server's output goes.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Rec receives the record; nil records nothing.
	Rec wire.Recorder
	// Fault, when it has rules, is applied to the messages between the
	// host and the server (core/wire/fault); the record then holds what
	// the host sent and what it received.
	Fault *fault.Spec
	// MaxMessageSize bounds one recorded message (zero: the wire default).
	// Longer ones still pass.
	MaxMessageSize int
	// OnStart, when set, is called with the server's process id once it
	// runs.
	OnStart func(pid int)
}

// drainGrace bounds how long the server's outputs may take to reach EOF
// after it exited (longer only when a child of the server holds them).
const drainGrace = 2 * time.Second

// RunStdio starts the server and passes bytes between the host and it
// until the server exits: the host's input to the server's stdin, the
// server's stdout and stderr to the host's, unchanged. When the host
// closes its input, the server gets EOF and then Stop's ladder (SIGTERM,
// SIGKILL); when ctx ends (the tap was told to stop), the ladder runs at
// once. It returns how the server ended. A server that cannot be started
// is a *wire.StartError.
func RunStdio(ctx context.Context, o StdioOptions) (*wire.ExitError, error) {
	p, err := wire.StartProcess(o.Server)
	if err != nil {
		return nil, err
	}
	// Blocking pipes: a copier waits in read(2) on its own thread and the
	// kernel wakes it directly when bytes arrive, one hop instead of the
	// poller's two. (Fd switches an *os.File to blocking mode.)
	for _, f := range []any{p.Stdin, p.Stdout, p.Stderr} {
		if fd, ok := f.(interface{ Fd() uintptr }); ok {
			fd.Fd()
		}
	}
	conn := o.Server.Conn
	rec := recorder{o.Rec, conn}
	rec.add(events.Event{Kind: events.KindState, Text: "connected"})
	if o.OnStart != nil {
		o.OnStart(p.Pid())
	}

	var outputs sync.WaitGroup
	outputs.Add(1)
	go func() { // stderr: passed through, each line recorded
		defer outputs.Done()
		copyStderr(o.Stderr, p.Stderr, rec)
	}()

	var stop sync.Once
	var stopped atomic.Bool // the tap stopped the server (the host left, or ctx ended)
	stopServer := func() { stop.Do(func() { stopped.Store(true); go p.Stop() }) }
	var obs *observer // records the plain copies (nil: nothing is recorded)
	inSplit := &Splitter{Rec: o.Rec, Conn: conn, Dir: events.DirOut, Max: o.MaxMessageSize}
	outSplit := &Splitter{Rec: o.Rec, Conn: conn, Dir: events.DirIn, Max: o.MaxMessageSize}

	if o.Fault != nil && len(o.Fault.Rules) > 0 {
		lc := &lineConn{p: p, max: o.MaxMessageSize}
		fc := fault.New(*o.Fault, o.Rec).Wrap(lc, conn)
		var hostMu sync.Mutex
		outputs.Add(1)
		lc.done = outputs.Done
		if err := fc.Start(ctx, wire.Handler{OnMessage: func(b []byte) {
			if len(b) == 0 || b[len(b)-1] != '\n' {
				b = append(b, '\n')
			}
			hostMu.Lock()
			outSplit.Write(b)
			o.Stdout.Write(b)
			hostMu.Unlock()
		}}); err != nil {
			p.Stop()
			return nil, err
		}
		go func() { // the host's messages, one line at a time, through the faults
			defer stopServer()
			br := bufio.NewReaderSize(o.Stdin, 64<<10)
			for {
				line, err := br.ReadBytes('\n')
				if len(line) > 0 {
					inSplit.Write(line)
					if line[len(line)-1] != '\n' {
						inSplit.Flush()
					}
					if serr := fc.Send(ctx, line, nil); serr != nil && errors.Is(serr, wire.ErrClosed) {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	} else {
		if o.Rec != nil {
			obs = newObserver(o.Rec, conn)
		}
		outputs.Add(1)
		go func() { // stdout: copied as read, recorded beside
			defer outputs.Done()
			copyObserved(o.Stdout, p.Stdout, obs, outSplit)
		}()
		go func() { // the host's input; its end is the server's EOF
			defer stopServer()
			copyObserved(p.Stdin, o.Stdin, obs, inSplit)
		}()
	}

	select {
	case <-p.Exited():
	case <-ctx.Done():
		stopServer()
	}
	exit := p.Wait()
	drained := make(chan struct{})
	go func() { outputs.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainGrace):
		// A child of the server holds the outputs open: what it writes
		// later is not passed on. (The copiers stay blocked in read
		// until the process ends.)
	}
	p.Stdout.Close()
	p.Stderr.Close()
	p.Stdin.Close()
	if obs != nil {
		obs.stop() // every message passed on is in the log before the end is
	}
	text := "process exited: " + describeExit(exit)
	kind := events.KindError
	if stopped.Load() || exit.Code == 0 {
		kind, text = events.KindState, "process stopped: "+describeExit(exit)
	}
	rec.add(events.Event{Kind: kind, Text: text})
	if l, ok := o.Rec.(interface{ CloseConn(string) }); ok {
		l.CloseConn(conn)
	}
	return exit, nil
}

// copyObserved copies src to dst as it reads, handing a copy of each
// chunk to obs (for the splitter s) just before it is written: a message
// is queued for the record before the other side can answer it, so that
// the answer pairs with it. A failing dst ends the copy. obs may be nil.
func copyObserved(dst io.Writer, src io.Reader, obs *observer, s *Splitter) {
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			obs.write(s, buf[:n])
			_, werr := dst.Write(buf[:n])
			if werr != nil {
				if c, ok := dst.(io.Closer); ok {
					c.Close()
				}
				io.Copy(io.Discard, src) // keep the writer from blocking
				break
			}
		}
		if err != nil {
			break
		}
	}
	obs.flush(s)
}

// observer records what both copiers pass on, on a goroutine of its own
// and in the order the copiers read it, so that splitting, JSON checks
// and the log's pairing stay off the path of the bytes. A copier only
// copies the chunk into the observer's queue (no allocation once the
// queue has grown, one clock read) and never waits for the recorder:
// when the queue holds maxPending bytes, further chunks are not recorded
// (the record says so once) and the bytes pass all the same. The
// recorder wakes once per burst, not once per message: after a wake-up
// it lets the burst gather for gatherWait before taking the whole queue.
type observer struct {
	rec  wire.Recorder
	conn string
	max  int // maxPending, or less in tests

	mu       sync.Mutex
	queue    []obsChunk
	arena    []byte // the queued chunks' bytes
	idle     bool   // the recorder waits for a wake-up
	closing  bool   // stop was called: record what is queued, then end
	lostAny  bool
	openLost map[*Splitter]int // the queue's lost marker of a stream still losing bytes

	wake chan struct{}
	done chan struct{}
}

// obsChunk is a queued chunk: its bytes are arena[off:off+n].
type obsChunk struct {
	s        *Splitter
	off, n   int
	at       time.Time
	flush    bool
	lost     bool          // bytes of s's stream were not queued before this chunk
	endsLine bool          // (lost) the last lost byte was a newline
	synced   chan struct{} // closed once the chunks before it are recorded
}

// Bounds of the observer's queue and its batching.
const (
	maxPending = 32 << 20
	gatherWait = 2 * time.Millisecond
)

func newObserver(rec wire.Recorder, conn string) *observer {
	o := &observer{rec: rec, conn: conn, max: maxPending, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go o.run()
	return o
}

// write queues a copy of b for s.
func (o *observer) write(s *Splitter, b []byte) {
	if o == nil {
		return
	}
	at := time.Now()
	o.mu.Lock()
	if o.closing {
		o.mu.Unlock()
		return
	}
	if len(o.arena)+len(b) > o.max {
		o.noteLostLocked(s, b)
		o.mu.Unlock()
		return
	}
	delete(o.openLost, s)
	o.queue = append(o.queue, obsChunk{s: s, off: len(o.arena), n: len(b), at: at})
	o.arena = append(o.arena, b...)
	o.signalLocked()
}

// flush queues the end of s's stream.
func (o *observer) flush(s *Splitter) {
	if o == nil {
		return
	}
	o.mu.Lock()
	if o.closing {
		o.mu.Unlock()
		return
	}
	o.queue = append(o.queue, obsChunk{s: s, flush: true})
	o.signalLocked()
}

// sync waits until what was queued before it is recorded.
func (o *observer) sync() {
	c := make(chan struct{})
	o.mu.Lock()
	o.queue = append(o.queue, obsChunk{synced: c})
	o.signalLocked()
	<-c
}

// noteLostLocked marks that chunk b of s was not queued: the next chunk
// queued for s tells its splitter first, and whether the lost bytes
// ended a line (then the next chunk starts a message).
func (o *observer) noteLostLocked(s *Splitter, b []byte) {
	endsLine := b[len(b)-1] == '\n'
	if i, ok := o.openLost[s]; ok {
		o.queue[i].endsLine = endsLine
		return
	}
	if o.openLost == nil {
		o.openLost = map[*Splitter]int{}
	}
	o.openLost[s] = len(o.queue)
	o.queue = append(o.queue, obsChunk{s: s, lost: true, endsLine: endsLine})
}

// signalLocked wakes the recorder if it waits, and unlocks o.mu.
func (o *observer) signalLocked() {
	wake := o.idle
	o.idle = false
	o.mu.Unlock()
	if wake {
		select {
		case o.wake <- struct{}{}:
		default:
		}
	}
}

func (o *observer) run() {
	defer close(o.done)
	var queue []obsChunk
	var arena []byte
	for {
		o.mu.Lock()
		if len(o.queue) == 0 {
			if o.closing {
				o.mu.Unlock()
				return
			}
			o.idle = true
			o.mu.Unlock()
			<-o.wake
			time.Sleep(gatherWait) // let the burst gather: one wake-up for many messages
			continue
		}
		// Swap the buffers: the copiers fill the other pair meanwhile.
		queue, o.queue = o.queue, queue[:0]
		arena, o.arena = o.arena, arena[:0]
		clear(o.openLost)
		o.mu.Unlock()
		for i, c := range queue {
			switch {
			case c.synced != nil:
				close(c.synced)
			case c.flush:
				c.s.Flush()
			case c.lost:
				c.s.lost(c.endsLine)
				if !o.lostAny {
					o.lostAny = true
					recorder{o.rec, o.conn}.add(events.Event{Kind: events.KindWarning,
						Text: "the record is missing some of the traffic: recording fell behind, so those bytes were passed on without being recorded"})
				}
			default:
				c.s.at = c.at
				c.s.Write(arena[c.off : c.off+c.n])
			}
			queue[i] = obsChunk{}
		}
		if cap(arena) > 4<<20 {
			arena = nil // a burst's arena is not kept
		}
	}
}

// stop records what was queued and ends the observer; later chunks (of a
// copier still blocked on a host that never closes) are not recorded.
func (o *observer) stop() {
	o.mu.Lock()
	if o.closing {
		o.mu.Unlock()
		<-o.done
		return
	}
	o.closing = true
	o.signalLocked()
	<-o.done
}

// copyStderr passes the server's stderr through and records each line.
func copyStderr(dst io.Writer, src io.Reader, rec recorder) {
	buf := make([]byte, 16<<10)
	var line []byte
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if dst != nil {
				dst.Write(buf[:n])
			}
			b := buf[:n]
			for len(b) > 0 {
				i := bytes.IndexAny(b, "\r\n")
				if i < 0 {
					if len(line) < maxStderrLine {
						line = append(line, b[:min(len(b), maxStderrLine-len(line))]...)
					}
					break
				}
				if len(line) < maxStderrLine {
					line = append(line, b[:min(i, maxStderrLine-len(line))]...)
				}
				if len(line) > 0 || b[i] == '\n' {
					rec.add(events.Event{Kind: events.KindStderr, Text: strings.ToValidUTF8(string(line), "\uFFFD")})
				}
				line = line[:0]
				b = b[i+1:]
			}
		}
		if err != nil {
			break
		}
	}
	if len(line) > 0 {
		rec.add(events.Event{Kind: events.KindStderr, Text: strings.ToValidUTF8(string(line), "\uFFFD")})
	}
}

// maxStderrLine bounds one recorded stderr line.
const maxStderrLine = 64 << 10

func describeExit(ee *wire.ExitError) string {
	if ee.Signal != 0 {
		return "killed by signal " + ee.Signal.String()
	}
	return fmt.Sprintf("exit status %d", ee.Code)
}

// recorder adds the connection name and time to events.
type recorder struct {
	rec  wire.Recorder
	conn string
}

func (r recorder) add(e events.Event) {
	if r.rec == nil {
		return
	}
	e.Conn = r.conn
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	r.rec.Append(e)
}

// lineConn is a wire.Conn over a running process for the fault injector:
// Send writes one line to the server's stdin, and each line the server
// writes (its newline kept) is handed to OnMessage, message or not.
type lineConn struct {
	p    *wire.Process
	max  int
	done func() // called when the server's stdout ended
	mu   sync.Mutex
}

func (c *lineConn) Start(ctx context.Context, h wire.Handler) error {
	go func() {
		defer c.done()
		br := bufio.NewReaderSize(c.p.Stdout, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 && h.OnMessage != nil {
				h.OnMessage(line)
			}
			if err != nil {
				if h.OnClose != nil {
					h.OnClose(nil)
				}
				return
			}
		}
	}()
	return nil
}

func (c *lineConn) Send(_ context.Context, msg []byte, _ *wire.SendOptions) error {
	if len(msg) == 0 || msg[len(msg)-1] != '\n' {
		msg = append(msg[:len(msg):len(msg)], '\n')
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.p.Stdin.Write(msg); err != nil {
		return fmt.Errorf("tap: write to the server: %w: %w", wire.ErrClosed, err)
	}
	return nil
}

// Close ends the server (a fault's cut): the host sees it go away.
func (c *lineConn) Close() error { return c.p.Stop() }
