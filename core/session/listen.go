package session

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
)

// Listen sends subscriptions/listen, the modern protocol's (2026-07-28)
// way to receive notifications outside any request: it replaces the GET
// stream and resources/subscribe. The server sends only the kinds filter
// opts in to; they arrive through OnNotification (the first is
// notifications/subscriptions/acknowledged). Listen has no timeout and
// returns when the server ends the stream, or with nil once ctx is
// cancelled (notifications/cancelled is sent).
func (s *Session) Listen(ctx context.Context, filter mcp.SubscriptionFilter, opts *CallOptions) (*Reply, error) {
	params, err := json.Marshal(struct {
		Notifications mcp.SubscriptionFilter `json:"notifications"`
	}{filter})
	if err != nil {
		return nil, err
	}
	var o CallOptions
	if opts != nil {
		o = *opts
	}
	o.Timeout = -1
	rep, err := s.request(ctx, string(mcp.MethodSubscriptionsListen), params, &o)
	if err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return rep, nil
	}
	return rep, err
}
