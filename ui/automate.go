package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
)

// The methods in this file drive the window the way a user would, from any
// goroutine except the UI thread. The screenshot script uses them; each
// waits (up to timeout) for the window to reach the state it asks for.

// poll runs cond under the window's lock until it holds or timeout passes.
func poll(timeout time.Duration, what string, cond func() bool) error {
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		Sync(func() { ok = cond() })
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

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

// SelectServer shows the named server's screens and events.
func (w *Window) SelectServer(name string) error {
	var err error
	Sync(func() {
		s := w.server(name)
		if s == nil {
			err = fmt.Errorf("no server %q", name)
			return
		}
		w.selectServer(s)
	})
	return err
}

// ShowScreen opens a screen tab of the selected server ("Tools", ...).
func (w *Window) ShowScreen(tab string) error {
	var err error
	Sync(func() { err = w.ShowScreenNow(tab) })
	return err
}

// ShowScreenNow is ShowScreen on the UI thread.
func (w *Window) ShowScreenNow(tab string) error {
	if w.selected == nil || w.selected.screens == nil {
		return fmt.Errorf("no connected server selected")
	}
	for i, it := range w.selected.screens.tabs.Items {
		if it.Text == tab {
			w.selected.screens.tabs.SelectIndex(i)
			return nil
		}
	}
	return fmt.Errorf("no screen %q", tab)
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

// OpenEvent opens, in the inspector, the newest event of the selected
// server whose title starts with prefix.
func (w *Window) OpenEvent(prefix string, timeout time.Duration) error {
	in := w.inspector
	return poll(timeout, "an event "+prefix, func() bool {
		for i := len(in.shown) - 1; i >= 0; i-- {
			e := in.events[in.shown[i]]
			if strings.HasPrefix(e.Title, prefix) {
				in.list.Select(i)
				in.list.ScrollTo(i)
				return true
			}
		}
		return false
	})
}

// Resize sets the window's size.
func (w *Window) Resize(width, height float32) {
	Sync(func() { w.win.Resize(fyneSize(width, height)) })
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
	do(func() {
		w.Close()
		w.app.Quit()
	})
}

// Drop handles URIs as if dropped on the window (UI thread): config files
// are imported, folders become roots of the selected server.
func (w *Window) Drop(uris []fyne.URI) { w.onDropped(fyne.NewPos(0, 0), uris) }
