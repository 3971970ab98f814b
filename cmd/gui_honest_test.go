package cmd

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/demo"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/testpeers"
	"github.com/spyglass-mcp/spyglass/ui"
)

// newMemoryHarness opens the window on a catalog holding server-memory
// over stdio, started through sh so that the wrapper writes "boot" to
// stderr before the real server runs.
func newMemoryHarness(t *testing.T) *guiHarness {
	t.Helper()
	node := testpeers.Node(t)
	file := testpeers.File(t, testpeers.Memory)
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"memory": map[string]any{
			"command": "sh",
			"args":    []string{"-c", `echo boot >&2; exec "$0" "$1"`, node, file},
			"env":     map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")},
		},
	}})
	return newCatalogHarness(t, doc)
}

// stderrLines are the lines the Logs screen's stderr view shows: the
// monospace texts of the "stderr" tab's list (ui/rowtext.go).
func (h *guiHarness) stderrLines() []string {
	type styled interface {
		Text() string
		TextStyle() fyne.TextStyle
	}
	var out []string
	walk(h.win.Content(), func(o fyne.CanvasObject) {
		tabs, ok := o.(*container.AppTabs)
		if !ok {
			return
		}
		for _, it := range tabs.Items {
			if it.Text != "stderr" {
				continue
			}
			walk(it.Content, func(x fyne.CanvasObject) {
				if y, ok := x.(styled); ok && y.TextStyle().Monospace && y.Text() != "" {
					out = append(out, y.Text())
				}
			})
		}
	})
	return out
}

// TestGUIStderrFromFirstByte: what a stdio server writes to stderr while
// it starts (before the initialize answer, so before the window has its
// screens) is in the record and in Logs → stderr: the wrapper's "boot"
// and server-memory's own start-up line.
func TestGUIStderrFromFirstByte(t *testing.T) {
	h := newMemoryHarness(t)
	h.connectWithTools()
	var inLog bool
	for _, e := range h.be.log.Events() {
		if e.Kind == events.KindStderr && e.Conn == "memory" && e.Text == "boot" {
			inLog = true
		}
	}
	if !inLog {
		t.Fatal("the record has no stderr line \"boot\"")
	}
	h.openTab("Logs")
	h.openTab("stderr")
	h.waitFor("boot in Logs → stderr", func() bool {
		lines := h.stderrLines()
		boot, own := false, false
		for _, l := range lines {
			boot = boot || l == "boot"
			own = own || strings.Contains(l, "Knowledge Graph MCP Server")
		}
		return boot && own
	})
	ui.Sync(func() {
		if lines := h.stderrLines(); len(lines) == 0 || lines[0] != "boot" {
			t.Errorf("stderr view starts with %q, want the first byte's line \"boot\" first", lines)
		}
	})
}

// TestGUINoRetryOfDeterministicFailures: a failure that another attempt
// would meet again (command not found, not executable, HTTP 404, HTTP
// 401 without an OAuth challenge) is tried once and says so; a transient
// one (connection refused, HTTP 503) keeps the retry. The failed pane
// links the error's section of the troubleshooting guide. RetryDelay is
// an hour, so a scheduled retry stays "Retry attempt 2 of 2" while the
// test looks.
func TestGUINoRetryOfDeterministicFailures(t *testing.T) {
	dir := t.TempDir()
	noexec := filepath.Join(dir, "server.sh")
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status := func(code int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, http.StatusText(code), code)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/mcp"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	servers := map[string]any{
		"missing": map[string]any{"command": "/nonexistent/spyglass-test-missing-server"},
		"noexec":  map[string]any{"command": noexec},
		"http404": map[string]any{"type": "http", "url": status(404)},
		"http401": map[string]any{"type": "http", "url": status(401)},
		"refused": map[string]any{"type": "http", "url": refused},
		"http503": map[string]any{"type": "http", "url": status(503)},
	}
	cases := []struct {
		name, headline, anchor string
		retried                bool
	}{
		{"missing", "Command not found", "#command-not-found", false},
		{"noexec", "Permission denied", "#could-not-start", false},
		{"http404", "HTTP 404", "#http-error", false},
		{"http401", "HTTP 401", "#sign-in", false},
		{"refused", "Cannot reach", "#unreachable", true},
		{"http503", "HTTP 503", "#http-error", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{c.name: servers[c.name]}})
			path := filepath.Join(t.TempDir(), "mcp.json")
			if err := os.WriteFile(path, doc, 0o600); err != nil {
				t.Fatal(err)
			}
			cat, err := catalog.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			h := &guiHarness{t: t, dir: dir}
			h.be = newGUIBackend(cat, "", nil)
			h.open(test.NewTempApp(t), &ui.Options{ConnectAttempts: 2, RetryDelay: time.Hour})
			t.Cleanup(func() { ui.Sync(h.w.Close) })
			h.tap("Connect")
			h.waitFor("the failure", func() bool {
				return h.hasText("The connection failed.") && (h.hasText("Not retried") || h.hasText("Retry attempt 2 of 2"))
			})
			ui.Sync(func() {
				if !h.hasText(c.headline) {
					t.Errorf("no %q in the window", c.headline)
				}
				// the error event says it too, in its title and the
				// inspector's row; its text keeps the chain (#12)
				var failure *events.Event
				for _, e := range h.be.log.Events() {
					if e.Kind == events.KindError {
						failure = &e
					}
				}
				switch {
				case failure == nil:
					t.Error("no error event recorded")
				case !strings.Contains(failure.Summary, c.headline) || failure.Title() != "error · "+failure.Summary && !strings.HasPrefix("error · "+failure.Summary, strings.TrimSuffix(failure.Title(), "…")):
					t.Errorf("the error event: summary %q, title %q; want them to say %q", failure.Summary, failure.Title(), c.headline)
				case failure.Text == failure.Summary:
					t.Errorf("the error event's text is its summary %q, not the chain", failure.Text)
				}
				if got := h.hasText("Retry attempt 2 of 2"); got != c.retried {
					t.Errorf("retried = %v, want %v", got, c.retried)
				}
				if got := h.hasText("Not retried by itself: another attempt would fail the same way"); got == c.retried {
					t.Errorf("says not retried = %v", got)
				}
				link, _ := h.find(func(o fyne.CanvasObject) bool {
					l, ok := o.(*widget.Hyperlink)
					return ok && l.Text == "Troubleshooting guide →"
				}).(*widget.Hyperlink)
				if link == nil || !strings.HasSuffix(link.URL.String(), c.anchor) || !strings.HasPrefix(link.URL.String(), ui.TroubleshootingURL) {
					t.Errorf("troubleshooting link %v, want …%s", link, c.anchor)
				}
			})
			h.waitFor("the inspector's row of the failure", func() bool {
				return h.find(func(o fyne.CanvasObject) bool {
					row, ok := o.(interface{ Text() string }) // ui/rowtext.go
					return ok && strings.HasPrefix(row.Text(), "error · ") && strings.Contains(row.Text(), c.headline)
				}) != nil
			})
		})
	}
}

// TestGUIAsksOnlyForWhatIsOffered: server-memory advertises tools and
// resources;
// the window sends no prompts/list or tasks/list (which it answers with
// "Method not found": the inspector showed "2 errors" after a clean
// connect), and the screens say plainly that the server does not offer
// them.
func TestGUIAsksOnlyForWhatIsOffered(t *testing.T) {
	h := newMemoryHarness(t)
	h.connectWithTools()
	h.openTab("Prompts")
	h.waitFor("no prompts offered", func() bool { return h.hasText("memory does not offer prompts.") })
	h.openTab("Tasks")
	h.waitFor("no task listing offered", func() bool { return h.hasText("memory does not offer task listing.") })
	h.openTab("Resources") // it offers one resource
	h.waitFor("its resource", func() bool { return h.hasText("memory://knowledge-graph") })
	for _, e := range h.be.log.Events() {
		if e.Dir == events.DirOut && e.Type == events.MsgRequest {
			switch e.Method {
			case "prompts/list", "tasks/list", "logging/setLevel", "completion/complete":
				t.Errorf("the window sent %s, which server-memory does not advertise", e.Method)
			}
		}
		if e.Dir == events.DirIn && e.Type == events.MsgError {
			t.Errorf("error answer after a clean connect: %s", e.Raw)
		}
	}
	h.waitFor("no errors in the counters", func() bool { return h.hasText(" tool calls · 0 errors · ") })
}

// badgeCount counts the drawn texts equal to s (badges draw canvas.Text).
func (h *guiHarness) badgeCount(s string) int {
	n := 0
	walk(h.win.Content(), func(x fyne.CanvasObject) {
		if tx, ok := x.(*canvas.Text); ok && tx.Text == s {
			n++
		}
	})
	return n
}

// TestGUILineageOnResultCard: the Tools result card carries the call's
// lineage label as the inspector's row does, with its explanation:
// against server-memory, delete_entities (idempotentHint) run twice is
// "attempt 2 (idempotent)", create_entities (a plain write) run twice
// is "same call again"; the demo's flaky_write, which crashes before it
// answers, is "outcome unknown" under the error.
func TestGUILineageOnResultCard(t *testing.T) {
	h := newMemoryHarness(t)
	h.connectWithTools()
	h.runTool("delete_entities", `{"entityNames": ["nobody"]}`)
	h.waitFor("the first result", func() bool { return h.hasText("Result") && !h.hasText("Running delete_entities") })
	h.tap("Run")
	h.waitFor("attempt 2 (idempotent) on the card and the row", func() bool {
		return h.badgeCount("attempt 2 (idempotent)") >= 2 && h.hasText("Attempt 2 of this call")
	})

	entity := `{"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]}`
	h.runTool("create_entities", entity)
	h.waitFor("the first create", func() bool { return h.hasText("Result") && !h.hasText("Running create_entities") })
	h.tap("Run")
	h.waitFor("same call again on the card", func() bool {
		return h.badgeCount("same call again") >= 2 && h.hasText("⚠ Same call again: this repeats a write")
	})
}

// TestGUIOutcomeUnknownOnErrorCard: a write that lost its connection
// (the demo's flaky_write crashes the stdio server before answering)
// shows "outcome unknown" under the error on the Tools card.
func TestGUIOutcomeUnknownOnErrorCard(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo": map[string]any{"command": exe, "args": []string{"--demo-server"},
			"env": map[string]string{demo.NotesEnv: t.TempDir()}},
	}})
	h := newCatalogHarness(t, doc)
	h.connectWithTools()
	h.runTool("flaky_write", `{"text": "maybe written"}`)
	h.waitFor("outcome unknown under the error", func() bool {
		return h.hasText("The call failed") && h.badgeCount("outcome unknown") >= 1 &&
			h.hasText("⚠ Outcome unknown: the tool may change something")
	})
	// the inspector's synthetic tool · event shows its own record as its
	// payload (it has no bytes on the wire)
	if err := h.w.OpenEvent("tool · flaky_write", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the tool event's payload", func() bool {
		return h.hasText(`errorClass: "transport"`) && h.hasText("outcomeUnknown: true")
	})
}

// completionArgs are the arguments (name=value) of the completion/complete
// requests the window sent, in order.
func (h *guiHarness) completionArgs() []string {
	var out []string
	for _, e := range h.be.log.Events() {
		if e.Dir != events.DirOut || e.Type != events.MsgRequest || e.Method != "completion/complete" {
			continue
		}
		var m struct {
			Params struct {
				Argument struct{ Name, Value string } `json:"argument"`
			} `json:"params"`
		}
		if err := json.Unmarshal(e.Raw, &m); err != nil {
			h.t.Fatal(err)
		}
		out = append(out, m.Params.Argument.Name+"="+m.Params.Argument.Value)
	}
	return out
}

// TestGUICompletionsDebounced: against the demo server, typing "Zoe" into
// the greeting template's name sends one completion/complete, for name
// with the whole value, after the pause; none for the keystrokes before
// it, none for the other variable.
func TestGUICompletionsDebounced(t *testing.T) {
	h := newGUIHarness(t)
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("Connected") && h.hasText("tools") })
	h.openTab("Resources")
	h.waitFor("the templates", func() bool { return h.hasText(demo.ItemTemplate) })
	ui.Sync(func() {
		if !h.selectRow("Greeting") {
			t.Fatal("could not select the greeting template")
		}
	})
	h.waitFor("two variables", func() bool { return len(h.formEntries()) == 2 })
	answers := func() int {
		n := 0
		for _, e := range h.be.log.Events() {
			if e.Dir == events.DirIn && e.Method == "completion/complete" && (e.Type == events.MsgResult || e.Type == events.MsgError) {
				n++
			}
		}
		return n
	}
	before, answered := len(h.completionArgs()), answers()
	ui.Sync(func() { test.Type(h.formEntries()[1], "Zoe") })
	h.waitFor("the request for name=Zoe", func() bool { return slices.Contains(h.completionArgs(), "name=Zoe") })
	h.waitFor("its answer", func() bool { return answers() > answered })
	if got := h.completionArgs()[before:]; len(got) != 1 || got[0] != "name=Zoe" {
		t.Errorf("typing Zoe sent %q, want only name=Zoe", got)
	}
}

// TestGUITaskResultLikeToolResult: the demo's countdown_task run as a
// task; its result on the Tasks screen is drawn as the Tools screen draws
// a tool result (its text content, Raw JSON), not as a bare JSON tree.
func TestGUITaskResultLikeToolResult(t *testing.T) {
	h := newGUIHarness(t)
	ui.Sync(func() { h.be.useQueue(h.w, filepath.Join(h.dir, "profiles.json")) }) // tasks need a client capability
	h.tap("Connect")
	h.waitFor("connected", func() bool { return h.hasText("Connected") && h.hasText("tools") })
	ui.Sync(func() { h.entry("Search tools").SetText("countdown_task") })
	h.waitFor("countdown_task", func() bool { return h.hasText("countdown_task · ") })
	ui.Sync(func() {
		if !h.selectRow("Countdown") {
			t.Fatal("could not select countdown_task")
		}
	})
	h.setArgs(`{"seconds": 0}`)
	ui.Sync(func() {
		c, _ := h.find(func(o fyne.CanvasObject) bool {
			c, ok := o.(*widget.Check)
			return ok && c.Text == "Run as task"
		}).(*widget.Check)
		if c == nil {
			t.Fatal("no Run as task")
		}
		c.SetChecked(true)
	})
	h.tap("Run")
	h.waitFor("the task started", func() bool { return h.hasText("Started task ") })
	h.openTab("Tasks")
	h.waitFor("the task listed", func() bool { return h.hasText("1 task") })
	ui.Sync(func() {
		walk(h.win.Content(), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.List); ok && l.Length() == 1 {
				l.Select(0) // the Tasks screen's one task
			}
		})
	})
	h.tap("Result") // tasks/result waits for the end of a 0-second countdown
	h.waitFor("the result as a tool result", func() bool {
		return h.hasText("Liftoff after 0 second(s).") && h.button("Raw JSON") != nil
	})
}
