package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// TestRequestOutlivesItsCall: a server request answered in the panel of
// the tool call that sent it stays answerable when that call ends first
// (#12): the queue below the screens shows it in full, saying its call
// ended (it pointed to the call's panel, which was gone), and an answer
// there reaches the server. A request the server then cancels
// (notifications/cancelled) leaves the queue, noted as cancelled.
func TestRequestOutlivesItsCall(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(ss *serverScreens, b *gateBackend) // ends echo's call
		then string                                  // "answer" or "server cancels"
	}{
		{"cancelled, then answered", func(ss *serverScreens, _ *gateBackend) { Sync(ss.tools.onCancel) }, "answer"},
		{"ended, then cancelled by the server", func(_ *serverScreens, b *gateBackend) { close(b.gate) }, "server cancels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &gateBackend{fakeBackend: newFakeBackend("fake"), gated: "echo", gate: make(chan struct{})}
			w := newTestWindowBackend(t, b)
			Sync(func() { w.server("fake").onConnect() })
			var ss *serverScreens
			waitFor(t, "connected", func() bool {
				ss = w.server("fake").screens
				return ss != nil && len(ss.tools.all) > 0
			})
			answered := make(chan requests.ElicitationAnswer, 1)
			q := inlineQueue(w, 1024, 700)
			selectShown(t, ss, "echo")
			Sync(func() { ss.tools.onRun() })
			waitFor(t, "echo running", func() bool { return ss.tools.cancel.Visible() })
			Sync(func() {
				q.AddElicitation(requests.ElicitationRequest{Server: "fake", ID: "7", Run: "fake#1", Mode: "form", Message: "Tell us about yourself.",
					Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
					func(a requests.ElicitationAnswer) { answered <- a })
			})
			waitFor(t, "the request in echo's panel", func() bool { return w.InlineRequests("fake") == 1 })
			queueShown := func() bool {
				return w.reqSplit != nil && len(w.center.Objects) == 1 && w.center.Objects[0] == w.reqSplit
			}
			Sync(func() {
				if queueShown() {
					t.Error("the queue takes room below the screens for a request answered in echo's panel")
				}
			})

			tc.end(ss, b)
			waitFor(t, "echo's call ended", func() bool { return !ss.tools.cancel.Visible() && len(ss.tools.result.Objects) > 0 })
			Sync(func() {
				pane := texts(q.Object())
				if q.Len() != 1 || w.InlineRequests("fake") != 0 {
					t.Errorf("%d requests wait, %d in echo's panel; want 1 in the queue", q.Len(), w.InlineRequests("fake"))
				}
				if strings.Contains(pane, "answered in the panel of the tool call") || !strings.Contains(pane, "Tell us about yourself.") ||
					!strings.Contains(pane, "The tool call that sent this request has ended") {
					t.Errorf("the queue's pane once the call ended: %q", pane)
				}
				if !queueShown() {
					t.Error("the queue is not shown below the screens though its request waits only there")
				}
				if strings.Contains(texts(ss.tools.formObj), "Tell us about yourself.") {
					t.Error("echo's panel still shows the request")
				}
			})
			switch tc.then {
			case "answer":
				Sync(func() { tapButton(t, q.Object(), "Decline") })
				waitFor(t, "Decline answered the server", func() bool { return len(answered) == 1 })
				if a := <-answered; a.Action != requests.ActionDecline {
					t.Errorf("answer %+v, want decline", a)
				}
			case "server cancels":
				Sync(func() {
					if !q.Cancel("fake", "7", "") {
						t.Error("the request was not pending")
					}
				})
			}
			Sync(func() {
				if q.Len() != 0 || queueShown() {
					t.Errorf("%d requests still wait (queue shown %v)", q.Len(), queueShown())
				}
				want := "decline"
				if tc.then == "server cancels" {
					want = "cancelled by the server"
				}
				if n := q.Notes(); len(n) == 0 || !strings.Contains(n[0], want) {
					t.Errorf("the queue's note %q, want %q", n, want)
				}
			})
		})
	}
}

// TestRowMarkFollowsTheAnswer: a tool whose running call waits for a
// server request says "waiting for you" on its row, and says "running"
// again once the request is answered in the call's panel or cancelled by
// the server while another tool is shown (#12: the row kept "waiting for
// you" until something else redrew the list).
func TestRowMarkFollowsTheAnswer(t *testing.T) {
	for _, where := range []string{"in the call's panel", "cancelled by the server, echo not shown"} {
		t.Run(where, func(t *testing.T) { rowMarkFollowsTheAnswer(t, where) })
	}
}

func rowMarkFollowsTheAnswer(t *testing.T, where string) {
	b := &gateBackend{fakeBackend: newFakeBackend("fake"), gated: "echo", gate: make(chan struct{})}
	defer close(b.gate)
	w := newTestWindowBackend(t, b)
	Sync(func() { w.server("fake").onConnect() })
	var ss *serverScreens
	waitFor(t, "connected", func() bool {
		ss = w.server("fake").screens
		return ss != nil && len(ss.tools.all) > 0
	})
	q := inlineQueue(w, 1280, 800)
	selectShown(t, ss, "echo")
	Sync(func() { ss.tools.onRun() })
	waitFor(t, "echo running", func() bool { return ss.tools.cancel.Visible() })
	row := func() string { return texts(ss.tools.list) }
	if where != "in the call's panel" {
		selectShown(t, ss, "boom") // echo's call runs on, its tool not shown
	}
	Sync(func() {
		q.AddElicitation(requests.ElicitationRequest{Server: "fake", ID: "7", Run: "fake#1", Mode: "form", Message: "Tell us about yourself.",
			Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
			func(requests.ElicitationAnswer) {})
	})
	waitFor(t, "the request shown", func() bool { return q.Len() == 1 })
	Sync(func() {
		if !strings.Contains(row(), "<waiting for you>") {
			t.Errorf("echo's row while its request waits: %q", row())
		}
		if where == "in the call's panel" {
			tapButton(t, ss.tools.formObj, "Decline")
		} else if !q.Cancel("fake", "7", "") {
			t.Error("the request was not pending")
		}
	})
	waitFor(t, "the request answered", func() bool { return q.Len() == 0 })
	Sync(func() {
		if r := row(); strings.Contains(r, "waiting for you") || !strings.Contains(r, "<running>") {
			t.Errorf("echo's row once the request was answered: %q, want <running>", r)
		}
	})
}

// inlineQueue puts a request queue in w, as the app does, that lends a
// request of a running tool call to the call's panel, and sizes the window.
func inlineQueue(w *Window, width, height float32) *requests.Queue {
	var q *requests.Queue
	Sync(func() {
		w.win.Resize(fyne.NewSize(width, height))
		q = requests.NewQueue(&requests.QueueOptions{Window: w.win,
			OnCountChanged: func(n int) { w.SetRequestCount(n) },
			OnAdded:        func(_, server, id, run string) { w.ShowRequestInline(server, id, run) }})
		w.SetRequestInliner(q)
		w.SetRequests(q.Object())
		w.SetRequestQueue(q)
	})
	return q
}
