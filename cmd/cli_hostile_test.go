//go:build unix

package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/internal/tracetest"
)

// TestCLITraceKeepsSpecialFiles: --trace into a FIFO or a character device
// writes through it and leaves it what it was (issue #11.1: the trace was
// renamed over it, and as root --trace /dev/null replaced /dev/null).
func TestCLITraceKeepsSpecialFiles(t *testing.T) {
	isolateCLI(t)
	ping := []string{"--cli", "--server", "spyglass-demo", "--method", "ping", "--trace"}

	t.Run("fifo", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "trace.fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		// A reader from the start, and a writer of the test's own that
		// keeps the reader from EOF until the run has ended.
		r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		keep, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		trace := make(chan error, 1)
		go func() {
			_, evs, err := events.ReadTrace(r)
			if err == nil && len(evs) == 0 {
				err = fmt.Errorf("the trace holds no events")
			}
			trace <- err
		}()
		code, out, errs := cli(t, append(ping, path)...)
		keep.Close()
		if code != exitOK {
			t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
		}
		if err := <-trace; err != nil {
			t.Errorf("the FIFO's reader got no trace: %v", err)
		}
		assertType(t, path, fs.ModeNamedPipe)
	})

	t.Run("character device", func(t *testing.T) {
		path := "/dev/null" // without root it cannot be replaced anyway
		if os.Geteuid() == 0 {
			path = filepath.Join(t.TempDir(), "null")
			if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Fatal(err)
			}
		}
		if code, out, errs := cli(t, append(ping, path)...); code != exitOK {
			t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
		}
		assertType(t, path, fs.ModeDevice|fs.ModeCharDevice)
	})
}

func assertType(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Type(); got != want {
		t.Errorf("%s became %v, want %v", path, got, want)
	}
}

// silentServer is a stdio server that never answers: it writes "ready" to
// the FIFO (when given) and sleeps. marker makes its command line unique,
// for leftovers to be found.
func silentServer(fifo string) (args []string, marker string) {
	marker = fmt.Sprintf("%d.%d", 1000+time.Now().UnixNano()%1000, os.Getpid())
	script := `[ -n "$0" ] && echo ready > "$0"; exec sleep ` + marker
	return []string{"--", "sh", "-c", script, fifo}, marker
}

// readyFIFO makes the FIFO a silentServer says "ready" on. Its reader
// sees EOF only after closeWriter is called (the test holds a writer).
func readyFIFO(t *testing.T) (path string, r *bufio.Reader, closeWriter func()) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "ready")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return path, bufio.NewReader(f), func() { w.Close() }
}

// leftovers lists the processes whose command line holds marker.
func leftovers(t *testing.T, marker string) []string {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var found []string
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte(marker)) {
			found = append(found, f+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return found
}

// traceHas reports whether the trace at path is valid and records an
// event of the kind.
func traceHas(t *testing.T, path string, kind events.Kind) bool {
	t.Helper()
	_, evs := tracetest.Read(t, path)
	for _, e := range evs {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// TestCLITimeoutBoundsConnecting: --timeout bounds the handshake too
// (issue #11.3: connecting waited 30 s whatever --timeout said). The run
// ends with exit 6, says what it waited for, and leaves no server behind.
func TestCLITimeoutBoundsConnecting(t *testing.T) {
	isolateCLI(t)
	fifo, ready, closeWriter := readyFIFO(t)
	server, marker := silentServer(fifo)
	code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/list", "--timeout", "1s"}, server...)...)
	closeWriter()
	if code != exitTimeout {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitTimeout, out, errs)
	}
	if !strings.Contains(errs, "--timeout 1s passed while connecting") {
		t.Errorf("the message does not say what was waited for:\n%s", errs)
	}
	if said, _ := ready.ReadString('\n'); said != "ready\n" {
		t.Fatal("the server never started")
	}
	if left := leftovers(t, marker); len(left) > 0 {
		t.Errorf("the server is still running after the run: %v", left)
	}
}

// TestCLISignals: SIGINT and SIGTERM end a run with 130 and 143 (issue
// #11.13: they exited 3, "could not connect"), the trace is still
// written and the server is stopped.
func TestCLISignals(t *testing.T) {
	isolateCLI(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(tc.name, func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "trace.json")
			fifo, ready, closeWriter := readyFIFO(t)
			defer closeWriter()
			server, marker := silentServer(fifo)
			type result struct {
				code     int
				out, err string
			}
			done := make(chan result, 1)
			go func() {
				code, out, errs := cli(t, append([]string{"--cli", "--method", "tools/list", "--trace", trace}, server...)...)
				done <- result{code, out, errs}
			}()
			// The server is up (so the run waits for its handshake) once it
			// says ready; the run's signal handler was installed before.
			if line, err := ready.ReadString('\n'); err != nil || line != "ready\n" {
				t.Fatalf("the server did not start: %q %v", line, err)
			}
			if err := syscall.Kill(os.Getpid(), tc.sig); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", res.code, tc.code, res.out, res.err)
			}
			if !strings.Contains(res.err, "interrupted by "+tc.name) {
				t.Errorf("stderr does not say the run was interrupted:\n%s", res.err)
			}
			if !traceHas(t, trace, events.KindState) {
				t.Error("the trace records nothing of the connection")
			}
			if left := leftovers(t, marker); len(left) > 0 {
				t.Errorf("the server is still running after the run: %v", left)
			}
		})
	}
}

// videoServer is a stdio server whose tools/call result has a content
// block of a type MCP does not define.
const videoServer = `while IFS= read -r line; do
  id=$(printf '%s\n' "$line" | sed -n 's/^{"jsonrpc":"2.0","id":\([0-9]*\),.*/\1/p')
  [ -n "$id" ] || continue
  case "$line" in
  *'"method":"initialize"'*) r='{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"video","version":"1"}}' ;;
  *'"method":"tools/call"'*) r='{"content":[{"type":"video","data":"AAAA","mimeType":"video/mp4"}]}' ;;
  *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}\n' "$id"; continue ;;
  esac
  printf '{"jsonrpc":"2.0","id":%s,"result":%s}\n' "$id" "$r"
done`

// TestCLIShapeErrorShowsResult: a result the CLI cannot model is printed
// as sent, with a warning and exit 8 (issue #11.9: it exited 3, "could not
// connect", and hid the result even with --format json).
func TestCLIShapeErrorShowsResult(t *testing.T) {
	isolateCLI(t)
	sent := `{"content":[{"type":"video","data":"AAAA","mimeType":"video/mp4"}]}`
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := cli(t, "--cli", "--method", "tools/call", "--tool-name", "film", "--format", format, "--", "sh", "-c", videoServer)
			if code != exitShape {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitShape, out, errs)
			}
			var got json.RawMessage
			if format == "json" {
				var m struct{ Result json.RawMessage }
				if err := json.Unmarshal([]byte(out), &m); err != nil {
					t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
				}
				got = m.Result
			} else {
				got = json.RawMessage(out)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, got); err != nil || compact.String() != sent {
				t.Errorf("stdout is not the result as sent (%v):\n%s", err, out)
			}
			if !strings.Contains(errs, "does not match the MCP schema") || !strings.Contains(errs, "video") {
				t.Errorf("no warning naming the problem:\n%s", errs)
			}
		})
	}
}

// TestCLIEmptyFault: --fault with no rule is a usage error that shows
// what a rule looks like (issue #11.13: accepted silently).
func TestCLIEmptyFault(t *testing.T) {
	isolateCLI(t)
	for _, spec := range []string{"", ",", " , "} {
		code, out, errs := cli(t, "--cli", "--server", "spyglass-demo", "--method", "ping", "--fault", spec)
		if code != exitUsage || !strings.Contains(errs, "drop=out:tools/call") {
			t.Errorf("--fault %q: exit %d, want %d with an example rule\nstdout: %s\nstderr: %s", spec, code, exitUsage, out, errs)
		}
	}
}

// TestCLITimeoutBoundsSignIn: --timeout also bounds an OAuth sign-in
// whose browser never comes back (issue #11.3: it waited for the callback
// forever, and a CI job hung).
func TestCLITimeoutBoundsSignIn(t *testing.T) {
	isolateCLI(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			fmt.Fprintf(w, `{"resource":%q,"authorization_servers":[%q]}`, base+"/mcp", base)
		case "/.well-known/oauth-authorization-server":
			fmt.Fprintf(w, `{"issuer":%q,"authorization_endpoint":%q,"token_endpoint":%q,"registration_endpoint":%q,`+
				`"response_types_supported":["code"],"code_challenge_methods_supported":["S256"]}`,
				base, base+"/authorize", base+"/token", base+"/register")
		case "/register":
			w.WriteHeader(http.StatusCreated)
			fmt.Fprint(w, `{"client_id":"spyglass-test","token_endpoint_auth_method":"none"}`)
		case "/mcp":
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	// "true" opens nothing: the callback never comes.
	code, out, errs := cli(t, "--cli", "--method", "ping", "--transport", "http", "--server-url", srv.URL+"/mcp",
		"--browser", "true", "--timeout", "5s")
	if code != exitTimeout {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitTimeout, out, errs)
	}
	if !strings.Contains(errs, "--timeout 5s passed while signing in") {
		t.Errorf("the message does not say the sign-in was waited for:\n%s", errs)
	}
}
