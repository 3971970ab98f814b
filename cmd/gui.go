package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/adrg/xdg"

	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/idlemem"
	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/session"
	"github.com/spyglass-mcp/spyglass/ui"
	"github.com/spyglass-mcp/spyglass/ui/desktop"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// useQueue answers the server's own requests through ui/requests' queue
// (testing profiles, elicitation forms, URL mode), shown under the server's
// screens while requests wait. Call it on the UI thread before the first
// connection.
func (b *guiBackend) useQueue(w *ui.Window, profiles string) *requests.Queue {
	q := requests.NewQueue(&requests.QueueOptions{
		Window:    w.Window(),
		Profiles:  profileStore{file: profiles},
		Responder: responder{},
		Forms:     buildElicitationForm,
		Open:      openBrowser,
		Save:      w.Save,
		OnCountChanged: func(n int) {
			w.SetRequestCount(n)
		},
		OnAdded: func(kind, server, id, run string) {
			// seed 000: in the panel of the tool call that sent it, else
			// in the queue below the screens, which opens at it; no toast:
			// it would lie over the very fields it points to
			w.ShowRequestInline(server, id, run)
		},
	})
	w.SetRequestInliner(q)
	w.SetRequests(q.Object())
	w.SetRequestQueue(q) // the panel shows the selected server's requests
	w.SetEditProfiles(q.EditProfiles)
	w.SetRequestOpener(q.OpenModal)
	b.mu.Lock()
	b.queue = q
	b.handlers = session.Handlers{Sampling: requestHandlers{q}, Elicitation: requestHandlers{q}}
	b.mu.Unlock()
	return q
}

// browserWait is how long openBrowser waits for the browser command to
// exit: xdg-open and a browser already running hand the URL over and exit
// at once; a browser started afresh may run for as long as it is open,
// and one still running after this long took the URL.
const browserWait = 5 * time.Second

// openBrowser opens a URL-mode elicitation with the OAuth sign-in's
// opener: $BROWSER (split like a shell would, %s for the URL) when set,
// else the desktop's opener. It returns at once (it is called on the UI
// thread) and reports through done whether the browser took the URL: a
// command that is not found or fails (xdg-open exits 3 when no browser
// is configured) is reported in plain words with its last line of
// output, so the request stays pending instead of being accepted.
func openBrowser(u *url.URL, done func(error)) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), browserWait)
		defer cancel()
		out := &lastOutput{}
		err := oauth.SystemBrowser{Output: out}.Open(ctx, u.String())
		if errors.Is(err, context.DeadlineExceeded) {
			err = nil // still running: it took the URL
		}
		err = openFailure(err, out.line())
		ui.Do(func() { done(err) })
	}()
}

// openFailure words why the browser command did not take the URL (nil
// for nil): the command and its exit status or "not found", then the
// last line it printed.
func openFailure(err error, last string) error {
	if err == nil {
		return nil
	}
	var be *oauth.BrowserError
	if !errors.As(err, &be) {
		return humanize(err)
	}
	var ee *exec.ExitError
	var text string
	switch {
	case errors.Is(be.Err, exec.ErrNotFound) || errors.Is(be.Err, fs.ErrNotExist):
		text = "The command " + be.Command + " was not found (set $BROWSER to your browser's command)"
	case errors.As(be.Err, &ee):
		text = fmt.Sprintf("The command %s exited with status %d", be.Command, ee.ExitCode())
	default:
		text = "The command " + be.Command + " failed: " + be.Err.Error()
	}
	if last != "" {
		text += ": " + last
	}
	return &humanError{err: err, text: text}
}

// lastOutput keeps the last non-empty line a command printed (bounded);
// its stdout and stderr may write while line reads.
type lastOutput struct {
	mu   sync.Mutex
	tail []byte
}

// Write implements io.Writer.
func (o *lastOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.tail = append(o.tail, p...)
	if len(o.tail) > 4096 {
		o.tail = o.tail[len(o.tail)-4096:]
	}
	return len(p), nil
}

// line returns the line written that says why the command failed
// (tellingLine).
func (o *lastOutput) line() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	line, _ := tellingLine(string(o.tail))
	return line
}

// guiOptions are the window's options before the servers to open are
// chosen. Every file saved from the window goes through the writer of
// --trace: a regular file replaced atomically, a FIFO or device in place;
// a sign-in's page is opened again like the sign-in opened it.
func guiOptions() *ui.Options {
	return &ui.Options{SaveFile: catalog.WriteOutputFunc, OpenURL: oauth.SystemBrowser{}.Start, Version: version}
}

// runGUI opens the desktop window on the servers inv names (args is the
// command line it was parsed from, handed to a window already open) and
// returns the exit code once it is closed.
func runGUI(inv *Invocation, args []string, stderr io.Writer) int {
	wd, _ := os.Getwd()
	traces := traceArgs(wd, inv.Target)
	if traces != nil {
		// `spyglass FILE.spyglass-trace`: the files open in the window of
		// the usual catalog
		only := *inv
		only.Target = nil
		inv = &only
	}
	src, err := inv.Source()
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
		return 2
	}
	cat, _, err := src.Open()
	if cat == nil {
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
		return 1
	}
	if err != nil {
		// a usable catalog with entries that cannot be connected to: the
		// window shows each entry's problem when it is connected
		fmt.Fprintf(stderr, "spyglass: %v\n", err)
	}
	roWhy := ""
	switch src.Kind {
	case catalog.SourceConfig:
		roWhy = "opened with --config " + src.Path + ", which Spyglass never changes"
	case catalog.SourceAdHoc:
		roWhy = "one server given on the command line; run without it to edit your catalog"
	}
	sock, handed := claimWindow(appsock.Path(), args, stderr)
	if handed {
		return 0
	}
	if sock != nil {
		defer sock.Close()
	}
	be := newGUIBackend(cat, roWhy, nil)
	opts := guiOptions()
	crashDir := filepath.Join(xdg.StateHome, "spyglass")
	crashes, prev := openCrashLog(crashDir, stderr)
	defer crashes.close()
	opts.PreviousCrash = prev
	opts.OpenTrace = be.openTrace
	opts.ReportProblem = func(w io.Writer, withTrace bool, server string) error {
		var trace func(io.Writer) error
		if withTrace {
			trace = func(w io.Writer) error { return be.Events().WriteTrace(w, server) }
		}
		return writeProblemReport(w, crashDir, trace)
	}
	if src.Kind == catalog.SourceAdHoc || src.Server != "" {
		name, s, err := src.Resolve(cat)
		if err != nil {
			fmt.Fprintf(stderr, "spyglass: %v\n", err)
			return 2
		}
		be.override[name] = s
		opts.Select = name
		opts.AutoConnect = true
	}
	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	// the window's runtime memory policy: what a burst freed goes back to
	// the system once the window is quiet (docs/DESIGN.md)
	go idlemem.Run(watchCtx, nil)
	ready := func(w *ui.Window) {
		be.useQueue(w, filepath.Join(xdg.ConfigHome, "spyglass", "sampling-profiles.json"))
		be.watch(watchCtx, func(level, msg string) {
			ui.Do(func() {
				w.ServersChanged()
				w.Toast(level, msg)
			})
		})
		startScreenshots(w, stderr)
		startBench(be, w, opts.Select, os.Stdout, stderr)
		if crashTrigger != nil {
			crashTrigger()
		}
		if sock != nil {
			go sock.Serve(func(m appsock.Message) (appsock.Reply, func(io.Reader)) { return be.handOver(w, m) })
		}
		for _, p := range traces {
			w.OpenTrace(p)
		}
	}
	desktop.Run(be, opts, ready)
	be.close(stderr)
	return 0
}

// close ends the backend once the window has closed: the event log's
// spill file is removed now rather than swept by the next start. A
// failure is said cause first, without the error chain.
func (b *guiBackend) close(stderr io.Writer) {
	if err := b.log.Close(); err != nil {
		why := err.Error()
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			why = pe.Err.Error() + ": " + pe.Path
		}
		fmt.Fprintf(stderr, "spyglass: the event log's spill file was not removed (%s); the next start removes it\n", why)
	}
}
