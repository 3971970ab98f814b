package demo

import (
	"context"
	"sync"
)

// taskTracker lets a tool running as a task outlive the tools/call that
// created it. mcp-go v1.2.1 derives a task's context from the creating
// request's, which ends as soon as the CreateTaskResult is sent; so a task
// handler waits on a detached context and on its own cancel channel, which
// tasks/cancel closes. The handler learns its task id by claiming the
// oldest unclaimed task created for its session and tool.
type taskTracker struct {
	mu      sync.Mutex
	pending map[string][]string      // session+tool → created, unclaimed task ids
	cancels map[string]chan struct{} // task id → closed by tasks/cancel
}

func taskKey(session, tool string) string { return session + "\x00" + tool }

func (t *taskTracker) created(session, tool, id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending == nil {
		t.pending = map[string][]string{}
		t.cancels = map[string]chan struct{}{}
	}
	k := taskKey(session, tool)
	t.pending[k] = append(t.pending[k], id)
	t.cancels[id] = make(chan struct{})
}

// claim returns a context for the task the calling handler runs: detached
// from ctx's cancellation, cancelled by tasks/cancel. done forgets the task.
func (t *taskTracker) claim(ctx context.Context, tool string) (tctx context.Context, done func()) {
	tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	t.mu.Lock()
	k := taskKey(sessionID(ctx), tool)
	var ch chan struct{}
	var id string
	if ids := t.pending[k]; len(ids) > 0 {
		id, t.pending[k] = ids[0], ids[1:]
		ch = t.cancels[id]
	}
	t.mu.Unlock()
	stop := make(chan struct{})
	if ch != nil {
		go func() {
			select {
			case <-ch:
				cancel()
			case <-stop:
			}
		}()
	}
	return tctx, func() {
		close(stop)
		cancel()
		t.mu.Lock()
		delete(t.cancels, id)
		t.mu.Unlock()
	}
}

// cancel stops the task id, whether its handler has claimed it yet or not
// (a task cancelled before its handler starts is stopped when it claims).
func (t *taskTracker) cancel(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ch, ok := t.cancels[id]; ok {
		select {
		case <-ch: // already cancelled
		default:
			close(ch)
		}
	}
}
