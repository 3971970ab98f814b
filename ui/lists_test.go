package ui

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// listsBackend is a fakeBackend whose server may offer no tools,
// resources, prompts or task listing (as server-memory offers no prompts
// and no tasks), and lists the tasks it is given.
type listsBackend struct {
	*fakeBackend
	mu      sync.Mutex
	offered bool
	tasks   []Task
}

func (b *listsBackend) Open(name string, onState func(StateView)) (Conn, error) {
	c, err := b.fakeBackend.Open(name, onState)
	return &listsConn{fakeConn: c.(*fakeConn), b: b}, err
}

func (b *listsBackend) offers() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.offered
}

type listsConn struct {
	*fakeConn
	b *listsBackend
}

func (c *listsConn) no(what string) error { return &NotOfferedError{Server: c.name, What: what} }

func (c *listsConn) ListTools(ctx context.Context, cursor string) ([]Tool, string, error) {
	if !c.b.offers() {
		return nil, "", c.no("tools")
	}
	return c.fakeConn.ListTools(ctx, cursor)
}
func (c *listsConn) ListResources(ctx context.Context, cursor string) ([]Resource, string, error) {
	if !c.b.offers() {
		return nil, "", c.no("resources")
	}
	return c.fakeConn.ListResources(ctx, cursor)
}
func (c *listsConn) ListPrompts(ctx context.Context, cursor string) ([]Prompt, string, error) {
	if !c.b.offers() {
		return nil, "", c.no("prompts")
	}
	return c.fakeConn.ListPrompts(ctx, cursor)
}
func (c *listsConn) ListTasks(context.Context) ([]Task, error) {
	if !c.b.offers() {
		return nil, c.no("task listing")
	}
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	return append([]Task(nil), c.b.tasks...), nil
}

// listsConnected opens a window on b's server "fake", connects it and
// waits until every list has answered.
func listsConnected(t *testing.T, b *listsBackend) *serverScreens {
	t.Helper()
	w := newTestWindowBackend(t, b)
	Sync(func() { w.server("fake").onConnect() })
	var ss *serverScreens
	waitFor(t, "the lists", func() bool {
		ss = w.server("fake").screens
		return ss != nil && !strings.HasPrefix(ss.tools.status.Text, "Loading") &&
			!strings.HasPrefix(ss.resources.status.Text, "Loading") &&
			!strings.HasPrefix(ss.prompts.status.Text, "Loading") && ss.tasks.status.Text != ""
	})
	return ss
}

// TestListScreensSayNotOffered: the Tools, Resources, Prompts and Tasks
// screens say alike that their server does not offer their list. On a
// server that declares none of them (server-memory declares no prompts
// and no tasks), each says that and what it means, not "Select a
// prompt…" beside it, and hides its search box or Poll. Once a reconnect
// finds the lists, the screens are as before (#12).
func TestListScreensSayNotOffered(t *testing.T) {
	b := &listsBackend{fakeBackend: newFakeBackend("fake")}
	ss := listsConnected(t, b)
	type screen struct {
		name, status, capability, method string
		left, detail                     fyne.CanvasObject
		hidden                           fyne.CanvasObject
	}
	var screens []screen
	Sync(func() {
		screens = []screen{
			{"Tools", "fake does not offer tools.", `"tools"`, "tools/list", ss.tools.status, ss.tools.detail, ss.tools.search},
			{"Prompts", "fake does not offer prompts.", `"prompts"`, "prompts/list", ss.prompts.status, ss.prompts.detail, nil},
			{"Resources", "fake does not offer resources.", `"resources"`, "resources/list", ss.resources.status, ss.resources.detail, ss.resources.search},
			{"Tasks", "fake does not offer task listing.", `"tasks.list"`, "tasks/list", ss.tasks.status, ss.tasks.detail, ss.tasks.offer.chrome[0]},
		}
	})
	for _, sc := range screens {
		var status, detail string
		var hidden bool
		Sync(func() {
			status, detail = texts(sc.left), texts(sc.detail)
			hidden = sc.hidden == nil || !sc.hidden.Visible()
		})
		if !strings.Contains(status, sc.status) {
			t.Errorf("%s says %q, want %q", sc.name, status, sc.status)
		}
		if strings.Contains(detail, "Select") || strings.Contains(detail, "appear here") {
			t.Errorf("%s's pane asks for a selection on a server without the list: %q", sc.name, detail)
		}
		if !strings.Contains(detail, "initialize result declares no "+sc.capability+" capability") || !strings.Contains(detail, sc.method) {
			t.Errorf("%s's pane does not say what not offered means: %q", sc.name, detail)
		}
		if !hidden {
			t.Errorf("%s shows its search box or Poll over nothing", sc.name)
		}
	}

	// the server offers them after a reconnect
	b.mu.Lock()
	b.offered = true
	b.mu.Unlock()
	Sync(func() {
		ss.tools.onRefresh()
		ss.prompts.onRefresh()
		ss.resources.onRefresh()
		ss.tasks.onRefresh()
	})
	waitFor(t, "the lists", func() bool {
		return len(ss.tools.all) > 0 && len(ss.prompts.prompts) > 0 && len(ss.resources.rows) > 0 && ss.tasks.status.Text == "0 tasks"
	})
	Sync(func() {
		for _, sc := range screens {
			if d := texts(sc.detail); strings.Contains(d, "does not send") {
				t.Errorf("%s still says the server does not offer it: %q", sc.name, d)
			}
			if sc.hidden != nil && !sc.hidden.Visible() {
				t.Errorf("%s's search box or Poll stays hidden once offered", sc.name)
			}
		}
		if d := texts(ss.prompts.detail); !strings.Contains(d, "Select a prompt") {
			t.Errorf("Prompts' pane is %q, want its Select a prompt", d)
		}
	})
}

// TestResourceCountWhileFiltered: the resources list counts as the tools
// list does: "N of M" while a search hides some, "M" when none (#12).
func TestResourceCountWhileFiltered(t *testing.T) {
	_, _, ss := connected(t, nil)
	var all, tmpl int
	Sync(func() { all, tmpl = len(ss.resources.resources), len(ss.resources.templates) })
	if all < 2 || tmpl < 1 {
		t.Fatalf("the fake server lists %d resources and %d templates, want 2 and 1 at least", all, tmpl)
	}
	var first string
	Sync(func() { first = ss.resources.resources[0].URI })
	var got string
	Sync(func() { ss.resources.search.SetText(first); got = ss.resources.status.Text })
	if want := "1 of " + plural(all, "resource") + " · 0 of " + plural(tmpl, "template"); got != want {
		t.Errorf("filtered status %q, want %q", got, want)
	}
	Sync(func() { ss.resources.search.SetText("zzz-nothing"); got = ss.resources.status.Text })
	if want := `No resource matches "zzz-nothing".`; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	Sync(func() { ss.resources.search.SetText(""); got = ss.resources.status.Text })
	if want := plural(all, "resource") + " · " + plural(tmpl, "template"); got != want {
		t.Errorf("unfiltered status %q, want %q", got, want)
	}
}

// TestTaskRowsSayWhatMadeThem: a task's row names the tool whose call
// made it (found in the event log), its status in words and its colour,
// when it was created and how long after it was updated, and its id cut in the middle when the
// list is narrow; the pane says the request and opens it; a task the log
// has no request for says so; Cancel is off on a finished task (#12).
func TestTaskRowsSayWhatMadeThem(t *testing.T) {
	created := time.Date(2026, 12, 2, 14, 2, 11, 0, time.Local)
	updated := created.Add(8 * time.Second)
	const id = "6f1d2c3b-9a8e-4c7d-b6a5-0123456789ab"
	b := &listsBackend{fakeBackend: newFakeBackend("fake"), offered: true, tasks: []Task{
		{ID: id, Status: "input_required", Created: created, Updated: updated},
		{ID: "other-client-task", Status: "failed", Created: created},
	}}
	// the log holds the tools/call that made the first task, and its result
	req := EventView{Seq: 10, Server: "fake", Kind: "message", Dir: "out", Type: "request", ID: "7", Method: "tools/call",
		Raw: json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow_task","arguments":{},"task":{"ttl":60000}}}`)}
	resRaw := json.RawMessage(`{"jsonrpc":"2.0","id":7,"result":{"task":{"taskId":"` + id + `","status":"working"}}}`)
	res := EventView{Seq: 11, Server: "fake", Kind: "message", Dir: "in", Type: "result", ID: "7", Method: "tools/call", Pair: 10,
		Raw: resRaw, Event: events.Event{Raw: resRaw}}
	b.ev.send(req, res)
	ss := listsConnected(t, b)
	waitFor(t, "the task's origin", func() bool { return ss.tasks.originText(id) == "slow_task" })
	waitFor(t, "the other's search", func() bool { return ss.tasks.originText("other-client-task") == "request not in the log" })

	var rows []string
	Sync(func() {
		ss.tasks.list.Resize(fyne.NewSize(260, 400)) // narrow: the id is cut
		ss.tasks.list.Refresh()
		for i := range ss.tasks.tasks {
			o := newTaskRow()
			o.Resize(fyne.NewSize(260, o.MinSize().Height))
			ss.tasks.list.UpdateItem(i, o)
			rows = append(rows, texts(o))
		}
	})
	if r := rows[0]; !strings.Contains(r, "slow_task") || !strings.Contains(r, "<input required>") ||
		!strings.Contains(r, "created 14:02:11 · updated +8 s") || strings.Contains(r, id) || !strings.Contains(r, "6f1d") || !strings.Contains(r, "…") {
		t.Errorf("the first row reads %q", r)
	}
	if r := rows[1]; !strings.Contains(r, "request not in the log") || !strings.Contains(r, "<failed>") || strings.Contains(r, "updated") {
		t.Errorf("the second row reads %q", r)
	}
	Sync(func() {
		if taskColor("input_required") != "warning" || taskColor("failed") != "error" || taskColor("completed") != "ok" || taskColor("working") != "primary" {
			t.Error("a status has another colour than the theme's for it")
		}
	})

	Sync(func() { ss.tasks.list.Select(0) })
	var detail string
	var disabled bool
	Sync(func() { detail, disabled = texts(ss.tasks.detail), ss.tasks.cancel.Disabled() })
	for _, want := range []string{id, "tools/call slow_task", "[Request and response]", "<input required>", "14:02:19"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the pane lacks %q:\n%s", want, detail)
		}
	}
	if disabled {
		t.Error("Cancel is off on a task waiting for input")
	}
	Sync(func() { ss.tasks.list.Select(1); disabled = ss.tasks.cancel.Disabled() })
	if !disabled {
		t.Error("Cancel is on for a failed task")
	}
}
