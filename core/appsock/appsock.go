// Package appsock is the running app's local socket: a second start of
// Spyglass hands its arguments to the window already open instead of
// opening another, and programs of the same user (a tap) can reach the
// window. The socket lives under the XDG runtime folder in a directory
// only this user can enter; a socket left by a crashed run is detected (no
// one answers on it) and replaced.
//
// The protocol is one JSON line each way per connection: a Message, then
// a Reply; a handler may then keep reading the connection as a stream.
package appsock

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/adrg/xdg"
)

// ErrRunning is returned by Listen when another instance answers on the
// socket.
var ErrRunning = errors.New("appsock: another Spyglass is running")

// ErrNotRunning is returned by Send when no instance listens.
var ErrNotRunning = errors.New("appsock: no Spyglass is running")

// Message is what a client sends.
type Message struct {
	// Kind says what is asked: "open" hands over a command line.
	Kind string `json:"kind"`
	// Args is the command line (without the program name), Dir the
	// directory it was given in, for relative paths.
	Args []string `json:"args,omitempty"`
	Dir  string   `json:"dir,omitempty"`
}

// Reply is the app's answer. Declined means the app cannot take the
// message (the caller goes on by itself); Error, that it tried and failed.
type Reply struct {
	OK       bool   `json:"ok,omitempty"`
	Declined string `json:"declined,omitempty"`
	Error    string `json:"error,omitempty"`
}

// Path is this user's socket: $XDG_RUNTIME_DIR/spyglass/app.sock
// (/run/user/UID when the variable is not set).
func Path() string {
	return filepath.Join(xdg.RuntimeDir, "spyglass", "app.sock")
}

// maxLine bounds one message: a command line, not a file.
const maxLine = 1 << 20

// dialTimeout bounds how long a silent socket is waited for before it is
// taken for a crashed run's.
const dialTimeout = 2 * time.Second

// Listener is the claimed socket.
type Listener struct {
	ln   net.Listener
	path string
}

// Listen claims the socket at path: ErrRunning when another instance
// answers there; a socket nobody answers on is removed first. The
// directory is created only-this-user (0700), and the socket is 0600.
func Listen(path string) (*Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("appsock: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("appsock: %w", err)
	}
	for attempt := 0; ; attempt++ {
		ln, err := net.Listen("unix", path)
		if err == nil {
			if err := os.Chmod(path, 0o600); err != nil {
				ln.Close()
				return nil, fmt.Errorf("appsock: %w", err)
			}
			return &Listener{ln: ln, path: path}, nil
		}
		if attempt > 0 {
			return nil, fmt.Errorf("appsock: %w", err)
		}
		c, derr := net.DialTimeout("unix", path, dialTimeout)
		if derr == nil {
			c.Close()
			return nil, ErrRunning
		}
		// Nobody answers: a crashed run's socket.
		if rerr := os.Remove(path); rerr != nil && !os.IsNotExist(rerr) {
			return nil, fmt.Errorf("appsock: a stale socket cannot be removed: %w", rerr)
		}
	}
}

// Handler answers a message. A handler that also returns stream (with an
// OK reply) keeps the connection: stream reads what the client sends after
// the reply (a tap's live feed) until the client closes it.
type Handler func(Message) (rep Reply, stream func(io.Reader))

// Serve answers each connection with handle until the listener is closed.
func (l *Listener) Serve(handle Handler) {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		go serveConn(c, handle)
	}
}

func serveConn(c net.Conn, handle Handler) {
	defer c.Close()
	var m Message
	lim := &io.LimitedReader{R: c, N: maxLine}
	br := bufio.NewReaderSize(lim, 64<<10)
	line, err := br.ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return
	}
	var rep Reply
	var stream func(io.Reader)
	if err := json.Unmarshal(line, &m); err != nil {
		rep = Reply{Error: "not a Spyglass message: " + err.Error()}
	} else {
		rep, stream = handle(m)
	}
	b, _ := json.Marshal(rep)
	if _, err := c.Write(append(b, '\n')); err != nil || stream == nil || !rep.OK {
		return
	}
	lim.N = math.MaxInt64 // a stream is as long as its sender makes it
	stream(br)
}

// Close stops listening and removes the socket.
func (l *Listener) Close() error {
	err := l.ln.Close()
	_ = os.Remove(l.path)
	return err
}

// Send hands m to the instance listening at path and returns its reply;
// ErrNotRunning when nobody listens. timeout bounds the whole exchange.
func Send(path string, m Message, timeout time.Duration) (Reply, error) {
	c, err := net.DialTimeout("unix", path, min(timeout, dialTimeout))
	if err != nil {
		return Reply{}, fmt.Errorf("%w: %w", ErrNotRunning, err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	b, err := json.Marshal(m)
	if err != nil {
		return Reply{}, err
	}
	if _, err := c.Write(append(b, '\n')); err != nil {
		return Reply{}, fmt.Errorf("appsock: %w", err)
	}
	line, err := bufio.NewReader(io.LimitReader(c, maxLine)).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return Reply{}, fmt.Errorf("appsock: the running Spyglass did not answer: %w", err)
	}
	var rep Reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return Reply{}, fmt.Errorf("appsock: the running Spyglass answered %q: %w", line, err)
	}
	return rep, nil
}
