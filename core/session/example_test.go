package session_test

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// Connect to a stdio server, call a tool with progress, and read what was
// recorded.
func Example() {
	log := events.New(nil)
	cfg := wire.StdioConfig{Conn: "everything", Command: "node", Args: []string{"server-everything/dist/index.js"}}
	s := session.New(func(context.Context) (wire.Conn, error) { return wire.NewStdio(cfg, log), nil }, log, &session.Options{
		Conn:           "everything",
		RequestTimeout: 30 * time.Second,
		Roots:          []mcp.Root{{URI: "file:///tmp", Name: "tmp"}},
	})
	defer s.Close()
	ctx := context.Background()

	res, err := s.CallTool(ctx, session.ToolCall{Name: "get-sum", Arguments: map[string]int{"a": 1, "b": 2}},
		&session.CallOptions{Progress: func(p session.Progress) { fmt.Println("progress", p.Progress, "of", p.Total) }})
	if err != nil {
		fmt.Println("failed:", err)
		return
	}
	fmt.Println(string(res.Raw)) // the result exactly as the server sent it
	for _, step := range log.Run(res.Run) {
		fmt.Println(step.Offset, step.Event.Title())
	}
}
