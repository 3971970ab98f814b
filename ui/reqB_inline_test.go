package ui

import (
	"encoding/json"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// TestInlineRequestAnswersInView: a server request that lands in the
// panel of the running tool call at 1024×700 (and 1280×800) shows its
// answer buttons without a scroll (#12: the sampling card's Edit & Send
// and Reject lay below the fold of the tool's form, and the user did not
// see how to answer). The request's heading stays in view as well when
// both fit.
func TestInlineRequestAnswersInView(t *testing.T) {
	sampling := json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"Resource sampleLLM context: Tell me a short story about a lighthouse keeper."}}],"systemPrompt":"You are a helpful test server.","maxTokens":100,"temperature":0.7,"includeContext":"thisServer"}`)
	for _, tc := range []struct {
		name    string
		w, h    float32
		kind    string
		buttons []string
	}{
		{"sampling at 1024×700", 1024, 700, "sampling", []string{"Auto-respond", "Reject", "Edit & Send"}},
		{"sampling at 1280×800", 1280, 800, "sampling", []string{"Auto-respond", "Reject", "Edit & Send"}},
		{"form at 1024×700", 1024, 700, "form", []string{"Cancel", "Decline", "Submit"}},
		{"URL at 1024×700", 1024, 700, "url", []string{"Cancel", "Decline", "Open in Browser"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &gateBackend{fakeBackend: newFakeBackend("fake"), gated: "echo", gate: make(chan struct{})}
			defer close(b.gate)
			w := newTestWindowBackend(t, b)
			Sync(func() { w.server("fake").onConnect() })
			var ss *serverScreens
			waitFor(t, "connected", func() bool {
				ss = w.server("fake").screens
				return ss != nil && len(ss.tools.all) > 0
			})
			q := inlineQueue(w, tc.w, tc.h)
			selectShown(t, ss, "echo")
			Sync(func() { ss.tools.onRun() })
			waitFor(t, "echo running", func() bool { return ss.tools.cancel.Visible() })
			Sync(func() {
				switch tc.kind {
				case "sampling":
					q.AddSampling(requests.SamplingRequest{Server: "fake", ID: "7", Run: "fake#1", Params: sampling}, func(requests.SamplingAnswer) {})
				case "form":
					q.AddElicitation(requests.ElicitationRequest{Server: "fake", ID: "7", Run: "fake#1", Mode: "form", Message: "Tell us about yourself.",
						Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"}}}`)},
						func(requests.ElicitationAnswer) {})
				case "url":
					q.AddElicitation(requests.ElicitationRequest{Server: "fake", ID: "7", Run: "fake#1", Mode: "url", Message: "Please complete the authorization.",
						URL: "https://auth.example.com/oauth/authorize?client_id=abc&state=xyz", ElicitationID: "abc123"},
						func(requests.ElicitationAnswer) {})
				}
			})
			waitFor(t, "the request in echo's panel", func() bool { return w.InlineRequests("fake") == 1 })
			inView := func(when string) {
				t.Helper()
				Sync(func() {
					s := ss.tools.formObj.(*container.Scroll)
					place := ss.tools.shownCall().requests.Objects[0]
					from, to := s.Offset.Y, s.Offset.Y+s.Size().Height
					for _, name := range tc.buttons {
						bt := anyButton(place, name)
						if bt == nil {
							t.Fatalf("no %s in the request's panel: %s", name, texts(place))
						}
						if top, bottom := spanIn(s, bt); top < from || bottom > to {
							t.Errorf("%s: %s lies at %v–%v of the form, its view shows %v–%v (the form is %v high)",
								when, name, top, bottom, from, to, s.Content.Size().Height)
						}
					}
					if top, bottom := spanIn(s, place); bottom-top <= to-from && (top < from || bottom > to) {
						t.Errorf("%s: the request (%v–%v) fits the view (%v–%v) but is not all in it", when, top, bottom, from, to)
					}
				})
			}
			inView("when the request landed")
			selectShown(t, ss, "boom")
			selectShown(t, ss, "echo")
			inView("back at echo from another tool")
		})
	}
}

// spanIn is where o lies in s's content: its top and bottom, in px.
func spanIn(s *container.Scroll, o fyne.CanvasObject) (top, bottom float32) {
	d := fyne.CurrentApp().Driver()
	top = d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
	return top, top + o.Size().Height
}

// anyButton is the visible button under o labelled text, enabled or not.
func anyButton(o fyne.CanvasObject, text string) fyne.CanvasObject {
	var hit fyne.CanvasObject
	walkVisible(o, func(o fyne.CanvasObject) {
		if b, ok := esc.AsButton(o); ok && hit == nil && b.Text == text {
			hit = o
		}
	})
	return hit
}
