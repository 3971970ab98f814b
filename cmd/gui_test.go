package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/form"
	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
)

// guiHarness is the real window (headless driver) on a catalog whose
// "demo" server is the built-in demo server, in-process over Streamable
// HTTP, and whose "broken" server is a command that does not exist.
type guiHarness struct {
	t   *testing.T
	w   *ui.Window
	win fyne.Window
	be  *guiBackend
	dir string
}

func newGUIHarness(t *testing.T) *guiHarness {
	t.Helper()
	isolateDataHome(t)
	dir := t.TempDir()
	srv := httptest.NewServer(demo.NewHTTPHandler(demo.New(&demo.Options{NotesDir: dir})))
	t.Cleanup(srv.Close)
	path := filepath.Join(dir, "mcp.json")
	doc := `{"mcpServers": {
  "demo": {"type": "http", "url": "` + srv.URL + demo.HTTPPath + `"},
  "broken": {"command": "/nonexistent/spyglass-test-missing-server"}
}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	h := &guiHarness{t: t, dir: dir}
	a := test.NewTempApp(t)
	h.be = newGUIBackend(cat, "", nil)
	opts := &ui.Options{ConnectAttempts: 2, RetryDelay: 10 * time.Millisecond, OpenTrace: h.be.openTrace,
		SaveDialog: func(name string, done func(fyne.URIWriteCloser, error)) {
			wr, err := storage.Writer(storage.NewFileURI(filepath.Join(dir, name)))
			done(wr, err)
		}}
	h.open(a, opts)
	t.Cleanup(h.exit)
	return h
}

// exit ends the window as runGUI does when it closes: the window, then
// the backend.
func (h *guiHarness) exit() {
	ui.Sync(h.w.Close)
	h.be.close(io.Discard)
}

// walk visits every visible object under o.
func walk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	fn(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, fn)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walk(c, fn)
		}
	}
}

func (h *guiHarness) find(match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	var found fyne.CanvasObject
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if found == nil && match(o) {
			found = o
		}
	})
	for _, o := range h.win.Canvas().Overlays().List() {
		if found == nil {
			walk(o, func(o fyne.CanvasObject) {
				if found == nil && match(o) {
					found = o
				}
			})
		}
	}
	return found
}

// menuItem is the main menu's item label in menu, failing the test
// without one.
func (h *guiHarness) menuItem(menu, label string) *fyne.MenuItem {
	h.t.Helper()
	for _, m := range h.win.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == menu && it.Label == label {
				return it
			}
		}
	}
	h.t.Fatalf("no %s → %s in the main menu", menu, label)
	return nil
}

func (h *guiHarness) button(text string) *widget.Button {
	b, _ := esc.AsButton(h.find(func(o fyne.CanvasObject) bool {
		b, ok := esc.AsButton(o)
		return ok && (b.Text == text || b.Text == "" && ui.IconButtonName(b) == text) // an icon-only action by its word
	}))
	return b
}

func (h *guiHarness) entry(placeholder string) *widget.Entry {
	return asEntry(h.find(func(o fyne.CanvasObject) bool {
		e := asEntry(o)
		return e != nil && e.PlaceHolder == placeholder
	}))
}

// asEntry is o's widget.Entry, an esc.Entry's (an entry Esc dismisses its
// dialog from) included; nil otherwise.
func asEntry(o fyne.CanvasObject) *widget.Entry {
	switch e := o.(type) {
	case *widget.Entry:
		return e
	case *esc.Entry:
		return &e.Entry
	case *jsonedit.Entry: // the JSON editors (tester, a form's JSON mode)
		return &e.Entry
	}
	return nil
}

// hasText reports whether a visible label or rich text contains s.
func (h *guiHarness) hasText(s string) bool {
	return h.find(func(o fyne.CanvasObject) bool {
		switch x := o.(type) {
		case *widget.Label:
			return strings.Contains(x.Text, s)
		case *widget.RichText:
			return strings.Contains(x.String(), s)
		case *widget.Check: // a server card's connect toggle says the state
			return strings.Contains(x.Text, s)
		case interface{ Text() string }: // an inspector row's texts (ui/rowtext.go)
			return strings.Contains(x.Text(), s)
		case interface{ Identifier() string }: // a name or URI that wraps at its separators (ui/identtext.go)
			return strings.Contains(x.Identifier(), s)
		}
		return false
	}) != nil
}

// selectRow selects, in the first list that has one, the row that makes
// s the heading of the detail view (every screen titles its selection).
func (h *guiHarness) selectRow(s string) bool {
	name := s
	if i := strings.LastIndex(s, "("); i >= 0 && strings.HasSuffix(s, ")") {
		name = s[i+1 : len(s)-1]
	}
	var lists []*widget.List
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.List); ok {
			lists = append(lists, l)
		}
	})
	for _, l := range lists {
		for i := 0; i < l.Length(); i++ {
			l.Select(i)
			if h.find(func(o fyne.CanvasObject) bool {
				// a tool's name, under its title or as the heading
				// ("Echo (echo)" and "(echo)" name the tool echo)
				if id, ok := o.(interface{ Identifier() string }); ok && id.Identifier() == name {
					return true
				}
				lb, ok := o.(*widget.Label)
				return ok && lb.SizeName == theme.SizeNameSubHeadingText && strings.Contains(lb.Text, s) && lb.Text != "demo"
			}) != nil {
				return true
			}
		}
	}
	return false
}

func (h *guiHarness) tap(text string) {
	h.t.Helper()
	var b *widget.Button
	h.waitFor("button "+text, func() bool { b = h.button(text); return b != nil && !b.Disabled() })
	ui.Sync(func() { test.Tap(b) })
}

// waitFor polls cond (under the window's lock) for up to 90 s: the bound
// only ends a test that is stuck (a 2-core machine shared under -race took
// more than 20 s for the flood to reach the inspector).
func (h *guiHarness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		var ok bool
		ui.Sync(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var texts []string
			ui.Sync(func() {
				walk(h.win.Content(), func(o fyne.CanvasObject) {
					if l, ok := o.(*widget.Label); ok && l.Text != "" {
						texts = append(texts, l.Text)
					}
				})
			})
			h.t.Fatalf("timed out waiting for %s; the window shows: %q", what, texts)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (h *guiHarness) tabs() []*container.AppTabs {
	var out []*container.AppTabs
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if t, ok := o.(*container.AppTabs); ok {
			out = append(out, t)
		}
	})
	return out
}

// openTab selects the server screen tab named name.
func (h *guiHarness) openTab(name string) {
	h.t.Helper()
	ui.Sync(func() {
		for _, t := range h.tabs() {
			for i, it := range t.Items {
				if it.Text == name {
					t.SelectIndex(i)
					return
				}
			}
		}
		h.t.Fatalf("no tab %q", name)
	})
}

func TestGUIDemoServer(t *testing.T) {
	h := newGUIHarness(t)
	h.waitFor("the server cards", func() bool { return h.hasText("demo") && h.hasText("broken") })
	h.waitFor("the disconnected state", func() bool { return h.hasText("Off") && h.hasText("Not connected.") })

	// connect to the demo server (selected first) with one click
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("Connected") && h.hasText("tools") })

	// Tools: search, select echo, fill and run
	ui.Sync(func() { h.entry("Search tools").SetText("echo") })
	h.waitFor("the echo tool", func() bool { return h.hasText("echo · Echoes the message back.") })
	ui.Sync(func() {
		if !h.selectRow("Echo (echo)") {
			t.Fatal("could not select the echo tool")
		}
	})
	h.waitFor("the Run button", func() bool { return h.button("Run") != nil })
	// switch the schema form to its JSON editor and type the arguments
	ui.Sync(func() {
		r := h.find(func(o fyne.CanvasObject) bool {
			r, ok := o.(*widget.RadioGroup)
			return ok && len(r.Options) == 2 && r.Options[1] == "JSON"
		}).(*widget.RadioGroup)
		r.SetSelected("JSON")
	})
	ui.Sync(func() {
		e := asEntry(h.find(func(o fyne.CanvasObject) bool {
			e := asEntry(o)
			return e != nil && e.MultiLine
		}))
		e.SetText(`{"message": "hello from the test"}`)
	})
	h.tap("Run")
	h.waitFor("the result", func() bool { return h.hasText("Echo: hello from the test") })

	// Inspector: the paired request/response with its badge
	h.waitFor("the tools/call rows", func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(interface{ Text() string }) // an inspector row's title (ui/rowtext.go)
			return ok && strings.HasPrefix(l.Text(), "result #") && strings.HasSuffix(l.Text(), "· tools/call")
		}) != nil
	})
	var callTitle string
	ui.Sync(func() {
		l := h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(interface{ Text() string })
			return ok && strings.HasPrefix(l.Text(), "tools/call #")
		}).(interface{ Text() string })
		callTitle = l.Text()
	})
	// the counters count it
	h.waitFor("the counters", func() bool { return h.hasText("1 tool call ·") })

	// search narrows the list to the matching payloads
	ui.Sync(func() { h.entry("Search titles and payloads").SetText("hello from the test") })
	h.waitFor("search results", func() bool { return h.hasText(callTitle) && !h.hasText("initialize #") })
	ui.Sync(func() {
		if !h.selectInspectorRow(callTitle) {
			t.Fatal("could not open " + callTitle)
		}
	})
	h.waitFor("request and response side by side", func() bool {
		return h.hasText("Request · id ") && h.hasText("Response · id ")
	})
	ui.Sync(func() { h.entry("Search titles and payloads").SetText("") })

	// pause: new events buffer, the list stays; resume shows them
	h.tap("Pause")
	h.tap("Run")
	h.waitFor("buffered events", func() bool { return h.hasText("paused, ") && !h.hasText("paused, 0 buffered") })
	h.waitFor("the counters frozen", func() bool { return h.hasText("1 tool call ·") })
	h.tap("Resume")
	h.waitFor("the second call", func() bool { return h.hasText("2 tool calls") })

	// clear
	h.tap("Clear")
	h.waitFor("cleared counters", func() bool { return h.hasText("0 tool calls · 0 errors · ") })

	// download a trace
	h.tap("Run")
	h.waitFor("a third call", func() bool { return h.hasText("1 tool call ·") })
	h.tap("Trace")
	var trace []byte
	h.waitFor("the trace file", func() bool {
		m, _ := filepath.Glob(filepath.Join(h.dir, "spyglass-trace-demo-*.json"))
		if len(m) == 0 {
			return false
		}
		trace, _ = os.ReadFile(m[0])
		return bytes.Contains(trace, []byte("hello from the test"))
	})
	if !bytes.Contains(trace, []byte(`"tools/call"`)) {
		t.Errorf("the trace has no tools/call: %.300s", trace)
	}

	// Resources: read the readme
	h.openTab("Resources")
	h.waitFor("the readme resource", func() bool { return h.hasText(demo.ReadmeURI) })
	ui.Sync(func() {
		if !h.selectRow("About the demo server") {
			t.Fatal("could not select the readme")
		}
	})
	// selecting a resource reads it
	h.waitFor("the readme contents", func() bool { return h.hasText("Raw JSON") && h.hasText(demo.ReadmeURI) })

	// Prompts: get greet with an argument
	h.openTab("Prompts")
	h.waitFor("the greet prompt", func() bool { return h.hasText("Greet someone") })
	ui.Sync(func() {
		if !h.selectRow("Greet someone") {
			t.Fatal("could not select greet")
		}
	})
	// the arguments are a ui/form form: type the name into its first field
	h.waitFor("the arguments form", func() bool { return len(h.formEntries()) >= 2 })
	ui.Sync(func() { test.Type(h.formEntries()[0], "Ada") })
	h.tap("Get prompt")
	h.waitFor("the prompt messages", func() bool { return h.hasText("Messages") && h.hasText("Ada") })

	// Server info
	h.openTab("Server info")
	h.waitFor("the negotiated version", func() bool { return h.hasText("2025-11-25") && h.hasText(demo.Name) })

	// the broken server fails with the error inline, tried once: a
	// missing command stays missing (#12)
	h.selectCard("broken")
	h.tap("Connect")
	h.waitFor("the failure", func() bool {
		return h.hasText("Failed") && h.hasText("The connection failed.") && h.hasText("Not retried")
	})
	// the demo server stays connected meanwhile
	h.waitFor("demo still connected", func() bool { return h.hasText("Connected") })
}

// formEntries are the visible entries of the ui/form forms, in order.
func (h *guiHarness) formEntries() []*widget.Entry {
	var out []*widget.Entry
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if f, ok := o.(*form.Form); ok {
			walk(f, func(o fyne.CanvasObject) {
				if e := asEntry(o); e != nil {
					out = append(out, e)
				}
			})
		}
	})
	return out
}

// TestGUIResourceTemplate fills resource template variables through the
// form generator against the demo server: a completion suggestion taken
// for the catalogue item's id, typed values for the greeting; each is
// expanded (RFC 6570) and read.
func TestGUIResourceTemplate(t *testing.T) {
	h := newGUIHarness(t)
	h.waitFor("the server cards", func() bool { return h.hasText("demo") })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("Connected") && h.hasText("tools") })
	h.openTab("Resources")
	h.waitFor("the templates", func() bool { return h.hasText(demo.ItemTemplate) })
	ui.Sync(func() {
		if !h.selectRow("Catalogue item") {
			t.Fatal("could not select the item template")
		}
	})
	// Down in the id field asks the server, whose suggestions drop down
	// under it
	h.askSuggestions("id")
	h.waitFor("id suggestions", func() bool { return h.button("100") != nil })
	h.tap("100")
	h.waitFor("the expansion", func() bool { return h.hasText("→ demo://items/100") })
	h.tap("Read")
	h.waitFor("the item", func() bool { return h.hasText("Item 100: Radio telescope") })

	ui.Sync(func() {
		if !h.selectRow("Greeting") {
			t.Fatal("could not select the greeting template")
		}
	})
	h.waitFor("two variables", func() bool { return len(h.formEntries()) == 2 })
	h.askSuggestions("lang")
	h.waitFor("lang suggestions", func() bool { return h.button("fr") != nil })
	ui.Sync(func() {
		ents := h.formEntries()
		test.Type(ents[0], "fr")
		test.Type(ents[1], "Zoe")
	})
	h.waitFor("the expansion", func() bool { return h.hasText("→ demo://greetings/fr/Zoe") })
	h.tap("Read")
	h.waitFor("the greeting", func() bool { return h.hasText("Bonjour, Zoe!") })
}

// askSuggestions puts the focus in the form's field name and presses
// Down there, which asks the server for its suggestions at once.
func (h *guiHarness) askSuggestions(name string) {
	h.t.Helper()
	var e *esc.Entry
	h.waitFor("the field "+name, func() bool {
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if f, ok := o.(*form.Form); ok && e == nil {
				e = f.FieldEntry(name)
			}
		})
		return e != nil
	})
	ui.Sync(func() {
		h.win.Canvas().Focus(e)
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	})
}

// selectInspectorRow opens the inspector's newest row titled title, as
// a click on it does. It selected every row of every list in turn until
// the details read title: with a 10 MB response listed, 15 of
// TestGUIHugeResult's 75 s under -race.
func (h *guiHarness) selectInspectorRow(title string) bool {
	return h.w.SelectEvent(title)
}

// selectCard taps the server card named name.
func (h *guiHarness) selectCard(name string) {
	h.t.Helper()
	ui.Sync(func() {
		card := h.find(func(o fyne.CanvasObject) bool {
			tp, ok := o.(fyne.Tappable)
			if !ok {
				return false
			}
			if _, isBtn := esc.AsButton(o); isBtn {
				return false
			}
			found := false
			if w, ok := o.(fyne.Widget); ok {
				walk(w, func(x fyne.CanvasObject) {
					if l, ok := x.(*widget.Label); ok && l.Text == name && l.TextStyle.Bold {
						found = true
					}
				})
			}
			_ = tp
			return found
		})
		if card == nil {
			h.t.Fatalf("no card %q", name)
		}
		test.Tap(card.(fyne.Tappable))
	})
}

// TestGUIServerEverything drives the window against the real
// server-everything over stdio: connect, list, run a tool, read a
// resource, get a prompt.
// newEverythingHarness opens the window on a catalog holding
// server-everything (stdio); queue also answers the server's own requests
// through the request queue.
func newEverythingHarness(t *testing.T, queue bool) *guiHarness {
	t.Helper()
	node := testpeers.Node(t)
	file := testpeers.File(t, testpeers.Everything)
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": node, "args": []string{file}},
	}})
	h := newCatalogHarness(t, doc)
	if queue {
		ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	}
	return h
}

// newCatalogHarness opens the window on a catalog file (h.dir/mcp.json)
// holding doc.
func newCatalogHarness(t *testing.T, doc []byte) *guiHarness {
	t.Helper()
	isolateDataHome(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	h := &guiHarness{t: t, dir: dir}
	a := test.NewTempApp(t)
	h.be = newGUIBackend(cat, "", nil)
	h.open(a, &ui.Options{ConnectAttempts: 1})
	t.Cleanup(h.exit)
	return h
}

// connectWithTools connects the selected server and waits for its tools.
func (h *guiHarness) connectWithTools() {
	h.t.Helper()
	h.tap("Connect")
	h.waitFor("connected with tools", func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && strings.HasSuffix(l.Text, " tools") && !strings.HasPrefix(l.Text, "0 ")
		}) != nil
	})
}

func TestGUIServerEverything(t *testing.T) {
	h := newEverythingHarness(t, false)
	h.connectWithTools()
	ui.Sync(func() { h.entry("Search tools").SetText("get-sum") })
	h.waitFor("get-sum", func() bool { return h.hasText("get-sum · ") })
	ui.Sync(func() {
		if !h.selectRow("get-sum") {
			var all []string
			walk(h.win.Content(), func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok {
					all = append(all, l.Text)
				}
			})
			t.Fatalf("could not select get-sum: %q", all)
		}
	})
	ui.Sync(func() {
		r := h.find(func(o fyne.CanvasObject) bool {
			r, ok := o.(*widget.RadioGroup)
			return ok && len(r.Options) == 2 && r.Options[1] == "JSON"
		}).(*widget.RadioGroup)
		r.SetSelected("JSON")
	})
	ui.Sync(func() {
		asEntry(h.find(func(o fyne.CanvasObject) bool {
			e := asEntry(o)
			return e != nil && e.MultiLine
		})).SetText(`{"a": 19, "b": 23}`)
	})
	h.tap("Run")
	h.waitFor("the sum", func() bool { return h.hasText("42") && h.hasText("Result") })
	h.waitFor("the paired rows", func() bool { return h.hasText("1 tool call ·") })

	h.openTab("Resources")
	h.waitFor("resources", func() bool { return h.hasText("demo://resource/static/document/") || h.hasText("resources ·") })
	ui.Sync(func() {
		if !h.selectRow("") {
			t.Fatal("no resource to select")
		}
	})
	// selecting a resource reads it
	h.waitFor("the contents", func() bool { return h.hasText("Raw JSON") })

	h.openTab("Prompts")
	h.waitFor("prompts", func() bool { return h.hasText("simple-prompt") || h.hasText("Simple") })
	ui.Sync(func() {
		if !h.selectRow("imple") {
			t.Fatal("could not select the simple prompt")
		}
	})
	h.tap("Get prompt")
	h.waitFor("messages", func() bool { return h.hasText("Messages") && h.hasText("This is a simple prompt") })
}

// TestGUIURLElicitationRequired: a tool call refused with -32042
// (server-everything's trigger-url-elicitation, error path) puts the page
// to open in the request queue and tells the user to run the tool again;
// opened and run again, the call goes through (a URL elicitation request
// this time, accepted by opening its page).
func TestGUIURLElicitationRequired(t *testing.T) {
	t.Setenv("BROWSER", "true") // "opens" URLs without a browser
	h := newEverythingHarness(t, true)
	h.connectWithTools()
	ui.Sync(func() { h.entry("Search tools").SetText("trigger-url") })
	h.waitFor("trigger-url-elicitation", func() bool { return h.hasText("trigger-url-elicitation · ") })
	ui.Sync(func() {
		if !h.selectRow("trigger-url-elicitation") {
			t.Fatal("could not select trigger-url-elicitation")
		}
	})
	h.setArgs(`{"url": "https://example.com/consent", "errorPath": true}`)
	h.tap("Run")
	h.waitFor("the refusal, saying what to do", func() bool {
		return h.hasText("Open the page below the screens in your browser, then run the tool again.")
	})
	h.waitFor("the prerequisite page in the queue", func() bool {
		return h.hasText("modelcontextprotocol.io") && h.button("Open in Browser") != nil
	})
	h.tap("Open in Browser")
	// Nothing will say the page was done with: the user closes the panel.
	h.waitFor("the page opened", func() bool { return h.button("Close") != nil })
	h.tap("Close")
	h.waitFor("the queue emptied", func() bool { return h.button("Open in Browser") == nil && h.button("Close") == nil })

	h.tap("Run")
	h.waitFor("the elicitation of the retried call", func() bool {
		return h.hasText("example.com/consent") && h.button("Open in Browser") != nil
	})
	h.tap("Open in Browser")
	h.waitFor("the call's result", func() bool { return h.hasText("User completed the URL elicitation flow") })
}

// TestGUIURLElicitationCompleted: the demo's link_account refuses with
// -32042 until its page is done; the queue shows the page, marks it
// completed when notifications/elicitation/complete arrives, and the tool
// runs again.
func TestGUIURLElicitationCompleted(t *testing.T) {
	t.Setenv("BROWSER", "true")
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.selectTool("link_account", "")
	h.setArgs(`{"finish_ms": 0}`) // the page stays open until complete_link
	h.tap("Run")
	h.waitFor("the refusal", func() bool {
		return h.hasText("Open the page below the screens in your browser, then run the tool again.")
	})
	h.waitFor("the page in the queue", func() bool {
		return h.hasText("example.com/spyglass-demo/link-account") && h.button("Open in Browser") != nil
	})
	h.tap("Open in Browser")
	h.waitFor("waiting for the page", func() bool { return h.hasText("Waiting for completion") })

	// the user finishes the page (complete_link plays the web site)
	h.runTool("complete_link", "")
	h.waitFor("the page done at the server", func() bool {
		return h.hasText("Completed 1 link_account page(s); the demo account is linked.")
	})
	// notifications/elicitation/complete takes the request off the queue
	h.waitFor("the page completed", func() bool {
		return !h.hasText("Waiting for completion") && h.button("Open in Browser") == nil
	})
	h.runTool("link_account", "")
	h.waitFor("the linked account", func() bool { return h.hasText("The demo account is linked to this session.") })
}

// selectTool searches the Tools screen for name, waits for its row and
// selects the row that reads row (name when row is "").
func (h *guiHarness) selectTool(name, row string) {
	h.t.Helper()
	if row == "" {
		row = name
	}
	ui.Sync(func() { h.entry("Search tools").SetText(name) })
	// its row: "name · description" under a title of its own, the name
	// itself as the title of a tool that has none
	h.waitFor(name, func() bool {
		return h.hasText(name+" · ") || h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && l.Text == name
		}) != nil
	})
	ui.Sync(func() {
		if !h.selectRow(row) {
			h.t.Fatalf("could not select %s", name)
		}
	})
}

// runTool searches the Tools screen for name, selects it and runs it with
// args (JSON; empty keeps the form as it is).
func (h *guiHarness) runTool(name, args string) {
	h.t.Helper()
	h.selectTool(name, "")
	if args != "" {
		h.setArgs(args)
	}
	h.tap("Run")
}

// TestGUIProgressAndCancel: slow_task shows live progress; Cancel stops it
// and the inspector marks the request cancelled.
func TestGUIProgressAndCancel(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.selectTool("slow_task", "")
	ui.Sync(func() {
		h.find(func(o fyne.CanvasObject) bool {
			r, ok := o.(*widget.RadioGroup)
			return ok && len(r.Options) == 2 && r.Options[1] == "JSON"
		}).(*widget.RadioGroup).SetSelected("JSON")
	})
	ui.Sync(func() {
		asEntry(h.find(func(o fyne.CanvasObject) bool {
			e := asEntry(o)
			return e != nil && e.MultiLine
		})).SetText(`{"steps": 200, "step_ms": 100}`)
	})
	h.tap("Run")
	h.waitFor("progress", func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			p, ok := o.(*widget.ProgressBar)
			return ok && p.Value > 0 && p.Max == 200
		}) != nil
	})
	h.tap("Cancel")
	h.waitFor("the cancelled call", func() bool { return h.hasText("You cancelled the call") })
	// one badge on the result, one on the inspector's tools/call row
	h.waitFor("the cancelled badges", func() bool {
		n := 0
		walk(h.win.Content(), func(x fyne.CanvasObject) {
			if tx, ok := x.(*canvas.Text); ok && strings.HasPrefix(tx.Text, "cancelled") {
				n++
			}
		})
		return n >= 2
	})
}

// TestGUIFlakyWrite: the demo's flaky_write crashes the server before it
// answers; the call ends without a response, the window keeps the screens
// and says the server disconnected, and the next call starts it again.
func TestGUIFlakyWrite(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// this test binary serves the demo over stdio when asked (TestMain)
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo": map[string]any{"command": exe, "args": []string{"--demo-server"},
			"env": map[string]string{demo.NotesEnv: dir}},
	}})
	h := newCatalogHarness(t, doc)

	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("flaky_write · ") || h.hasText("echo · Echoes the message back.") })
	h.selectTool("flaky_write", "")
	h.setArgs(`{"text": "written before the crash"}`)
	h.tap("Run")
	h.waitFor("the crash", func() bool {
		// a crash is a transport failure, worded cause first (#12): not
		// "Protocol error"
		return h.hasText("Disconnected: ") && h.hasText("The next request starts it again.") &&
			h.hasText("The call failed") && h.hasText("server process exited with status 3 before answering.") &&
			!h.hasText("Protocol error")
	})
	h.waitFor("no response", func() bool {
		n := 0
		walk(h.win.Content(), func(x fyne.CanvasObject) {
			if tx, ok := x.(*canvas.Text); ok && tx.Text == "no response" {
				n++
			}
		})
		return n > 0
	})
	// its details say why there is no response
	if err := h.w.OpenEvent("tools/call #", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the no-response marker", func() bool { return h.hasText("No response: the connection closed") })
	// the next call starts the server again
	h.selectTool("read_notes", "")
	h.tap("Run")
	h.waitFor("connected again, with the note", func() bool {
		return !h.hasText("The next request starts it again.") && h.hasText("notes: [1]") && h.hasText("Connected")
	})
}

// setArgs switches the tool form to its JSON editor and types args.
func (h *guiHarness) setArgs(args string) {
	h.t.Helper()
	ui.Sync(func() {
		h.find(func(o fyne.CanvasObject) bool {
			r, ok := o.(*widget.RadioGroup)
			return ok && len(r.Options) == 2 && r.Options[1] == "JSON"
		}).(*widget.RadioGroup).SetSelected("JSON")
	})
	ui.Sync(func() {
		asEntry(h.find(func(o fyne.CanvasObject) bool {
			e := asEntry(o)
			return e != nil && e.MultiLine
		})).SetText(args)
	})
}

// TestGUIBackendCatalog: edits made in the window are saved through the
// catalog and survive a restart; imports skip clashes; a --config file is
// read-only and says why.
func TestGUIBackendCatalog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	orig := `{
  "mcpServers": {
    "one": {"command": "node", "args": ["a.js"], "x-unknown": true}
  }
}
`
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	be := newGUIBackend(cat, "", nil)
	if ro, _ := be.ReadOnly(); ro {
		t.Fatal("a --catalog file is read-only")
	}
	if err := be.SaveServer("", ui.ServerConfig{Name: "web", Transport: "http", URL: "http://127.0.0.1:3000/mcp",
		Headers: map[string]string{"X-Team": "blue"}, RequestTimeout: 30 * time.Second, AutoRefreshOnListChanged: true}); err != nil {
		t.Fatal(err)
	}
	one := be.Servers()[0]
	one.Args = []string{"b.js"}
	if err := be.SaveServer("one", one); err != nil {
		t.Fatal(err)
	}
	added, skipped, err := be.Import([]byte(`{"servers": {"vs": {"type": "stdio", "command": "uvx", "args": ["srv"]}, "web": {"type": "http", "url": "http://x/mcp"}}}`), "mcp.json")
	if err != nil || strings.Join(added, ",") != "vs" || strings.Join(skipped, ",") != "web" {
		t.Fatalf("import: %v %v %v", added, skipped, err)
	}
	// restart: read the file again
	cat2, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	got := newGUIBackend(cat2, "", nil).Servers()
	if len(got) != 3 || got[0].Args[0] != "b.js" || got[1].Name != "web" || got[1].Headers["X-Team"] != "blue" ||
		got[1].RequestTimeout != 30*time.Second || !got[1].AutoRefreshOnListChanged || got[2].Command != "uvx" {
		t.Errorf("after restart: %+v", got)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"x-unknown": true`) {
		t.Errorf("an unknown field was lost:\n%s", data)
	}
	if err := newGUIBackend(cat2, "", nil).RemoveServer("vs"); err != nil {
		t.Fatal(err)
	}

	// --config: read-only, with the reason
	ro, err := catalog.LoadReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	be = newGUIBackend(ro, "opened with --config "+path+", which Spyglass never changes", nil)
	if yes, why := be.ReadOnly(); !yes || !strings.Contains(why, "--config") {
		t.Errorf("ReadOnly = %v %q", yes, why)
	}
	if err := be.SaveServer("", ui.ServerConfig{Name: "x", Transport: "stdio", Command: "y"}); err == nil {
		t.Error("saved into a --config file")
	}
}

// TestGUICatalogChangedOnDisk: the window follows mcp.json while it is
// open. A server another program adds gets a card; a save from the window
// right after another writer keeps both changes; a file saved broken mid-
// edit leaves the list as it was and says why.
func TestGUICatalogChangedOnDisk(t *testing.T) {
	h := newCatalogHarness(t, []byte(`{"mcpServers": {"first-server": {"command": "node", "args": ["a.js"]}}}`))
	path := filepath.Join(h.dir, "mcp.json")
	watch := func() context.CancelFunc {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		h.be.watch(ctx, func(level, msg string) {
			ui.Do(func() {
				h.w.ServersChanged()
				h.w.Toast(level, msg)
			})
		})
		return cancel
	}
	// writeUntilSeen writes doc into the catalog until the window shows
	// what seen looks for: a write made before the watch is armed goes
	// unnoticed, and nothing says when it is armed. The writes get further
	// apart, so that a slow machine still sees the file quiet for the
	// watch's settle time.
	writeUntilSeen := func(what, doc string, seen func() bool) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for every := 300 * time.Millisecond; ; every *= 2 {
			if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			for next := time.Now().Add(every); time.Now().Before(next); time.Sleep(20 * time.Millisecond) {
				var ok bool
				ui.Sync(func() { ok = seen() })
				if ok {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	stopWatch := watch()
	h.waitFor("the first card", func() bool { return h.hasText("first-server") })

	// an editor adds a server
	writeUntilSeen("the editor's server", `{"mcpServers": {"first-server": {"command": "node", "args": ["a.js"]}, "from-editor": {"command": "uvx", "args": ["srv"]}}}`,
		func() bool { return h.hasText("from-editor") && h.hasText("changed: list reloaded") })

	// another writer, then a save from the window before any reload
	// (the watch is stopped, so the window's catalog is stale for sure)
	stopWatch()
	h.waitFor("the watch stopped", func() bool { return watchGoroutines() == 0 })
	if err := catalog.Update(path, nil, func(c *catalog.Catalog) error {
		return c.Add("from-other-spyglass", catalog.Server{Type: catalog.TypeHTTP, URL: "http://127.0.0.1:9/mcp"})
	}); err != nil {
		t.Fatal(err)
	}
	h.be.mu.Lock()
	stale, _ := h.be.cat.DiskChanged()
	h.be.mu.Unlock()
	if !stale {
		t.Fatal("the window's catalog already has the other writer's change")
	}
	if err := h.be.SaveServer("", ui.ServerConfig{Name: "from-window", Transport: "stdio", Command: "python3"}); err != nil {
		t.Fatalf("saving right after another writer: %v", err)
	}
	ui.Sync(h.w.ServersChanged) // as the window does after its own save
	h.waitFor("every writer's server", func() bool {
		return h.hasText("from-other-spyglass") && h.hasText("from-window") && h.hasText("from-editor")
	})
	again, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(again.Names(), ","); got != "first-server,from-editor,from-other-spyglass,from-window" {
		t.Errorf("the file holds %s", got)
	}

	watch()

	// saved broken mid-edit
	writeUntilSeen("the error", `{"mcpServers": {"first-server": {"command": `, func() bool { return h.hasText("cannot be read") })
	var kept bool
	ui.Sync(func() { kept = h.hasText("from-window") && h.hasText("first-server") })
	if !kept {
		t.Error("a broken file emptied the list")
	}

	// removed for a moment: the list stays
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the removal noted", func() bool { return h.hasText("was removed") })
	ui.Sync(func() { kept = h.hasText("from-window") && h.hasText("first-server") })
	if !kept {
		t.Error("a removed file emptied the list")
	}
}

// watchGoroutines counts the goroutines running catalog.Watch.
func watchGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "/core/catalog.Watch(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestGUIInputVariables: connecting a server whose settings hold VS Code
// ${input:…} placeholders asks for their values (masked); dismissed, the
// card says what is missing; given, the server gets them and they never
// reach the record.
func TestGUIInputVariables(t *testing.T) {
	srv := httptest.NewServer(demo.NewHTTPHandler(demo.New(&demo.Options{NotesDir: t.TempDir()})))
	t.Cleanup(srv.Close)
	h := newCatalogHarness(t, []byte(`{"mcpServers": {"vs": {"type": "http", "url": "`+srv.URL+demo.HTTPPath+`", "headers": {"X-Team-Token": "${input:team-token}"}}}}`))

	h.tap("Connect")
	h.waitFor("the question", func() bool { return h.entry("value of ${input:team-token}") != nil })
	h.tap("Don't connect")
	h.waitFor("the reason", func() bool {
		return h.hasText("Needs values for VS Code inputs: ${input:team-token} in headers.X-Team-Token")
	})

	h.tap("Retry")
	h.waitFor("the question again", func() bool { return h.entry("value of ${input:team-token}") != nil })
	ui.Sync(func() {
		e := h.entry("value of ${input:team-token}")
		if !e.Password {
			t.Error("the value is typed in the clear")
		}
		e.SetText("typed-team-secret-42")
	})
	h.tap("Use these values")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })

	var leaked []string
	for _, e := range h.be.log.Events() {
		b, _ := json.Marshal(e)
		if strings.Contains(string(b), "typed-team-secret-42") {
			leaked = append(leaked, e.Text)
		}
	}
	if len(leaked) > 0 {
		t.Errorf("the typed value is in the record: %q", leaked)
	}
	sent := false
	for _, e := range h.be.log.Events() {
		if e.HTTP != nil && len(e.HTTP.ReqHeader["X-Team-Token"]) > 0 {
			sent = true
		}
	}
	if !sent {
		t.Error("the header was not sent")
	}
}

// runFlood runs the demo's flood of n log notifications from the Tools
// screen, with the server's log level set to debug in the Logs screen
// first when debug is set.
func (h *guiHarness) runFlood(n int, debug bool) {
	h.t.Helper()
	if debug {
		h.openTab("Logs")
		ui.Sync(func() {
			h.find(func(o fyne.CanvasObject) bool {
				s, ok := o.(*widget.Select)
				return ok && s.PlaceHolder == "Choose…" && len(s.Options) > 0 && s.Options[0] == "debug" // Logs: Server level
			}).(*widget.Select).SetSelected("debug")
		})
		h.openTab("Tools")
	}
	h.runTool("flood", fmt.Sprintf(`{"count": %d, "kind": "log"}`, n))
}

// waitEvents waits for the inspector's counters to count more than n
// events.
func (h *guiHarness) waitEvents(what string, n int) {
	h.t.Helper()
	h.waitFor(what, func() bool {
		return h.find(func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			if !ok || !strings.HasSuffix(l.Text, " events") {
				return false
			}
			// "1 tool call · 0 errors · 42 events": the count after the last dot
			var got int
			_, _ = fmt.Sscanf(l.Text[strings.LastIndex(l.Text, "· ")+len("· "):], "%d events", &got)
			return got > n
		}) != nil
	})
}

// TestGUIFlood: a server that floods log notifications; every one reaches
// the inspector and the Logs screen, and the window keeps answering.
func TestGUIFlood(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.runFlood(5000, true)
	h.waitEvents("the flood in the inspector", 5000)
	h.openTab("Logs")
	h.waitFor("the messages in the Logs screen", func() bool {
		var list *widget.List
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.List); ok && list == nil && l.Length() >= 5000 {
				list = l
			}
		})
		return list != nil
	})
}

// open builds and shows the window while no callback of an earlier test's
// window runs (Fyne's text measuring shares caches).
func (h *guiHarness) open(a fyne.App, opts *ui.Options) {
	ui.Sync(func() {
		h.w = ui.New(a, h.be, opts)
		h.win = h.w.Window()
		h.win.Resize(fyne.NewSize(1280, 800))
		h.win.Show()
	})
}

// TestGUIRequestQueue: with ui/requests' queue (the app's default), the
// demo's elicit_form shows its form under the screens, a decline reaches
// the tool, and the panel goes away; sampling is answered by the default
// testing profile.
func TestGUIRequestQueue(t *testing.T) {
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.selectTool("elicit_form", "")
	h.tap("Run")
	h.waitFor("the queued elicitation", func() bool { return h.button("Decline") != nil && h.button("Submit") != nil })
	// the window still fits the smallest supported size, the inspector's
	// details open
	h.waitFor("the tools/call row", func() bool { return h.hasText("tools/call #") })
	ui.Sync(func() {
		var title string
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "tools/call #") && title == "" {
				title = l.Text
			}
		})
		h.selectInspectorRow(title)
	})
	ui.Sync(func() {
		m := h.win.Content().MinSize()
		t.Logf("the window needs at least %v", m)
		if m.Width > 1024 || m.Height > 700 {
			t.Errorf("with a request waiting the window needs %v, more than 1024×700", m)
			walk(h.win.Content(), func(o fyne.CanvasObject) {
				if sp, ok := o.(*container.Split); ok {
					t.Logf("a split (horizontal %v) needs %v | %v", sp.Horizontal, sp.Leading.MinSize(), sp.Trailing.MinSize())
				}
			})
		}
	})
	h.tap("Decline")
	h.waitFor("the answer in the result", func() bool { return h.hasText("The user chose decline") && h.button("Submit") == nil })

	h.selectTool("sample", "(sample)")
	// Manual Review is the default profile; the user makes Quick Mock the
	// active one in Settings → Sampling profiles, and then it auto-responds:
	// the answer arrives without a sampling panel in the queue.
	ui.Sync(func() { h.menuItem("Settings", "Sampling profiles…").Action() })
	ui.Sync(func() {
		sel, _ := h.find(func(o fyne.CanvasObject) bool {
			s, ok := o.(*esc.Select)
			return ok && slices.Contains(s.Options, "Quick Mock")
		}).(*esc.Select)
		if sel == nil {
			t.Fatal("no Active Profile choice in the profiles dialog")
		}
		sel.SetSelected("Quick Mock")
	})
	ui.Sync(func() { // the dialog's Close, not a Close elsewhere in the window
		walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if b, ok := esc.AsButton(o); ok && b.Text == "Close" {
				test.Tap(b)
			}
		})
	})
	h.tap("Run")
	h.waitFor("the sampled answer", func() bool {
		return h.hasText(`The model (mock-model-1.0) answered (stopReason "endTurn"):`) &&
			h.hasText("This is a mock LLM response for testing purposes.")
	})
	ui.Sync(func() {
		if h.button("Auto-respond") != nil || h.button("Edit & Send") != nil {
			t.Error("the auto-responding profile left the sampling request in the queue")
		}
	})
	// the sampling request is on the inspector's LLM tab
	ui.Sync(func() { test.Tap(h.button("LLM")) })
	h.waitFor("LLM traffic", func() bool { return h.hasText("sampling/createMessage") })
}

// TestGUIRoots: a folder dropped on the window becomes a root of the
// selected server, is saved in the catalog and reaches the server.
func TestGUIRoots(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	folder := filepath.Join(h.dir, "project root")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	ui.Sync(func() { h.w.Drop([]fyne.URI{storage.NewFileURI(folder)}) })
	ui.Sync(func() { h.entry("Search tools") }) // the Roots screen is shown
	h.waitFor("the root saved", func() bool {
		data, _ := os.ReadFile(filepath.Join(h.dir, "mcp.json"))
		return strings.Contains(string(data), "project%20root") || strings.Contains(string(data), "project root")
	})
	if err := h.w.ShowScreen("Tools"); err != nil {
		t.Fatal(err)
	}
	h.selectTool("list_roots", "")
	h.tap("Run")
	h.waitFor("the root at the server", func() bool { return h.hasText("roots: [1]") })
}

// TestGUIURLElicitationBrowserFails: a browser command that fails (here
// one that prints why and exits 3, as xdg-open does with no browser set
// up) leaves the page's request pending: the panel says why in plain
// words with the command's last line, and "I opened it" accepts it once
// the user opened the URL themselves.
func TestGUIURLElicitationBrowserFails(t *testing.T) {
	t.Setenv("BROWSER", `sh -c 'echo "no method available for opening it" >&2; exit 3'`)
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) })
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("echo · Echoes the message back.") })
	h.selectTool("link_account", "")
	h.setArgs(`{"finish_ms": 0}`)
	h.tap("Run")
	h.waitFor("the page in the queue", func() bool {
		return h.hasText("example.com/spyglass-demo/link-account") && h.button("Open in Browser") != nil
	})
	h.tap("Open in Browser")
	h.waitFor("the reason the browser did not open", func() bool {
		return h.hasText("The browser did not open. The command sh -c 'echo \"no method available for opening it\" >&2; exit 3' exited with status 3: no method available for opening it.")
	})
	var accepted bool
	ui.Sync(func() { accepted = h.hasText("Waiting for completion") })
	if accepted {
		t.Fatal("accepted although the browser did not open")
	}
	h.tap("I opened it")
	h.waitFor("waiting for the page", func() bool { return h.hasText("Waiting for completion") })
}
