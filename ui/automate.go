//go:build screenshots

package ui

import (
	"encoding/json"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
)

// The methods in this file exist only in a build with -tags screenshots:
// the screenshot script (.ci/screenshots.sh, through cmd) drives the window
// with them from any goroutine except the UI thread; each waits (up to
// timeout) for the window to reach the state it asks for.

// ConnectServer selects the named server and connects to it; it waits
// until the connection is up or has failed for good.
func (w *Window) ConnectServer(name string, timeout time.Duration) (ConnState, error) {
	var s *server
	Sync(func() {
		s = w.server(name)
		if s != nil {
			w.selectServer(s)
			s.onConnect()
		}
	})
	if s == nil {
		return "", fmt.Errorf("no server %q", name)
	}
	var st ConnState
	err := poll(timeout, name+" to connect", func() bool {
		st = s.state.State
		return (st == StateConnected && s.screens != nil && len(s.screens.tools.all) > 0) ||
			(st == StateFailed && !s.retrying) || st == StateDisconnected
	})
	return st, err
}

// RunTool selects a tool of the selected server, fills its arguments (a
// JSON object) and runs it; it waits for the result.
func (w *Window) RunTool(tool string, args json.RawMessage, timeout time.Duration) error {
	t, err := w.StartTool(tool, args)
	if err != nil {
		return err
	}
	return poll(timeout, tool+" to finish", func() bool { return t.running == nil && len(t.result.Objects) > 0 })
}

// WaitRequests waits until the requests panel shows (a server asked the
// user something).
func (w *Window) WaitRequests(timeout time.Duration) error {
	return poll(timeout, "a server request", func() bool {
		if w.inlineRequests() > 0 { // in the running tool call's panel
			return true
		}
		return w.reqSplit != nil && len(w.center.Objects) == 1 && w.center.Objects[0] == w.reqSplit
	})
}

// StartTool is RunTool without waiting for the result.
func (w *Window) StartTool(tool string, args json.RawMessage) (*toolsScreen, error) {
	var t *toolsScreen
	Sync(func() {
		if w.selected != nil && w.selected.screens != nil {
			t = w.selected.screens.tools
		}
	})
	if t == nil {
		return nil, fmt.Errorf("no connected server selected")
	}
	if err := w.ShowScreen("Tools"); err != nil {
		return nil, err
	}
	var found bool
	Sync(func() {
		for i, x := range t.shown {
			if x.Name == tool {
				t.list.Select(i)
				found = true
			}
		}
		if found {
			if j, ok := t.args.(*jsonArgs); ok && args != nil {
				j.e.SetText(string(args))
			}
			if f, ok := t.args.(*formArgs); ok && args != nil {
				_ = f.Set(args)
			}
			t.onRun()
		}
	})
	if !found {
		return nil, fmt.Errorf("no tool %q", tool)
	}
	return t, nil
}

// Resize sets the window's size.
func (w *Window) Resize(width, height float32) {
	Sync(func() { w.win.Resize(fyne.NewSize(width, height)) })
}

// EditServer opens the edit form of the named server.
func (w *Window) EditServer(name string) error {
	var err error
	Sync(func() {
		s := w.server(name)
		if s == nil {
			err = fmt.Errorf("no server %q", name)
			return
		}
		showServerForm(w, name, s.cfg)
	})
	return err
}

// ShowEventTab opens a tab of the open event's details ("Payload",
// "This run").
func (w *Window) ShowEventTab(name string) error {
	var err error
	Sync(func() {
		for i, it := range w.inspector.detail.tabs.Items {
			if it.Text == name {
				w.inspector.detail.tabs.SelectIndex(i)
				return
			}
		}
		err = fmt.Errorf("no tab %q", name)
	})
	return err
}

// CloseDialogs closes every dialog and pop-up of the window.
func (w *Window) CloseDialogs() {
	Sync(func() {
		o := w.win.Canvas().Overlays()
		for top := o.Top(); top != nil; top = o.Top() {
			o.Remove(top)
		}
	})
}

// DismissToasts closes every toast.
func (w *Window) DismissToasts() {
	Sync(func() {
		for len(w.toasts.items) > 0 {
			w.toasts.remove(w.toasts.items[0])
		}
	})
}

// Quit disconnects every server and ends the app.
func (w *Window) Quit() {
	do(w.quit)
}
