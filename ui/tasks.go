package ui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tasksEmpty is the Tasks pane's words while the server lists no task.
const tasksEmpty = "Tasks started with \"Run as task\" on a task-capable tool appear here."

// tasksScreen lists the server's tasks with status; poll, result, cancel.
// A row says what made the task (the request whose result named it, found
// in the event log), its status in words and colour, its times and its
// id, shortened in the middle.
type tasksScreen struct {
	ss     *serverScreens
	tasks  []Task
	cur    *Task
	list   *widget.List
	status *widget.Label
	detail *fyne.Container
	offer  *offerPane    // the pane while the server does not list tasks
	prompt *widget.Label // the pane before a selection
	// loading is set while a tasks/list is out, again when another
	// refresh was asked for meanwhile
	loading, again bool
	result         *fyne.Container
	cancel         *widget.Button // the selected task's Cancel
	// origins is what made each task, by id; looked counts the log
	// searches for an id not found yet (a task made before the log began
	// or by another client is looked for twice, not on every refresh).
	origins map[string]taskOrigin
	looked  map[string]int
	looking map[string]bool // searched for now: the row waits for it
}

// taskOrigin is the request that made a task: its method and, for
// tools/call, the tool; seq is its event in the log.
type taskOrigin struct {
	method, tool string
	seq          uint64
}

// String is the origin as a row names it: the tool, or the method.
func (o taskOrigin) String() string {
	if o.tool != "" {
		return o.tool
	}
	return o.method
}

// full is the origin with its method: tools/call slow_task.
func (o taskOrigin) full() string {
	return strings.TrimSpace(o.method + " " + o.tool)
}

func (t *tasksScreen) buildUI() fyne.CanvasObject {
	t.list = widget.NewList(
		func() int { return len(t.tasks) },
		newTaskRow,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(t.tasks) {
				return
			}
			task := t.tasks[i]
			setTaskRow(o, t.originText(task.ID), task)
		})
	t.list.OnSelected = func(i widget.ListItemID) {
		if i < len(t.tasks) {
			task := t.tasks[i]
			t.onSelect(task)
		}
	}
	t.status = widget.NewLabel("")
	t.status.Importance = widget.LowImportance
	// a long failure wraps instead of widening the window past the screen
	t.status.Wrapping = fyne.TextWrapWord
	refresh := widget.NewButtonWithIcon("Poll", theme.ViewRefreshIcon(), t.onRefresh)
	refresh.Importance = widget.LowImportance
	left := container.NewBorder(container.NewBorder(nil, nil, nil, refresh, t.status), nil, nil, nil, t.list)
	t.result = container.NewVBox()
	t.prompt = emptyState(tasksEmpty)
	t.detail = container.NewStack(t.prompt)
	t.offer = newOfferPane(t.detail, refresh)
	t.origins, t.looked, t.looking = map[string]taskOrigin{}, map[string]int{}, map[string]bool{}
	return listSplit(left, t.detail)
}

// newTaskRow is a task's row: what made it and its status on the first
// line, its id (cut in the middle) under them, then its times; ending a scroll
// bar's width before the edge as the other lists' rows do.
func newTaskRow() fyne.CanvasObject {
	what := widget.NewLabel("")
	what.TextStyle.Bold = true
	what.Truncation = fyne.TextTruncateEllipsis
	id := widget.NewLabel("")
	id.SizeName = theme.SizeNameCaptionText
	id.TextStyle.Monospace = true
	when := widget.NewLabel("")
	when.SizeName = theme.SizeNameCaptionText
	when.Importance = widget.LowImportance
	when.Truncation = fyne.TextTruncateEllipsis
	return barRoom(container.NewVBox(
		container.NewBorder(nil, nil, nil, newBadge("", ""), what), newMiddleName(id), when), false)
}

// setTaskRow fills a row made by newTaskRow.
func setTaskRow(o fyne.CanvasObject, origin string, task Task) {
	box := o.(*fyne.Container).Objects[0].(*fyne.Container) // inside barRoom
	top := box.Objects[0].(*fyne.Container)
	top.Objects[0].(*widget.Label).SetText(origin)
	top.Objects[1].(*badge).Set(taskStatusText(task.Status), taskColor(task.Status))
	box.Objects[1].(*middleName).SetFull(task.ID)
	box.Objects[2].(*widget.Label).SetText(taskTimes(task))
}

// taskStatusText is a status in words: "input required".
func taskStatusText(s string) string {
	if s == "" {
		return "no status"
	}
	return strings.ReplaceAll(s, "_", " ")
}

// taskTimes is when a task was created, by the clock as the window's
// other times are, and how long after that it was last updated, which
// fits a narrow list where a second clock time was cut: "created
// 14:02:11 · updated +8 s" (a clock time when there is no creation time).
func taskTimes(task Task) string {
	var parts []string
	if !task.Created.IsZero() {
		parts = append(parts, "created "+clock(task.Created))
	}
	switch {
	case task.Updated.IsZero() || task.Updated.Equal(task.Created):
	case task.Created.IsZero() || task.Updated.Before(task.Created):
		parts = append(parts, "updated "+clock(task.Updated))
	default:
		parts = append(parts, "updated +"+secs(task.Updated.Sub(task.Created)))
	}
	return strings.Join(parts, " · ")
}

func clock(t time.Time) string { return t.Local().Format("15:04:05") }

// originText is what a row says made the task.
func (t *tasksScreen) originText(id string) string {
	if o, ok := t.origins[id]; ok {
		return o.String()
	}
	if t.looking[id] {
		return "…"
	}
	return "request not in the log"
}

// findOrigins looks in the event log for what made each task not known
// yet: the result (tools/call's, as a rule) whose task is the task, and
// the request it answers. The search runs off the UI thread.
func (t *tasksScreen) findOrigins(ts []Task) {
	src := t.ss.s.w.be.Events()
	if src == nil {
		return
	}
	var ids []string
	for _, task := range ts {
		if _, ok := t.origins[task.ID]; !ok && task.ID != "" && t.looked[task.ID] < 2 {
			t.looked[task.ID]++
			t.looking[task.ID] = true
			ids = append(ids, task.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	server, ctx := t.ss.s.cfg.Name, t.ss.ctx
	go func() {
		found := map[string]taskOrigin{}
		for _, id := range ids {
			if o, ok := taskOriginIn(ctx, src, server, id); ok {
				found[id] = o
			}
		}
		do(func() {
			if ctx.Err() != nil {
				return
			}
			for _, id := range ids {
				delete(t.looking, id)
			}
			for id, o := range found {
				t.origins[id] = o
			}
			t.list.Refresh()
			if t.cur != nil && slices.Contains(ids, t.cur.ID) && len(t.result.Objects) == 0 {
				t.onSelect(*t.cur)
			}
		})
	}()
}

// taskOriginIn finds in src the request of server whose result made the
// task id.
func taskOriginIn(ctx context.Context, src EventSource, server, id string) (taskOrigin, bool) {
	var mu sync.Mutex
	var seqs []uint64
	if _, err := src.Search(ctx, EventQuery{Text: id, Server: server}, func(s []uint64) {
		mu.Lock()
		seqs = append(seqs, s...)
		mu.Unlock()
	}); err != nil {
		return taskOrigin{}, false
	}
	mu.Lock()
	defer mu.Unlock()
	for _, seq := range seqs {
		e, ok := src.Get(seq)
		if !ok || e.Type != "result" || e.Pair == 0 {
			continue
		}
		var res struct {
			Result struct {
				Task struct {
					TaskID string `json:"taskId"`
				} `json:"task"`
			} `json:"result"`
		}
		if json.Unmarshal(e.Raw, &res) != nil || res.Result.Task.TaskID != id {
			continue
		}
		req, ok := src.Get(e.Pair)
		if !ok {
			continue
		}
		o := taskOrigin{method: req.Method, seq: req.Seq}
		var call struct {
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if req.Method == "tools/call" && json.Unmarshal(req.Raw, &call) == nil {
			o.tool = call.Params.Name
		}
		if o.method == "" {
			o.method = e.Method
		}
		return o, true
	}
	return taskOrigin{}, false
}

func taskColor(s string) string {
	switch s {
	case "completed":
		return "ok"
	case "failed", "cancelled":
		return "error"
	case "input_required":
		return "warning"
	}
	return "primary"
}

// taskEnded reports whether status is terminal: nothing left to cancel.
func taskEnded(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// onRefresh lists the tasks again. A refresh asked for while one is out
// (a batch of notifications/tasks/status asks once per notification) is
// sent once, when that one has come back.
func (t *tasksScreen) onRefresh() {
	if t.loading {
		t.again = true
		return
	}
	if t.ss.conn() == nil {
		return
	}
	t.loading = true
	run(t.ss, func(ctx context.Context, c Conn) ([]Task, error) { return c.ListTasks(ctx) },
		func(ts []Task, err error) {
			t.loading = false
			if t.again {
				t.again = false
				defer t.onRefresh()
			}
			if err != nil {
				t.offer.failed(t.status, "tasks", err, "tasks.list", "tasks/list")
				return
			}
			t.offer.offered()
			t.tasks = ts
			t.status.SetText(listCount(len(ts), len(ts), "task"))
			if len(ts) > 0 {
				t.prompt.SetText("Select a task to see its status, poll it, read its result or cancel it.")
			} else {
				t.prompt.SetText(tasksEmpty)
			}
			t.list.Refresh()
			t.findOrigins(ts)
			if t.cur != nil {
				for _, x := range ts {
					if x.ID == t.cur.ID {
						t.onSelect(x)
					}
				}
			}
		})
}

func (t *tasksScreen) onSelect(task Task) {
	same := t.cur != nil && t.cur.ID == task.ID // a refresh or poll: its result stays
	t.cur = &task
	id := task.ID
	poll := widget.NewButtonWithIcon("Poll", theme.ViewRefreshIcon(), func() { t.onPoll(id) })
	res := widget.NewButtonWithIcon("Result", theme.DocumentIcon(), func() { t.onResult(id) })
	cancel := widget.NewButtonWithIcon("Cancel task", theme.CancelIcon(), func() { t.onCancel(id) })
	cancel.Importance = widget.DangerImportance
	if taskEnded(task.Status) {
		cancel.Disable() // tasks/cancel on a finished task can only fail
	}
	t.cancel = cancel
	idLbl := widget.NewLabel(task.ID)
	idLbl.Wrapping = fyne.TextWrapBreak // a long id wraps instead of widening the pane
	idLbl.TextStyle.Monospace = true
	// wrapped, as are the buttons: a long tool name and the buttons in a
	// row made the pane wider than its split left it, and moved the split
	made := wrapLabel(t.originText(id))
	actions := wrapRow(poll, res, cancel)
	if o, ok := t.origins[id]; ok {
		made.SetText(o.full())
		seq := o.seq
		insp := widget.NewButtonWithIcon("Request and response", theme.SearchIcon(), func() { t.ss.s.w.inspectEvent(seq) })
		insp.Importance = widget.LowImportance
		actions.Add(insp)
	}
	form := widget.NewForm(
		widget.NewFormItem("Task", idLbl),
		widget.NewFormItem("Made by", made),
		widget.NewFormItem("Status", container.NewHBox(newBadge(taskStatusText(task.Status), taskColor(task.Status)))),
		widget.NewFormItem("Message", wrapLabel(orDash(task.StatusMessage))),
	)
	if !task.Created.IsZero() {
		form.Append("Created", widget.NewLabel(clock(task.Created)))
	}
	if !task.Updated.IsZero() {
		form.Append("Updated", widget.NewLabel(clock(task.Updated)))
	}
	if !same {
		t.result.Objects = nil
	}
	t.detail.Objects = []fyne.CanvasObject{container.NewVScroll(container.NewPadded(container.NewVBox(
		form, actions, widget.NewSeparator(), t.result)))}
	t.detail.Refresh()
}

func (t *tasksScreen) onPoll(id string) {
	run(t.ss, func(ctx context.Context, c Conn) (Task, error) { return c.GetTask(ctx, id) },
		func(task Task, err error) {
			if err != nil {
				t.ss.s.w.toastErr("error", "tasks/get failed", err)
				return
			}
			for i := range t.tasks {
				if t.tasks[i].ID == id {
					t.tasks[i] = task
				}
			}
			t.list.Refresh()
			t.onSelect(task)
		})
}

func (t *tasksScreen) onResult(id string) {
	run(t.ss, func(ctx context.Context, c Conn) (json.RawMessage, error) { return c.TaskResult(ctx, id) },
		func(raw json.RawMessage, err error) {
			if err != nil {
				t.result.Objects = []fyne.CanvasObject{errorView(err, "Task result error", t.ss.s.w.win)}
			} else {
				// a task's result is the result of the request that made
				// it (tools/call): drawn as the Tools screen draws one
				t.result.Objects = t.ss.toolResultObjects(taskToolResult(raw), 0, "tasks/result")
			}
			t.result.Refresh()
		})
}

func (t *tasksScreen) onCancel(id string) {
	run(t.ss, func(ctx context.Context, c Conn) (struct{}, error) { return struct{}{}, c.CancelTask(ctx, id) },
		func(_ struct{}, err error) {
			if err != nil {
				t.ss.s.w.toastErr("error", "tasks/cancel failed", err)
				return
			}
			t.ss.s.w.toast("ok", "Cancelled task "+id)
			t.onPoll(id)
		})
}
