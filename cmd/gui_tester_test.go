package cmd

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/adrg/xdg"

	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/ui"
)

// headerLog records the headers of the requests an HTTP server received,
// by JSON-RPC method.
type headerLog struct {
	mu   sync.Mutex
	seen map[string][]http.Header
}

func (l *headerLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			var m struct {
				Method string `json:"method"`
			}
			if json.Unmarshal(body, &m) == nil && m.Method != "" {
				l.mu.Lock()
				l.seen[m.Method] = append(l.seen[m.Method], r.Header.Clone())
				l.mu.Unlock()
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (l *headerLog) get(method string) []http.Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen[method]
}

// chosenDataHome marks the XDG_DATA_HOME a test chose with useDataHome.
const chosenDataHome = "SPYGLASS_TEST_CHOSEN_DATA_HOME"

// useDataHome points the XDG data folder (the tester's history) at a
// fresh folder for the test.
func useDataHome(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv(chosenDataHome, dir)
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	return dir
}

// testerEditor is the tester's request editor.
func (h *guiHarness) testerEditor() *widget.Entry {
	return h.entry(`{"jsonrpc": "2.0", "method": "…", "params": {…}}`)
}

// TestGUITesterDemo drives the Experimental screen and the JSON-RPC
// Tester against the demo server over Streamable HTTP: the server's
// experimental capability and its method, Test → into the tester, a
// custom header the server received, a line:column JSON error, an unknown
// method answered -32601, the history kept across a restart with the
// secret header masked, and a client experimental capability saved in
// the catalog and advertised on the next connect.
func TestGUITesterDemo(t *testing.T) {
	data := useDataHome(t)
	hl := &headerLog{seen: map[string][]http.Header{}}
	srv := httptest.NewServer(hl.wrap(demo.NewHTTPHandler(demo.New(&demo.Options{NotesDir: t.TempDir()}))))
	t.Cleanup(srv.Close)
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo": map[string]any{"type": "http", "url": srv.URL + demo.HTTPPath},
	}})
	h := newCatalogHarness(t, doc)
	h.connectWithTools()

	// Experimental: the warning and the server's capability with its method
	h.openTab("Experimental")
	h.waitFor("the experimental screen", func() bool {
		return h.hasText("non-standard") && h.hasText("Methods: "+demo.ExperimentalMethod)
	})
	h.tap("Test")
	h.waitFor("the tester pre-filled", func() bool {
		e := h.testerEditor()
		return e != nil && strings.Contains(e.Text, `"method": "`+demo.ExperimentalMethod+`"`)
	})

	// a custom header for this request, one of them secret
	for _, kv := range [][2]string{{"X-Tester", "yes"}, {"Authorization", "Bearer sekrit-123"}} {
		h.tap("Add Header")
		ui.Sync(func() {
			// the newest row is the last with an empty name
			var names, values []*widget.Entry
			walk(h.win.Content(), func(o fyne.CanvasObject) {
				if e, ok := o.(*widget.Entry); ok && e.PlaceHolder == "Header-Name" && e.Text == "" {
					names = append(names, e)
				}
				if e, ok := o.(*widget.Entry); ok && e.PlaceHolder == "value" && e.Text == "" {
					values = append(values, e)
				}
			})
			if len(names) == 0 || len(values) == 0 {
				t.Fatal("no header row")
			}
			names[0].SetText(kv[0])
			values[0].SetText(kv[1])
		})
	}
	h.tap("Send Request")
	h.waitFor("the answer", func() bool { return h.hasText(`"result"`) && h.hasText("id ") })
	hs := hl.get(demo.ExperimentalMethod)
	if len(hs) != 1 || hs[0].Get("X-Tester") != "yes" || hs[0].Get("Authorization") != "Bearer sekrit-123" {
		t.Fatalf("the server received %v for %s, want one request with the custom headers", hs, demo.ExperimentalMethod)
	}
	if got := hl.get("tools/list"); len(got) == 0 || got[0].Get("X-Tester") != "" {
		t.Fatalf("the custom header leaked onto other requests: %v", got)
	}
	h.waitFor("the history row", func() bool { return h.hasText(demo.ExperimentalMethod + " (ok)") })

	// a JSON mistake is shown with its line and column
	ui.Sync(func() { h.testerEditor().SetText("{\n  \"method\": ,\n}") })
	h.waitFor("the line:column error", func() bool { return h.hasText("line 2, column 13: unexpected character ','") })

	// a method nobody implements: the JSON-RPC error -32601 and its badge
	ui.Sync(func() { h.testerEditor().SetText(`{"jsonrpc": "2.0", "method": "no/such-method", "params": {}}`) })
	h.tap("Send Request")
	h.waitFor("the -32601 error", func() bool { return h.hasText(`"code": -32601`) })
	h.waitFor("the error row", func() bool { return h.hasText("no/such-method (error -32601)") })
	h.waitFor("the error -32601 badge", func() bool { return h.hasBadge("error -32601 · ") })

	// the history survives a restart, with the secret header masked (the
	// window writes it off the UI thread: wait for the second entry)
	restarted := newGUIBackend(h.be.cat, "", nil)
	var hist []ui.HistoryEntry
	var err error
	h.waitFor("both requests in the history file", func() bool {
		hist, err = restarted.History("demo")
		return err != nil || len(hist) >= 2
	})
	if err != nil || len(hist) != 2 || hist[0].Method != "no/such-method" || hist[0].Code != -32601 || hist[1].Method != demo.ExperimentalMethod {
		t.Fatalf("history after restart: %+v %v", hist, err)
	}
	if hist[1].Header["X-Tester"] != "yes" || hist[1].Header["Authorization"] != "****" {
		t.Fatalf("history headers %v", hist[1].Header)
	}
	files, _ := filepath.Glob(filepath.Join(data, "spyglass", "history", "*.json"))
	if len(files) != 1 {
		t.Fatalf("history files %v", files)
	}
	raw, _ := os.ReadFile(files[0])
	if strings.Contains(string(raw), "sekrit") {
		t.Fatalf("the history file holds the secret:\n%s", raw)
	}
	// Load from History puts the request and its headers back
	ui.Sync(func() {
		s := h.find(func(o fyne.CanvasObject) bool {
			s, ok := o.(*widget.Select)
			return ok && s.PlaceHolder == "Load from History"
		}).(*widget.Select)
		s.SetSelectedIndex(1)
	})
	h.waitFor("the loaded request", func() bool {
		e := h.testerEditor()
		return e != nil && strings.Contains(e.Text, demo.ExperimentalMethod)
	})

	// a client experimental capability: saved in the catalog, advertised
	// on the next connect and shown in Server info
	h.openTab("Experimental")
	ui.Sync(func() {
		c := h.find(func(o fyne.CanvasObject) bool {
			c, ok := o.(*widget.Check)
			return ok && c.Text == demo.ExperimentalCapability
		})
		if c == nil {
			t.Fatal("no toggle for the server's capability")
		}
		test.Tap(c.(*widget.Check))
	})
	h.waitFor("the capability saved in the catalog", func() bool {
		cat, _ := os.ReadFile(filepath.Join(h.dir, "mcp.json"))
		return strings.Contains(string(cat), `"experimentalCapabilities"`) && strings.Contains(string(cat), `"`+demo.ExperimentalCapability+`"`)
	})
	h.tap("Disconnect")
	h.waitFor("disconnected", func() bool { return h.button("Connect") != nil })
	h.connectWithTools()
	h.openTab("Server info")
	h.waitFor("the advertised capability", func() bool { return h.hasBadge("experimental (" + demo.ExperimentalCapability + ")") })
}

// hasBadge reports whether a visible badge starts with prefix (call it
// on the UI thread, as waitFor does).
func (h *guiHarness) hasBadge(prefix string) bool {
	found := false
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		if t, ok := o.(*canvas.Text); ok && strings.HasPrefix(t.Text, prefix) {
			found = true
		}
	})
	return found
}

// TestGUITesterEverything sends raw requests to server-everything over
// stdio: a method it does not know is answered -32601 and shown with that
// badge; a tools/call carrying a progressToken of the user's own gets its
// progress; custom headers are off on stdio.
func TestGUITesterEverything(t *testing.T) {
	useDataHome(t)
	h := newEverythingHarness(t, false)
	h.connectWithTools()
	h.openTab("Experimental")
	h.waitFor("no server experimental capabilities", func() bool {
		return h.hasText("This server declares no experimental capabilities.")
	})
	h.waitFor("the tester", func() bool { return h.testerEditor() != nil && h.button("Add Header") != nil })
	ui.Sync(func() {
		if !h.button("Add Header").Disabled() || !h.hasText("only over HTTP") {
			t.Fatal("custom headers are offered on stdio")
		}
		h.testerEditor().SetText(`{"jsonrpc": "2.0", "method": "experimental/myMethod", "params": {"x": 1}}`)
	})
	h.tap("Send Request")
	h.waitFor("the -32601 error", func() bool { return h.hasText(`"code": -32601`) && h.hasBadge("error -32601 · ") })
	h.waitFor("the error row", func() bool { return h.hasText("experimental/myMethod (error -32601)") })

	ui.Sync(func() {
		h.testerEditor().SetText(`{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "trigger-long-running-operation",
  "arguments": {"duration": 0.2, "steps": 2}, "_meta": {"progressToken": "mine-1"}}}`)
	})
	h.tap("Send Request")
	h.waitFor("the result and its progress", func() bool {
		return h.hasText("Long running operation completed") && h.hasText("Progress 2 of 2")
	})
	h.waitFor("the ok row", func() bool { return h.hasText("tools/call (ok)") })
}
