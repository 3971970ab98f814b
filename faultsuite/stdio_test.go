//go:build unix

package faultsuite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
)

// expect is how a case must end.
type expect int

const (
	wantOK           expect = iota // exit 0, no error
	wantClosed                     // exit 3: the server exited or the connection ended
	wantTimeout                    // exit 6: --timeout / the request timeout passed
	wantBadBody                    // exit 3: an HTTP 200 whose body is not JSON-RPC
	wantUnauthorized               // exit 7: authorization required
	wantHTTPError                  // exit 3: a plain HTTP error
)

// exitCode is the README's exit code for e.
func (e expect) exitCode() int {
	switch e {
	case wantOK:
		return 0
	case wantTimeout:
		return 6
	case wantUnauthorized:
		return 7
	}
	return 3
}

// check reports what is wrong with the engine's error for e.
func (e expect) check(err error) error {
	var httpErr *wire.HTTPError
	var exit *wire.ExitError
	ok := false
	switch e {
	case wantOK:
		ok = err == nil
	case wantClosed:
		ok = errors.Is(err, session.ErrNoResponse) || errors.Is(err, session.ErrConnectionClosed) || errors.As(err, &exit)
	case wantTimeout:
		// The handshake's bound (ConnectionTimeout) ends it as a
		// context deadline; the outer context of the suite is far longer.
		ok = errors.Is(err, session.ErrTimeout) || errors.Is(err, context.DeadlineExceeded)
	case wantBadBody:
		ok = errors.Is(err, wire.ErrBadBody)
	case wantUnauthorized:
		ok = errors.Is(err, wire.ErrUnauthorized)
	case wantHTTPError:
		ok = errors.As(err, &httpErr) && !errors.Is(err, wire.ErrUnauthorized)
	}
	if ok {
		return nil
	}
	return fmt.Errorf("got error %v, want %s", err, e)
}

func (e expect) String() string {
	return [...]string{"success", "connection closed", "a timeout", "a bad body error", "unauthorized", "an HTTP error"}[e]
}

// bigMessage is the argument of the tools/call sent to a server that
// stopped reading: more than a pipe's buffer (64 KiB), less than one
// command-line argument may hold (128 KiB).
var bigMessage = strings.Repeat("x", 120_000)

// stdioCase is one hostile stdio server.
type stdioCase struct {
	name   string
	script string   // in testdata
	env    []string // for the server
	call   bool     // tools/call echo with bigMessage instead of tools/list
	// cliOnly skips the engine run.
	cliOnly bool
	// timeout is the CLI's --timeout and the engine's timeouts (5s and
	// 3s when empty): room for slow work under -race on 2 cores.
	timeout string
	want    expect
	// maxRSS bounds the CLI's peak resident memory (0: not checked).
	maxRSS int64
	// check looks further at the trace of a run (CLI and engine).
	check func(t *testing.T, evs []events.Event)
}

const mb = 1 << 20

// baseRSS is what a CLI run holds with no large message (about 30 MB
// measured), with room to spare.
const baseRSS = 64 * mb

var stdioCases = []stdioCase{
	{name: "garbage lines", script: "garbage.sh", want: wantOK, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.OK)
		wantInvalid(t, evs, []byte("my-server v0.1 starting..."))
	}},
	{name: "invalid JSON and bytes that are not UTF-8", script: "invalid_json.sh", want: wantOK, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.OK)
		// #11.8: rawBase64 decodes to the original bytes.
		wantInvalid(t, evs, []byte("not json \xff\xfe at all"))
		wantInvalid(t, evs, []byte(`{"jsonrpc":"2.0","id":`))
	}},
	{name: "unknown and duplicate ids", script: "ids.sh", want: wantOK, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.OK)
		n := 0
		for _, e := range evs {
			if e.Kind == events.KindMessage && e.Dir == events.DirIn && e.Unpaired {
				n++
			}
		}
		// Per request: id 9999, the id as a string, the second answer
		// (the null-id parse error may be recorded either way).
		if n < 6 {
			t.Errorf("%d responses marked unpaired, want at least 6 (two requests, each answered with id 9999, its id as a string and twice)", n)
		}
	}},
	{name: "batches", script: "batch.sh", want: wantOK, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.OK)
		// #11.8: members that are not objects keep their bytes.
		for _, member := range []string{"42", `"x"`, "null"} {
			if !hasRaw(evs, func(raw []byte) bool {
				return bytes.Equal(bytes.TrimSpace(raw), []byte(member)) || bytes.Contains(raw, []byte(`,42,"x",null]`))
			}) {
				t.Errorf("the batch member %s is nowhere in the trace", member)
			}
		}
	}},
	{name: "CRLF line endings", script: "crlf.sh", want: wantOK, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.OK)
		for _, e := range evs {
			if e.Kind == events.KindInvalid {
				t.Errorf("a CRLF line was recorded as invalid: %q", e.Raw)
			}
		}
	}},
	{name: "serverInfo not UTF-8", script: "bad_utf8_info.sh", want: wantOK},
	{name: "huge line", script: "huge.sh", env: []string{fmt.Sprint("SIZE=", 16*mb)}, want: wantOK, timeout: "2m",
		// #11.6: peak memory for one large message at most 3x its size.
		// The timeout is room, not the subject: the engine run under -race
		// beside the parallel cases on a loaded 2-core machine took over 30 s.
		maxRSS: 3*16*mb + baseRSS,
		check:  func(t *testing.T, evs []events.Event) { wantOutcome(t, evs, "tools/list", events.OK) }},
	{name: "endless line", script: "endless.sh", want: wantTimeout,
		// #11.6: a line that never ends is held up to the message limit.
		maxRSS: 3*wire.DefaultMaxMessageSize + baseRSS},
	{name: "exit before the initialize answer", script: "exit_before_init.sh", want: wantClosed, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "initialize", events.NoResponse)
	}},
	{name: "exit after initialize", script: "exit_after_init.sh", want: wantClosed, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "initialize", events.OK)
		wantOutcome(t, evs, "tools/list", events.NoResponse)
	}},
	{name: "exit during tools/list", script: "exit_during_list.sh", want: wantClosed, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.NoResponse)
	}},
	{name: "hang before the initialize answer", script: "hang_before_init.sh", want: wantTimeout, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "initialize", events.TimedOut)
	}},
	{name: "hang after initialize", script: "hang_after_init.sh", want: wantTimeout, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.TimedOut)
	}},
	{name: "hang during tools/list", script: "hang_during_list.sh", want: wantTimeout, check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.TimedOut)
	}},
	{name: "never reads stdin", script: "noread.sh", call: true, want: wantTimeout, check: func(t *testing.T, evs []events.Event) {
		// #11.2: the request never fully left, so no cancel can have
		// been sent after it.
		for _, e := range evs {
			if e.Kind == events.KindMessage && e.Dir == events.DirOut && e.Method == "notifications/cancelled" {
				t.Errorf("a notifications/cancelled is recorded as sent to a server that never read the request: %s", e.Raw)
			}
		}
	}},
	{name: "flood of notifications", script: "flood.sh", env: []string{"COUNT=20000", "BYTES=10"}, want: wantOK, timeout: "30s", check: func(t *testing.T, evs []events.Event) {
		wantOutcome(t, evs, "tools/list", events.OK)
	}},
	{name: "flood of large notifications", script: "flood.sh", env: []string{"COUNT=30", fmt.Sprint("BYTES=", mb)}, want: wantOK,
		// #11.6: the record has a byte budget, so the CLI holds less
		// than the flood besides its base (1,000 notifications of 1 MB
		// used to cost 1.49 GB; 100 cost 418 MB). The engine's handling
		// of floods is the small flood's case: 1 MB notifications take
		// most of a second each under -race.
		timeout: "60s", maxRSS: 30*mb + baseRSS, cliOnly: true,
		check: func(t *testing.T, evs []events.Event) { wantOutcome(t, evs, "tools/list", events.OK) }},
}

// TestStdio runs every hostile stdio server through the CLI and through
// the engine.
func TestStdio(t *testing.T) {
	for _, c := range stdioCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			script, err := filepath.Abs(filepath.Join("testdata", c.script))
			if err != nil {
				t.Fatal(err)
			}
			t.Run("cli", func(t *testing.T) {
				t.Parallel()
				pidFile := filepath.Join(t.TempDir(), "pids")
				args := []string{"--method", "tools/list"}
				if c.call {
					args = []string{"--method", "tools/call", "--params-json", `{"name":"echo","arguments":{"message":"` + bigMessage + `"}}`}
				}
				timeout := c.timeout
				if timeout == "" {
					timeout = "5s"
				}
				args = append(args, "--timeout", timeout, "--", "sh", script, pidFile)
				res := runCLI(t, c.env, args...)
				if res.code != c.want.exitCode() {
					t.Errorf("exit code %d, want %d (%s)\nstderr:\n%s", res.code, c.want.exitCode(), c.want, tail(res.stderr))
				}
				evs := checkTraceFile(t, res.trace)
				if c.check != nil {
					c.check(t, evs)
				}
				checkGone(t, pidFile)
				if c.maxRSS > 0 && res.maxRSS > c.maxRSS {
					t.Errorf("peak memory of the CLI %d MB, want at most %d MB", res.maxRSS/mb, c.maxRSS/mb)
				}
			})
			if c.cliOnly {
				return
			}
			t.Run("engine", func(t *testing.T) {
				t.Parallel()
				pidFile := filepath.Join(t.TempDir(), "pids")
				log := events.New(nil)
				cfg := wire.StdioConfig{Conn: "hostile", Command: "sh", Args: []string{script, pidFile},
					Env: c.env, StopWait: 200 * time.Millisecond}
				dial := func(context.Context) (wire.Conn, error) { return wire.NewStdio(cfg, log), nil }
				timeout := engineTimeout
				if c.timeout != "" {
					timeout, _ = time.ParseDuration(c.timeout)
				}
				info, err := runEngine(t, dial, log, c.call, timeout)
				if e := c.want.check(err); e != nil {
					t.Error(e)
				}
				evs := checkTrace(t, engineTrace(t, log, info))
				if c.check != nil {
					c.check(t, evs)
				}
				checkGone(t, pidFile)
			})
		})
	}
}

// engineTimeout is the connection and request timeout of engine runs
// (unless a case sets its own).
const engineTimeout = 3 * time.Second

// runEngine connects a session over dial and lists the tools (or calls
// echo with bigMessage) with timeout as the connection and request
// timeout, then closes the session, and returns the first
// error with what the server said about itself. It fails the test when
// either does not return within hangBound.
func runEngine(t *testing.T, dial func(context.Context) (wire.Conn, error), log *events.Log, call bool, timeout time.Duration) (*session.ServerInfo, error) {
	t.Helper()
	s := session.New(dial, log, &session.Options{Conn: "hostile", ConnectionTimeout: timeout,
		RequestTimeout: timeout, NoReconnect: true})
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		err := s.Connect(ctx)
		if err == nil && call {
			_, err = s.CallTool(ctx, session.ToolCall{Name: "echo", Arguments: map[string]any{"message": bigMessage}}, nil)
		} else if err == nil {
			_, err = s.ListTools(ctx, nil)
		}
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		t.Fatalf("the session did not return within %v (a hang)", hangBound)
	}
	closed := make(chan struct{})
	go func() { _ = s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(hangBound):
		t.Fatalf("Close did not return within %v (a hang)", hangBound)
	}
	return s.Info(), err
}

// engineTrace writes log as the CLI would, with the server's info.
func engineTrace(t *testing.T, log *events.Log, info *session.ServerInfo) []byte {
	t.Helper()
	evs, err := log.After(0, 0)
	meta := events.TraceMeta{App: "faultsuite", Created: time.Now()}
	var dropped *events.DroppedError
	if errors.As(err, &dropped) {
		meta.Dropped = dropped.Count
	} else if err != nil {
		t.Fatalf("log.After: %v", err)
	}
	if info != nil {
		meta.Conns = []events.ConnInfo{{Conn: "hostile", ProtocolVersion: info.ProtocolVersion, ServerInfo: info.Implementation,
			ServerCapabilities: info.Capabilities, ClientCapabilities: info.ClientCapabilities}}
	}
	var b bytes.Buffer
	if err := events.WriteTrace(&b, meta, evs); err != nil {
		t.Fatalf("events.WriteTrace: %v", err)
	}
	return b.Bytes()
}

// wantOutcome checks the outcome of the client's first request with method.
func wantOutcome(t *testing.T, evs []events.Event, method string, want events.OutcomeState) {
	t.Helper()
	if got := outcomeOf(evs, method); got != want {
		t.Errorf("outcome of %s is %q, want %q", method, got, want)
	}
}

// wantInvalid checks that an invalid event holds exactly b.
func wantInvalid(t *testing.T, evs []events.Event, b []byte) {
	t.Helper()
	for _, e := range evs {
		if e.Kind == events.KindInvalid && bytes.Equal(e.Raw, b) {
			return
		}
	}
	t.Errorf("no invalid event holds exactly the bytes %q", b)
}

// hasRaw reports whether some event's bytes satisfy f.
func hasRaw(evs []events.Event, f func([]byte) bool) bool {
	for _, e := range evs {
		if len(e.Raw) > 0 && f(e.Raw) {
			return true
		}
	}
	return false
}
