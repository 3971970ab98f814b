package ui

import (
	"context"
	"encoding/json"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tasksScreen lists the server's tasks with status; poll, result, cancel.
type tasksScreen struct {
	ss     *serverScreens
	tasks  []Task
	cur    *Task
	list   *widget.List
	status *widget.Label
	detail *fyne.Container
	result *fyne.Container
	cancel *widget.Button // the selected task's Cancel
}

func (t *tasksScreen) buildUI() fyne.CanvasObject {
	t.list = widget.NewList(
		func() int { return len(t.tasks) },
		func() fyne.CanvasObject {
			id := widget.NewLabel("")
			id.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, nil, newBadge("", ""), id)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(t.tasks) {
				return
			}
			c := o.(*fyne.Container)
			c.Objects[0].(*widget.Label).SetText(t.tasks[i].ID)
			c.Objects[1].(*badge).Set(t.tasks[i].Status, taskColor(t.tasks[i].Status))
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
	t.detail = container.NewStack(emptyState("Tasks started with \"Run as task\" on a task-capable tool appear here."))
	return listSplit(left, t.detail)
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

func (t *tasksScreen) onRefresh() {
	run(t.ss, func(ctx context.Context, c Conn) ([]Task, error) { return c.ListTasks(ctx) },
		func(ts []Task, err error) {
			if err != nil {
				t.status.SetText(listFailure("tasks", err))
				return
			}
			t.tasks = ts
			t.status.SetText(plural(len(ts), "task"))
			t.list.Refresh()
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
	form := widget.NewForm(
		widget.NewFormItem("Task", widget.NewLabel(task.ID)),
		widget.NewFormItem("Status", container.NewHBox(newBadge(task.Status, taskColor(task.Status)))),
		widget.NewFormItem("Message", wrapLabel(orDash(task.StatusMessage))),
	)
	if !task.Created.IsZero() {
		form.Append("Created", widget.NewLabel(task.Created.Local().Format("15:04:05")))
	}
	t.result.Objects = nil
	t.detail.Objects = []fyne.CanvasObject{container.NewVScroll(container.NewPadded(container.NewVBox(
		form, container.NewHBox(poll, res, cancel), widget.NewSeparator(), t.result)))}
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
