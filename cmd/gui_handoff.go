package cmd

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spyglass-mcp/spyglass/core/appsock"
	"github.com/spyglass-mcp/spyglass/core/catalog"
	"github.com/spyglass-mcp/spyglass/core/events"
	"github.com/spyglass-mcp/spyglass/core/tap"
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

// handOver is the open window's side of core/appsock: a tap's live feed
// (tap.FeedKind) becomes a session of its own; a command line handed over
// by a second start opens what it names. Trace files open as recorded sessions; a server
// given on that line (ad hoc, or --server NAME) is added for this session
// if new, selected and connected; the window comes to the front in every
// case.
func (b *guiBackend) handOver(w *ui.Window, m appsock.Message) (appsock.Reply, func(io.Reader)) {
	switch m.Kind {
	case tap.FeedKind:
		return b.takeTap(w, m)
	case "open":
		return b.openHandedOver(w, m), nil
	}
	return appsock.Reply{Declined: fmt.Sprintf("this window does not know %q messages", m.Kind)}, nil
}

// openHandedOver takes a second start's command line.
func (b *guiBackend) openHandedOver(w *ui.Window, m appsock.Message) appsock.Reply {
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

// takeTap shows a tap's live feed (core/tap.StartFeed) as a session of its
// own: an entry named after the tapped server, marked as a tap that never
// connects, whose events arrive in the log as the tap records them; when
// the tap ends, the entry says so and keeps what was recorded.
func (b *guiBackend) takeTap(w *ui.Window, m appsock.Message) (appsock.Reply, func(io.Reader)) {
	var name, transport, target string
	if len(m.Args) > 0 {
		name = m.Args[0]
	}
	if len(m.Args) > 2 {
		transport, target = m.Args[1], m.Args[2]
	}
	if name == "" {
		name = "tap"
	}
	var s catalog.Server
	if transport == "http" || transport == "sse" {
		s.Type, s.URL = catalog.Type(transport), target
	} else {
		s.Command = target
	}
	what := "the tap of " + cmp.Or(target, name)
	name = b.addSessionServer(name, s)
	b.setRecorded(name, what+", live")
	ui.Do(w.ServersChanged)
	return appsock.Reply{OK: true}, func(r io.Reader) {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				var e events.Event
				if jerr := json.Unmarshal(line, &e); jerr == nil {
					e.Conn, e.Seq = name, 0
					b.log.Append(e)
				}
			}
			if err != nil {
				break
			}
		}
		b.setRecorded(name, what+", ended at "+time.Now().Format("15:04:05"))
		ui.Do(w.ServersChanged)
	}
}

// setRecorded marks a session entry as recorded, saying where from.
func (b *guiBackend) setRecorded(name, from string) {
	b.mu.Lock()
	b.recorded[name] = from
	b.mu.Unlock()
}
