package cmd

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/secrets"
)

func TestCLIStore(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	var errb bytes.Buffer
	// Without a session bus: memory, and one note on the first write.
	st := cliStore("linux", env(nil), &errb)
	mem, ok := st.(*runOnlyStore)
	if !ok {
		t.Fatalf("no D-Bus session: got %T, want the run-only memory store", st)
	}
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if err := mem.Set(ctx, "k", "v"); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := mem.Get(ctx, "k"); err != nil || v != "v" {
		t.Errorf("Get = %q, %v", v, err)
	}
	if n := strings.Count(errb.String(), "lasts for this run only"); n != 1 {
		t.Errorf("the note was printed %d times, want once: %q", n, errb.String())
	}
	// With one (and elsewhere): the OS keyring.
	if _, ok := cliStore("linux", env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"}), &errb).(*secrets.Keyring); !ok {
		t.Error("with a session bus the keyring is not used")
	}
	if _, ok := cliStore("darwin", env(nil), &errb).(*secrets.Keyring); !ok {
		t.Error("on macOS the keyring is not used")
	}
}

func TestCommandBrowser(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "opened") // a FIFO: reading it waits for the browser
	if err := syscall.Mkfifo(out, 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$@\" > "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1/auth?x=1"
	for _, tc := range []struct{ cmd, want string }{
		{script, url}, // the URL appended
		{script + " --new-window", "--new-window " + url},                     // after the command's own arguments
		{script + " --url=%s --new-window", "--url=" + url + " --new-window"}, // or in place of %s
	} {
		opened := make(chan []byte, 1)
		go func() {
			got, _ := os.ReadFile(out)
			opened <- got
		}()
		if err := commandBrowser(tc.cmd, &bytes.Buffer{}).Open(context.Background(), url); err != nil {
			t.Fatalf("%s: %v", tc.cmd, err)
		}
		select {
		case got := <-opened:
			if string(got) != tc.want+"\n" {
				t.Errorf("%s opened %q, want %q", tc.cmd, got, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s never ran", tc.cmd)
		}
	}
	if err := commandBrowser("/nonexistent/browser", &bytes.Buffer{}).Open(context.Background(), "http://x"); err == nil {
		t.Error("a missing browser command did not fail")
	}
}

// TestSignInStartsOnEveryTransport: a server that refuses with 401 and
// names its protected-resource metadata gets the OAuth discovery, whether
// it refuses the first POST (Streamable HTTP) or the GET that opens its
// stream (legacy SSE).
func TestSignInStartsOnEveryTransport(t *testing.T) {
	for _, transport := range []string{"http", "sse"} {
		t.Run(transport, func(t *testing.T) {
			isolateCLI(t)
			var mu sync.Mutex
			var paths []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				paths = append(paths, r.Method+" "+r.URL.Path)
				mu.Unlock()
				if strings.HasPrefix(r.URL.Path, "/.well-known/") {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource/mcp"`)
				w.WriteHeader(http.StatusUnauthorized)
			}))
			defer srv.Close()
			code, _, errs := cli(t, "--cli", "--method", "ping", "--transport", transport, "--server-url", srv.URL+"/mcp")
			if code != exitAuth {
				t.Errorf("exit %d, want %d: %s", code, exitAuth, errs)
			}
			mu.Lock()
			defer mu.Unlock()
			found := false
			for _, p := range paths {
				if strings.HasPrefix(p, "GET /.well-known/oauth-protected-resource") {
					found = true
				}
			}
			if !found {
				t.Errorf("no sign-in was attempted over %s; the server saw %v", transport, paths)
			}
		})
	}
}
