package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// TestFitsWithURLElicitationAndClosedList: a pending URL elicitation and
// twenty recently closed requests never force the window past 1024×700.
func TestFitsWithURLElicitationAndClosedList(t *testing.T) {
	w, _, _ := connected(t, nil)
	Sync(func() {
		q := requests.NewQueue(&requests.QueueOptions{Window: w.win, OnCountChanged: func(n int) { w.SetRequestCount(n) }})
		w.SetRequests(q.Object())
		for i := range 20 {
			q.AddElicitation(requests.ElicitationRequest{Server: "fake", ID: fmt.Sprint(i), Mode: "form",
				Message: strings.Repeat("a long explanation of what the server wants ", 3),
				Schema:  json.RawMessage(`{"type":"object","properties":{}}`)}, func(requests.ElicitationAnswer) {})
			q.Cancel("fake", fmt.Sprint(i), "the server cancelled it while the user was looking at something else entirely")
		}
		if n := len(q.Notes()); n != 20 {
			t.Fatalf("%d closed requests, want 20", n)
		}
		q.AddURLRequired("fake", []requests.ElicitationRequest{{
			Message:       "Please complete the OAuth authorization in your browser.",
			URL:           "https://auth.example.com/oauth/authorize?client_id=abc&state=" + strings.Repeat("x", 300),
			ElicitationID: "abc123-def456",
		}})
		if q.Len() != 1 {
			t.Fatalf("%d pending, want the URL elicitation", q.Len())
		}
		if m := unscrolled(w); m.Width > 1024 || m.Height > 700 {
			t.Errorf("the window needs %v, more than 1024×700 (screens %v, requests %v)", m, w.middle.MinSize(), q.Object().MinSize())
		}
	})
}

// TestValidationLineHoldsStill: the Run button below a form does not move
// when a validation message appears under a field.
func TestValidationLineHoldsStill(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("fake"), nil)
	Sync(func() {
		ed := w.newArgsEditor(json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":3}},"required":["name"]}`), nil, func() {})
		run := widget.NewButton("Run", nil)
		w.win.SetContent(container.NewVBox(ed.Object(), run))
		w.win.Resize(fyne.NewSize(600, 400))
		before := fyne.CurrentApp().Driver().AbsolutePositionForObject(run)
		var entry *widget.Entry
		walkVisible(ed.Object(), func(o fyne.CanvasObject) {
			if e, ok := esc.AsEntry(o); ok && entry == nil {
				entry = e
			}
		})
		if entry == nil {
			t.Fatal("no entry in the form")
		}
		test.Type(entry, "a")
		shown := texts(ed.Object())
		if !strings.Contains(strings.ToLower(shown), "at least") {
			t.Fatalf("no validation message after typing a:\n%s", shown)
		}
		if after := fyne.CurrentApp().Driver().AbsolutePositionForObject(run); after != before {
			t.Errorf("Run moved from %v to %v when the validation message appeared", before, after)
		}
	})
}

// worded is a PlainError as cmd makes them.
type worded struct{ head, chain string }

func (w *worded) Error() string    { return w.head }
func (w *worded) Headline() string { return w.head }
func (w *worded) Detail() string   { return w.chain }

// TestErrorViewShowsFullError: a screen's error shows the headline, and
// Show full error opens the chain.
func TestErrorViewShowsFullError(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("fake"), nil)
	err := fmt.Errorf("calling: %w", &worded{head: "The server reported an error: boom",
		chain: "session: tools/call: session: JSON-RPC error -32603: boom"})
	Sync(func() {
		v := errorView(err, "The call failed", w.win)
		w.win.SetContent(v)
		got := texts(v)
		if !strings.Contains(got, "The server reported an error: boom") || strings.Contains(got, "session: tools/call") {
			t.Errorf("error view shows %q", got)
		}
		b := findButton(v, "Show full error")
		if b == nil {
			t.Fatal("no Show full error button")
		}
		test.Tap(b)
		if !strings.Contains(texts(w.win.Canvas().Overlays().Top()), "session: tools/call: session: JSON-RPC error -32603: boom") {
			t.Error("Show full error does not show the chain")
		}
	})
}

// TestServerListCollapses: View → Server list hides the list and shows it
// again; the card shows the end of a long command.
func TestServerListCollapses(t *testing.T) {
	b := newFakeBackend("fake")
	b.servers[0].Command = "node"
	b.servers[0].Args = []string{"/home/me/projects/some/deep/folder/of/my/mcp-server/build/index.js"}
	w := newTestWindow(t, b, nil)
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		if !strings.Contains(texts(w.win.Content()), "Servers") {
			t.Fatal("the server list is not shown")
		}
		card := w.list.cards[w.server("fake")]
		if txt := card.summary.Text; !strings.HasSuffix(txt, "mcp-server/build/index.js") {
			t.Errorf("the card shows %q, want the end of its path: the project and its build folder", txt)
		}
		// three lines, the same in every state (TestServerCardsHoldStill);
		// the command's a caption without a label's padding (it was 116)
		if h := card.MinSize().Height; h > 105 {
			t.Errorf("a server card is %v tall, want a compact one", h)
		}
		// at 1024 wide, a failed HTTP card still shows its URL's end:
		// the state is a short word, not a phrase that takes the row (#12)
		w.win.Resize(fyne.NewSize(1024, 700))
		s := w.server("fake")
		s.cfg.Transport, s.cfg.Command, s.cfg.Args = "http", "", nil
		s.cfg.URL = "https://mcp.example.com/some/long/path/v1/mcp"
		s.state.State, s.state.Err = StateFailed, errors.New("connection refused")
		card.update()
		card.Refresh()
		if txt := card.summary.Text; !strings.HasSuffix(txt, "v1/mcp") {
			t.Errorf("the failed HTTP card at 1024 shows %q, want the end of its URL", txt)
		}
		if h := card.MinSize().Height; h > 170 { // two lines, the cause and Retry/Edit (it was ~350)
			t.Errorf("a failed card is %v tall, want a compact one", h)
		}
		w.ToggleServerList()
		if strings.Contains(texts(w.win.Content()), "Servers") {
			t.Error("the collapsed server list is still shown")
		}
		w.ToggleServerList()
		if !strings.Contains(texts(w.win.Content()), "Servers") {
			t.Error("the server list did not come back")
		}
	})
}

// TestDisconnectBannerHoldsStill: when a connected server drops, the
// banner that says so does not move the Run button under the pointer.
func TestDisconnectBannerHoldsStill(t *testing.T) {
	w, _, ss := connected(t, nil)
	var before fyne.Position
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		ss.tools.list.Select(0)
	})
	Sync(func() {
		before = fyne.CurrentApp().Driver().AbsolutePositionForObject(ss.tools.runBtn)
		if before.IsZero() {
			t.Fatal("the Run button is not laid out")
		}
		s := w.server("fake")
		s.onEngineState(StateView{State: StateDisconnected, Err: fmt.Errorf("the server process exited with status 1")})
	})
	Sync(func() {
		if !strings.Contains(texts(w.win.Content()), "The next request starts it again.") {
			t.Fatal("no disconnect banner")
		}
		if after := fyne.CurrentApp().Driver().AbsolutePositionForObject(ss.tools.runBtn); after != before {
			t.Errorf("the Run button moved from %v to %v when the banner appeared", before, after)
		}
	})
}

// TestErrorViewNothingMoreToShow: an error that is already a plain
// sentence (the window's own, "fill in …") has no Show full error, which
// would open the same sentence again; one with a chain behind it keeps it.
func TestErrorViewNothingMoreToShow(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("fake"), nil)
	Sync(func() {
		v := errorView(errors.New("fill in the required variable resourceId, then read the template again."), "Not read", w.win)
		if b := findButton(v, "Show full error"); b != nil && b.Visible() {
			t.Errorf("Show full error under a sentence that says it all: %q", texts(v))
		}
		v = errorView(fmt.Errorf("read: %w", &worded{head: "The server reported an error: boom", chain: "session: resources/read: boom"}), "Not read", w.win)
		if b := findButton(v, "Show full error"); b == nil || !b.Visible() {
			t.Errorf("no Show full error for an error with a chain: %q", texts(v))
		}
	})
}

// TestCardSummaryShortensPaths: a card shows the ends of the paths in a
// command line, which say what runs ("node …/server-everything/dist/
// index.js stdio": its project's folder before a build folder),
// instead of the line's last characters ("…js stdio" at 1024×700); the
// server's pane keeps the whole line.
func TestCardSummaryShortensPaths(t *testing.T) {
	for _, c := range []struct {
		cfg  ServerConfig
		want string
	}{
		{ServerConfig{Command: "node", Args: []string{"/work/main/.ci/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"}}, "node …/server-everything/dist/index.js stdio"},
		{ServerConfig{Command: "node", Args: []string{"/home/me/weather/build/src/main.js"}}, "node …/weather/build/src/main.js"},
		{ServerConfig{Command: "node", Args: []string{"/dist/index.js"}}, "node /dist/index.js"},
		{ServerConfig{Command: "/usr/local/bin/node", Args: []string{"server.js", "--port", "3000"}}, "…/bin/node server.js --port 3000"},
		{ServerConfig{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}}, "npx -y @modelcontextprotocol/server-filesystem /tmp"},
		{ServerConfig{Command: "python", Args: []string{"/home/me/My Project/srv.py"}}, `python "…/My Project/srv.py"`},
		{ServerConfig{Transport: "http", URL: "https://example.com/a/b/c/mcp"}, "https://example.com/a/b/c/mcp"},
	} {
		if got := c.cfg.CardSummary(); got != c.want {
			t.Errorf("%+v: card %q, want %q", c.cfg, got, c.want)
		}
	}
}

// TestToolRowCaptionIsTheDescription: a tool titled by its name (no
// title of its own) gives its row's second line to its description, not
// to its name again (#12: "echo" over "echo · Echoes th…").
func TestToolRowCaptionIsTheDescription(t *testing.T) {
	_, _, ss := connected(t, nil)
	waitFor(t, "the tools listed", func() bool { return len(ss.tools.rows) > 0 })
	Sync(func() {
		var captions []string
		walkVisible(ss.tools.list, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && l.SizeName == theme.SizeNameCaptionText {
				captions = append(captions, l.Text)
			}
		})
		if !slices.Contains(captions, "Echoes") || slices.Contains(captions, "echo · Echoes") {
			t.Errorf("the rows' second lines read %q, want the description alone under a tool titled by its name", captions)
		}
	})
}

// TestSecondDropIsHeard: a server that dropped, was reconnected and
// dropped again says so the second time too. The engine's state changes
// were tied to the attempt that opened the connection, so after Reconnect
// the second drop went unheard: the card said Connected over a dead
// server, with no toast (#12).
func TestSecondDropIsHeard(t *testing.T) {
	w, b, _ := connected(t, nil)
	engine := func(st StateView) {
		b.mu.Lock()
		on := b.conns["fake"].onState
		b.mu.Unlock()
		on(st) // from the engine's goroutine, as the session reports
	}
	s := w.server("fake")
	for round := 1; round <= 2; round++ {
		engine(StateView{State: StateDisconnected, Err: fmt.Errorf("the server process exited with status %d", round)})
		waitFor(t, "the drop heard", func() bool { return s.dropped && s.state.State == StateFailed })
		Sync(func() {
			card := w.list.cards[s]
			if card.toggle.Checked || card.toggle.Text != "Failed" {
				t.Errorf("drop %d: the card's toggle reads %q (ticked %v)", round, card.toggle.Text, card.toggle.Checked)
			}
			if !slices.ContainsFunc(w.toasts.texts(), func(m string) bool { return strings.Contains(m, "disconnected") }) {
				t.Errorf("drop %d: no toast says so: %q", round, w.toasts.texts())
			}
			s.onRetry() // Reconnect
		})
		waitFor(t, "connected again", func() bool { return s.state.State == StateConnected && !s.dropped })
		Sync(func() {
			for _, it := range append([]*toast(nil), w.toasts.items...) {
				w.toasts.remove(it)
			}
		})
	}
}
