package tap

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/core/events"
)

// FeedKind is the appsock message kind that opens a tap's live feed:
// Args holds the connection name, the transport and the target. After
// the app's Reply (OK), the tap writes its events on the same connection
// as JSON lines (the trace file's event form, core/events/TRACE.md) until
// it ends. The window shows the feed as a session of its own (cmd/gui_handoff.go).
const FeedKind = "tap"

// ErrNoApp is returned by StartFeed when no app listens on the socket or
// the app does not take feeds.
var ErrNoApp = errors.New("tap: no Spyglass window takes the feed")

// feedDial bounds connecting and the app's answer; feedWrite bounds one
// write to an app that stopped reading.
const (
	feedDial  = 2 * time.Second
	feedWrite = 5 * time.Second
)

// Feed streams a log's events live to the running app over its local
// socket. A feed that fails (the app closed, or stopped reading) stops;
// the traffic and the log go on.
type Feed struct {
	conn    net.Conn
	cancel  func()
	mu      sync.Mutex
	err     error
	onError func(error)
}

// StartFeed connects to the app at path (appsock.Path()), introduces the
// tap of info, and streams log's events from its next one on. onError is
// told once when the feed stops before Close.
func StartFeed(path string, log *events.Log, info events.ConnInfo, onError func(error)) (*Feed, error) {
	c, err := net.DialTimeout("unix", path, feedDial)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoApp, err)
	}
	c.SetDeadline(time.Now().Add(feedDial))
	hello, _ := json.Marshal(appsock.Message{Kind: FeedKind, Args: []string{info.Conn, info.Transport, info.Target}})
	if _, err := c.Write(append(hello, '\n')); err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: %w", ErrNoApp, err)
	}
	br := bufio.NewReader(io.LimitReader(c, 64<<10))
	line, err := br.ReadBytes('\n')
	var rep appsock.Reply
	if err == nil {
		err = json.Unmarshal(line, &rep)
	}
	if err != nil || !rep.OK {
		c.Close()
		if err == nil {
			err = fmt.Errorf("the app answered %q", line)
		}
		return nil, fmt.Errorf("%w: %w", ErrNoApp, err)
	}
	c.SetDeadline(time.Time{})
	f := &Feed{conn: c, onError: onError}
	f.cancel = log.Subscribe(func(b events.Batch) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.err != nil || len(b.Events) == 0 {
			return
		}
		c.SetWriteDeadline(time.Now().Add(feedWrite))
		if err := events.WriteJSONLines(c, b.Events); err != nil {
			f.failLocked(err)
		}
	})
	return f, nil
}

func (f *Feed) failLocked(err error) {
	f.err = fmt.Errorf("tap: live feed: %w", err)
	f.conn.Close()
	go f.cancel()
	if f.onError != nil {
		go f.onError(f.err)
	}
}

// Close stops the feed and closes the connection; the app sees the tap
// end. It returns the error that stopped the feed earlier, if any.
func (f *Feed) Close() error {
	f.cancel()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.conn.Close()
	}
	return f.err
}
