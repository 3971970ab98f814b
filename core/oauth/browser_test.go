//go:build unix

package oauth_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/oauth"
)

func TestSystemBrowserHonoursBROWSER(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "opened") // a FIFO: reading it waits for the browser
	if err := syscall.Mkfifo(out, 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"BROWSER": "/nonexistent/browser:" + script}
	b := oauth.SystemBrowser{Getenv: func(k string) string { return env[k] }}
	u := "http://127.0.0.1:1/authorize?state=a&scope=x+y"
	opened := make(chan []byte, 1)
	go func() {
		got, _ := os.ReadFile(out)
		opened <- got
	}()
	if err := b.Open(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-opened:
		if string(got) != u {
			t.Fatalf("browser got %q, want %q", got, u)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the $BROWSER command never ran")
	}
}

func TestSystemBrowserFailure(t *testing.T) {
	b := oauth.SystemBrowser{Getenv: func(string) string { return "/nonexistent/a:/nonexistent/b" }}
	if err := b.Open(context.Background(), "http://x"); !errors.Is(err, oauth.ErrBrowser) {
		t.Fatalf("err = %v, want ErrBrowser", err)
	}
}
