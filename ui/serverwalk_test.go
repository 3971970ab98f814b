package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// The new-user walk of the server list, the server form and the menus
// (#12): what a newcomer does first, and what they expect to see.

// tapToastAction taps the action button labelled label of the toast
// whose text starts with text, and runs then (when set) on the UI thread
// right after the tap, before anything the tap started can answer.
func tapToastAction(t *testing.T, w *Window, text, label string, then ...func()) {
	t.Helper()
	var btn *widget.Button
	var shown string
	Sync(func() {
		shown = strings.Join(w.toasts.texts(), " | ")
		for _, it := range w.toasts.items {
			if !strings.HasPrefix(it.text, text) {
				continue
			}
			walkAll(it.obj, func(o fyne.CanvasObject) {
				if b, ok := esc.AsButton(o); ok && btn == nil && b.Text == label {
					btn = b
				}
			})
		}
	})
	if btn == nil {
		t.Fatalf("no toast %q with %q: %s", text, label, shown)
	}
	Sync(func() {
		test.Tap(btn)
		for _, fn := range then {
			fn()
		}
	})
}

// typeFocused types s as the keyboard does: into whatever has the focus
// (nothing when nothing has it).
func typeFocused(w *Window, s string) {
	Sync(func() {
		if f := w.win.Canvas().Focused(); f != nil {
			for _, r := range s {
				f.TypedRune(r)
			}
		}
	})
}

func stateOf(w *Window, name string) (st ConnState) {
	Sync(func() {
		if s := w.server(name); s != nil {
			st = s.state.State
		}
	})
	return st
}

// TestRemoveUndoPutsItBackAsItWas: Undo of a connected server's removal
// connects it again (it came back disconnected, silently); a server that
// was not connected comes back not connected.
func TestRemoveUndoPutsItBackAsItWas(t *testing.T) {
	b := &undoBackend{fakeBackend: newFakeBackend("on", "off")}
	w := newTestWindowBackend(t, b)
	Sync(func() { w.server("on").onConnect() })
	waitFor(t, "on connected", func() bool { return w.server("on").state.State == StateConnected })

	Sync(func() {
		w.removeServer("on")
		if w.server("on") != nil {
			t.Error("on is still listed")
		}
	})
	tapToastAction(t, w, "Removed on", "Undo")
	waitFor(t, "on connected again", func() bool {
		s := w.server("on")
		return s != nil && s.state.State == StateConnected && w.selected == s && s.screens != nil
	})
	Sync(func() {
		if ts := strings.Join(w.toasts.texts(), "\n"); !strings.Contains(ts, "Restored on; connecting to it again") {
			t.Errorf("the restore does not say it reconnects: %q", ts)
		}
	})

	Sync(func() { w.removeServer("off") })
	tapToastAction(t, w, "Removed off", "Undo")
	Sync(func() {
		s := w.server("off")
		if s == nil || w.selected != s {
			t.Fatal("off is not back and selected")
		}
		if s.state.State != StateDisconnected {
			t.Errorf("off was not connected and came back %v", s.state.State)
		}
	})
}

// TestNoServerEmptyState: once the last server is removed the middle
// names no server (nor does the inspector) and offers Add server and the
// imports right there; Add server opens the form. A read-only file says
// why nothing can be added.
func TestNoServerEmptyState(t *testing.T) {
	b := &undoBackend{fakeBackend: newFakeBackend("only-server")}
	w := newTestWindowBackend(t, b)
	Sync(func() { w.removeServer("only-server") })
	var middle, insp string
	Sync(func() {
		middle = texts(w.middle)
		insp = texts(w.inspector.empty)
	})
	for _, want := range []string{"No servers yet", "[Add server…]", "[Import a config file…]", "[Paste a config]"} {
		if !strings.Contains(middle, want) {
			t.Errorf("the empty state lacks %q:\n%s", want, middle)
		}
	}
	if strings.Contains(middle, "only-server") || strings.Contains(insp, "only-server") {
		t.Errorf("the removed server is still named:\n%s\ninspector: %s", middle, insp)
	}
	Sync(func() { tapButton(t, w.middle, "Add server…") })
	waitFor(t, "the Add server form", func() bool {
		o := w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "Add server") && strings.Contains(texts(o), "[Save]")
	})
	Sync(func() { esc.Cancel(w.win.Canvas()) })

	// Paste a config imports what the clipboard holds
	Sync(func() {
		fyne.CurrentApp().Clipboard().SetContent(`{"mcpServers":{"pasted":{"command":"p"}}}`)
		tapButton(t, w.middle, "Paste a config")
	})
	Sync(func() {
		if s := w.server("pasted"); s == nil || w.selected != s {
			t.Error("Paste a config did not import and select the pasted server")
		}
	})

	ro := newFakeBackend()
	ro.ro = "opened with --config"
	w2 := newTestWindow(t, ro, nil)
	Sync(func() {
		got := texts(w2.middle)
		if !strings.Contains(got, "read-only (opened with --config)") || strings.Contains(got, "[Add server…]") {
			t.Errorf("a read-only empty catalog shows:\n%s", got)
		}
	})
}

// openForm opens the Add server form (oldName "") or the Edit form and
// returns the dialog's overlay once it is shown.
func openForm(t *testing.T, w *Window, oldName string) fyne.CanvasObject {
	t.Helper()
	Sync(func() {
		if oldName == "" {
			w.list.onAdd()
		} else {
			w.list.cards[w.server(oldName)].onEdit()
		}
	})
	var o fyne.CanvasObject
	waitFor(t, "the server form", func() bool {
		o = w.win.Canvas().Overlays().Top()
		return o != nil && strings.Contains(texts(o), "[Save]")
	})
	return o
}

// TestServerFormTypesIntoName: the form opens with its first field, the
// name, focused, so what the user types goes into it at once (Add and
// Edit alike).
func TestServerFormTypesIntoName(t *testing.T) {
	b := newFakeBackend("old")
	w := newTestWindow(t, b, nil)
	openForm(t, w, "")
	typeFocused(w, "typed")
	Sync(func() {
		e, ok := w.win.Canvas().Focused().(*esc.Entry)
		if !ok || e.Text != "typed" || e.PlaceHolder != "e.g. my-server" {
			t.Errorf("typing at once went to %T %+v, not the name field", w.win.Canvas().Focused(), e)
		}
		esc.Cancel(w.win.Canvas())
	})
	openForm(t, w, "old")
	Sync(func() {
		e, ok := w.win.Canvas().Focused().(*esc.Entry)
		if !ok || e.Text != "old" {
			t.Errorf("the edit form's focus is %T, not the name field", w.win.Canvas().Focused())
		}
		esc.Cancel(w.win.Canvas())
	})
}

// TestAddServerConnects: Save of a new server selects it and connects it;
// an edit of a connected server keeps its connection and offers
// Reconnect; an edit of a failed one tries the new settings; a connected
// server renamed connects under its new name.
func TestAddServerConnects(t *testing.T) {
	b := newFakeBackend("first")
	w := newTestWindow(t, b, nil)
	o := openForm(t, w, "")
	typeFocused(w, "added")
	Sync(func() {
		formEntry(t, o, 1).SetText("node server.js") // Command
		tapButton(t, o, "Save")
	})
	waitFor(t, "added connected and selected", func() bool {
		s := w.server("added")
		return s != nil && w.selected == s && s.state.State == StateConnected && s.screens != nil
	})

	// an edit keeps the connection; the toast's Reconnect uses the new settings
	b.mu.Lock()
	saved := b.saved
	b.mu.Unlock()
	o = openForm(t, w, "added")
	Sync(func() {
		formEntry(t, o, 1).SetText("node server2.js")
		tapButton(t, o, "Save")
	})
	b.mu.Lock()
	n := b.saved - saved
	b.mu.Unlock()
	if st := stateOf(w, "added"); n != 1 || st != StateConnected {
		t.Fatalf("edit: saved %d times, state %v", n, st)
	}
	tapToastAction(t, w, "Saved server “added”. Reconnect", "Reconnect", func() {
		if st := w.server("added").state.State; st != StateConnecting {
			t.Errorf("Reconnect left the server %v, want connecting", st)
		}
	})
	waitFor(t, "reconnected", func() bool { return w.server("added").state.State == StateConnected })

	// renamed while connected: connected under the new name
	o = openForm(t, w, "added")
	Sync(func() {
		e := formEntry(t, o, 0)
		e.SetText("renamed")
		tapButton(t, o, "Save")
	})
	waitFor(t, "renamed connected", func() bool {
		s := w.server("renamed")
		return s != nil && w.selected == s && s.state.State == StateConnected
	})

	// a failed server edited: the new settings are tried
	b.mu.Lock()
	b.conns["first"] = &fakeConn{name: "first", ev: b.ev, fail: errors.New("spawn server-first: no such file")}
	b.mu.Unlock()
	Sync(func() {
		w.selectServer(w.server("first"))
		w.server("first").onConnect()
	})
	waitFor(t, "first failed", func() bool { return w.server("first").state.State == StateFailed && !w.server("first").retrying })
	b.mu.Lock()
	c := b.conns["first"]
	b.mu.Unlock()
	c.mu.Lock()
	c.fail = nil
	c.mu.Unlock()
	o = openForm(t, w, "first")
	Sync(func() {
		formEntry(t, o, 1).SetText("fixed-command")
		tapButton(t, o, "Save")
	})
	waitFor(t, "first connected with the new settings", func() bool { return w.server("first").state.State == StateConnected })
}

// menuOn lists which of the state-dependent menu items are enabled, as
// "Menu › Item" lines.
func menuOn(w *Window) string {
	var on string
	Sync(func() { on = menuOnNow(w) })
	return on
}

// menuOnNow is menuOn on the UI thread (inside Sync or waitFor).
func menuOnNow(w *Window) string {
	var on []string
	for _, m := range w.win.MainMenu().Items {
		if m.Label != "Servers" && m.Label != "Tools" {
			continue
		}
		for _, it := range m.Items {
			if !it.IsSeparator && !it.Disabled {
				on = append(on, m.Label+" › "+it.Label)
			}
		}
	}
	return strings.Join(on, ", ")
}

// TestMenusFollowState walks the Servers and Tools menus in each state a
// newcomer meets: an item that would do nothing (or only say "Select a
// server first") is off, and comes on when it has something to do.
func TestMenusFollowState(t *testing.T) {
	const always = "Servers › Add server…, Servers › Import config from clipboard"
	ub := &undoBackend{fakeBackend: newFakeBackend("srv")}
	ub.servers = append(ub.servers, ServerConfig{Name: "web", Transport: "http", URL: "https://mcp.example/mcp"})
	b := &gateBackend{fakeBackend: ub.fakeBackend, gated: "echo", gate: make(chan struct{})}
	block := make(chan struct{})
	b.conns["srv"] = &fakeConn{name: "srv", ev: b.ev, block: block}
	w := newTestWindowBackend(t, struct {
		*gateBackend
		OAuthClearer
		ServerRestorer
	}{b, ub, ub})
	check := func(state, want string) {
		t.Helper()
		if got := menuOn(w); got != want {
			t.Errorf("%s: the menus offer\n  %s\nwant\n  %s", state, got, want)
		}
	}
	last := ", Tools › Save last call to collection…, Tools › Protocol matrix of last call…"
	// no call yet: nothing to save or to run under every version
	check("disconnected", always+", Servers › Connect, Servers › Edit…, Servers › Duplicate, Servers › Remove…")

	Sync(func() { w.server("srv").onConnect() })
	waitFor(t, "connecting", func() bool { return w.server("srv").state.State == StateConnecting })
	check("connecting", always+", Servers › Disconnect, Servers › Edit…, Servers › Duplicate, Servers › Remove…")

	close(block)
	var ss *serverScreens
	waitFor(t, "connected", func() bool {
		ss = w.server("srv").screens
		return w.server("srv").state.State == StateConnected && ss != nil && len(ss.tools.all) > 0
	})
	connected := always + ", Servers › Disconnect, Servers › Edit…, Servers › Duplicate, Servers › Remove…"
	check("connected, no tool selected", connected)

	selectShown(t, ss, "echo")
	check("a tool selected", connected+", Tools › Run tool")

	Sync(func() { menuItem(t, w, "Tools", "Run tool").Action() })
	waitFor(t, "echo running", func() bool { return ss.tools.running != nil })
	// the call as the log records it reaches the inspector
	b.ev.send(EventView{Server: "srv", Kind: "message", Dir: "out", Type: "request", Method: "tools/call", ID: "5", Title: "tools/call"})
	waitFor(t, "the last call items on", func() bool { return menuOnNow(w) == connected+", Tools › Cancel call"+last })
	Sync(func() { menuItem(t, w, "Tools", "Cancel call").Action() })
	waitFor(t, "echo cancelled", func() bool { return ss.tools.running == nil })
	check("the call cancelled", connected+", Tools › Run tool"+last)

	// the inspector's Clear forgets the call: nothing left to save
	Sync(func() { w.inspector.onClear() })
	check("its events cleared", connected+", Tools › Run tool")
	b.ev.send(EventView{Server: "srv", Kind: "message", Dir: "out", Type: "request", Method: "prompts/get", ID: "6", Title: "prompts/get"})
	waitFor(t, "a prompt got", func() bool { return menuOnNow(w) == connected+", Tools › Run tool"+last })

	Sync(func() { menuItem(t, w, "Servers", "Disconnect").Action() })
	check("disconnected again", always+", Servers › Connect, Servers › Edit…, Servers › Duplicate, Servers › Remove…"+last)

	// an http server can forget its sign-in; stdio has none
	Sync(func() { w.selectServer(w.server("web")) })
	check("an http server", always+", Servers › Connect, Servers › Edit…, Servers › Duplicate, Servers › Remove…, Servers › Clear OAuth state")

	Sync(func() {
		w.removeServer("web")
		w.removeServer("srv")
	})
	check("no server left", always)
}

// slowCloseBackend's connections take their time to close: Close waits
// for the test to open closeGate. It notes whether a Connect began while
// an earlier connection of the same server was still closing.
type slowCloseBackend struct {
	*fakeBackend
	closeGate chan struct{}
	mu        sync.Mutex
	closing   int // Close calls under way
	connects  int
	overlap   bool // a Connect began while a Close was under way
}

type slowCloseConn struct {
	*fakeConn
	b *slowCloseBackend
}

func (b *slowCloseBackend) Open(name string, onState func(StateView)) (Conn, error) {
	c, err := b.fakeBackend.Open(name, onState)
	return &slowCloseConn{fakeConn: c.(*fakeConn), b: b}, err
}

func (c *slowCloseConn) Connect(ctx context.Context) error {
	c.b.mu.Lock()
	c.b.connects++
	c.b.overlap = c.b.overlap || c.b.closing > 0
	c.b.mu.Unlock()
	return c.fakeConn.Connect(ctx)
}

func (c *slowCloseConn) Close() error {
	c.b.mu.Lock()
	c.b.closing++
	c.b.mu.Unlock()
	<-c.b.closeGate
	c.b.mu.Lock()
	c.b.closing--
	c.b.mu.Unlock()
	return nil
}

// TestReconnectWaitsForTheClose: a server connected again right after it
// was disconnected (Reconnect, the card's toggle off and on) starts its
// new connection only once the old one has closed — the log pairs by the
// server's name, and the old connection's end marked the new initialize
// "no response" and its answer "unknown id"; meanwhile the card says
// Connecting….
func TestReconnectWaitsForTheClose(t *testing.T) {
	b := &slowCloseBackend{fakeBackend: newFakeBackend("srv"), closeGate: make(chan struct{})}
	w := newTestWindowBackend(t, b)
	Sync(func() { w.server("srv").onConnect() })
	waitFor(t, "connected", func() bool { return w.server("srv").state.State == StateConnected })
	Sync(func() {
		s := w.server("srv")
		s.disconnect()
		s.onConnect()
	})
	waitFor(t, "the old connection closing", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.closing == 1
	})
	Sync(func() {
		if st := w.server("srv").state.State; st != StateConnecting {
			t.Errorf("while the old connection closes the server is %v, want connecting", st)
		}
	})
	close(b.closeGate)
	waitFor(t, "connected again", func() bool { return w.server("srv").state.State == StateConnected })
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.overlap || b.connects != 2 {
		t.Errorf("connects %d, one began while the old connection was closing: %v", b.connects, b.overlap)
	}
}

// TestServersMenuHasTheCardsItems: Servers › Duplicate does what the
// card's ⋮ › Duplicate does, for the selected server, and Tap this server
// in… is there, off when the build has no tap (the walk found both only
// on the card).
func TestServersMenuHasTheCardsItems(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("srv"), nil)
	Sync(func() {
		w.selectServer(w.server("srv"))
		if it := menuItem(t, w, "Servers", "Tap this server in…"); !it.Disabled {
			t.Error("Tap this server in… is on with no tap to run")
		}
		menuItem(t, w, "Servers", "Duplicate").Action()
	})
	waitFor(t, "the copy", func() bool { return w.server("srv copy") != nil })
}
