package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v5"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// In the modern era (2026-07-28) there is no resources/subscribe and no GET
// stream: notifications outside a request travel on a subscriptions/listen
// request whose filter names what the client wants. The session keeps one
// such request open for what its callers asked for — the resources
// subscribed to with SubscribeResource, and the list_changed kinds the
// server offers when Options.ListChanged is set — and replaces it whenever
// that set changes or the connection is made again. Notifications arrive
// through OnNotification exactly as in the legacy era.

// MethodSubscriptionsAcknowledged is the notification that opens every
// subscriptions/listen stream, saying what the server took.
const MethodSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged"

// ErrNotSubscribed is returned by SubscribeResource in the modern era when
// the server's acknowledgement leaves the resource out.
var ErrNotSubscribed = errors.New("session: the server did not take the subscription")

// listenAckTimeout bounds the wait for the acknowledgement of a new
// subscriptions/listen.
const listenAckTimeout = 10 * time.Second

// listener is the session's modern-era subscriptions/listen request.
type listener struct {
	run sync.Mutex // held by relisten: one replacement at a time

	mu      sync.Mutex
	uris    []string                    // resources subscribed to, in order
	cancel  context.CancelFunc          // ends the open listen, nil when none
	stopped chan struct{}               // closed when the open listen has ended
	filter  mcp.SubscriptionFilter      // what the open listen asked for
	ack     json.RawMessage             // the open listen's acknowledgement
	drops   int                         // acknowledged listens the server ended, in a row
	pause   *backoff.ExponentialBackOff // the pause before reopening, growing with drops
}

// maxListenDrops bounds how often in a row a listen that the server
// ended (the connection living on) is reopened.
const maxListenDrops = 5

// listChangedFilter is what the server offers of list_changed, from its
// capabilities.
func listChangedFilter(caps json.RawMessage) mcp.SubscriptionFilter {
	var c struct {
		Tools, Prompts, Resources *struct {
			ListChanged bool `json:"listChanged"`
		}
	}
	_ = json.Unmarshal(caps, &c)
	return mcp.SubscriptionFilter{
		ToolsListChanged:     c.Tools != nil && c.Tools.ListChanged,
		PromptsListChanged:   c.Prompts != nil && c.Prompts.ListChanged,
		ResourcesListChanged: c.Resources != nil && c.Resources.ListChanged,
	}
}

// filter is what the open listen should ask for.
func (s *Session) listenFilter() mcp.SubscriptionFilter {
	var f mcp.SubscriptionFilter
	if s.opts.ListChanged {
		if info := s.Info(); info != nil {
			f = listChangedFilter(info.Capabilities)
		}
	}
	s.lis.mu.Lock()
	f.ResourceSubscriptions = slices.Clone(s.lis.uris)
	s.lis.mu.Unlock()
	return f
}

// relisten replaces the open subscriptions/listen with one for the
// current filter (or just ends it when the filter is empty) and waits
// for the server's acknowledgement, which it returns.
func (s *Session) relisten(ctx context.Context) (json.RawMessage, error) {
	s.lis.run.Lock()
	defer s.lis.run.Unlock()
	f := s.listenFilter()
	s.lis.mu.Lock()
	if s.lis.cancel != nil && s.lis.ack != nil && !isClosed(s.lis.stopped) && sameFilter(s.lis.filter, f) {
		ack := s.lis.ack // the open listen asks for exactly this already
		s.lis.mu.Unlock()
		return ack, nil
	}
	cancel, stopped := s.lis.cancel, s.lis.stopped
	s.lis.cancel, s.lis.stopped, s.lis.ack = nil, nil, nil
	s.lis.mu.Unlock()
	if cancel != nil {
		cancel()
		select { // the old stream is gone before the new one opens
		case <-stopped:
		case <-time.After(listenAckTimeout):
		}
	}
	if f.IsEmpty() {
		return nil, nil
	}
	acks := make(chan json.RawMessage, 1)
	stopAcks := s.OnNotification(func(n Notification) {
		if n.Method == MethodSubscriptionsAcknowledged {
			select {
			case acks <- n.Params:
			default:
			}
		}
	})
	defer stopAcks()

	lctx, lcancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	ended := make(chan error, 1)
	s.lis.mu.Lock()
	s.lis.cancel, s.lis.stopped, s.lis.filter = lcancel, done, f
	s.lis.mu.Unlock()
	go func() {
		defer close(done)
		_, err := s.Listen(lctx, f, nil)
		ended <- err
		if lctx.Err() == nil {
			s.listenDropped(done, err)
		}
	}()
	t := time.NewTimer(listenAckTimeout)
	defer t.Stop()
	var err error
	select {
	case ack := <-acks:
		s.lis.mu.Lock()
		if s.lis.stopped == done {
			s.lis.ack = ack
		}
		s.lis.mu.Unlock()
		return ack, nil
	case err = <-ended:
		if err == nil {
			err = ErrConnectionClosed
		}
		err = fmt.Errorf("session: subscriptions/listen: %w", err)
	case <-t.C:
		err = fmt.Errorf("session: subscriptions/listen: no acknowledgement: %w", ErrTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	// Not acknowledged: the listen is not left open half-way.
	s.lis.mu.Lock()
	if s.lis.stopped == done {
		s.lis.cancel, s.lis.stopped, s.lis.ack = nil, nil, nil
	}
	s.lis.mu.Unlock()
	lcancel()
	return nil, err
}

// listenDropped reopens an acknowledged listen that the server ended
// while the connection lives on (a dropped HTTP stream, a restarted
// server behind a proxy), after a pause growing with every drop in a row
// (exponential from about 500 ms, cenkalti/backoff); after maxListenDrops
// it gives up and says so in the record. A closed connection is left to
// listenAfterConnect.
func (s *Session) listenDropped(done chan struct{}, cause error) {
	s.lis.mu.Lock()
	current := s.lis.stopped == done && s.lis.ack != nil
	var pause time.Duration
	if current {
		s.lis.cancel, s.lis.stopped, s.lis.ack = nil, nil, nil
		if s.lis.drops == 0 || s.lis.pause == nil {
			s.lis.pause = &backoff.ExponentialBackOff{InitialInterval: 500 * time.Millisecond, RandomizationFactor: 0.5, Multiplier: 1.5, MaxInterval: 5 * time.Second}
		}
		s.lis.drops++
		pause = s.lis.pause.NextBackOff()
	}
	drops := s.lis.drops
	s.lis.mu.Unlock()
	if !current {
		return
	}
	s.mu.Lock()
	l := s.link
	alive := !s.userClosed && l != nil && l.ready && !l.isClosed()
	s.mu.Unlock()
	if !alive {
		return
	}
	if drops > maxListenDrops {
		text := "subscriptions/listen ended by the server again; no longer reopened (notifications outside requests are not received)"
		if cause != nil {
			text += ": " + cause.Error()
		}
		s.log.Append(events.Event{Conn: s.conn, Kind: events.KindWarning, Text: text})
		return
	}
	go func() {
		time.Sleep(pause)
		ctx, cancel := context.WithTimeout(context.Background(), listenAckTimeout)
		defer cancel()
		if _, err := s.relisten(ctx); err == nil {
			s.lis.mu.Lock()
			s.lis.drops = 0
			s.lis.mu.Unlock()
		}
	}()
}

// isClosed reports whether ch is closed.
func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// sameFilter reports whether two filters ask for the same notifications.
func sameFilter(a, b mcp.SubscriptionFilter) bool {
	return a.ToolsListChanged == b.ToolsListChanged && a.PromptsListChanged == b.PromptsListChanged &&
		a.ResourcesListChanged == b.ResourcesListChanged && slices.Equal(a.ResourceSubscriptions, b.ResourceSubscriptions)
}

// listenAfterConnect opens the listen of a new modern connection when
// there is something to listen for (the previous one ended with the old
// connection).
func (s *Session) listenAfterConnect() {
	s.mu.Lock()
	modern := s.info != nil && s.info.Modern
	s.mu.Unlock()
	if !modern || s.listenFilter().IsEmpty() {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), listenAckTimeout)
		defer cancel()
		_, _ = s.relisten(ctx) // a failure is in the record; the next subscribe tries again
	}()
}

// stopListen ends the open listen (Close).
func (s *Session) stopListen() {
	s.lis.mu.Lock()
	cancel := s.lis.cancel
	s.lis.cancel, s.lis.stopped, s.lis.ack = nil, nil, nil
	s.lis.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// subscribeModern adds uri to the listen's resources and reopens it.
func (s *Session) subscribeModern(ctx context.Context, uri string) (*Reply, error) {
	s.lis.mu.Lock()
	if !slices.Contains(s.lis.uris, uri) {
		s.lis.uris = append(s.lis.uris, uri)
	}
	s.lis.mu.Unlock()
	ack, err := s.relisten(ctx)
	if err != nil {
		// Not subscribed: take it back, and reopen what was listened to
		// before (the list_changed kinds, other resources).
		s.lis.mu.Lock()
		s.lis.uris = slices.DeleteFunc(s.lis.uris, func(u string) bool { return u == uri })
		s.lis.mu.Unlock()
		go func() {
			rctx, cancel := context.WithTimeout(context.Background(), listenAckTimeout)
			defer cancel()
			_, _ = s.relisten(rctx)
		}()
		return nil, err
	}
	var p struct {
		Notifications mcp.SubscriptionFilter `json:"notifications"`
	}
	if json.Unmarshal(ack, &p) == nil && !slices.Contains(p.Notifications.ResourceSubscriptions, uri) {
		s.lis.mu.Lock()
		s.lis.uris = slices.DeleteFunc(s.lis.uris, func(u string) bool { return u == uri })
		s.lis.mu.Unlock()
		return nil, fmt.Errorf("session: subscribe %s: %w", uri, ErrNotSubscribed)
	}
	return &Reply{Method: string(mcp.MethodSubscriptionsListen), Raw: ack}, nil
}

// speaksModern connects when needed and reports whether the connection
// speaks the modern protocol.
func (s *Session) speaksModern(ctx context.Context) (bool, error) {
	if _, err := s.ensureLink(ctx, false); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info != nil && s.info.Modern, nil
}

// unsubscribeModern takes uri out of the listen's resources and reopens
// it (or ends it when nothing is left).
func (s *Session) unsubscribeModern(ctx context.Context, uri string) (*Reply, error) {
	s.lis.mu.Lock()
	s.lis.uris = slices.DeleteFunc(s.lis.uris, func(u string) bool { return u == uri })
	s.lis.mu.Unlock()
	ack, err := s.relisten(ctx)
	if err != nil {
		return nil, err
	}
	return &Reply{Method: string(mcp.MethodSubscriptionsListen), Raw: ack}, nil
}
