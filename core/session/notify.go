package session

import (
	"encoding/json"
	"sync"
	"time"
)

// Notification is one notification the server sent.
type Notification struct {
	Method string
	// Params is the notification's params exactly as sent.
	Params json.RawMessage
	// Raw is the whole message exactly as sent.
	Raw json.RawMessage
	// Run is the run the notification belongs to, "" if none.
	Run string
	// Seq is the event sequence number of the message.
	Seq  uint64
	Time time.Time
	// Dropped counts the notifications this listener lost just before
	// this one because it was too slow to take them.
	Dropped uint64
}

// Notification methods a server sends.
const (
	MethodProgress             = "notifications/progress"
	MethodMessage              = "notifications/message"
	MethodCancelled            = "notifications/cancelled"
	MethodToolsListChanged     = "notifications/tools/list_changed"
	MethodResourcesListChanged = "notifications/resources/list_changed"
	MethodPromptsListChanged   = "notifications/prompts/list_changed"
	MethodResourceUpdated      = "notifications/resources/updated"
	MethodTaskStatus           = "notifications/tasks/status"
	MethodElicitationComplete  = "notifications/elicitation/complete"
)

// maxQueued is how many notifications wait for a slow listener (besides
// the batch being delivered) before the oldest are dropped and counted.
const maxQueued = 4096

// OnNotification registers fn to get every notification the server
// sends, in order, on a goroutine of its own. A listener that falls more
// than a few thousand notifications behind loses the oldest waiting ones
// and is told how many in Notification.Dropped; it never slows the
// connection.
// Calling cancel stops it.
func (s *Session) OnNotification(fn func(Notification)) (cancel func()) {
	sub := &subscriber{fn: fn}
	remove := s.subs.add(sub)
	var once sync.Once
	return func() {
		once.Do(func() {
			remove()
			sub.mu.Lock()
			sub.stopped = true
			sub.q = nil
			sub.mu.Unlock()
		})
	}
}

// subscribers is the set of notification listeners.
type subscribers struct {
	mu   sync.Mutex
	next int
	subs map[int]*subscriber
	list []*subscriber // snapshot for the read loop
}

func (ss *subscribers) add(sub *subscriber) func() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.subs == nil {
		ss.subs = make(map[int]*subscriber)
	}
	ss.next++
	id := ss.next
	ss.subs[id] = sub
	ss.snapshot()
	return func() {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		delete(ss.subs, id)
		ss.snapshot()
	}
}

func (ss *subscribers) snapshot() {
	list := make([]*subscriber, 0, len(ss.subs))
	for _, sub := range ss.subs {
		list = append(list, sub)
	}
	ss.list = list
}

func (ss *subscribers) publish(n Notification) {
	ss.mu.Lock()
	list := ss.list
	ss.mu.Unlock()
	for _, sub := range list {
		sub.push(n)
	}
}

// subscriber is one listener with its queue. A goroutine drains the queue
// while it is not empty; none runs while the listener is idle.
type subscriber struct {
	fn func(Notification)

	mu       sync.Mutex
	q        []Notification
	draining bool
	stopped  bool
}

func (sub *subscriber) push(n Notification) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.stopped {
		return
	}
	if len(sub.q) >= maxQueued {
		// Lose the oldest waiting notification; the next one says so.
		lost := sub.q[0]
		sub.q = sub.q[1:]
		sub.q[0].Dropped += lost.Dropped + 1
	}
	sub.q = append(sub.q, n)
	if !sub.draining {
		sub.draining = true
		go sub.drain()
	}
}

func (sub *subscriber) drain() {
	for {
		sub.mu.Lock()
		if len(sub.q) == 0 || sub.stopped {
			sub.draining = false
			sub.mu.Unlock()
			return
		}
		q := sub.q
		sub.q = nil
		sub.mu.Unlock()
		for _, n := range q {
			sub.mu.Lock()
			stopped := sub.stopped
			sub.mu.Unlock()
			if stopped {
				return
			}
			sub.fn(n)
		}
	}
}

// onNotification handles what the session itself does with a
// notification, then hands it to the listeners.
func (s *Session) onNotification(l *link, method string, params, raw json.RawMessage, run string, seq uint64, rel related, now time.Time) {
	switch method {
	case MethodProgress:
		if rel.token != "" {
			var p struct {
				Progress float64 `json:"progress"`
				Total    float64 `json:"total"`
				Message  string  `json:"message"`
			}
			_ = json.Unmarshal(params, &p)
			s.mu.Lock()
			c := s.tokens[rel.token]
			if c != nil && c.state == callWaiting && c.timer != nil && c.holds == 0 {
				c.timer.Reset(c.timeout)
			}
			s.mu.Unlock()
			if c != nil {
				c.deliverProgress(Progress{Token: rel.token, Progress: p.Progress, Total: p.Total, Message: p.Message, Time: now})
			}
		}
	case MethodCancelled:
		if rel.requestID != "" {
			s.serverCancelled(l, rel.requestID)
		}
	}
	s.subs.publish(Notification{Method: method, Params: params, Raw: raw, Run: run, Seq: seq, Time: now})
}
