package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/ui"
)

// One window per user: a start while a window is open hands its command
// line to that window over core/appsock and exits 0.

// handOffTimeout bounds waiting for the open window's answer.
const handOffTimeout = 10 * time.Second

// claimWindow is called before a window opens. It returns the claimed
// socket for this window to serve, or handed true when a window already
// open took args (the caller then exits 0). When the open window declines
// (another catalog, say) or does not answer, this start opens a window of
// its own, without the socket.
func claimWindow(path string, args []string, stderr io.Writer) (ln *appsock.Listener, handed bool) {
	ln, err := appsock.Listen(path)
	if err == nil {
		return ln, false
	}
	if !errors.Is(err, appsock.ErrRunning) {
		fmt.Fprintf(stderr, "spyglass: a second start will open its own window: %v\n", err)
		return nil, false
	}
	dir, _ := os.Getwd()
	rep, err := appsock.Send(path, appsock.Message{Kind: "open", Args: args, Dir: dir}, handOffTimeout)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "spyglass: the Spyglass window already open did not answer, so this opens another: %v\n", err)
	case rep.OK:
		fmt.Fprintln(stderr, "spyglass: handed to the Spyglass window already open")
		return nil, true
	case rep.Declined != "":
		fmt.Fprintf(stderr, "spyglass: opening a second window: %s\n", rep.Declined)
	default:
		fmt.Fprintf(stderr, "spyglass: the Spyglass window already open could not take this (%s), so this opens another\n", rep.Error)
	}
	return nil, false
}

// handOver is the open window's side: it takes a command line handed over
// by a second start. Trace files open as recorded sessions; a server
// given on that line (ad hoc, or --server NAME) is added for this session
// if new, selected and connected; the window comes to the front in every
// case.
func (b *guiBackend) handOver(w *ui.Window, m appsock.Message) appsock.Reply {
	if m.Kind != "open" {
		return appsock.Reply{Declined: fmt.Sprintf("this window does not know %q messages", m.Kind)}
	}
	inv, err := ParseArgs(m.Args)
	if err != nil {
		return appsock.Reply{Error: err.Error()}
	}
	if inv.Mode != ModeGUI {
		return appsock.Reply{Declined: "not a window's command line"}
	}
	if traces := traceArgs(m.Dir, inv.Target); traces != nil {
		ui.Do(func() {
			for _, p := range traces {
				w.OpenTrace(p)
			}
			w.Window().RequestFocus()
		})
		return appsock.Reply{OK: true}
	}
	if inv.Catalog != "" || inv.Config != "" {
		return appsock.Reply{Declined: "the window already open shows another server list"}
	}
	src, err := inv.Source()
	if err != nil {
		return appsock.Reply{Error: err.Error()}
	}
	name := src.Server
	if src.Kind == catalog.SourceAdHoc {
		adhoc, _, err := src.Open()
		if err != nil {
			return appsock.Reply{Error: err.Error()}
		}
		n, s, err := src.Resolve(adhoc)
		if err != nil {
			return appsock.Reply{Error: err.Error()}
		}
		if s.Command != "" && s.Cwd == "" {
			s.Cwd = m.Dir // relative paths in the command were the caller's
		}
		name = b.addSessionServer(n, s)
	}
	ui.Do(func() {
		w.ServersChanged()
		if name != "" {
			w.OpenServer(name)
		}
		w.Window().RequestFocus()
	})
	return appsock.Reply{OK: true}
}

// addSessionServer adds a server handed over for this session only (it is
// not written to the catalog) under name, or name (2)… when taken, and
// returns the name used.
func (b *guiBackend) addSessionServer(name string, s catalog.Server) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	taken := func(n string) bool {
		_, inCat := b.cat.Get(n)
		_, over := b.override[n]
		return inCat || over
	}
	use := name
	for i := 2; taken(use); i++ {
		use = fmt.Sprintf("%s (%d)", name, i)
	}
	b.override[use] = s
	b.session = append(b.session, use)
	return use
}
