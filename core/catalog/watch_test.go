package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWatchSeesEveryKindOfChange: an editor writing in place, an atomic
// replacement (a rename over the file), a removal and a re-creation each
// wake the watcher; a file next to it does not.
func TestWatchSeesEveryKindOfChange(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	changes := make(chan struct{}, 16)
	done := make(chan error, 1)
	armed := make(chan struct{})
	go func() {
		done <- watch(ctx, path, 50*time.Millisecond, func() { close(armed) }, func() { changes <- struct{}{} })
	}()
	select {
	case <-armed: // changes from now on are seen
	case err := <-done:
		t.Fatalf("Watch returned before watching: %v", err)
	}
	wait := func(what string) {
		t.Helper()
		select {
		case <-changes:
		case <-time.After(10 * time.Second):
			t.Fatalf("no change seen after %s", what)
		}
		// a write can come as several events spread over more than the
		// settle time on a busy machine: take what is left of it, so that
		// the quiet check below is not fooled by the tail of a write
		for {
			select {
			case <-changes:
				continue
			case <-time.After(300 * time.Millisecond):
			}
			return
		}
	}
	quiet := func(what string) {
		t.Helper()
		select {
		case <-changes:
			t.Fatalf("a change was reported after %s", what)
		case <-time.After(300 * time.Millisecond):
		}
	}

	if err := os.WriteFile(path, []byte(`{"mcpServers":{"a":{"command":"x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	wait("a write in place")
	if err := WriteAtomic(path, []byte(`{"mcpServers":{"b":{"command":"y"}}}`), nil); err != nil {
		t.Fatal(err)
	}
	wait("an atomic replacement")
	if err := os.WriteFile(filepath.Join(dir, "other.json"), []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	quiet("a write to another file")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	wait("a removal")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	wait("a re-creation")

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Watch returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not return after its context ended")
	}
}

// TestDiskChanged: the catalog's own save is not a change; another
// writer's is, and so is a removal.
func TestDiskChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"a":{"command":"x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	check := func(want bool, when string) {
		t.Helper()
		got, err := c.DiskChanged()
		if err != nil || got != want {
			t.Fatalf("%s: DiskChanged = %v, %v; want %v", when, got, err, want)
		}
	}
	check(false, "just read")
	if err := c.Add("b", Server{Type: TypeStdio, Command: "y"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	check(false, "after its own save")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	check(true, "after another writer")
	if err := c.Rebase(); err != nil {
		t.Fatal(err)
	}
	check(false, "after a rebase")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	check(true, "after a removal")
	if _, err := New().DiskChanged(); err != nil {
		t.Fatal(err)
	}
}
