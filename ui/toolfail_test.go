package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestFailedCallNoToastOverCard: a call that fails while its Tools screen
// is shown says so on the result card only (the new-user walk saw the
// toast cover the card's "The call failed" and repeat it); one that fails
// while the user is on another tab still raises the toast.
func TestFailedCallNoToastOverCard(t *testing.T) {
	w, _, ss := connected(t, nil)
	fail := errors.New("-32603: the tool fell over")
	Sync(func() {
		for i, x := range ss.tools.shown {
			if x.Name == "echo" {
				ss.tools.list.Select(i)
			}
		}
		ss.tabs.SelectIndex(0)
		ss.tools.onResult("echo", context.Background(), ToolResult{}, fail)
		if got := texts(ss.tools.result); !strings.Contains(got, "The call failed") {
			t.Fatalf("the card shows %q, want the failure", got)
		}
		if ts := strings.Join(w.toasts.texts(), "\n"); strings.Contains(ts, "fell over") {
			t.Errorf("a toast repeats the failure the card shows: %q", ts)
		}
		ss.tabs.SelectIndex(1) // Resources: the card is out of sight
		ss.tools.onResult("echo", context.Background(), ToolResult{}, fail)
		if ts := strings.Join(w.toasts.texts(), "\n"); !strings.Contains(ts, "fell over") {
			t.Errorf("no toast for a failure the user cannot see: %q", ts)
		}
	})
}
