package events

import (
	"encoding/json"
	"time"
)

// The modern protocol (2026-07-28) carries notifications outside requests
// on a subscriptions/listen request that stays open. ListenLane reads the
// life of each such stream back from the messages already in the log, so
// the inspector can draw them as one lane: opened, acknowledged (with what
// the server took), refused, closed by the server, closed by the client,
// lost with the connection, and reopened.

// MethodListen and MethodListenAcknowledged are the modern protocol's
// stream request and the notification that opens every stream.
const (
	MethodListen             = "subscriptions/listen"
	MethodListenAcknowledged = "notifications/subscriptions/acknowledged"
)

// ListenState is where one subscriptions/listen stream is.
type ListenState string

// The states of a listen stream.
const (
	ListenOpen         ListenState = "open"         // sent, not yet acknowledged
	ListenAcknowledged ListenState = "acknowledged" // the server said what it took; notifications flow
	ListenRefused      ListenState = "refused"      // answered with an error before any acknowledgement
	ListenServerClosed ListenState = "closed by the server"
	ListenClientClosed ListenState = "closed by the client" // cancelled (replaced or unsubscribed)
	ListenLost         ListenState = "connection closed"
)

// ListenStream is one subscriptions/listen request and what became of it.
type ListenStream struct {
	// Conn and ID are the connection and the request's JSON-RPC id (as
	// JSON text).
	Conn, ID string
	// Seq is the request's event; AckSeq the acknowledgement's, EndSeq
	// the event that ended the stream (0 when none).
	Seq, AckSeq, EndSeq uint64
	// Opened, Acknowledged and Ended are when those happened (zero when
	// they did not).
	Opened, Acknowledged, Ended time.Time
	State                       ListenState
	// Asked is params.notifications of the request, Took that of the
	// acknowledgement, as sent.
	Asked, Took json.RawMessage
	// Left are the resource subscriptions asked for that the
	// acknowledgement left out.
	Left []string
	// Notifications counts the notifications the stream carried after
	// its acknowledgement.
	Notifications int
	// Reopened is true when the stream follows one the server closed or
	// the connection lost.
	Reopened bool
	// Error is the error response's message when the server refused or
	// ended the stream with an error.
	Error string
}

// ListenLane returns every subscriptions/listen stream of conn ("" for
// every connection) in events, in the order they were opened. It works on
// any slice of events, such as one loaded with ReadTrace.
func ListenLane(events []Event, conn string) []ListenStream {
	var out []ListenStream
	byID := map[string]int{}     // conn+id → index, streams not yet ended
	lastOpen := map[string]int{} // conn → the latest stream (acks without a subscriptionId)
	ended := map[string]ListenState{}
	for _, e := range events {
		if conn != "" && e.Conn != conn {
			continue
		}
		switch {
		case e.Kind == KindMessage && e.Dir == DirOut && e.Type == MsgRequest && e.Method == MethodListen:
			var p struct {
				Notifications json.RawMessage `json:"notifications"`
			}
			_ = json.Unmarshal(paramsOf(e.Raw), &p)
			st := ended[e.Conn]
			out = append(out, ListenStream{Conn: e.Conn, ID: e.ID, Seq: e.Seq, Opened: e.Time, State: ListenOpen, Asked: p.Notifications,
				Reopened: st == ListenServerClosed || st == ListenLost})
			byID[e.Conn+"\x00"+e.ID] = len(out) - 1
			lastOpen[e.Conn] = len(out) - 1
		case e.Kind == KindMessage && e.Dir == DirIn && e.Type == MsgNotification:
			i, ok := streamOf(e, byID, lastOpen, out)
			if !ok {
				continue
			}
			s := &out[i]
			if e.Method == MethodListenAcknowledged && s.AckSeq == 0 {
				var p struct {
					Notifications json.RawMessage `json:"notifications"`
				}
				_ = json.Unmarshal(paramsOf(e.Raw), &p)
				s.AckSeq, s.Acknowledged, s.State, s.Took = e.Seq, e.Time, ListenAcknowledged, p.Notifications
				s.Left = leftOut(s.Asked, s.Took)
			} else if s.AckSeq != 0 && s.EndSeq == 0 {
				s.Notifications++
			}
		case e.Kind == KindMessage && e.Dir == DirOut && e.Type == MsgNotification && e.Method == "notifications/cancelled":
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			_ = json.Unmarshal(paramsOf(e.Raw), &p)
			if i, ok := byID[e.Conn+"\x00"+string(p.RequestID)]; ok {
				end(&out[i], e, ListenClientClosed)
				delete(byID, e.Conn+"\x00"+string(p.RequestID))
				ended[e.Conn] = ListenClientClosed
			}
		case e.Kind == KindMessage && e.Dir == DirIn && (e.Type == MsgResult || e.Type == MsgError):
			k := e.Conn + "\x00" + e.ID
			i, ok := byID[k]
			if !ok {
				continue
			}
			s := &out[i]
			state := ListenServerClosed
			if e.Type == MsgError {
				var r struct {
					Error struct {
						Message string `json:"message"`
					} `json:"error"`
				}
				_ = json.Unmarshal(e.Raw, &r)
				s.Error = r.Error.Message
				if s.AckSeq == 0 {
					state = ListenRefused
				}
			}
			end(s, e, state)
			delete(byID, k)
			ended[e.Conn] = state
		case e.Kind == KindState && (e.Text == "disconnected" || e.Text == "failed"):
			lost := false
			for k, i := range byID {
				if out[i].Conn == e.Conn {
					end(&out[i], e, ListenLost)
					delete(byID, k)
					lost = true
				}
			}
			if lost {
				ended[e.Conn] = ListenLost
			}
		}
	}
	return out
}

func end(s *ListenStream, e Event, st ListenState) {
	s.EndSeq, s.Ended, s.State = e.Seq, e.Time, st
}

// streamOf finds the open stream a notification belongs to: by its
// _meta subscriptionId, else the connection's latest stream still open.
func streamOf(e Event, byID, lastOpen map[string]int, out []ListenStream) (int, bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(paramsOf(e.Raw), &p)
	if id, ok := p.Meta["io.modelcontextprotocol/subscriptionId"]; ok {
		i, ok := byID[e.Conn+"\x00"+string(id)]
		return i, ok
	}
	i, ok := lastOpen[e.Conn]
	if !ok || out[i].EndSeq != 0 {
		return 0, false
	}
	switch e.Method {
	case MethodListenAcknowledged:
		return i, true
	case "notifications/tools/list_changed", "notifications/prompts/list_changed",
		"notifications/resources/list_changed", "notifications/resources/updated":
		return i, out[i].AckSeq != 0
	}
	return 0, false // a notification of some request (progress, logs)
}

// paramsOf returns a message's params.
func paramsOf(raw json.RawMessage) json.RawMessage {
	var m struct {
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(raw, &m)
	return m.Params
}

// leftOut lists the resource subscriptions asked for and not taken.
func leftOut(asked, took json.RawMessage) []string {
	var a, t struct {
		Resources []string `json:"resourceSubscriptions"`
	}
	_ = json.Unmarshal(asked, &a)
	_ = json.Unmarshal(took, &t)
	var left []string
	for _, u := range a.Resources {
		found := false
		for _, v := range t.Resources {
			found = found || u == v
		}
		if !found {
			left = append(left, u)
		}
	}
	return left
}
