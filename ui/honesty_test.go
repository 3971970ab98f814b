package ui

import (
	"fmt"
	"testing"
)

func TestToolCountWhileFiltered(t *testing.T) {
	_, _, ss := connected(t, nil)
	var all int
	Sync(func() { all = len(ss.tools.all) })
	Sync(func() { ss.tools.search.SetText("A task") })
	var got string
	Sync(func() { got = ss.tools.status.Text })
	if want := fmt.Sprintf("1 of %d tools", all); got != want {
		t.Errorf("filtered status %q, want %q", got, want)
	}
	Sync(func() { ss.tools.search.SetText(""); got = ss.tools.status.Text })
	if want := fmt.Sprintf("%d tools", all); got != want {
		t.Errorf("unfiltered status %q, want %q", got, want)
	}
}

func TestTaskCancelOnlyWhileRunning(t *testing.T) {
	_, _, ss := connected(t, nil)
	// the screens list the tasks once connected; a second refresh of our
	// own could land after the poll and put the task back to "working"
	waitFor(t, "tasks", func() bool { return len(ss.tasks.tasks) == 1 })
	Sync(func() { ss.tasks.list.Select(0) })
	var disabled bool
	Sync(func() { disabled = ss.tasks.cancel.Disabled() })
	if disabled {
		t.Fatal("Cancel is disabled on a working task")
	}
	Sync(func() { ss.tasks.onPoll("t-1") })
	waitFor(t, "polled", func() bool { return ss.tasks.tasks[0].Status == "completed" })
	Sync(func() { disabled = ss.tasks.cancel.Disabled() })
	if !disabled {
		t.Error("Cancel is enabled on a completed task")
	}
}
