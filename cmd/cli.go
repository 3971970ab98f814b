package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/elicit"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/har"
	"github.com/spyglass-mcp/spyglass/core/mcpresult"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/redact"
	"github.com/spyglass-mcp/spyglass/core/sampling"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/core/wire"
	"github.com/spyglass-mcp/spyglass/core/wire/fault"
)

// Exit codes of --cli, documented in README.md.
const (
	exitOK        = 0
	exitInternal  = 1 // something Spyglass itself could not do (writing the trace, ...)
	exitUsage     = 2 // bad flags, bad catalog, unknown server
	exitConnect   = 3 // could not connect, or the connection broke
	exitRPC       = 4 // the server answered with a JSON-RPC error
	exitToolError = 5 // the tool ran and reported isError
	exitTimeout   = 6 // --timeout passed, or a request timed out
	exitAuth      = 7 // the server requires authorization
	exitShape     = 8 // the result is printed, but it does not match the MCP schema
	// An interrupted run exits 128 + the signal's number, as shells do:
	// 130 for SIGINT (Ctrl-C), 143 for SIGTERM.
	exitSignalBase = 128
)

// cliRun is one --cli invocation: the flags, the outputs and the record.
type cliRun struct {
	inv            *Invocation
	stdout, stderr io.Writer
	log            *events.Log
	red            *wire.Redactor
	conn           *connection
	sess           *session.Session
	// ctx is the run's context, whose cause says why it ended (a signal,
	// --timeout); waiting says what the run waits for, for the message
	// when --timeout passes.
	ctx     context.Context
	waiting atomic.Value // string

	verboseMu   sync.Mutex
	verboseLast uint64

	// configure, when set, adjusts the session's options before it
	// connects; then, when set, runs instead of --method once connected
	// (--replay, --run).
	configure func(opts *session.Options)
	then      func(ctx context.Context) int
	// har records the HTTP exchanges for --har.
	har *har.Recorder
}

// runCLI runs one --cli invocation and returns the exit code.
func runCLI(inv *Invocation, stdout, stderr io.Writer) int {
	switch inv.Method {
	case "servers/list", "servers/show":
		return runServers(inv, stdout, stderr)
	}
	return (&cliRun{inv: inv, stdout: stdout, stderr: stderr}).start()
}

// start runs r with Ctrl-C, SIGTERM and --timeout wired to its context.
func (r *cliRun) start() int {
	inv := r.inv
	base, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// Later signals are caught too (and ignored): one Ctrl-C often comes
	// twice (to the process and to its group), and the cleanup that
	// follows — stopping the server, writing the trace — is bounded.
	go func() {
		select {
		case sig := <-sigs:
			cancel(interruption{sig})
		case <-base.Done():
		}
	}()
	ctx := base
	if inv.Timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, inv.Timeout, runTimeout{inv.Timeout})
		defer stop()
	}
	return r.run(ctx)
}

// interruption is the cause of a run's end by SIGINT or SIGTERM.
type interruption struct{ sig os.Signal }

func (i interruption) Error() string { return "interrupted by " + signalName(i.sig) }

// code is the exit code of a run the signal ended (128 + its number).
func (i interruption) code() int {
	if n, ok := i.sig.(syscall.Signal); ok {
		return exitSignalBase + int(n)
	}
	return exitSignalBase + 2
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// runTimeout is the cause of a run's end when --timeout passed.
type runTimeout struct{ after time.Duration }

func (t runTimeout) Error() string { return "timed out (--timeout " + t.after.String() + ")" }

// setWaiting records what the run waits for now.
func (r *cliRun) setWaiting(what string) { r.waiting.Store(what) }

func (r *cliRun) run(ctx context.Context) (code int) {
	r.ctx = ctx
	r.setWaiting("starting")
	defer func() { // runs last: after the trace is written and the server stopped
		if in, ok := context.Cause(ctx).(interruption); ok {
			code = in.code()
		}
	}()
	src, err := r.inv.Source()
	if err != nil {
		return r.usage(err)
	}
	cat, _, err := src.Open()
	var invalid *catalog.InvalidError
	if err != nil && (cat == nil || !errors.As(err, &invalid)) {
		return r.usageText(explainCatalogError(err))
	}
	name, server, err := src.Resolve(cat)
	if err != nil {
		return r.usageText(explainCatalogError(err))
	}
	if p := cat.Problem(name); p != nil {
		return r.usageText(explainCatalogError(p))
	}

	r.red = wire.NewRedactor()
	r.log = events.New(&events.Options{Redact: r.red.Redact})
	defer r.log.Close() // runs last: the spill file goes, after the trace is written
	if r.inv.Verbose {
		cancel := r.log.Subscribe(func(b events.Batch) { r.writeVerbose(b.Events) })
		defer func() {
			cancel()
			r.flushVerbose()
		}()
	}
	if r.inv.Trace != "" {
		defer func() {
			if !r.writeTrace() && code == exitOK {
				code = exitInternal
			}
		}()
	}

	r.conn, err = newConnection(name, server, r.log, r.red)
	if err != nil {
		return r.usageText(explainCatalogError(err))
	}
	for _, w := range r.conn.warnings {
		fmt.Fprintf(r.stderr, "warning: %s\n", w)
	}
	if r.conn.http != nil {
		var browser oauth.Browser = oauth.SystemBrowser{}
		if r.inv.Browser != "" {
			browser = commandBrowser(r.inv.Browser, r.stderr)
		}
		var before any
		r.conn.onAuthorizing = func(active bool) {
			switch {
			case active:
				before = r.waiting.Swap("signing in (waiting for the browser to come back from the authorization server)")
			case ctx.Err() == nil: // else the message says where the run ended
				r.waiting.Store(before)
			}
		}
		r.conn.enableOAuth(ctx, cliStore(runtime.GOOS, os.Getenv, r.stderr), r.log, r.red, oauth.Options{
			Browser:   cliBrowser(browser, r.stderr),
			OnWarning: oauthWarning(r.stderr),
		})
		if r.inv.Relogin {
			r.relogin(ctx)
		}
	} else if r.inv.Relogin {
		return r.usage(fmt.Errorf("--relogin signs in to an http/sse server again, but %q is a stdio server", name))
	}
	if r.conn.http == nil && len(r.inv.RequestHeaders) > 0 {
		return r.usage(fmt.Errorf("--request-header sends HTTP headers, but %q is a stdio server; headers exist only on http/sse servers, so drop --request-header", name))
	}
	if r.inv.HAR != "" {
		if err := r.recordHAR(); err != nil {
			return r.usage(err)
		}
		defer func() {
			if !r.writeHAR() && code == exitOK {
				code = exitInternal
			}
		}()
	}
	if r.inv.Fault != "" {
		spec, _ := fault.Parse(r.inv.Fault) // checked by ParseArgs
		r.conn.dial = fault.New(spec, r.log).Dial(r.conn.dial, name)
	}
	opts := r.conn.opts
	opts.NoReconnect = true
	if err := r.applyFlags(opts); err != nil {
		return r.usage(err)
	}
	if r.configure != nil {
		r.configure(opts)
	}
	// Servers that use roots ask for them right after the handshake and act
	// on the answer asynchronously; a request sent before the answer
	// reached them would run without roots. So when roots are given, wait
	// (briefly) until the answer to the first roots/list has been sent.
	var answered chan struct{}
	if len(opts.Roots) > 0 {
		answered = make(chan struct{})
		var once sync.Once
		cancel := r.log.Subscribe(func(b events.Batch) {
			for _, e := range b.Events {
				if e.Dir == events.DirOut && e.Method == "roots/list" && (e.Type == events.MsgResult || e.Type == events.MsgError) {
					once.Do(func() { close(answered) })
				}
			}
		})
		defer cancel()
	}
	r.sess = session.New(r.conn.dial, r.log, opts)
	defer r.sess.Close()

	r.setWaiting("connecting (waiting for the server to answer the handshake)")
	if err := r.conn.connect(ctx, r.sess); err != nil {
		return r.fail(err)
	}
	if si := r.sess.Info(); si != nil && si.Fallback != "" {
		// How the version was reached goes to --verbose and --trace.
		r.log.Append(events.Event{Conn: r.conn.name, Kind: events.KindWarning, Run: si.Run, Text: handshakeSummary(si)})
	}
	if answered != nil {
		select {
		case <-answered:
		case <-time.After(rootsGrace):
		case <-ctx.Done():
		}
	}
	if r.then != nil {
		return r.then(ctx)
	}
	if r.inv.Method == "resources/subscribe" && r.inv.ParamsJSON == "" {
		return r.subscribe(ctx)
	}
	r.setWaiting("waiting for the answer to " + r.inv.Method)
	return r.call(ctx)
}

// relogin forgets the stored OAuth state (revoking the grant unless the
// catalog or --no-revoke says not to) and reports what happened.
func (r *cliRun) relogin(ctx context.Context) {
	revoke := !r.inv.NoRevoke && (r.conn.server.OAuth == nil || r.conn.server.OAuth.RevokesOnClear())
	res, err := r.conn.auth.Clear(ctx, revoke)
	switch {
	case err != nil:
		fmt.Fprintf(r.stderr, "warning: --relogin: %v\n", err)
	case res.Revoked:
		fmt.Fprintln(r.stderr, "--relogin: stored tokens forgotten and revoked at the authorization server")
	case res.RevokeErr != nil:
		fmt.Fprintf(r.stderr, "warning: --relogin: tokens forgotten, but revoking them failed: %v\n", res.RevokeErr)
	default:
		fmt.Fprintf(r.stderr, "--relogin: stored tokens forgotten (not revoked: %s)\n", res.NotRevoked)
	}
}

// applyFlags puts the --cli flags that shape the session into opts.
func (r *cliRun) applyFlags(opts *session.Options) error {
	if r.inv.Timeout > 0 {
		opts.RequestTimeout = r.inv.Timeout
	}
	if r.inv.Metadata != "" {
		var extra map[string]any
		if err := json.Unmarshal([]byte(r.inv.Metadata), &extra); err != nil {
			return fmt.Errorf("--metadata: %v", err)
		}
		if opts.Metadata == nil {
			opts.Metadata = map[string]any{}
		}
		for k, v := range extra { // the per-run flag wins over the catalog
			opts.Metadata[k] = v
		}
	}
	for _, p := range r.inv.Roots {
		root, err := rootFromFlag(p)
		if err != nil {
			return err
		}
		opts.Roots = append(opts.Roots, root)
	}

	if r.inv.Sampling == "mock" {
		p := sampling.BuiltinProfiles()[0]
		if r.inv.SamplingText != "" {
			p.Template = r.inv.SamplingText
		}
		opts.Handlers.Sampling = &profileSampler{profile: p}
	} else {
		opts.Handlers.Sampling = declineSampler{}
	}
	policy := elicit.Decline
	switch r.inv.Elicitation {
	case "cancel":
		policy = elicit.Cancel
	case "accept":
		policy = elicit.Defaults
	}
	opts.Handlers.Elicitation = policyElicitor{policy: policy}
	return nil
}

// rootFromFlag turns a --root PATH (or file:// URI) into a root.
func rootFromFlag(p string) (mcp.Root, error) {
	if strings.HasPrefix(p, "file://") {
		path, err := catalog.RootPath(p)
		if err != nil {
			return mcp.Root{}, fmt.Errorf("--root %s: give a folder's path or a file:///… URI: %w", p, err)
		}
		return mcp.Root{URI: catalog.RootURI(path), Name: filepath.Base(path)}, nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return mcp.Root{}, fmt.Errorf("--root %s: %v", p, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return mcp.Root{}, fmt.Errorf("--root %s: no such folder; give an existing folder", p)
	}
	return mcp.Root{URI: catalog.RootURI(abs), Name: filepath.Base(abs)}, nil
}

// call performs the --method and prints its result: exactly as the server
// sent it, even when it does not match the MCP schema (then with a warning
// and exitShape).
func (r *cliRun) call(ctx context.Context) int {
	raw, err := r.request(ctx)
	var usage usageError
	switch {
	case errors.As(err, &usage):
		return r.usage(usage.error)
	case err != nil && !errors.Is(err, session.ErrDecode):
		return r.fail(err)
	}
	if code := r.printResult(raw); code != exitOK {
		return code
	}
	if err != nil {
		_, why, _ := strings.Cut(err.Error(), session.ErrDecode.Error()+": ")
		fmt.Fprintf(r.stderr, "warning: the server's result does not match the MCP schema (%s); it is printed above as the server sent it\n", r.mask(why))
		return exitShape
	}
	if r.inv.Method == "tools/call" && mcpresult.DecodeToolResult(raw).IsError {
		return exitToolError
	}
	return exitOK
}

// usageError is a mistake in the flags found only once connected.
type usageError struct{ error }

// replyRaw is the exact result of a reply (nil when there is none).
func replyRaw(rep *session.Reply, err error) (json.RawMessage, error) {
	if rep == nil {
		return nil, err
	}
	return rep.Raw, err
}

// request performs the --method and returns the result to print. A result
// that does not match the schema comes with an error wrapping
// session.ErrDecode.
func (r *cliRun) request(ctx context.Context) (json.RawMessage, error) {
	inv := r.inv
	opts, lopts := r.requestOptions()
	if inv.ParamsJSON != "" {
		return replyRaw(r.sess.Call(ctx, inv.Method, json.RawMessage(inv.ParamsJSON), opts))
	}
	switch inv.Method {
	case "initialize":
		return r.sess.Info().Result, nil
	case "ping":
		return replyRaw(r.sess.Ping(ctx, opts))
	case "tools/list":
		l, err := r.sess.ListTools(ctx, lopts)
		return shaped(listResult("tools", l.List), l.Problems, err)
	case "tools/call":
		return r.callTool(ctx, opts)
	case "resources/list":
		l, err := r.sess.ListResources(ctx, lopts)
		return shaped(listResult("resources", l.List), l.Problems, err)
	case "resources/templates/list":
		l, err := r.sess.ListResourceTemplates(ctx, lopts)
		return shaped(listResult("resourceTemplates", l.List), l.Problems, err)
	case "resources/read":
		res, err := r.sess.ReadResource(ctx, inv.URI, opts)
		if res == nil {
			return nil, err
		}
		return shaped(res.Raw, res.Result.Problems, err)
	case "resources/unsubscribe":
		return replyRaw(r.sess.UnsubscribeResource(ctx, inv.URI, opts))
	case "prompts/list":
		l, err := r.sess.ListPrompts(ctx, lopts)
		return shaped(listResult("prompts", l.List), l.Problems, err)
	case "prompts/get":
		res, err := r.sess.GetPrompt(ctx, inv.PromptName, toMap(inv.PromptArgs), opts)
		if res == nil {
			return nil, err
		}
		return shaped(res.Raw, res.Result.Problems, err)
	case "completion/complete":
		ref := session.CompletionRef{Type: inv.Ref.Type, Name: inv.Ref.Name, URI: inv.Ref.URI}
		arg := mcp.CompleteArgument{Name: inv.Argument.Key, Value: inv.Argument.Value}
		res, err := r.sess.Complete(ctx, ref, arg, toMap(inv.ContextArgs), opts)
		if res == nil {
			return nil, err
		}
		return shaped(res.Raw, res.Problems, err)
	case "logging/setLevel":
		rep, err := r.sess.SetLogLevel(ctx, mcp.LoggingLevel(inv.LogLevel), opts)
		if rep == nil && err == nil { // the modern protocol has no such request
			return json.RawMessage(`{}`), nil
		}
		return replyRaw(rep, err)
	case "tasks/list":
		l, err := r.sess.ListTasks(ctx, lopts)
		return shaped(listResult("tasks", l.List), l.Problems, err)
	case "skills/list", "skills/get":
		if !r.sess.OffersSkills() {
			return nil, usageError{fmt.Errorf("the server does not offer skills: its capabilities have no extensions[%q] (to send %s anyway, add --params-json '{}')", mcpresult.SkillsExtension, inv.Method)}
		}
		if inv.Method == "skills/list" {
			l, err := r.sess.ListSkills(ctx, lopts)
			return shaped(listResult("skills", l.List), l.Problems, err)
		}
		res, err := r.sess.GetSkill(ctx, inv.URI, opts)
		if res == nil {
			return nil, err
		}
		return shaped(res.Raw, res.Result.Problems, err)
	case "tasks/get", "tasks/result", "tasks/cancel":
		return nil, usageError{fmt.Errorf("--method %s needs the task id: add --params-json '{\"taskId\":\"...\"}'", inv.Method)}
	}
	// Any other method: sent with empty params.
	return replyRaw(r.sess.Call(ctx, inv.Method, nil, opts))
}

// requestOptions are the options of the one request --method sends: its
// --request-header headers (nil when there are none). The requests the
// CLI makes on the way (the handshake, the tools/list that --tool-arg
// reads the schema from) do not get them.
func (r *cliRun) requestOptions() (*session.CallOptions, *session.ListOptions) {
	if len(r.inv.RequestHeaders) == 0 {
		return nil, nil
	}
	opts := &session.CallOptions{Header: http.Header{}}
	for _, h := range r.inv.RequestHeaders {
		opts.Header.Set(h.Key, h.Value)
	}
	return opts, &session.ListOptions{CallOptions: *opts}
}

// callTool runs tools/call with --tool-args-json or --tool-arg values
// parsed against the tool's input schema; opts are the call's own.
func (r *cliRun) callTool(ctx context.Context, opts *session.CallOptions) (json.RawMessage, error) {
	inv := r.inv
	var args json.RawMessage
	switch {
	case inv.ToolArgsJSON != "":
		args = json.RawMessage(inv.ToolArgsJSON)
	case len(inv.ToolArgs) > 0:
		l, err := r.sess.ListTools(ctx, nil)
		if err != nil && !errors.Is(err, session.ErrDecode) {
			return nil, err
		}
		var schema json.RawMessage
		found := false
		for _, t := range l.Tools {
			if t.Name == inv.ToolName {
				schema, found = t.InputSchema, true
				break
			}
		}
		if !found {
			return nil, usageError{fmt.Errorf("the server has no tool named %q (see --method tools/list)", inv.ToolName)}
		}
		args, err = parseToolArgs(inv.ToolArgs, schema)
		if err != nil {
			return nil, usageError{err}
		}
	default:
		args = json.RawMessage(`{}`)
	}
	res, err := r.sess.CallTool(ctx, session.ToolCall{Name: inv.ToolName, Arguments: args}, opts)
	return shaped(res.Raw, res.Result.Problems, err)
}

// shaped is a result to print with the places where it does not match the
// MCP schema: they come as an error wrapping session.ErrDecode (the
// result is printed all the same).
func shaped(raw json.RawMessage, ps mcpresult.Problems, err error) (json.RawMessage, error) {
	if err == nil && len(ps) > 0 {
		err = fmt.Errorf("%w: %w", session.ErrDecode, ps)
	}
	return raw, err
}

// subscribe prints every update of a resource as a JSON line until the
// user interrupts or --timeout passes.
func (r *cliRun) subscribe(ctx context.Context) int {
	updates := make(chan session.Notification, 64)
	cancel := r.sess.OnNotification(func(n session.Notification) {
		if n.Method == session.MethodResourceUpdated {
			select {
			case updates <- n:
			default:
			}
		}
	})
	defer cancel()
	ended := make(chan error, 1)
	stopState := r.sess.OnState(func(ch session.StateChange) {
		if ch.To == session.StateDisconnected || ch.To == session.StateFailed {
			err := ch.Err
			if err == nil {
				err = session.ErrConnectionClosed
			}
			select {
			case ended <- err:
			default:
			}
		}
	})
	defer stopState()
	if _, err := r.sess.SubscribeResource(ctx, r.inv.URI, nil); err != nil {
		return r.fail(err)
	}
	fmt.Fprintf(r.stderr, "subscribed to %s; printing updates until interrupted\n", r.inv.URI)
	for {
		select {
		case n := <-updates:
			var buf bytes.Buffer
			if json.Compact(&buf, n.Params) != nil {
				buf.Reset()
				buf.Write(n.Params)
			}
			fmt.Fprintf(r.stdout, "{\"method\":%q,\"params\":%s}\n", n.Method, buf.Bytes())
		case err := <-ended:
			return r.fail(fmt.Errorf("the connection ended while subscribed: %w", err))
		case <-ctx.Done(): // interrupted, or --timeout passed
			r.unsubscribe()
			return exitOK
		}
	}
}

func (r *cliRun) unsubscribe() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = r.sess.UnsubscribeResource(ctx, r.inv.URI, nil)
}

// listResult is a list result to print: the page exactly as sent when
// there is one page, else one object holding every item of every page.
func listResult(key string, l session.List) json.RawMessage {
	if len(l.Pages) == 1 {
		return l.Pages[0].Raw
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{%q:[", key)
	for i, it := range l.Items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteString("]")
	if l.NextCursor != "" {
		fmt.Fprintf(&b, ",\"nextCursor\":%q", l.NextCursor)
	}
	b.WriteString("}")
	return b.Bytes()
}

// printResult prints a result the way the official inspector's CLI does:
// pretty-printed, or with --format json as {"result": ...} on one line.
// Numbers and strings keep the exact form the server sent. The result is
// streamed to stdout, not copied: it may be as large as a message.
func (r *cliRun) printResult(raw json.RawMessage) int {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{}`)
	}
	w := bufio.NewWriterSize(r.stdout, 64<<10)
	indent := "  "
	if r.inv.Format == "json" {
		w.WriteString(`{"result":`)
		indent = ""
	}
	if json.Valid(raw) {
		writeJSON(w, raw, indent)
	} else {
		w.Write(raw)
	}
	if r.inv.Format == "json" {
		w.WriteByte('}')
	}
	w.WriteByte('\n')
	if w.Flush() != nil {
		return exitInternal
	}
	return exitOK
}

// fail reports an error of the connection or of a request and returns
// the exit code for it.
func (r *cliRun) fail(err error) int {
	var rpc *session.RPCError
	if errors.As(err, &rpc) {
		if r.inv.Format == "json" {
			out := map[string]any{"code": rpc.Code, "message": rpc.Message}
			if len(rpc.Data) > 0 {
				out["data"] = rpc.Data
			}
			b, _ := json.Marshal(map[string]any{"error": out})
			fmt.Fprintf(r.stdout, "%s\n", b)
		} else {
			fmt.Fprintf(r.stderr, "error: the server answered with JSON-RPC error %d: %s\n", rpc.Code, rpc.Message)
			if len(rpc.Data) > 0 {
				fmt.Fprintf(r.stderr, "data: %s\n", rpc.Data)
			}
		}
		return exitRPC
	}
	code, msg := exitConnect, r.mask(describeError(err))
	var timeout runTimeout
	var in interruption
	cause := context.Cause(r.ctx)
	switch {
	case errors.As(cause, &timeout) && errors.Is(err, context.DeadlineExceeded):
		code = exitTimeout
		msg = fmt.Sprintf("timed out: --timeout %s passed while %s", timeout.after, r.waiting.Load())
	case errors.Is(err, session.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		code = exitTimeout
	case errors.Is(err, wire.ErrUnauthorized):
		code = exitAuth
	case errors.As(cause, &in) && errors.Is(err, context.Canceled):
		code, msg = in.code(), in.Error()
	}
	if r.inv.Format == "json" {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg}})
		fmt.Fprintf(r.stdout, "%s\n", b)
	}
	fmt.Fprintf(r.stderr, "error: %s\n", msg)
	r.printStderrTail()
	return code
}

// printStderrTail shows the last lines a stdio server wrote to stderr,
// which usually say why it failed.
func (r *cliRun) printStderrTail() {
	if r.log == nil || r.inv.Verbose {
		return
	}
	evs, _ := r.log.After(0, 0)
	var lines []string
	for _, e := range evs {
		if e.Kind == events.KindStderr {
			lines = append(lines, e.Text)
		}
	}
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	if len(lines) > 0 {
		fmt.Fprintf(r.stderr, "the server's last stderr lines:\n  %s\n", strings.Join(lines, "\n  "))
	}
}

func (r *cliRun) usageText(msg string) int { return r.usage(errors.New(msg)) }

func (r *cliRun) usage(err error) int {
	msg := r.mask(err.Error())
	if r.inv.Format == "json" {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg}})
		fmt.Fprintf(r.stdout, "%s\n", b)
	}
	fmt.Fprintf(r.stderr, "spyglass: %s\n", msg)
	return exitUsage
}

// mask hides the secrets the run knows of (tokens, secret headers, env
// values and URL parameters) in a message meant for the terminal.
func (r *cliRun) mask(msg string) string {
	if r.red == nil {
		return msg
	}
	return r.red.String(msg)
}

// writeVerbose streams events to stderr as JSON lines.
func (r *cliRun) writeVerbose(evs []events.Event) {
	r.verboseMu.Lock()
	defer r.verboseMu.Unlock()
	i := 0
	for i < len(evs) && evs[i].Seq <= r.verboseLast {
		i++
	}
	if i < len(evs) {
		_ = events.WriteJSONLines(r.stderr, evs[i:])
		r.verboseLast = evs[len(evs)-1].Seq
	}
}

// flushVerbose writes the events the last batch did not carry yet.
func (r *cliRun) flushVerbose() {
	r.verboseMu.Lock()
	last := r.verboseLast
	r.verboseMu.Unlock()
	evs, _ := r.log.After(last, 0)
	r.writeVerbose(evs)
}

// writeTrace saves the whole record to --trace FILE: atomically for a
// file, in place for a FIFO, a terminal or /dev/stdout.
func (r *cliRun) writeTrace() (ok bool) {
	if r.log == nil {
		return true
	}
	evs, err := r.log.After(0, 0)
	meta := events.TraceMeta{App: "spyglass " + version, Created: time.Now()}
	var dropped *events.DroppedError
	if errors.As(err, &dropped) {
		meta.Dropped = dropped.Count
	}
	if r.conn != nil {
		info := events.ConnInfo{Conn: r.conn.name, Transport: string(r.conn.server.Type)}
		if r.conn.server.URL != "" {
			info.Target = r.red.URL(r.conn.server.URL)
		} else {
			info.Target = r.red.String(strings.Join(redact.Args(append([]string{r.conn.server.Command}, r.conn.server.Args...)), " "))
		}
		if r.sess != nil {
			if si := r.sess.Info(); si != nil {
				info.ProtocolVersion = si.ProtocolVersion
				info.ServerInfo = si.Implementation
				info.ServerCapabilities = si.Capabilities
				info.ClientCapabilities = si.ClientCapabilities
				info.Instructions = si.Instructions
			}
		}
		meta.Conns = []events.ConnInfo{info}
	}
	// Streamed: a trace of large messages is never held twice.
	if err := catalog.WriteOutputFunc(r.inv.Trace, func(w io.Writer) error {
		return events.WriteTrace(w, meta, evs)
	}); err != nil {
		fmt.Fprintf(r.stderr, "error: writing the trace to %s: %v\n", r.inv.Trace, err)
		return false
	}
	return true
}

// rootsGrace is how long --cli waits after the handshake for a server to
// ask for the roots it was given (server-everything asks after ~350 ms).
const rootsGrace = time.Second

// declineSampler answers every sampling request with "declined" (the
// default --sampling policy), so a script never waits for a person.
type declineSampler struct{}

func (declineSampler) CreateMessage(context.Context, *session.SamplingRequest) (*mcp.CreateMessageResult, error) {
	return nil, &session.RPCError{Code: session.CodeUserRejected, Message: "sampling declined by the --sampling policy (try --sampling mock)"}
}

// profileSampler answers sampling from a mock testing profile.
type profileSampler struct{ profile sampling.Profile }

func (p *profileSampler) CreateMessage(_ context.Context, req *session.SamplingRequest) (*mcp.CreateMessageResult, error) {
	raw, err := p.profile.Respond(req.Params)
	if err != nil {
		return nil, err
	}
	var res mcp.CreateMessageResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// policyElicitor answers elicitation by an automatic policy.
type policyElicitor struct{ policy elicit.Policy }

func (p policyElicitor) Elicit(_ context.Context, req *session.ElicitationRequest) (*mcp.ElicitationResult, error) {
	raw, err := elicit.Answer(p.policy, req.Params)
	if err != nil {
		return nil, err
	}
	var res mcp.ElicitationResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	return &res, nil
}
