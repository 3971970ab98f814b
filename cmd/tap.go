package cmd

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/pmezard/go-difflib/difflib"
	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/redact"
	"github.com/spyglass-mcp/spyglass/core/tap"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// tapPrefix starts every line the tap itself writes to stderr, so that it
// reads apart from the server's own stderr passed through beside it.
const tapPrefix = "spyglass tap: "

// Exit codes of a stdio tap whose server could not be started (a shell's).
const (
	exitTapNotFound = 127
	exitTapNoStart  = 126
)

// tapFlags is the parsed command line of --tap.
type tapFlags struct {
	trace     string
	fault     string
	listen    string
	listenAny bool
	upstream  string
	// upstreamFrom is the --tap-install record whose upstream the tap
	// serves (--upstream-from): a url with a secret stays off the
	// command line.
	upstreamFrom string
	name         string
	command      []string
}

// parseTapArgs reads the flags of --tap (without --tap itself).
func parseTapArgs(args []string) (*tapFlags, error) {
	fs := flag.NewFlagSet("spyglass --tap", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f tapFlags
	fs.StringVar(&f.trace, "trace", "", "write the record to this trace file")
	fs.StringVar(&f.fault, "fault", "", "inject faults between the host and the server")
	fs.StringVar(&f.listen, "listen", "", "HTTP tap: listen on this address (loopback only unless --listen-any)")
	fs.BoolVar(&f.listenAny, "listen-any", false, "HTTP tap: allow a --listen address that is not loopback")
	fs.StringVar(&f.upstream, "upstream", "", "HTTP tap: the server's URL")
	fs.StringVar(&f.upstreamFrom, "upstream-from", "", "HTTP tap: the server's URL as kept in a --tap-install record file")
	fs.StringVar(&f.name, "name", "", "name of the tapped server in the record")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%v; write spyglass --tap [--trace FILE] [--fault SPEC] -- COMMAND ARGS..., or spyglass --tap --listen 127.0.0.1:PORT --upstream URL [--trace FILE] [--fault SPEC]", err)
	}
	if f.upstreamFrom != "" {
		if f.upstream != "" {
			return nil, errors.New("give one of --upstream URL or --upstream-from FILE")
		}
		var rec httpTapRecord
		b, err := os.ReadFile(f.upstreamFrom)
		if err == nil {
			err = json.Unmarshal(b, &rec)
		}
		if err == nil && rec.Upstream == "" {
			err = errors.New("it holds no upstream url")
		}
		if err != nil {
			return nil, fmt.Errorf("--upstream-from %s: cannot read the server's url from it (%v); it is the record --tap-install keeps, and --tap-install again writes a new one", f.upstreamFrom, err)
		}
		f.upstream = rec.Upstream
	}
	f.command = fs.Args()
	if f.fault != "" {
		spec, err := fault.Parse(f.fault)
		if err == nil && len(spec.Rules) == 0 {
			err = errors.New("no rule given")
		}
		if err != nil {
			return nil, fmt.Errorf("--fault %q: %v; write rules like drop=out:tools/call, delay=in:200ms or cut=5, separated by commas", f.fault, err)
		}
	}
	httpMode := f.listen != "" || f.upstream != ""
	switch {
	case httpMode && len(f.command) > 0:
		return nil, fmt.Errorf("the HTTP tap (--listen, --upstream) takes no server command (got %q); a stdio tap takes the command after -- and no --listen", strings.Join(f.command, " "))
	case httpMode && (f.listen == "" || f.upstream == ""):
		return nil, fmt.Errorf("the HTTP tap needs both --listen 127.0.0.1:PORT and --upstream URL")
	case !httpMode && len(f.command) == 0:
		return nil, fmt.Errorf("--tap needs the server command after --, e.g. spyglass --tap --trace tap.json -- node build/index.js (or --listen and --upstream for an HTTP server)")
	case !httpMode && f.listenAny:
		return nil, fmt.Errorf("--listen-any goes with --listen (the HTTP tap)")
	}
	if httpMode {
		if !catalog.ValidURL(f.upstream) {
			return nil, fmt.Errorf("--upstream %q is not a valid URL; write the server's absolute http(s) URL, e.g. --upstream http://127.0.0.1:3001/mcp", f.upstream)
		}
		host, _, err := net.SplitHostPort(f.listen)
		if err != nil {
			return nil, fmt.Errorf("--listen %q is not HOST:PORT; write e.g. --listen 127.0.0.1:8931", f.listen)
		}
		if !loopbackHost(host) && !f.listenAny {
			return nil, fmt.Errorf("--listen %s is not a loopback address, so anyone on the network could use the tap; listen on 127.0.0.1, or add --listen-any if that is what you want", f.listen)
		}
	}
	return &f, nil
}

// loopbackHost reports whether host (of a listen address) is loopback
// only. An empty host listens on every interface.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// runTap runs `spyglass --tap ...`.
func runTap(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseTapArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: %v\n(run spyglass --help for the flags)\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// A host that stops reading the tap's stdout must not kill the tap
	// with SIGPIPE (the trace would be lost): caught, the write fails with
	// EPIPE and the tap goes on until the host or the server ends. Caught,
	// not ignored, so the server does not inherit an ignored SIGPIPE.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	if f.listen != "" {
		return runHTTPTap(ctx, f, stderr)
	}
	return runStdioTap(ctx, f, stdin, stdout, stderr)
}

// tapRec is a tap's record: the log (with its trace file, if any) and
// the live feed to the window, if one takes it. The zero value records
// nothing.
type tapRec struct {
	rec  *tap.Record
	feed *tap.Feed
}

// newTapRecord prepares the record of a tap: the trace file, and the
// window's live feed when a Spyglass window takes it. With neither it says
// once that nothing is recorded.
func newTapRecord(path string, info events.ConnInfo, stderr io.Writer) tapRec {
	var r tapRec
	if path != "" {
		if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
			fmt.Fprintf(stderr, "%snot writing a trace: the folder of --trace %s does not exist\n", tapPrefix, path)
			path = ""
		}
	}
	r.rec = tap.NewRecord(path, "spyglass "+version, info, func(err error) {
		fmt.Fprintf(stderr, "%sthe trace %s is not being written: %s; traffic keeps passing through unchanged\n", tapPrefix, path, traceProblem(err))
	})
	feed, err := tap.StartFeed(appsock.Path(), r.rec.Log, info, func(error) {
		fmt.Fprintf(stderr, "%sthe live feed to the Spyglass window stopped (the window closed or stopped reading); traffic keeps passing through unchanged\n", tapPrefix)
	})
	if err == nil {
		r.feed = feed
	}
	if path == "" && r.feed == nil {
		fmt.Fprintf(stderr, "%snot recording: no --trace FILE was given and no Spyglass window is running; traffic passes through unchanged\n", tapPrefix)
		return tapRec{}
	}
	return r
}

// recorder is the log, or nil when nothing is recorded.
func (r tapRec) recorder() wire.Recorder {
	if r.rec == nil {
		return nil
	}
	return r.rec.Log
}

// redactor is the record's redactor, or nil.
func (r tapRec) redactor() *wire.Redactor {
	if r.rec == nil {
		return nil
	}
	return r.rec.Redactor
}

// finish completes the trace and ends the feed (failures are reported by
// their callbacks).
func (r tapRec) finish() {
	if r.rec != nil {
		r.rec.Finish()
	}
	if r.feed != nil {
		r.feed.Close()
	}
}

// traceProblem says why a trace could not be written, cause first.
func traceProblem(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return "no space left on device"
	case errors.Is(err, syscall.EPIPE):
		return "its reader went away"
	case errors.Is(err, catalog.ErrNoReader):
		return "nobody is reading the FIFO (start the reader first)"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	case errors.Is(err, os.ErrNotExist):
		return "its folder does not exist"
	}
	return err.Error()
}

// runStdioTap runs the stdio tap and returns the server's exit status.
func runStdioTap(ctx context.Context, f *tapFlags, stdin io.Reader, stdout, stderr io.Writer) int {
	srv := &catalog.Server{Type: catalog.TypeStdio, Command: f.command[0], Args: f.command[1:]}
	name := f.name
	if name == "" {
		name = adHocName(srv)
	}
	target := strings.Join(redact.Args(f.command), " ")
	rec := newTapRecord(f.trace, events.ConnInfo{Conn: name, Transport: "stdio", Target: target}, stderr)
	o := tap.StdioOptions{
		Server: wire.StdioConfig{Conn: name, Command: f.command[0], Args: f.command[1:]},
		Stdin:  stdin, Stdout: stdout, Stderr: stderr,
		Rec: rec.recorder(),
	}
	if f.fault != "" {
		spec, _ := fault.Parse(f.fault) // checked by parseTapArgs
		o.Fault = &spec
	}
	exit, err := tap.RunStdio(ctx, o)
	rec.finish()
	if err != nil {
		fmt.Fprintf(stderr, "%scould not start %s: %s\n", tapPrefix, f.command[0], startProblem(err))
		if errors.Is(err, wire.ErrCommandNotFound) {
			return exitTapNotFound
		}
		return exitTapNoStart
	}
	if exit.Signal != 0 {
		return exitSignalBase + int(exit.Signal)
	}
	return exit.Code
}

// startProblem says why a command did not start, cause first.
func startProblem(err error) string {
	if errors.Is(err, wire.ErrCommandNotFound) {
		return "no such command (check the path, or that it is on PATH)"
	}
	var se *wire.StartError
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}

// runHTTPTap serves the HTTP tap until ctx ends.
func runHTTPTap(ctx context.Context, f *tapFlags, stderr io.Writer) int {
	up, _ := url.Parse(f.upstream) // checked by parseTapArgs
	name := f.name
	if name == "" {
		name = up.Host
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		fmt.Fprintf(stderr, "%scould not listen on %s: %v\n", tapPrefix, f.listen, err)
		return exitConnect
	}
	host, _, _ := net.SplitHostPort(f.listen)
	if !loopbackHost(host) {
		fmt.Fprintf(stderr, "%swarning: listening on %s, which is not loopback: anyone who can reach this address can use the server through the tap\n", tapPrefix, ln.Addr())
	}
	red := wire.NewRedactor()
	rec := newTapRecord(f.trace, events.ConnInfo{Conn: name, Transport: "http", Target: red.URL(f.upstream)}, stderr)
	rr := rec.redactor()
	po := tap.ProxyOptions{Upstream: up, Rec: rec.recorder(), Conn: name, Redactor: rr,
		OnUpstreamError: func(kind tap.UpstreamFailure, err error) {
			fmt.Fprintf(stderr, "%s%s\n", tapPrefix, upstreamProblem(red.URL(f.upstream), kind, err))
		}}
	if f.fault != "" {
		spec, _ := fault.Parse(f.fault) // checked by parseTapArgs
		po.Fault = &spec
		fmt.Fprintf(stderr, "%sinjecting faults: %s\n", tapPrefix, spec)
	}
	proxy := tap.NewProxy(po)
	local := url.URL{Scheme: "http", Host: ln.Addr().String(), Path: up.Path, RawQuery: up.RawQuery}
	fmt.Fprintf(stderr, "%slistening on %s → %s\n", tapPrefix, red.URL(local.String()), red.URL(f.upstream))
	hs := &http.Server{Handler: proxy, ReadHeaderTimeout: 30 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	code := exitOK
	select {
	case <-ctx.Done():
	case err := <-errc:
		fmt.Fprintf(stderr, "%sstopped serving: %v\n", tapPrefix, err)
		code = exitConnect
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if hs.Shutdown(sctx) != nil {
		hs.Close() // open event streams end here
	}
	rec.finish()
	return code
}

// upstreamProblem is the line the HTTP tap writes, once per kind, when
// it cannot carry a request to the upstream (the host gets 502; the
// trace keeps each failed request).
func upstreamProblem(upstream string, kind tap.UpstreamFailure, err error) string {
	switch kind {
	case tap.UpstreamRefused:
		return fmt.Sprintf("cannot reach the upstream %s (connection refused) — is the server running?", upstream)
	case tap.UpstreamNoHost:
		return fmt.Sprintf("cannot reach the upstream %s (host not found) — is the host name right?", upstream)
	case tap.UpstreamTimeout:
		return fmt.Sprintf("cannot reach the upstream %s (timed out) — is the server up and reachable from here?", upstream)
	case tap.UpstreamTLS:
		return fmt.Sprintf("cannot reach the upstream %s (TLS failed: %v) — is it http or https?", upstream, err)
	case tap.UpstreamReset:
		return fmt.Sprintf("the upstream %s closed the connection before answering — the host got 502", upstream)
	}
	return fmt.Sprintf("a request to the upstream %s failed (%v) — the host got 502", upstream, err)
}

// backupSuffix names the copy of a client's config file that
// --tap-install keeps beside it before its first change.
const backupSuffix = ".spyglass-backup"

// runTapInstall runs `spyglass --tap-install CLIENT_CONFIG --server NAME
// [--trace FILE] [--yes]` and `spyglass --tap-uninstall CLIENT_CONFIG
// --server NAME [--yes]`: it rewrites the client's entry for the server
// so that the client launches it through the tap (or directly again),
// shows the change as a diff, and writes it once confirmed.
func runTapInstall(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spyglass --tap-install", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	install := fs.String("tap-install", "", "")
	uninstall := fs.String("tap-uninstall", "", "")
	server := fs.String("server", "", "")
	trace := fs.String("trace", "", "")
	yes := fs.Bool("yes", false, "")
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "spyglass: "+format+"\n(write spyglass --tap-install CLIENT_CONFIG --server NAME [--trace FILE] [--yes], or --tap-uninstall CLIENT_CONFIG --server NAME)\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usage("%v", err)
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected argument %q", fs.Arg(0))
	case (*install == "") == (*uninstall == ""):
		return usage("give one of --tap-install FILE or --tap-uninstall FILE")
	case *server == "":
		return usage("--server NAME says which of the file's servers to tap")
	case *uninstall != "" && *trace != "":
		return usage("--trace goes with --tap-install")
	}
	path := *install + *uninstall
	plan, err := planTap(path, *server, *trace, *uninstall != "")
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: %s\n", err)
		return exitUsage
	}
	fmt.Fprint(stdout, plan.Diff)
	if !*yes {
		fmt.Fprintf(stdout, "Write this change to %s? [y/N] ", path)
		var answer string
		fmt.Fscanln(stdin, &answer)
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintf(stderr, "spyglass: nothing written (answer y to write, or add --yes)\n")
			return exitInternal
		}
	}
	if err := plan.Apply(); err != nil {
		fmt.Fprintf(stderr, "spyglass: %s\n", err)
		return exitInternal
	}
	fmt.Fprintln(stdout, plan.Done)
	return exitOK
}

// tapPlan is a prepared change of a client's config file: the diff to
// show, the function that writes it, and the sentence to say once it is
// written. Errors are words for people.
type tapPlan struct {
	Diff  string
	Apply func() error
	Done  string
	// Run is, for an HTTP server, the command that must be running for
	// the client to reach the server through the tap (a client cannot
	// start an HTTP tap itself); empty for a stdio server.
	Run string
}

// planTap prepares --tap-install (or, with undo, --tap-uninstall) of
// server in the client's config file at path; trace is the tap's trace
// file ("" for $XDG_DATA_HOME/spyglass/taps/NAME.trace.json).
func planTap(path, server, trace string, undo bool) (*tapPlan, error) {
	data, err := catalog.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("there is no file at %s; give the path of the client's config file", path)
	}
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %v", path, err)
	}
	if e, _, err := tap.FindEntry(data, server); err == nil && e.Command == "" && e.URL != "" {
		return planHTTPTap(path, data, server, trace, undo, e)
	}
	var out []byte
	if !undo {
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("could not find the spyglass binary's path: %v", err)
		}
		if trace == "" {
			trace = filepath.Join(xdg.DataHome, "spyglass", "taps", safeFileName(server)+".trace.json")
		}
		if abs, err := filepath.Abs(trace); err == nil {
			trace = abs
		}
		out, err = tap.Install(data, server, self, []string{"--name", server, "--trace", trace})
		if err != nil {
			return nil, errors.New(installProblem(err, path, server))
		}
	} else if out, err = tap.Uninstall(data, server); err != nil {
		return nil, errors.New(installProblem(err, path, server))
	}
	p := &tapPlan{Diff: unifiedDiff(path, data, out, undo)}
	if undo {
		p.Done = fmt.Sprintf("%s launches %s directly again. Restart the client to pick up the change.", path, server)
	} else {
		p.Done = fmt.Sprintf("%s now launches %s through the tap; each session's trace goes to %s (the original file is kept as %s; undo with spyglass --tap-uninstall %s --server %s). Restart the client to pick up the change.",
			path, server, trace, path+backupSuffix, path, server)
	}
	p.Apply = func() error {
		if !undo {
			if _, err := os.Stat(path + backupSuffix); errors.Is(err, os.ErrNotExist) {
				if err := catalog.WriteAtomic(path+backupSuffix, data, nil); err != nil {
					return fmt.Errorf("could not keep a backup of %s, so nothing was changed: %v", path, err)
				}
			}
			if err := os.MkdirAll(filepath.Dir(trace), 0o700); err != nil {
				return fmt.Errorf("could not create the trace folder %s: %v", filepath.Dir(trace), err)
			}
		}
		if err := catalog.WriteAtomic(path, out, nil); err != nil {
			return fmt.Errorf("could not write %s: %v", path, err)
		}
		return nil
	}
	return p, nil
}

// unifiedDiff is the change of the file at path from a to b.
func unifiedDiff(path string, a, b []byte, undo bool) string {
	to := path + " (through the tap)"
	if undo {
		to = path + " (without the tap)"
	}
	diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(a)), B: difflib.SplitLines(string(b)),
		FromFile: path, ToFile: to, Context: 2,
	})
	return diff
}

// httpTapRecord is what --tap-install keeps of an HTTP server it pointed
// at a tap, in $XDG_DATA_HOME/spyglass/taps/NAME-HASH.http-tap.json
// (HASH of the config file's path): the url as it was written, to give
// it back byte for byte, and the tap that serves it.
type httpTapRecord struct {
	Config     string `json:"config"`
	Server     string `json:"server"`
	URLLiteral string `json:"urlLiteral"`
	Upstream   string `json:"upstream"`
	TapURL     string `json:"tapURL"`
	Listen     string `json:"listen"`
	Trace      string `json:"trace"`
}

// httpTapRecordPath is where the record of server's tap in the config
// file at path is kept.
func httpTapRecordPath(path, server string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(xdg.DataHome, "spyglass", "taps", fmt.Sprintf("%s-%x.http-tap.json", safeFileName(server), sum[:4]))
}

// planHTTPTap prepares --tap-install (or --tap-uninstall) of an HTTP or
// SSE server: its url is pointed at an HTTP tap on a free loopback port
// (the same path and query), and the command that runs that tap is
// given back for the user to keep running.
func planHTTPTap(path string, data []byte, server, trace string, undo bool, e tap.Entry) (*tapPlan, error) {
	recPath := httpTapRecordPath(path, server)
	var rec httpTapRecord
	b, rerr := os.ReadFile(recPath)
	if rerr == nil {
		rerr = json.Unmarshal(b, &rec)
	}
	tapped := rerr == nil && rec.TapURL == e.URL
	if undo {
		if !tapped {
			return nil, errors.New(installProblem(tap.ErrNotTapped, path, server))
		}
		out, err := tap.UninstallURL(data, server, rec.URLLiteral)
		if err != nil {
			return nil, errors.New(installProblem(err, path, server))
		}
		return &tapPlan{
			Diff: maskSecrets(unifiedDiff(path, data, out, true), redact.URLSecrets(rec.Upstream)),
			Apply: func() error {
				if err := catalog.WriteAtomic(path, out, nil); err != nil {
					return fmt.Errorf("could not write %s: %v", path, err)
				}
				os.Remove(recPath)
				return nil
			},
			Done: fmt.Sprintf("%s reaches %s directly again (%s); the tap on %s is no longer needed. Restart the client to pick up the change.", path, server, redact.URL(rec.Upstream), rec.Listen),
		}, nil
	}
	if tapped {
		return nil, errors.New(installProblem(tap.ErrTapped, path, server))
	}
	up, err := url.Parse(e.URL)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return nil, fmt.Errorf("%q in %s has the url %q, which is not an http(s) URL, so it cannot go through the tap", server, path, redact.URL(e.URL))
	}
	if other, ok := tapAt(up); ok {
		return nil, fmt.Errorf("%q in %s already points at a Spyglass tap (%s, set up for %q in %s), and tapping it again would put a tap in front of the tap; to undo, set its url back to %s (the record of that tap is %s)",
			server, path, redact.URL(e.URL), other.Server, other.Config, redact.URL(other.Upstream), other.path)
	}
	if was, ok := tappedByBackup(path, server, up, e); ok {
		return nil, fmt.Errorf("%q in %s points at %s on this machine, not at %s as in %s, which --tap-install kept before putting a tap in front of it; tapping it again would put a tap in front of the tap. To undo, set its url back to %s (or copy that file back)",
			server, path, redact.URL(e.URL), redact.URL(was), path+backupSuffix, redact.URL(was))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("could not find a free port on 127.0.0.1 for the tap: %v", err)
	}
	listen := ln.Addr().String()
	ln.Close()
	local := url.URL{Scheme: "http", Host: listen, Path: up.Path, RawPath: up.RawPath, RawQuery: up.RawQuery}
	if trace == "" {
		trace = filepath.Join(xdg.DataHome, "spyglass", "taps", safeFileName(server)+".trace.json")
	}
	if abs, err := filepath.Abs(trace); err == nil {
		trace = abs
	}
	out, err := tap.InstallURL(data, server, local.String())
	if err != nil {
		return nil, errors.New(installProblem(err, path, server))
	}
	self, err := os.Executable()
	if err != nil {
		self = "spyglass"
	}
	upFlag := []string{"--upstream", shellQuote(e.URL)}
	secrets := redact.URLSecrets(e.URL)
	if len(secrets) > 0 {
		// the url's secret stays off the screen and out of shell
		// history: the tap reads the url from the record (0600)
		upFlag = []string{"--upstream-from", shellQuote(recPath)}
	}
	run := strings.Join(append(append([]string{shellQuote(self), "--tap", "--listen", listen}, upFlag...),
		"--name", shellQuote(server), "--trace", shellQuote(trace)), " ")
	rec = httpTapRecord{Config: path, Server: server, URLLiteral: e.URLLiteral, Upstream: e.URL,
		TapURL: local.String(), Listen: listen, Trace: trace}
	if abs, err := filepath.Abs(path); err == nil {
		rec.Config = abs
	}
	recData, _ := json.MarshalIndent(rec, "", "  ")
	return &tapPlan{
		Diff: maskSecrets(unifiedDiff(path, data, out, false), secrets),
		Run:  run,
		Apply: func() error {
			if _, err := os.Stat(path + backupSuffix); errors.Is(err, os.ErrNotExist) {
				if err := catalog.WriteAtomic(path+backupSuffix, data, nil); err != nil {
					return fmt.Errorf("could not keep a backup of %s, so nothing was changed: %v", path, err)
				}
			}
			if err := os.MkdirAll(filepath.Dir(recPath), 0o700); err != nil {
				return fmt.Errorf("could not create the folder %s: %v", filepath.Dir(recPath), err)
			}
			if err := catalog.WriteAtomic(recPath, append(recData, '\n'), nil); err != nil {
				return fmt.Errorf("could not keep the tap's record %s, so nothing was changed: %v", recPath, err)
			}
			if err := catalog.WriteAtomic(path, out, nil); err != nil {
				os.Remove(recPath)
				return fmt.Errorf("could not write %s: %v", path, err)
			}
			return nil
		},
		Done: fmt.Sprintf("%s now reaches %s through the tap at %s. A client cannot start an HTTP tap itself: until this runs, the client cannot reach %s, so keep it running while you use the client:\n\n    %s\n\nEach session's record goes to %s (the original file is kept as %s; undo with spyglass --tap-uninstall %s --server %s). Restart the client to pick up the change.",
			path, server, redact.URL(local.String()), server, run, trace, path+backupSuffix, path, server),
	}, nil
}

// maskSecrets is s with each of secrets masked (redact.Mask), as
// written and as JSON escapes them.
func maskSecrets(s string, secrets []string) string {
	for _, v := range secrets {
		if v == "" {
			continue
		}
		s = strings.ReplaceAll(s, v, redact.Mask)
		if j, err := json.Marshal(v); err == nil && len(j) > 2 {
			s = strings.ReplaceAll(s, string(j[1:len(j)-1]), redact.Mask)
		}
	}
	return s
}

// tappedByBackup reports whether the entry's url looks like the tap's
// (127.0.0.1, the same path and query) in front of the other url that
// the backup --tap-install kept holds for server (the tap's record was
// lost), and that url.
func tappedByBackup(path, server string, u *url.URL, e tap.Entry) (string, bool) {
	if !loopbackHost(u.Hostname()) {
		return "", false
	}
	b, err := catalog.ReadFile(path + backupSuffix)
	if err != nil {
		return "", false
	}
	was, _, err := tap.FindEntry(b, server)
	if err != nil || was.URL == "" || was.URL == e.URL {
		return "", false
	}
	// a tap's url keeps the path and query of the url it stands for
	w, err := url.Parse(was.URL)
	if err != nil || w.Path != u.Path || w.RawQuery != u.RawQuery || u.Hostname() != "127.0.0.1" {
		return "", false
	}
	return was.URL, true
}

// knownTap is an HTTP tap's record found in the taps folder.
type knownTap struct {
	httpTapRecord
	path string
}

// tapAt finds the record of a tap that u points at: a loopback url
// whose host is a recorded tap's listen address (its config file may
// have moved, or the server been renamed, since).
func tapAt(u *url.URL) (knownTap, bool) {
	if !loopbackHost(u.Hostname()) {
		return knownTap{}, false
	}
	files, _ := filepath.Glob(filepath.Join(xdg.DataHome, "spyglass", "taps", "*.http-tap.json"))
	for _, f := range files {
		var rec httpTapRecord
		b, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(b, &rec) != nil {
			continue
		}
		if l, err := url.Parse("http://" + rec.Listen); err == nil && l.Port() == u.Port() && rec.Listen != "" {
			return knownTap{rec, f}, true
		}
	}
	return knownTap{}, false
}

// installProblem words a tap.Install or tap.Uninstall error, cause first.
func installProblem(err error, path, server string) string {
	switch {
	case errors.Is(err, tap.ErrNoServer):
		return fmt.Sprintf("%s has no server named %q (under \"mcpServers\" or \"servers\")", path, server)
	case errors.Is(err, tap.ErrNotStdio):
		return fmt.Sprintf("%q in %s has neither a command nor a url, so there is nothing to put through the tap", server, path)
	case errors.Is(err, tap.ErrTapped):
		return fmt.Sprintf("%q in %s already goes through the tap; nothing to do", server, path)
	case errors.Is(err, tap.ErrNotTapped):
		return fmt.Sprintf("%q in %s does not go through the tap; nothing to undo", server, path)
	}
	return fmt.Sprintf("could not change %s: %v", path, err)
}

// safeFileName makes a server name usable as a file name.
func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, s)
}
