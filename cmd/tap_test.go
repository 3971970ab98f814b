package cmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/tap"
	peers "github.com/spyglass-mcp/spyglass/core/testpeers"
)

// TestTapArgs: the rules between the tap's flags, in words that say what
// to write instead.
func TestTapArgs(t *testing.T) {
	tests := []struct {
		args []string
		want string // part of the error; "" means accepted
	}{
		{[]string{"--", "node", "x.js"}, ""},
		{[]string{"--trace", "t.json", "--fault", "drop=out:tools/call", "--", "node", "x.js"}, ""},
		{[]string{"--listen", "127.0.0.1:8931", "--upstream", "http://127.0.0.1:3001/mcp"}, ""},
		{[]string{"--listen", "[::1]:8931", "--upstream", "http://127.0.0.1:3001/mcp"}, ""},
		{[]string{"--listen", "0.0.0.0:8931", "--listen-any", "--upstream", "http://127.0.0.1:3001/mcp"}, ""},
		{nil, "needs the server command after --"},
		{[]string{"--listen", "0.0.0.0:8931", "--upstream", "http://127.0.0.1:3001/mcp"}, "not a loopback address"},
		{[]string{"--listen", ":8931", "--upstream", "http://127.0.0.1:3001/mcp"}, "not a loopback address"},
		{[]string{"--listen", "127.0.0.1:8931"}, "needs both --listen"},
		{[]string{"--listen", "127.0.0.1:8931", "--upstream", "ftp://x"}, "not a valid URL"},
		{[]string{"--listen", "8931", "--upstream", "http://127.0.0.1:3001/mcp"}, "not HOST:PORT"},
		{[]string{"--listen", "127.0.0.1:1", "--upstream", "http://h/mcp", "--", "node"}, "takes no server command"},
		{[]string{"--listen", "127.0.0.1:1", "--upstream", "http://h/mcp", "--fault", "cut=1"}, ""},
		{[]string{"--listen", "127.0.0.1:1", "--upstream", "http://h/mcp", "--fault", "nonsense"}, "--fault"},
		{[]string{"--fault", "nonsense", "--", "node"}, "--fault"},
		{[]string{"--listen-any", "--", "node"}, "goes with --listen"},
		{[]string{"--listen", "127.0.0.1:1", "--upstream", "http://h/mcp", "--upstream-from", "r.json"}, "one of --upstream URL or --upstream-from"},
		{[]string{"--listen", "127.0.0.1:1", "--upstream-from", "/nonexistent/r.json"}, "cannot read the server's url from it"},
	}
	for _, tc := range tests {
		_, err := parseTapArgs(tc.args)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: got %v, want an error about %q", tc.args, err, tc.want)
		}
	}
}

// noApp points the app's socket at an empty runtime folder for the test,
// so that a Spyglass window running on the machine does not take the
// tap's live feed (and the tap says that nothing is recorded).
func noApp(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	xdg.Reload()
	t.Cleanup(xdg.Reload)
}

// TestTapNoTrace: without --trace the tap passes the bytes through and
// says once on stderr that nothing is recorded; the server's exit status
// is the tap's.
func TestTapNoTrace(t *testing.T) {
	noApp(t)
	in := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\nnot json\n{\"partial\":"
	var out, errb bytes.Buffer
	code := run([]string{"--tap", "--", "sh", "-c", "cat; exit 4"}, strings.NewReader(in), &out, &errb)
	if code != 4 {
		t.Errorf("exit %d, want the server's 4; stderr: %s", code, errb.String())
	}
	if out.String() != in {
		t.Errorf("stdout %q, want the input unchanged %q", out.String(), in)
	}
	if n := strings.Count(errb.String(), "not recording"); n != 1 {
		t.Errorf("stderr says %d times that nothing is recorded: %q", n, errb.String())
	}
	errb.Reset()
	if code := run([]string{"--tap", "--", "no-such-command-here"}, strings.NewReader(""), &out, &errb); code != exitTapNotFound || !strings.Contains(errb.String(), "no such command") {
		t.Errorf("missing command: exit %d, %q", code, errb.String())
	}
}

// TestTapInstallWithInspector: --tap-install rewrites a Claude Desktop
// style entry; the official inspector's CLI launching that entry's command
// line gets the same bytes as with the original entry, the trace holds the
// session, and --tap-uninstall gives back the original file byte for byte.
func TestTapInstallWithInspector(t *testing.T) {
	node := peers.Node(t)
	ev := peers.File(t, peers.Everything)
	inspector := peers.File(t, "@modelcontextprotocol/inspector/clients/launcher/build/index.js")
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	cfg := filepath.Join(dir, "claude_desktop_config.json")
	orig := `{
  // Claude Desktop's servers
  "mcpServers": {
    "everything": {"command": "` + node + `", "args": ["` + ev + `"]}
  }
}
`
	if err := os.WriteFile(cfg, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "everything.trace.json")
	var out, errb bytes.Buffer
	if code := run([]string{"--tap-install", cfg, "--server", "everything", "--trace", trace}, strings.NewReader("y\n"), &out, &errb); code != 0 {
		t.Fatalf("--tap-install: exit %d: %s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), `+      "everything": {"command": `) && !strings.Contains(out.String(), "+    \"everything\"") {
		t.Errorf("no diff shown before writing:\n%s", out.String())
	}
	if b, _ := os.ReadFile(cfg + backupSuffix); string(b) != orig {
		t.Errorf("backup %q", b)
	}
	data, _ := os.ReadFile(cfg)
	e, _, err := tap.FindEntry(data, "everything")
	if err != nil {
		t.Fatal(err)
	}

	// The client launches what the entry says: a script of it.
	launch := func(name, command string, args []string) string {
		line := "exec '" + command + "'"
		for _, a := range args {
			line += " '" + a + "'"
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("#!/bin/sh\n"+line+"\n"), 0o755)
		return p
	}
	inspect := func(server string) []byte {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, inspector, "--cli", server, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=installed tap")
		cmd.Env = append(os.Environ(), "HOME="+dir)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("inspector: %v %s", err, b)
		}
		return b
	}
	direct := inspect(launch("direct.sh", node, []string{ev}))
	// The tapped entry names this test binary as spyglass (TestMain runs
	// the tap when asked); its trace is a FIFO here, so that reading it to
	// its end waits for the tap to finish.
	if err := syscall.Mkfifo(trace+".fifo", 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string(nil), e.Args...)
	for i := range args {
		if args[i] == trace {
			args[i] = trace + ".fifo"
		}
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(trace + ".fifo")
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(bufio.NewReader(f))
		f.Close()
		got <- b
	}()
	tapped := inspect(launch("tapped.sh", e.Command, args))
	if !bytes.Equal(direct, tapped) {
		t.Errorf("inspector output differs through the installed tap:\n%s\n%s", direct, tapped)
	}
	var tr []byte
	select {
	case tr = <-got:
	case <-time.After(60 * time.Second):
		t.Fatal("the tap never finished its trace")
	}
	meta, evs, err := events.ReadTrace(bytes.NewReader(tr))
	if err != nil {
		t.Fatalf("trace: %v\n%s", err, tr)
	}
	calls := 0
	for _, e := range evs {
		if e.Kind == events.KindMessage && e.Method == "tools/call" {
			calls++
		}
	}
	if calls != 2 || len(meta.Conns) != 1 || meta.Conns[0].Conn != "everything" {
		t.Errorf("trace: %d tools/call messages, conns %+v\n%s", calls, meta.Conns, tr)
	}

	uninstallTwice(t, cfg, orig)
	errb.Reset()
	if code := run([]string{"--tap-install", cfg, "--server", "nope", "--yes"}, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), `no server named "nope"`) {
		t.Errorf("install of a missing server: exit %d, %q", code, errb.String())
	}
}

// TestTapFlood: the demo's flood of notifications through the tap: the
// host gets every one, in order, and the trace records every one.
func TestTapFlood(t *testing.T) {
	const n = 20000
	trace := filepath.Join(t.TempDir(), "flood.json")
	cmd := spyglassCmd(t, "--tap", "--trace", trace, "--")
	cmd.Args = append(cmd.Args, cmd.Path, "--demo-server")
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+t.TempDir())
	in, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReaderSize(stdout, 1<<20)
	waitID := func(id string) (notes int) {
		t.Helper()
		for {
			line, err := out.ReadBytes('\n')
			if err != nil {
				t.Fatalf("tap output ended: %v; stderr: %s", err, errb.String())
			}
			if bytes.Contains(line, []byte(`"method":"notifications/message"`)) {
				if !bytes.Contains(line, []byte(`"seq":`+strconv.Itoa(notes+1)+`}`)) {
					t.Fatalf("notification %d out of order or lost: %s", notes+1, line)
				}
				notes++
				continue
			}
			if bytes.Contains(line, []byte(`"id":`+id)) {
				return notes
			}
		}
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`+"\n")
	waitID("1")
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood","arguments":{"count":`+strconv.Itoa(n)+`}}}`+"\n")
	if got := waitID("2"); got != n {
		t.Errorf("host got %d notifications, want %d", got, n)
	}
	in.Close()
	// The tap's exit status is the server's (core/tap TestExitStatus): a server
	// that takes longer than the ladder's half second to exit after EOF (this
	// test binary under -race, after the flood) ends with SIGTERM's 143.
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 {
			t.Fatalf("tap: %v; stderr: %s", err, errb.String())
		}
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	meta, evs, err := events.ReadTrace(f)
	if err != nil {
		t.Fatal(err)
	}
	notes := 0
	for _, e := range evs {
		if e.Kind == events.KindMessage && e.Dir == events.DirIn && e.Method == "notifications/message" {
			notes++
		}
	}
	if notes != n || meta.Dropped != 0 {
		t.Errorf("trace holds %d notifications (%d dropped), want %d", notes, meta.Dropped, n)
	}
}

// TestHTTPTapCommand: `spyglass --tap --listen --upstream` in front of
// server-everything over Streamable HTTP: the official inspector's CLI
// prints the same bytes through it as without it, its Authorization
// header is masked in the trace, and SIGTERM ends the tap with the trace
// written.
func TestHTTPTapCommand(t *testing.T) {
	node := peers.Node(t)
	inspector := peers.File(t, "@modelcontextprotocol/inspector/clients/launcher/build/index.js")
	base := peers.EverythingHTTP(t, "streamableHttp")
	trace := filepath.Join(t.TempDir(), "http.json")
	cmd := spyglassCmd(t, "--tap", "--listen", "127.0.0.1:0", "--upstream", base+"/mcp", "--trace", trace)
	local, _, tail := startHTTPTap(t, cmd)
	const secret = "tok-secret-1234567"
	inspect := func(u string) []byte {
		return inspectorEcho(t, node, inspector, t.TempDir(), u, "over http", "", "--header", "Authorization: Bearer "+secret)
	}
	if direct, tapped := inspect(base+"/mcp"), inspect(local); !bytes.Equal(direct, tapped) {
		t.Errorf("output differs through the HTTP tap:\n%s\n%s", direct, tapped)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("tap: %v; stderr: %s", err, <-tail)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(secret)) {
		t.Error("the Authorization token is in the trace")
	}
	_, evs, err := events.ReadTrace(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var httpN, calls int
	for _, e := range evs {
		switch {
		case e.Kind == events.KindHTTP:
			httpN++
		case e.Kind == events.KindMessage && e.Method == "tools/call" && e.Pair != 0:
			calls++
		}
	}
	if httpN == 0 || calls != 2 {
		t.Errorf("trace: %d exchanges, %d paired tools/call messages", httpN, calls)
	}
}

// TestTapInstallHTTP: --tap-install on an HTTP entry (VS Code's shape,
// with comments) points its url at a tap on a free loopback port and
// prints the command that serves it; that command, run as printed, puts
// the official inspector's CLI through the tap to server-everything over
// Streamable HTTP with the same output as without it and records the
// session; --tap-uninstall gives the file back byte for byte.
func TestTapInstallHTTP(t *testing.T) {
	node := peers.Node(t)
	inspector := peers.File(t, "@modelcontextprotocol/inspector/clients/launcher/build/index.js")
	base := peers.EverythingHTTP(t, "streamableHttp")
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	xdg.Reload() // the tap's record and trace go under the test's data folder
	t.Cleanup(xdg.Reload)
	cfg := filepath.Join(dir, "mcp.json")
	orig := `{
	// the workspace's servers
	"servers": {
		"everything": {"type": "http", "url": "` + base + `/mcp"}, // over HTTP
	},
}
`
	if err := os.WriteFile(cfg, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--tap-install", cfg, "--server", "everything", "--yes"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("--tap-install: exit %d: %s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), `-		"everything": {"type": "http", "url": "`+base+`/mcp"}, // over HTTP`) ||
		!strings.Contains(out.String(), "A client cannot start an HTTP tap itself") {
		t.Errorf("no diff or no word about running the tap:\n%s", out.String())
	}
	var command string
	for _, line := range strings.Split(out.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "    "); ok && strings.Contains(rest, "--tap --listen") {
			command = rest
		}
	}
	if command == "" {
		t.Fatalf("no command to run printed:\n%s", out.String())
	}
	data, _ := os.ReadFile(cfg)
	e, _, err := tap.FindEntry(data, "everything")
	if err != nil || !strings.HasPrefix(e.URL, "http://127.0.0.1:") || !strings.HasSuffix(e.URL, "/mcp") {
		t.Fatalf("installed entry %+v (%v):\n%s", e, err, data)
	}
	if b, _ := os.ReadFile(cfg + backupSuffix); string(b) != orig {
		t.Errorf("backup %q", b)
	}

	tapCmd := exec.Command("sh", "-c", "exec "+command)
	if local, said, _ := startHTTPTap(t, tapCmd); local != e.URL {
		t.Fatalf("the tap listens on %s, not on the installed entry's %s:\n%s", local, e.URL, said)
	}
	inspect := func(u string) []byte { return inspectorEcho(t, node, inspector, dir, u, "installed http tap", "") }
	if direct, tapped := inspect(base+"/mcp"), inspect(e.URL); !bytes.Equal(direct, tapped) {
		t.Errorf("output differs through the installed HTTP tap:\n%s\n%s", direct, tapped)
	}
	tapCmd.Process.Signal(syscall.SIGTERM)
	if err := tapCmd.Wait(); err != nil {
		t.Fatalf("tap: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "data", "spyglass", "taps", "everything.trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	meta, evs, err := events.ReadTrace(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, ev := range evs {
		if ev.Kind == events.KindMessage && ev.Method == "tools/call" && ev.Pair != 0 {
			calls++
		}
	}
	if calls != 2 || len(meta.Conns) != 1 || meta.Conns[0].Conn != "everything" {
		t.Errorf("trace: %d paired tools/call messages, conns %+v", calls, meta.Conns)
	}

	uninstallTwice(t, cfg, orig)
}

// TestHTTPTapFaultCommand: `spyglass --tap --listen … --fault` answers
// the official inspector CLI's tools/call with the injected error in the
// server's place, says on stderr which faults it injects, and records the
// fault as a warning beside the exchange.
func TestHTTPTapFaultCommand(t *testing.T) {
	node := peers.Node(t)
	inspector := peers.File(t, "@modelcontextprotocol/inspector/clients/launcher/build/index.js")
	base := peers.EverythingHTTP(t, "streamableHttp")
	trace := filepath.Join(t.TempDir(), "http.json")
	cmd := spyglassCmd(t, "--tap", "--listen", "127.0.0.1:0", "--upstream", base+"/mcp", "--trace", trace, "--fault", "error=tools/call:-32042")
	local, said, _ := startHTTPTap(t, cmd)
	if !strings.Contains(said, "injecting faults: error=tools/call:-32042") {
		t.Errorf("the tap did not say which faults it injects: %s", said)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, node, inspector, "--cli", local, "--transport", "http",
		"--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=faulty")
	c.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, _ := c.CombinedOutput() // the call fails: that is the fault
	if !strings.Contains(string(out), "injected fault") {
		t.Errorf("the inspector did not get the injected error:\n%s", out)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("tap: %v", err)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	_, evs, err := events.ReadTrace(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, e := range evs {
		if e.Kind == events.KindWarning && strings.Contains(e.Text, "JSON-RPC error instead of sending · tools/call") {
			warned = true
		}
		if e.Kind == events.KindMessage && e.Dir == events.DirIn && e.Method == "tools/call" && !bytes.Contains(e.Raw, []byte(`"code":-32042`)) {
			t.Errorf("the host received %s, not the injected error", e.Raw)
		}
	}
	if !warned {
		t.Errorf("no warning about the fault in the trace")
	}
}

// TestTapTraceProblems: a trace that cannot be written leaves the bytes
// flowing and is reported once, cause first.
func TestTapTraceProblems(t *testing.T) {
	noApp(t)
	in := strings.Repeat(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`+"\n", 2000)
	for _, tc := range []struct {
		trace, want string
		lines       int
	}{
		{"/dev/full", "the trace /dev/full is not being written: no space left on device; traffic keeps passing through unchanged", 1},
		{filepath.Join(t.TempDir(), "missing", "t.json"), "not writing a trace: the folder of --trace", 2}, // and "not recording"
	} {
		var out, errb bytes.Buffer
		if code := run([]string{"--tap", "--trace", tc.trace, "--", "cat"}, strings.NewReader(in), &out, &errb); code != 0 || out.String() != in {
			t.Errorf("%s: exit %d, %d of %d bytes passed", tc.trace, code, out.Len(), len(in))
		}
		if strings.Count(errb.String(), tc.want) != 1 || strings.Count(errb.String(), "\n") != tc.lines {
			t.Errorf("%s: stderr %q, want once %q", tc.trace, errb.String(), tc.want)
		}
	}
}

// TestTapHostStopsReading: a host that closes its end of the tap's stdout
// does not kill the tap: it goes on until the host closes its input, then
// exits with the server's status and writes the trace.
func TestTapHostStopsReading(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.json")
	cmd := spyglassCmd(t, "--tap", "--trace", trace, "--", "sh", "-c", `while read l; do echo "$l"; done; exit 3`)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	msg := `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n"
	io.WriteString(in, msg)
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != msg {
		t.Fatalf("echo %q (%v)", line, err)
	}
	out.Close() // the host stops reading
	for range 100 {
		if _, err := io.WriteString(in, msg); err != nil {
			t.Fatalf("the tap stopped taking input: %v; stderr: %s", err, errb.String())
		}
	}
	in.Close()
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("tap ended with %v, want the server's exit status 3; stderr: %s", err, errb.String())
	}
	if _, err := os.Stat(trace); err != nil {
		t.Errorf("no trace: %v", err)
	}
}

// uninstallTwice runs --tap-uninstall of "everything" in the config file
// cfg, which gives the file back as orig, and then again, which has
// nothing to undo.
func uninstallTwice(t *testing.T, cfg, orig string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"--tap-uninstall", cfg, "--server", "everything", "--yes"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("--tap-uninstall: exit %d: %s", code, errb.String())
	}
	if b, _ := os.ReadFile(cfg); string(b) != orig {
		t.Errorf("after --tap-uninstall:\n%s\nwant the original\n%s", b, orig)
	}
	errb.Reset()
	if code := run([]string{"--tap-uninstall", cfg, "--server", "everything", "--yes"}, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "nothing to undo") {
		t.Errorf("second uninstall: exit %d, %q", code, errb.String())
	}
}

// TestHTTPTapUpstreamUnreachable: an HTTP tap whose upstream has nothing
// listening answers the host 502 and says why on stderr, once however
// often the host retries, with the upstream's secret masked.
func TestHTTPTapUpstreamUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	const secret = "key-secret-98765432"
	cmd := spyglassCmd(t, "--tap", "--listen", "127.0.0.1:0", "--upstream", "http://"+addr+"/mcp?api_key="+secret,
		"--trace", filepath.Join(t.TempDir(), "t.json"))
	local, _, tail := startHTTPTap(t, cmd)
	for i := 0; i < 3; i++ {
		resp, err := http.Post(local, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadGateway {
			t.Fatalf("status %d, want 502", resp.StatusCode)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	out := <-tail
	if strings.Contains(out, secret) {
		t.Errorf("the upstream's secret is on stderr:\n%s", out)
	}
	want := "spyglass tap: cannot reach the upstream http://" + addr + "/mcp?api_key="
	if n := strings.Count(out, want); n != 1 || !strings.Contains(out, "(connection refused) — is the server running?") {
		t.Errorf("stderr says %d times %q…(connection refused), want once:\n%s", n, want, out)
	}
}

// TestTapInstallHTTPSecret: --tap-install of an HTTP entry whose url
// holds a secret query parameter shows neither in its diff nor in the
// command to run: the command reads the url from the tap's 0600 record
// (--upstream-from) and, run as printed, puts the official inspector's
// CLI through the tap to server-everything with the same output as
// without it, the tap's own lines masked too. With the record lost (the
// config moved, or the record deleted), a second --tap-install refuses
// to put a tap in front of the tap and says how to undo.
func TestTapInstallHTTPSecret(t *testing.T) {
	node := peers.Node(t)
	inspector := peers.File(t, "@modelcontextprotocol/inspector/clients/launcher/build/index.js")
	base := peers.EverythingHTTP(t, "streamableHttp")
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	const secret = "sk-query-secret-424242"
	cfg := filepath.Join(dir, "mcp.json")
	orig := `{"mcpServers": {"everything": {"type": "http", "url": "` + base + `/mcp?api_key=` + secret + `"}}}` + "\n"
	if err := os.WriteFile(cfg, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--tap-install", cfg, "--server", "everything", "--yes"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("--tap-install: exit %d: %s%s", code, out.String(), errb.String())
	}
	if strings.Contains(out.String()+errb.String(), secret) {
		t.Errorf("--tap-install shows the url's secret:\n%s%s", out.String(), errb.String())
	}
	var command string
	for _, line := range strings.Split(out.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "    "); ok && strings.Contains(rest, "--tap --listen") {
			command = rest
		}
	}
	if !strings.Contains(command, "--upstream-from ") {
		t.Fatalf("the command to run does not read the url from the record:\n%s", out.String())
	}
	recs, _ := filepath.Glob(filepath.Join(dir, "data", "spyglass", "taps", "*.http-tap.json"))
	if len(recs) != 1 {
		t.Fatalf("records %v", recs)
	}
	if fi, err := os.Stat(recs[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the record %s is not 0600: %v %v", recs[0], fi.Mode(), err)
	}
	data, _ := os.ReadFile(cfg)
	e, _, err := tap.FindEntry(data, "everything")
	if err != nil || !strings.HasPrefix(e.URL, "http://127.0.0.1:") {
		t.Fatalf("installed entry %+v (%v)", e, err)
	}

	tapCmd := exec.Command("sh", "-c", "exec "+command)
	_, said, tail := startHTTPTap(t, tapCmd)
	if strings.Contains(said, secret) {
		t.Errorf("the tap's stderr shows the secret:\n%s", said)
	}
	inspect := func(u string) []byte {
		return inspectorEcho(t, node, inspector, dir, u, "secret url", secret)
	}
	if direct, tapped := inspect(base+"/mcp?api_key="+secret), inspect(e.URL); !bytes.Equal(direct, tapped) {
		t.Errorf("output differs through the tap:\n%s\n%s", direct, tapped)
	}
	tapCmd.Process.Signal(syscall.SIGTERM)
	tapCmd.Wait()
	if s := <-tail; strings.Contains(s, secret) {
		t.Errorf("the tap's stderr shows the secret:\n%s", s)
	}

	// the config moved: its record (named by the old path) does not
	// match, but the url points at a recorded tap's port
	moved := filepath.Join(dir, "moved.json")
	if err := os.WriteFile(moved, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	code := run([]string{"--tap-install", moved, "--server", "everything", "--yes"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "already points at a Spyglass tap") || !strings.Contains(errb.String(), "set its url back to") || strings.Contains(errb.String(), secret) {
		t.Errorf("a moved config's second --tap-install: exit %d:\n%s%s", code, out.String(), errb.String())
	}
	// the record deleted: the backup says what the url was
	os.Remove(recs[0])
	out.Reset()
	errb.Reset()
	code = run([]string{"--tap-install", cfg, "--server", "everything", "--yes"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "a tap in front of the tap") || !strings.Contains(errb.String(), backupSuffix) || strings.Contains(errb.String(), secret) {
		t.Errorf("--tap-install with the record lost: exit %d:\n%s%s", code, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(cfg); !bytes.Equal(b, data) {
		t.Errorf("the refused --tap-install changed the file:\n%s", b)
	}
}

// redactForLog is u with secret masked, for a test's failure message.
func redactForLog(u, secret string) string { return strings.ReplaceAll(u, secret, "****") }

// spyglassCmd is this test binary run as spyglass with args (TestMain
// runs cmd.Main when it is started so).
func spyglassCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exec.Command(self, args...)
}

// startHTTPTap starts cmd, an HTTP tap, and reads its stderr up to the
// line that says where it listens. It returns that address, what the tap
// said until then (that line included) and, once the tap ends, the rest
// of its stderr; the tap is killed when the test ends.
func startHTTPTap(t *testing.T, cmd *exec.Cmd) (local, said string, tail <-chan string) {
	t.Helper()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	br := bufio.NewReader(stderr)
	var b strings.Builder
	for local == "" {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("the tap said nothing about listening: %v (%s)", err, b.String())
		}
		b.WriteString(line)
		if _, rest, ok := strings.Cut(line, "listening on "); ok {
			local, _, _ = strings.Cut(strings.TrimSpace(rest), " ")
		}
	}
	rest := make(chan string, 1)
	go func() { b, _ := io.ReadAll(br); rest <- string(b) }()
	return local, b.String(), rest
}

// inspectorEcho is the official inspector CLI's output for a tools/call
// of echo with message over Streamable HTTP at u (HOME at home, args
// added); a failure names u with hide, a secret in it, masked.
func inspectorEcho(t *testing.T, node, inspector, home, u, message, hide string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	argv := append([]string{inspector, "--cli", u, "--transport", "http"}, args...)
	argv = append(argv, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message="+message)
	c := exec.CommandContext(ctx, node, argv...)
	c.Env = append(os.Environ(), "HOME="+home)
	b, err := c.Output()
	if err != nil {
		shown := u
		if hide != "" {
			shown = redactForLog(u, hide)
		}
		t.Fatalf("inspector %s: %v %s", shown, err, b)
	}
	return b
}
