package ui

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

func TestConnectionStates(t *testing.T) {
	b := newFakeBackend("good", "bad")
	w := newTestWindow(t, b, &Options{ConnectAttempts: 3})
	list := w.list.box

	// connecting is cancellable and pulses; connected shows the screens
	block := make(chan struct{})
	c, _ := b.Open("good", nil)
	c.(*fakeConn).block = block
	Sync(func() { w.server("good").onConnect() })
	waitFor(t, "connecting", func() bool {
		return strings.Contains(texts(list), "Connecting…") && strings.Contains(texts(list), "[Cancel]")
	})
	Sync(func() {
		if d := w.list.cards[w.server("good")].dot; d.anim == nil {
			t.Error("the connecting dot does not pulse")
		}
	})
	close(block)
	waitFor(t, "connected", func() bool {
		return strings.Contains(texts(list), "Connected") && w.server("good").screens != nil
	})
	waitFor(t, "the tools", func() bool { return strings.Contains(texts(w.middle), "echo") })

	// a failure shows its cause in one line of the card, with Retry; the
	// whole error and Edit settings are in the centre pane, not repeated
	// in the card, which stays compact (#12)
	long := strings.Repeat("the server said no and then some more words ", 6)
	c2, _ := b.Open("bad", nil)
	c2.(*fakeConn).fail = errors.New(long)
	Sync(func() { w.server("bad").onConnect() })
	waitFor(t, "gave up", func() bool { return w.server("bad").retryText() == "Gave up after 3 attempts" })
	var got string
	Sync(func() { got = texts(list) })
	for _, want := range []string{"Failed", "the server said no", "[Retry]"} {
		if !strings.Contains(got, want) {
			t.Errorf("the failed card lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"Show full error", "Show more", "Failed to connect"} {
		if strings.Contains(got, not) {
			t.Errorf("the failed card repeats the centre pane's %q:\n%s", not, got)
		}
	}
	Sync(func() {
		card := w.list.cards[w.server("bad")]
		card.Resize(fyne.NewSize(200, card.MinSize().Height))
		if card.cause.Truncation != fyne.TextTruncateEllipsis {
			t.Error("the card's cause is not kept to one line")
		}
		if h := card.MinSize().Height; h > 105 { // three lines: the name, the cause, the toggle and Retry (it was ~350)
			t.Errorf("a failed card is %v tall, want a compact one", h)
		}
		w.selectServer(w.server("bad"))
		// the whole error is a plain sentence (no chain behind it): its
		// Show more opens it, and no Show full error repeats it
		if txt := texts(w.middle); !strings.Contains(txt, "the server said no") || !strings.Contains(txt, "[Show more]") || strings.Contains(txt, "[Show full error]") || !strings.Contains(txt, "Gave up after 3 attempts") || !strings.Contains(txt, "[Edit settings…]") {
			t.Errorf("the centre pane lacks the error, its Show more or the retries, or repeats it behind Show full error:\n%s", txt)
		}
	})

	// while retrying, the card counts the attempts
	c2.(*fakeConn).block = make(chan struct{})
	Sync(func() { test.Tap(findButton(list, "Retry")) }) // the card's own Retry
	Sync(func() {
		s := w.server("bad")
		s.onConnected(s.gen, t.Context(), errors.New("refused"))
		if got := texts(list); !strings.Contains(got, "retry 2 of 3") {
			t.Errorf("no retry count:\n%s", got)
		}
	})
	waitFor(t, "the second attempt", func() bool { return strings.Contains(texts(list), "attempt 2 of 3") })
	Sync(func() { w.server("bad").onCancel() })
	waitFor(t, "cancelled", func() bool { return w.server("bad").state.State == StateDisconnected })

	// the good server stayed connected: several at once
	Sync(func() {
		if w.server("good").state.State != StateConnected {
			t.Error("good lost its connection")
		}
	})
}

func findButton(o fyne.CanvasObject, text string) *widget.Button {
	var hit *widget.Button
	walkVisible(o, func(o fyne.CanvasObject) {
		if b, ok := esc.AsButton(o); ok && hit == nil && b.Text == text && !b.Disabled() {
			hit = b
		}
	})
	return hit
}

func TestReadOnlyCatalog(t *testing.T) {
	b := newFakeBackend("one")
	b.ro = "opened with --config x.json, which Spyglass never changes"
	w := newTestWindow(t, b, nil)
	var got string
	Sync(func() { got = texts(w.win.Content()) })
	if !strings.Contains(got, "Read-only: opened with --config x.json") {
		t.Errorf("no read-only notice:\n%s", got)
	}
	if w.list.add.Visible() || w.list.imp.Visible() {
		t.Error("add/import are offered on a read-only catalog")
	}
	Sync(func() { w.importConfig([]byte(`{"mcpServers":{"x":{"command":"y"}}}`), "drop") })
	if len(b.Servers()) != 1 {
		t.Error("import changed a read-only catalog")
	}
	if ts := w.toasts.texts(); len(ts) == 0 || !strings.Contains(ts[len(ts)-1], "Import is off") {
		t.Errorf("toasts = %q", ts)
	}
}

func TestServerCRUDAndImport(t *testing.T) {
	b := newFakeBackend("one")
	w := newTestWindow(t, b, nil)

	// add through the form
	Sync(func() {
		f := &serverForm{w: w, base: ServerConfig{}}
		f.errLblInit()
		f.buildUI(ServerConfig{Transport: "stdio"})
		f.name.SetText("two")
		f.command.SetText("node")
		f.args.SetText(`server.js --name "a b"`)
		f.env.SetText("TOKEN=x")
		f.reqTO.SetText("30s")
		if !f.onSave() {
			t.Fatalf("save refused: %s", f.errLbl.Text)
		}
	})
	got := b.Servers()
	if len(got) != 2 || got[1].Name != "two" || strings.Join(got[1].Args, "|") != "server.js|--name|a b" || got[1].Env["TOKEN"] != "x" || got[1].RequestTimeout.String() != "30s" {
		t.Fatalf("saved %+v", got)
	}
	// bad input is explained, not saved
	Sync(func() {
		f := &serverForm{w: w}
		f.errLblInit()
		f.buildUI(ServerConfig{Transport: "http"})
		f.name.SetText("web")
		f.url.SetText("localhost:3000")
		if f.onSave() {
			t.Error("an invalid URL was saved")
		}
		if !strings.Contains(f.errLbl.Text, "http://") {
			t.Errorf("error = %q", f.errLbl.Text)
		}
	})
	// duplicate and remove
	Sync(func() { w.list.cards[w.server("two")].onDuplicate() })
	if n := len(b.Servers()); n != 3 || b.Servers()[2].Name != "two copy" {
		t.Fatalf("duplicate: %+v", b.Servers())
	}
	Sync(func() { w.removeServer("two copy") })
	if n := len(b.Servers()); n != 2 {
		t.Fatalf("remove: %+v", b.Servers())
	}
	// import by paste and by drop: clashes are reported, not overwritten
	Sync(func() {
		fyne.CurrentApp().Clipboard().SetContent(`{"mcpServers":{"three":{"command":"c"},"one":{"command":"other"}}}`)
		w.list.onPasteImport()
	})
	if ts := w.toasts.texts(); !strings.Contains(strings.Join(ts, "\n"), "Imported 1 server: three. Skipped (name exists): one") {
		t.Errorf("toasts = %q", ts)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "claude.json")
	wr, _ := storage.Writer(storage.NewFileURI(path))
	_, _ = wr.Write([]byte(`{"mcpServers":{"four":{"command":"d"}}}`))
	_ = wr.Close()
	Sync(func() { w.onDropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(path)}) })
	if w.server("four") == nil || w.server("one").cfg.Command != "server-one" {
		t.Errorf("drop import: %+v", b.Servers())
	}
	// toasts close with their button
	Sync(func() {
		n := len(w.toasts.items)
		w.toasts.remove(w.toasts.items[0])
		if len(w.toasts.items) != n-1 {
			t.Error("toast not closed")
		}
	})
}

func TestToggleInspector(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("one"), nil)
	Sync(func() {
		if !w.inspOpen {
			t.Fatal("the inspector starts hidden")
		}
	})
	Sync(w.ToggleInspector)
	Sync(func() {
		if w.inspOpen || w.body.Objects[0] != w.center {
			t.Error("Ctrl+I did not hide the inspector")
		}
	})
	Sync(w.ToggleInspector)
	Sync(func() {
		if !w.inspOpen || w.body.Objects[0] != w.split {
			t.Error("Ctrl+I did not show the inspector")
		}
	})
}

// A server card's connect toggle says what it shows ("Off", "Connected") instead of being a bare box, and a 17-character name is
// shown whole at the default window size (the toggle no longer takes its
// room).
func TestServerCardToggleIsLabelledAndNameFits(t *testing.T) {
	b := newFakeBackend("filesystem-server", "good")
	w := newTestWindow(t, b, nil)
	card := func() *serverCard { return w.list.cards[w.server("filesystem-server")] }
	Sync(func() {
		c := card()
		if c.toggle.Text != "Off" || c.toggle.Checked {
			t.Errorf("the toggle reads %q (checked %v), want an unchecked \"Off\"", c.toggle.Text, c.toggle.Checked)
		}
		need := fyne.MeasureText(c.name.Text, theme.TextSize(), c.name.TextStyle).Width + 2*theme.InnerPadding()
		if got := c.name.Size().Width; got < need {
			t.Errorf("the name %q has %.0f px, needs %.0f: it is cut", c.name.Text, got, need)
		}
	})
	Sync(func() { w.server("filesystem-server").onConnect() })
	waitFor(t, "connected", func() bool {
		return card().toggle.Text == "Connected" && card().toggle.Checked
	})
}
