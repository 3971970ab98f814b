package session

import (
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// The task id → run table does not grow with every task-returning call
// for the life of the session; the newest tasks stay related.
func TestTaskTableBounded(t *testing.T) {
	fs := newFakeServer(t)
	n := 0
	fs.handle = func(c *fakeConn, m msg) bool {
		if m.Method != "tools/call" {
			return false
		}
		n++
		c.reply(m.ID, fmt.Sprintf(`{"task":{"taskId":"t%d","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`, n))
		return true
	}
	s, _ := newTestSession(t, fs, nil)
	ctx := testCtx(t)
	var last *ToolResult
	for i := 0; i < maxTasks+100; i++ {
		res, err := s.CallTool(ctx, ToolCall{Name: "slow", Task: &mcp.TaskParams{}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		last = res
	}
	s.mu.Lock()
	size := len(s.tasks)
	run := s.tasks[last.Result.TaskID]
	s.mu.Unlock()
	if size > maxTasks {
		t.Errorf("%d tasks remembered, want at most %d", size, maxTasks)
	}
	if run != last.Run {
		t.Errorf("the newest task relates to run %q, want %q", run, last.Run)
	}
}
