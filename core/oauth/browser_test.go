package oauth_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/oauth"
)

func TestSystemBrowserHonoursBROWSER(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script browser")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+out+".tmp && mv "+out+".tmp "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"BROWSER": "/nonexistent/browser:" + script}
	b := oauth.SystemBrowser{Getenv: func(k string) string { return env[k] }}
	u := "http://127.0.0.1:1/authorize?state=a&scope=x+y"
	if err := b.Open(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := os.ReadFile(out)
		if err == nil {
			if string(got) != u {
				t.Fatalf("browser got %q, want %q", got, u)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the $BROWSER command never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestSystemBrowserFailure(t *testing.T) {
	b := oauth.SystemBrowser{Getenv: func(string) string { return "/nonexistent/a:/nonexistent/b" }}
	if err := b.Open(context.Background(), "http://x"); !errors.Is(err, oauth.ErrBrowser) {
		t.Fatalf("err = %v, want ErrBrowser", err)
	}
}
