package session

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// laneStates returns the states of the connection's listen streams.
func laneStates(log *events.Log) []events.ListenState {
	var st []events.ListenState
	for _, l := range events.ListenLane(log.Events(), "") {
		st = append(st, l.State)
	}
	return st
}

// TestListenLaneTypeScriptSDK reads the lane of subscriptions/listen
// streams from the record of a modern session with a server on the
// official TypeScript SDK v2: the session's listen is acknowledged and
// carries a tools list_changed; subscribing to a resource replaces it
// (closed by the client) with one whose acknowledgement leaves the
// resource out; closing the session closes the last.
func TestListenLaneTypeScriptSDK(t *testing.T) {
	log := events.New(nil)
	s := New(stdioDial(log, tsSkillsServer(t, "catalog")), log, &Options{Era: EraModern, ListChanged: true})
	ctx := t.Context()
	changed, acked := make(chan struct{}, 1), make(chan struct{}, 1)
	s.OnNotification(func(n Notification) {
		ch := map[string]chan struct{}{MethodToolsListChanged: changed, MethodSubscriptionsAcknowledged: acked}[n.Method]
		if ch != nil {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	})
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	select { // the session opens its listen once connected
	case <-acked:
	case <-time.After(30 * time.Second):
		t.Fatal("the listen stream was not acknowledged")
	}
	if _, err := s.CallTool(ctx, ToolCall{Name: "add-tool"}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(30 * time.Second):
		t.Fatal("no tools list_changed on the listen stream")
	}
	lane := events.ListenLane(log.Events(), "")
	if len(lane) != 1 || lane[0].State != events.ListenAcknowledged || lane[0].Notifications != 1 || !strings.Contains(string(lane[0].Took), `"toolsListChanged":true`) {
		t.Fatalf("lane after the list change: %+v", lane)
	}
	if _, err := s.SubscribeResource(ctx, "test://note", nil); err == nil {
		t.Fatal("the SDK server took a subscription it does not offer")
	}
	lane = events.ListenLane(log.Events(), "")
	if len(lane) < 2 || lane[0].State != events.ListenClientClosed || !slices.Equal(lane[1].Left, []string{"test://note"}) || lane[1].Reopened {
		t.Fatalf("lane after the refused subscription: %+v", lane)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for i, l := range events.ListenLane(log.Events(), "") {
		if l.State == events.ListenOpen || l.State == events.ListenAcknowledged {
			t.Errorf("stream %d (%s) still %s after Close", i, l.ID, l.State)
		}
	}
}

// TestListenLaneServerClosedAndRefused: a stream the server ends is
// "closed by the server" and the one the session opens next is marked
// reopened; an error answer before any acknowledgement is "refused".
func TestListenLaneServerClosedAndRefused(t *testing.T) {
	fs := modernFake(t, func(c *fakeConn, m msg, n int) {
		switch {
		case strings.Contains(string(m.Params), "x://refused"):
			c.replyError(m.ID, -32602, "no such resource")
		case n == 1:
			c.emit(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["x://a"]}}}`)
			time.AfterFunc(50*time.Millisecond, func() { c.reply(m.ID, `{}`) })
		default:
			c.emit(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["x://a"]}}}`)
		}
	})
	s, log := newTestSession(t, fs, &Options{Era: EraModern})
	ctx := testCtx(t)
	if _, err := s.SubscribeResource(ctx, "x://a", nil); err != nil {
		t.Fatal(err)
	}
	eventually(func() bool {
		l := events.ListenLane(log.Events(), "")
		return len(l) >= 2 && l[1].State == events.ListenAcknowledged
	})
	lane := events.ListenLane(log.Events(), "")
	if len(lane) < 2 || lane[0].State != events.ListenServerClosed || !lane[1].Reopened || lane[1].State != events.ListenAcknowledged {
		t.Fatalf("lane after the server closed a stream: %v", laneStates(log))
	}
	if _, err := s.SubscribeResource(ctx, "x://refused", nil); err == nil {
		t.Fatal("a refused subscription succeeded")
	}
	lane = events.ListenLane(log.Events(), "")
	refused := slices.IndexFunc(lane, func(l events.ListenStream) bool { return l.State == events.ListenRefused })
	if refused < 0 || lane[refused].Error != "no such resource" {
		t.Fatalf("no refused stream: %v", laneStates(log))
	}
}
