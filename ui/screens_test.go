package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// connected opens a window on one fake server and connects it.
func connected(t *testing.T, opts *Options) (*Window, *fakeBackend, *serverScreens) {
	t.Helper()
	b := newFakeBackend("fake")
	w := newTestWindow(t, b, opts)
	Sync(func() { w.server("fake").onConnect() })
	var ss *serverScreens
	waitFor(t, "connected", func() bool {
		ss = w.server("fake").screens
		return ss != nil && len(ss.tools.all) > 0 && len(ss.resources.rows) > 0 && len(ss.prompts.prompts) > 0
	})
	return w, b, ss
}

func runTool(t *testing.T, ss *serverScreens, name string, args string) string {
	t.Helper()
	Sync(func() {
		for i, x := range ss.tools.shown {
			if x.Name == name {
				ss.tools.list.Select(i)
			}
		}
		if args != "" {
			if err := ss.tools.args.(*formArgs).Set(json.RawMessage(args)); err != nil {
				t.Fatal(err)
			}
		}
		ss.tools.onRun()
	})
	var got string
	waitFor(t, name+" result", func() bool {
		got = texts(ss.tools.result)
		return ss.tools.running == nil && got != ""
	})
	return got
}

func TestToolsScreen(t *testing.T) {
	_, b, ss := connected(t, nil)
	// search
	Sync(func() { ss.tools.search.SetText("fail") })
	Sync(func() {
		if len(ss.tools.shown) != 1 || ss.tools.shown[0].Name != "boom" {
			t.Errorf("search shows %+v", ss.tools.shown)
		}
		ss.tools.search.SetText("")
	})
	// a result with text, structuredContent and an advisory
	got := runTool(t, ss, "echo", `{"message":"hi"}`)
	for _, want := range []string{"Result", `got {"message":"hi"}`, "structuredContent", "Does not match the outputSchema: /n: expected string", "[Raw JSON]"} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q:\n%s", want, got)
		}
	}
	// with a result shown the list keeps a readable column (the detail's
	// rows wrap instead of widening it)
	Sync(func() {
		if w := ss.tools.list.Size().Width; w < 200 {
			t.Errorf("the tools list is %v wide at 1280 px", w)
		}
	})
	// isError is distinct
	got = runTool(t, ss, "boom", "")
	if !strings.Contains(got, "<tool error (isError)>") || !strings.Contains(got, "it broke") {
		t.Errorf("isError result:\n%s", got)
	}
	// the empty result has its own state
	got = runTool(t, ss, "nothing", "")
	if !strings.Contains(got, "empty result") {
		t.Errorf("empty result:\n%s", got)
	}
	// run as task goes to the Tasks screen
	Sync(func() {
		for i, x := range ss.tools.shown {
			if x.Name == "task" {
				ss.tools.list.Select(i)
			}
		}
		if !ss.tools.asTask.Visible() {
			t.Error("no Run as task for a task-capable tool")
		}
		ss.tools.asTask.SetChecked(true)
		ss.tools.onRun()
	})
	waitFor(t, "the task", func() bool { return strings.Contains(texts(ss.tools.result), "Started task t-1") })
	// the arguments of the last call are remembered
	Sync(func() {
		for i, x := range ss.tools.shown {
			if x.Name == "echo" {
				ss.tools.list.Select(i)
			}
		}
		args, _ := ss.tools.args.JSON()
		if !strings.Contains(string(args), `"hi"`) {
			t.Errorf("echo's arguments were forgotten: %s", args)
		}
	})
	if c := b.conns["fake"]; c.calls != 4 {
		t.Errorf("calls = %d", c.calls)
	}
	// a result that does not match the MCP schema is shown with its
	// problem, the unknown block as sent
	Sync(func() { ss.tools.asTask.SetChecked(false) })
	got = runTool(t, ss, "echo", `{"message":"video"}`)
	for _, want := range []string{`does not match the MCP schema`, `/content/0: unknown content type "video"`, `(video content, which MCP does not define) {"type":"video","src":"v.mp4"}`} {
		if !strings.Contains(got, want) {
			t.Errorf("shape-problem result lacks %q:\n%s", want, got)
		}
	}
	// a paginated list loads its next page on request
	Sync(func() {
		if !ss.tools.more.Visible() {
			t.Fatal("no Load next page")
		}
		ss.tools.onNextPage()
	})
	waitFor(t, "page two", func() bool { return len(ss.tools.all) == 5 && !ss.tools.more.Visible() })
	// list_changed shows the refresh indicator
	Sync(func() { ss.onNotification(Notification{Method: "notifications/tools/list_changed"}) })
	Sync(func() {
		if !ss.tools.banner.visible() {
			t.Error("no list updated indicator")
		}
	})
}

func TestResourcesPromptsTasksLogsInfo(t *testing.T) {
	w, b, ss := connected(t, nil)
	// a text resource
	Sync(func() {
		ss.resources.list.Select(0)
		ss.resources.onRead()
	})
	waitFor(t, "contents", func() bool { return strings.Contains(texts(ss.resources.content), "contents of fake://a") })
	// a binary one shows size and hex, savable
	Sync(func() {
		ss.resources.list.Select(1)
		ss.resources.onRead()
	})
	waitFor(t, "binary", func() bool {
		s := texts(ss.resources.content)
		return strings.Contains(s, "3 bytes") && strings.Contains(s, "[Save…]")
	})
	// a template: its variables are a ui/form form; typing in one drops
	// its suggestions down, a suggestion taken fills it and the next
	// variable's suggestions (Down asks at once) use it as context
	Sync(func() { selectTab(ss, "Resources"); ss.resources.list.Select(2) })
	r := ss.resources
	Sync(func() {
		if !strings.Contains(texts(r.vars), "lang *") || !strings.Contains(texts(r.vars), "name *") || strings.Contains(texts(r.vars), "style *") {
			t.Errorf("the variables' form: %s", texts(r.vars))
		}
		e := r.params.form.FieldEntry("lang")
		w.win.Canvas().Focus(e)
		test.Type(e, "f")
	})
	waitFor(t, "lang suggestions", func() bool { return strings.Contains(texts(r.params.drop), "[fr]") })
	Sync(func() { tapButton(t, r.params.drop, "fr") })
	Sync(func() {
		e := r.params.form.FieldEntry("name")
		w.win.Canvas().Focus(e)
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	})
	waitFor(t, "name suggestions from lang", func() bool { return strings.Contains(texts(r.params.drop), "[Amélie]") })
	// typing in the name field (the form's own entry) expands the URI
	Sync(func() {
		e := formEntry(t, r.vars, 1)
		test.Type(e, "ada lovelace")
		if got := r.expand.Identifier(); got != "→ fake://greet/fr/ada%20lovelace" {
			t.Errorf("expansion = %q", got)
		}
	})
	Sync(func() { r.onRead() })
	waitFor(t, "template read", func() bool {
		return strings.Contains(texts(r.content), "contents of fake://greet/fr/ada%20lovelace")
	})
	// subscribe
	Sync(func() {
		ss.resources.list.Select(0)
		ss.resources.onSubscribe()
	})
	waitFor(t, "subscribed", func() bool { return ss.resources.subBtn.Text == "Unsubscribe" })
	Sync(func() {
		ss.onNotification(Notification{Method: "notifications/resources/updated", Params: json.RawMessage(`{"uri":"fake://a"}`), Time: time.Now()})
		if !strings.HasPrefix(ss.resources.updLbl.Text, "updated at ") {
			t.Errorf("updated = %q", ss.resources.updLbl.Text)
		}
	})

	// prompts
	Sync(func() {
		ss.prompts.list.Select(0)
		ss.prompts.onGet()
	})
	waitFor(t, "required", func() bool { return strings.Contains(texts(ss.prompts.msgs), "Fill in the required argument who") })
	Sync(func() {
		test.Type(formEntry(t, ss.prompts.formBox, 0), "Ada")
		ss.prompts.onGet()
	})
	waitFor(t, "messages", func() bool {
		s := texts(ss.prompts.msgs)
		return strings.Contains(s, "hello Ada") && strings.Contains(s, "<user · text>")
	})

	// tasks: list, poll, result
	waitFor(t, "tasks", func() bool { return len(ss.tasks.tasks) == 1 })
	Sync(func() { ss.tasks.list.Select(0) })
	Sync(func() { ss.tasks.onPoll("t-1") })
	waitFor(t, "polled", func() bool { return ss.tasks.tasks[0].Status == "completed" })
	Sync(func() { ss.tasks.onResult("t-1") })
	// drawn as a tool result: its text content, not a JSON tree (#12)
	waitFor(t, "task result", func() bool {
		s := texts(ss.tasks.result)
		return strings.Contains(s, "Result") && strings.Contains(s, "done") && strings.Contains(s, "[Raw JSON]")
	})

	// logs: level filter, text filter, setLevel
	Sync(func() {
		for _, l := range []string{"debug", "warning", "error"} {
			ss.onNotification(Notification{Method: "notifications/message", Time: time.Now(),
				Params: json.RawMessage(`{"level":"` + l + `","data":"a ` + l + ` line"}`)})
		}
		ss.logs.flush()
		if len(ss.logs.shown) != 3 {
			t.Errorf("shown = %d", len(ss.logs.shown))
		}
		ss.logs.show.SetSelected("warning")
		if len(ss.logs.shown) != 2 {
			t.Errorf("from warning: %d", len(ss.logs.shown))
		}
		ss.logs.search.SetText("error line")
		if len(ss.logs.shown) != 1 {
			t.Errorf("filtered: %d", len(ss.logs.shown))
		}
		ss.logs.level.SetSelected("info")
	})
	waitFor(t, "setLevel", func() bool {
		c := b.conns["fake"]
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.level == "info"
	})
	// stderr lines have their own view
	b.ev.send(EventView{Server: "fake", Kind: "stderr", Title: "stderr", Text: "warming up"})
	Sync(func() {
		if len(ss.logs.errs) != 1 || ss.logs.errs[0] != "warming up" {
			t.Errorf("stderr = %q", ss.logs.errs)
		}
	})

	// server info (read under the window's lock: a toast may be laid out
	// at the same moment)
	var got string
	Sync(func() { got = texts(ss.info.box) })
	for _, want := range []string{"2025-11-25", "Use it well.", "<experimental (x.y)>", "<tools (listChanged)>", "<roots (listChanged)>"} {
		if !strings.Contains(got, want) {
			t.Errorf("server info lacks %q:\n%s", want, got)
		}
	}
	_ = w
}

func TestInspector(t *testing.T) {
	dir := t.TempDir()
	w, b, _ := connected(t, &Options{SaveDialog: func(name string, done func(fyne.URIWriteCloser, error)) {
		wr, err := storage.Writer(storage.NewFileURI(filepath.Join(dir, name)))
		done(wr, err)
	}})
	in := w.inspector
	now := time.Now()
	b.ev.send(
		EventView{Seq: 1001, Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "5", Method: "tools/call",
			Title: "tools/call #5", Badge: "17ms", BadgeLevel: "ok", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1003, Time: now, Latency: 17 * time.Millisecond,
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":"needle"}}}`)},
		EventView{Seq: 1002, Server: "fake", Kind: "message", Dir: "in", Type: "notification", Method: "notifications/progress",
			Title: "notifications/progress", Categories: []string{"rpc"}, Run: "r1", Time: now.Add(5 * time.Millisecond), Raw: json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/progress"}`)},
		EventView{Seq: 1003, Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "5", Method: "tools/call",
			Title: "result #5 · tools/call", Categories: []string{"tools", "rpc"}, Run: "r1", Pair: 1001, Time: now.Add(17 * time.Millisecond),
			Raw: json.RawMessage(`{"jsonrpc":"2.0","id":5,"result":{"content":[]}}`)},
		EventView{Seq: 1004, Server: "fake", Kind: "stderr", Title: "stderr: hello", Text: "hello", Categories: []string{"logs"}},
		EventView{Seq: 1005, Server: "other", Kind: "stderr", Title: "stderr: elsewhere", Categories: []string{"logs"}},
	)
	listDrawn(t, in)
	Sync(func() {
		titles := strings.Join(in.shownTitles(), "\n")
		for _, want := range []string{"tools/call #5", "result #5 · tools/call", "stderr: hello"} {
			if !strings.Contains(titles, want) {
				t.Errorf("inspector lacks %q:\n%s", want, titles)
			}
		}
		if strings.Contains(titles, "elsewhere") {
			t.Error("another server's event is in this server's stream")
		}
		if !strings.Contains(in.counters.Text, "1 tool call · 0 errors") {
			t.Errorf("counters = %q", in.counters.Text)
		}
		// the row carries its badge
		if !strings.Contains(texts(in.list), "<17ms>") {
			t.Errorf("no badge in the rows:\n%s", texts(in.list))
		}
		// tabs
		in.onTab("logs")
	})
	shownWhen(t, in, "the Logs tab without tools/call", func(got []string) bool {
		return len(got) > 0 && !strings.Contains(strings.Join(got, ","), "tools/call")
	})
	// search over payloads
	Sync(func() { in.onTab(""); in.search.SetText("needle") })
	shownWhen(t, in, "the search for needle", func(got []string) bool { return len(got) == 1 && got[0] == "tools/call #5" })
	Sync(func() { in.search.SetText("") })
	shownWhen(t, in, "every row again", func(got []string) bool { return len(got) >= 4 })
	Sync(func() {
		// details: both payloads (side by side when wide, stacked with
		// the one open when narrow), and the run's waterfall
		w.win.Resize(fyne.NewSize(1920, 1200))
		in.onSelect(1003)
		if pair := in.detail.payload.Objects[0].(*fyne.Container); pair.Size().Width < pairSideBySide {
			pair.Layout.(*pairLayout).swap() // stacked: the request's side opened too
		}
		d := texts(in.detail.obj)
		for _, want := range []string{"Request · id 5 · 17ms", "Response · id 5", `method: "tools/call"`} {
			if !strings.Contains(d, want) {
				t.Errorf("details lack %q:\n%s", want, d)
			}
		}
		in.detail.tabs.SelectIndex(1)
		if r := texts(in.detail.run); !strings.Contains(r, "2 steps") || !strings.Contains(r, "the response is drawn on its request's bar") || !strings.Contains(r, "notifications/progress") { // the request and the progress; the response on the request's bar
			t.Errorf("this run:\n%s", r)
		}
		// pause: the list freezes, events buffer
		in.onPause()
	})
	b.ev.send(EventView{Server: "fake", Kind: "warning", Title: "a warning", Categories: []string{"logs"}})
	Sync(func() {
		if strings.Contains(strings.Join(in.shownTitles(), ","), "a warning") {
			t.Error("a paused list moved")
		}
		if !strings.Contains(in.counters.Text, "paused, 1 buffered") {
			t.Errorf("counters = %q", in.counters.Text)
		}
		in.onPause()
		if !strings.Contains(strings.Join(in.shownTitles(), ","), "a warning") {
			t.Error("resume lost the buffered event")
		}
		// clear
		in.onClear()
	})
	shownWhen(t, in, "no rows after clear", func(got []string) bool { return len(got) == 0 })
	Sync(func() {
		if !strings.Contains(in.counters.Text, "0 tool calls · 0 errors · 0 events") {
			t.Errorf("after clear: %q", in.counters.Text)
		}
		in.onDownload()
	})
	m, _ := filepath.Glob(filepath.Join(dir, "spyglass-trace-fake-*.json"))
	if len(m) != 1 {
		t.Fatalf("trace files: %q", m)
	}
	data, _ := os.ReadFile(m[0])
	if !strings.Contains(string(data), `"conn":"fake"`) {
		t.Errorf("trace = %s", data)
	}
	_ = test.NewTempApp
}

// TestInspectorAttempts: a tool call attempt's lineage shows on its row
// (the warning, or "attempt N") and is explained in its details.
func TestInspectorAttempts(t *testing.T) {
	w, b, _ := connected(t, nil)
	in := w.inspector
	now := time.Now()
	b.ev.send(
		EventView{Seq: 2001, Server: "fake", Kind: "tool", Title: "tool · write · timeout · outcome unknown", Categories: []string{"tools", "logs"}, Time: now,
			Attempt: &AttemptView{Lineage: "L1", Attempt: 1, ErrorClass: "timeout", OutcomeUnknown: true}},
		EventView{Seq: 2002, Server: "fake", Kind: "tool", Title: "tool · write · attempt 2 · may have run twice", Categories: []string{"tools", "logs"}, Time: now,
			Attempt: &AttemptView{Lineage: "L1", Attempt: 2, MayHaveRunTwice: true}},
		EventView{Seq: 2003, Server: "fake", Kind: "tool", Title: "tool · read · attempt 3", Categories: []string{"tools"}, Time: now,
			Attempt: &AttemptView{Lineage: "L2", Attempt: 3}},
		EventView{Seq: 2004, Server: "fake", Kind: "tool", Title: "tool · read", Categories: []string{"tools"}, Time: now,
			Attempt: &AttemptView{Lineage: "L3", Attempt: 1}},
	)
	waitFor(t, "the attempts", func() bool { return len(in.shownTitles()) >= 4 })
	listDrawn(t, in)
	Sync(func() {
		rows := texts(in.list)
		for _, want := range []string{"<outcome unknown>", "<may have run twice>", "<attempt 3>"} {
			if !strings.Contains(rows, want) {
				t.Errorf("the rows lack %s:\n%s", want, rows)
			}
		}
		in.onSelect(2001)
		got := texts(in.detail.obj)
		if !strings.Contains(got, "Attempt 1 of this call. It failed: timed out.") || !strings.Contains(got, "Outcome unknown") {
			t.Errorf("the details do not explain the attempt:\n%s", got)
		}
		if in.detail.attempt.Importance != widget.WarningImportance {
			t.Error("outcome unknown is not a warning")
		}
		in.onSelect(2002)
		if got := texts(in.detail.obj); !strings.Contains(got, "May have run twice") {
			t.Errorf("the details lack the warning:\n%s", got)
		}
		in.onSelect(2004)
		if got := in.detail.attempt.Text; !in.detail.attempt.Visible() || got != "Attempt 1 of this call." {
			t.Errorf("a first attempt's details say %q", got)
		}
	})
}
