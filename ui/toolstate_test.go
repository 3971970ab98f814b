package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// gateBackend is a fakeBackend whose calls of the tool gated wait until
// the test opens the gate, after a first progress notification.
type gateBackend struct {
	*fakeBackend
	gated string
	gate  chan struct{}
}

func (b *gateBackend) Open(name string, onState func(StateView)) (Conn, error) {
	c, err := b.fakeBackend.Open(name, onState)
	return &gateConn{fakeConn: c.(*fakeConn), b: b}, err
}

type gateConn struct {
	*fakeConn
	b *gateBackend
}

func (c *gateConn) CallTool(ctx context.Context, req ToolCall, progress func(Progress)) (ToolResult, error) {
	if req.Name == c.b.gated {
		progress(Progress{Progress: 1, Total: 4, Message: "step 1 of 4"})
		select {
		case <-c.b.gate:
		case <-ctx.Done():
			return ToolResult{}, ctx.Err()
		}
	}
	return c.fakeConn.CallTool(ctx, req, nil)
}

// selectShown selects the tool named name in the list, as a click does.
func selectShown(t *testing.T, ss *serverScreens, name string) {
	t.Helper()
	Sync(func() {
		if !ss.tools.selectTool(name) {
			t.Fatalf("no %s in the tools list", name)
		}
	})
}

// callPanel is what the Tools screen's form shows of the selected tool's
// call: whether Cancel shows, the progress line, the result card.
func callPanel(ss *serverScreens) (cancel bool, progress, result string) {
	tl := ss.tools
	progress = ""
	if tl.progMsg.Visible() {
		progress = tl.progMsg.Text
	}
	return tl.cancel.Visible(), progress, texts(tl.result)
}

// TestToolCallBelongsToItsTool: a running call is shown under its own
// tool only (#12). Another tool selected shows its own form and result,
// not the first one's running panel; selecting the first again shows its
// call still running (Cancel, its progress); when it ends while another
// tool is shown, what is shown stays and the first tool's row says it is
// done; selecting it shows its result.
func TestToolCallBelongsToItsTool(t *testing.T) {
	b := &gateBackend{fakeBackend: newFakeBackend("fake"), gated: "echo", gate: make(chan struct{})}
	w := newTestWindowBackend(t, b)
	Sync(func() { w.server("fake").onConnect() })
	var ss *serverScreens
	waitFor(t, "connected", func() bool {
		ss = w.server("fake").screens
		return ss != nil && len(ss.tools.all) > 0
	})

	selectShown(t, ss, "echo")
	Sync(func() {
		if err := ss.tools.args.(*formArgs).Set(json.RawMessage(`{"message":"slow"}`)); err != nil {
			t.Fatal(err)
		}
		ss.tools.onRun()
	})
	waitFor(t, "echo running with its progress", func() bool {
		cancel, prog, _ := callPanel(ss)
		return cancel && prog == "step 1 of 4" && strings.Contains(texts(ss.tools.list), "<running>")
	})

	// another tool: its own form, no running call of echo's
	selectShown(t, ss, "nothing")
	Sync(func() {
		cancel, prog, result := callPanel(ss)
		if cancel || prog != "" || result != "" || ss.tools.prog.Visible() || ss.tools.progInf.Visible() {
			t.Errorf("nothing shows echo's call: cancel %v, progress %q, result %q", cancel, prog, result)
		}
		if ss.tools.runBtn.Disabled() {
			t.Error("Run is off for a tool that is not running")
		}
	})
	// it runs on its own while echo's call waits
	Sync(func() { ss.tools.onRun() })
	waitFor(t, "nothing's result", func() bool {
		_, _, result := callPanel(ss)
		return strings.Contains(result, "empty result")
	})

	// echo again: its call, still running
	selectShown(t, ss, "echo")
	Sync(func() {
		cancel, prog, result := callPanel(ss)
		if !cancel || prog != "step 1 of 4" || result != "" || !ss.tools.runBtn.Disabled() {
			t.Errorf("echo's running call is gone: cancel %v, progress %q, result %q", cancel, prog, result)
		}
	})

	// it ends while nothing is shown: nothing's result stays, echo's row
	// says it is done
	selectShown(t, ss, "nothing")
	close(b.gate)
	waitFor(t, "echo's row marked done", func() bool { return strings.Contains(texts(ss.tools.list), "<done>") })
	Sync(func() {
		cancel, _, result := callPanel(ss)
		if cancel || !strings.Contains(result, "empty result") || strings.Contains(result, "slow") {
			t.Errorf("echo's result landed under nothing: cancel %v, result %q", cancel, result)
		}
	})
	selectShown(t, ss, "echo")
	Sync(func() {
		cancel, prog, result := callPanel(ss)
		if cancel || prog != "" || !strings.Contains(result, `got {"message":"slow"}`) || ss.tools.runBtn.Disabled() {
			t.Errorf("echo does not show its result: cancel %v, progress %q, result %q", cancel, prog, result)
		}
		if strings.Contains(texts(ss.tools.list), "<done>") {
			t.Error("echo's row is still marked done once its result is shown")
		}
	})
}

// TestInlineRequestInViewAfterModal: a server request the running call
// sent is answered in the call's panel; View Details moves it into a
// modal, and once the modal closes (Esc) the panel is in view again where
// the user left it (#12: the form had shrunk under the modal, its scroll
// followed, and the panel came back below the fold). Answered, the call's
// result is in view.
func TestInlineRequestInViewAfterModal(t *testing.T) {
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
			Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"}}}`)},
			func(a requests.ElicitationAnswer) { answered <- a })
	})
	waitFor(t, "the request in echo's panel", func() bool { return w.InlineRequests("fake") == 1 })

	form := func() *container.Scroll { return ss.tools.formObj.(*container.Scroll) }
	// inView: the part of o on screen in the form's view, in px
	inView := func(o fyne.CanvasObject) float32 {
		s := form()
		d := fyne.CurrentApp().Driver()
		top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
		return min(top+o.Size().Height, s.Offset.Y+s.Size().Height) - max(top, s.Offset.Y)
	}
	var place fyne.CanvasObject
	var before float32
	Sync(func() {
		place = ss.tools.shownCall().requests.Objects[0]
		// the user scrolls to the request's head, View Details at the top
		d := fyne.CurrentApp().Driver()
		top := d.AbsolutePositionForObject(place).Y - d.AbsolutePositionForObject(form().Content).Y
		form().ScrollToOffset(fyne.NewPos(0, top))
		before = inView(place)
		if before < 100 {
			t.Fatalf("the request shows %v px before View Details", before)
		}
		tapButton(t, ss.tools.formObj, "View Details")
	})
	waitFor(t, "the modal", func() bool { return w.win.Canvas().Overlays().Top() != nil })
	Sync(func() {
		form().Refresh() // the window lays the form out again under the modal
		pressEsc(w.win.Canvas())
	})
	waitFor(t, "the modal closed", func() bool { return w.win.Canvas().Overlays().Top() == nil })
	Sync(func() {
		form().Refresh()
		if v := inView(place); v < before-1 {
			t.Errorf("after Esc the request shows %v px of the form's view, %v before View Details (offset %v of %v)", v, before, form().Offset.Y, form().Content.Size().Height)
		}
		if !strings.Contains(texts(place), "Tell us about yourself.") {
			t.Errorf("the request's panel is not back in echo's panel: %q", texts(place))
		}
		tapButton(t, place, "Decline")
	})
	waitFor(t, "Decline answered the server", func() bool { return len(answered) == 1 })
	close(b.gate)
	waitFor(t, "echo's result", func() bool { return strings.Contains(texts(ss.tools.result), "got {") })
	Sync(func() {
		if v := inView(ss.tools.result); v <= 0 {
			t.Errorf("the result is out of view once the request was answered (offset %v)", form().Offset.Y)
		}
	})
}
