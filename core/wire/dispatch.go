package wire

import (
	"sync"
)

// dispatcher hands incoming messages from any number of streams to
// OnMessage one at a time, in arrival order, on its own goroutine, so that
// a stream reader never blocks on the handler. After stop it delivers
// what is queued, then calls OnClose once.
type dispatcher struct {
	h Handler

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []item
	stopped bool
	aborted bool // stop without OnClose
	err     error
	done    chan struct{}
}

func newDispatcher(h Handler) *dispatcher {
	d := &dispatcher{h: h, done: make(chan struct{})}
	d.cond = sync.NewCond(&d.mu)
	go d.run()
	return d
}

// item is a message to deliver, or (msg nil) a request whose answer was
// lost.
type item struct {
	msg     []byte
	lostID  string
	lostErr error
}

// push queues one message; it never blocks.
func (d *dispatcher) push(msg []byte) { d.add(item{msg: msg}) }

// lost queues the news that the answer to request id will not come; it is
// told after the messages queued before it.
func (d *dispatcher) lost(id string, err error) { d.add(item{lostID: id, lostErr: err}) }

func (d *dispatcher) add(it item) {
	d.mu.Lock()
	if !d.stopped {
		d.queue = append(d.queue, it)
		d.cond.Signal()
	}
	d.mu.Unlock()
}

// stop ends delivery: queued messages still go out, then OnClose(err).
func (d *dispatcher) stop(err error) {
	d.mu.Lock()
	if !d.stopped {
		d.stopped = true
		d.err = err
		d.cond.Signal()
	}
	d.mu.Unlock()
}

// abort ends delivery at once, dropping what is queued, without OnClose
// (used when Start fails after the dispatcher was made).
func (d *dispatcher) abort() {
	d.mu.Lock()
	d.stopped, d.aborted = true, true
	d.queue = nil
	d.cond.Signal()
	d.mu.Unlock()
}

func (d *dispatcher) run() {
	defer close(d.done)
	for {
		d.mu.Lock()
		for len(d.queue) == 0 && !d.stopped {
			d.cond.Wait()
		}
		if len(d.queue) == 0 && d.stopped {
			err, aborted := d.err, d.aborted
			d.mu.Unlock()
			if d.h.OnClose != nil && !aborted {
				d.h.OnClose(err)
			}
			return
		}
		batch := d.queue
		d.queue = nil
		d.mu.Unlock()
		for i, it := range batch {
			switch {
			case it.msg != nil:
				if d.h.OnMessage != nil {
					d.h.OnMessage(it.msg)
				}
			case d.h.OnLost != nil:
				d.h.OnLost(it.lostID, it.lostErr)
			}
			batch[i] = item{}
		}
	}
}
