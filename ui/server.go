package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/fit"
)

// server is one catalog server in the window: its connection, state and
// screens. Only the UI thread touches it.
type server struct {
	w     *Window
	cfg   ServerConfig
	conn  Conn
	state StateView
	// attempt is the current connection attempt (1-based); retrying says
	// another attempt is scheduled.
	attempt  int
	retrying bool
	gen      int // bumped by every connect/disconnect; stale results are ignored
	cancel   context.CancelFunc
	retry    *time.Timer

	screens *serverScreens
	paneObj *fyne.Container
	// dropped says the connection ended by itself (a crashed server): the
	// screens stay, and the next request starts the server again.
	dropped bool
	// closing is closed once the last connection's Close returned (nil
	// when none is closing); the next connection starts after it, see
	// connectAttempt.
	closing chan struct{}
	// bootStderr holds the stderr lines of the current connection that
	// arrived before its screens existed (a server's start-up output); the
	// Logs screen starts with them.
	bootStderr []string
}

// maxBootStderr bounds the start-up stderr lines kept for the Logs screen.
const maxBootStderr = 10000

// onStderr hands a stderr line of this server to its Logs screen, or keeps
// it until the screens exist; it returns the screen to redraw (nil when
// none).
func (s *server) onStderr(line string) *logsScreen {
	if s.screens == nil {
		if s.state.State == StateConnecting || s.state.State == StateAuthorizing {
			if len(s.bootStderr) < maxBootStderr {
				s.bootStderr = append(s.bootStderr, line)
			}
		}
		return nil
	}
	s.screens.logs.onStderr(line)
	return s.screens.logs
}

func newServer(w *Window, cfg ServerConfig) *server {
	return &server{w: w, cfg: cfg, state: StateView{State: StateDisconnected}}
}

// pane is the middle area for this server.
func (s *server) pane() fyne.CanvasObject {
	if s.paneObj == nil {
		s.paneObj = container.NewStack()
		s.refreshPane()
	}
	return s.paneObj
}

func (s *server) refreshPane() {
	if s.paneObj == nil {
		return
	}
	var content fyne.CanvasObject
	if s.screens != nil && (s.state.State == StateConnected || s.dropped) {
		content = s.screens.obj
		if s.dropped {
			// The banner floats over the bottom of the screens instead of
			// pushing them down: nothing moves under the pointer. It is one
			// truncated line; the card and the toast carry the whole text.
			msg := widget.NewLabel(s.errorText() + ". The next request starts it again.")
			msg.Importance = widget.DangerImportance
			msg.Truncation = fyne.TextTruncateEllipsis
			re := widget.NewButtonWithIcon("Reconnect", theme.ViewRefreshIcon(), s.onRetry)
			bg := newPanelBg(theme.ColorNameOverlayBackground, "", 0, 0)
			bar := container.NewStack(bg, container.NewBorder(nil, nil, widget.NewIcon(theme.ErrorIcon()), re, msg))
			content = container.NewStack(content, container.NewBorder(nil, bar, nil, nil))
		}
	} else {
		content = s.placeholder()
	}
	if len(s.paneObj.Objects) == 1 && s.paneObj.Objects[0] == content {
		return // shown already: its widgets refresh themselves
	}
	// laid out, not refreshed: the content is new, or was shown before
	// and kept itself up to date; a Refresh would shape every text of the
	// screens again (a tenth of the cmd tests' CPU went there)
	s.paneObj.Objects = []fyne.CanvasObject{content}
	s.paneObj.Layout.Layout(s.paneObj.Objects, s.paneObj.Size())
	if cv := fyne.CurrentApp().Driver().CanvasForObject(s.paneObj); cv != nil {
		cv.Refresh(content) // the frame is due
	}
}

// placeholder is the centre pane of a server that is not connected: its
// name and command, a short line for its state, the state's buttons, and
// below them what there is to know (the whole error, the sign-in page).
// The buttons come before the details and keep their place from state to
// state, Connect turning into Cancel and then into Retry where the
// pointer is: a long error, its Show more, or a retry count below them
// move nothing under the pointer (#12).
func (s *server) placeholder() fyne.CanvasObject {
	title := heading(s.cfg.Name)
	title.SizeName = theme.SizeNameSubHeadingText
	title.Wrapping = fyne.TextWrapWord
	sum := wrapLabel(s.cfg.Transport + " · " + s.cfg.Summary())
	sum.TextStyle = fyne.TextStyle{Monospace: true}
	// a column at most 480 wide that narrows with the pane: its sentences
	// wrap instead of making the window wider than a small screen
	col := func(state string, buttons []*widget.Button, details ...fyne.CanvasObject) fyne.CanvasObject {
		line := widget.NewLabelWithStyle(state, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		objs := []fyne.CanvasObject{title, sum, line}
		if len(buttons) > 0 {
			row := container.NewHBox()
			for _, b := range buttons {
				row.Add(b)
			}
			objs = append(objs, row)
		}
		return container.New(fit.NewColumn(480), append(objs, details...)...)
	}
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), s.onCancel)
	cancel.Importance = widget.HighImportance
	switch s.state.State {
	case StateConnecting:
		return col("Connecting…", []*widget.Button{cancel})
	case StateAuthorizing:
		if si := s.state.SignIn; si != nil {
			return col("Signing in…", []*widget.Button{cancel}, s.signInBox(si))
		}
		return col("Signing in…", []*widget.Button{cancel}, wrapLabel("Waiting for you to sign in in your browser…"))
	case StateFailed:
		retry := widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), s.onRetry)
		retry.Importance = widget.HighImportance
		buttons := []*widget.Button{retry}
		if ro, _ := s.w.be.ReadOnly(); !ro {
			buttons = append(buttons, widget.NewButtonWithIcon("Edit settings…", theme.DocumentCreateIcon(), s.onEdit))
		}
		if s.retrying {
			buttons = []*widget.Button{cancel}
		}
		if s.state.Err == nil {
			return col("The connection failed.", buttons)
		}
		// the cause first, then Show full error and the troubleshooting
		// guide's section for its kind
		details := []fyne.CanvasObject{errorView(s.state.Err, "Connection error · "+s.cfg.Name, s.w.win)}
		if rt := s.retryText(); rt != "" { // "Not retried: …", "Gave up after 3 attempts"
			details = append(details, wrapLabel(rt))
		}
		return col("The connection failed.", buttons, details...)
	}
	if s.cfg.Recorded != "" {
		return col("A recorded session, read-only.", nil, wrapLabel("From "+s.cfg.Recorded+". Its messages are in the inspector; it does not connect."))
	}
	connect := widget.NewButtonWithIcon("Connect", theme.MediaPlayIcon(), s.onConnect)
	connect.Importance = widget.HighImportance
	return col("Not connected.", []*widget.Button{connect}, wrapLabel("Connect to see its tools, resources and prompts."))
}

// onEdit opens the server's settings (the card's Edit, the failed
// pane's Edit settings…), unless the catalog is read-only.
func (s *server) onEdit() {
	if ro, why := s.w.be.ReadOnly(); ro {
		s.w.toast("error", "Editing is off: "+why)
		return
	}
	showServerForm(s.w, s.cfg.Name, s.cfg)
}

// signInBox says how long the sign-in waits and shows its authorization
// URL with Copy and Open (the browser may not have opened, or opened
// elsewhere).
func (s *server) signInBox(si *SignInView) fyne.CanvasObject {
	msg := wrapLabel("Waiting up to " + si.waitText() + " (until " + si.Until.Format("15:04") + ") for you to sign in in your browser…")
	return container.NewVBox(msg, widget.NewLabel("Sign-in page:"), s.w.addressBox(si.URL))
}

// addressBox shows the web address u on one line with Copy and Open, for
// a page the browser may not have opened (a sign-in, the troubleshooting
// guide): an opener that started no browser reports no error.
func (w *Window) addressBox(u string) fyne.CanvasObject {
	addr := wrapLabel(u)
	addr.TextStyle = fyne.TextStyle{Monospace: true}
	addr.Truncation = fyne.TextTruncateEllipsis
	addr.Wrapping = fyne.TextWrapOff
	open := widget.NewButtonWithIcon("Open", theme.ComputerIcon(), func() { w.openURL(u) })
	open.Importance = widget.LowImportance
	return container.NewVBox(addr, container.NewHBox(copyButton("Copy", func() string { return u }), open))
}

// openURL opens u in the browser (Options.OpenURL, else the app's).
func (w *Window) openURL(u string) {
	open := w.opts.OpenURL
	if open == nil {
		open = func(u string) error {
			p, err := url.Parse(u)
			if err != nil {
				return err
			}
			return w.app.OpenURL(p)
		}
	}
	if err := open(u); err != nil {
		w.toastErr("error", "Could not open the browser (copy the address into one instead)", err)
	}
}

// onConnect starts connecting (the card's toggle, the Connect button).
func (s *server) onConnect() {
	if s.state.State == StateConnected || s.state.State == StateConnecting {
		return
	}
	if s.cfg.Recorded != "" {
		s.w.toast("error", s.cfg.Name+" is a recorded session: it shows what "+filepath.Base(s.cfg.Recorded)+" holds and does not connect")
		return
	}
	s.attempt = 0
	s.connectAttempt()
}

// onRetry starts over after a failure.
func (s *server) onRetry() {
	s.stopRetry()
	s.attempt = 0
	s.connectAttempt()
}

func (s *server) connectAttempt() {
	s.retrying = false
	s.bootStderr = nil
	s.attempt++
	s.gen++
	gen := s.gen
	if s.conn == nil && s.waitClosed(gen) {
		return
	}
	if s.conn == nil {
		// the engine's own state changes count for as long as this
		// connection is the server's, through every Reconnect on it: tied
		// to the attempt that opened it, a second drop after a Reconnect
		// went unheard and the card said Connected
		ref := new(Conn)
		c, err := s.w.be.Open(s.cfg.Name, func(st StateView) {
			do(func() {
				if *ref != nil && s.conn == *ref {
					s.onEngineState(st)
				}
			})
		})
		if err != nil {
			var need *InputsNeededError
			if errors.As(err, &need) && need.Provide != nil {
				s.askInputs(need)
				return
			}
			s.setState(StateView{State: StateFailed, Err: err})
			return
		}
		s.conn, *ref = c, c
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.setState(StateView{State: StateConnecting})
	conn := s.conn
	go func() {
		err := conn.Connect(ctx)
		do(func() { s.onConnected(gen, ctx, err) })
	}()
}

// askInputs asks for the values a server's settings leave to connect
// time (masked entries: they are usually keys), then connects again; a
// dismissed dialog leaves the server failed with the reason.
func (s *server) askInputs(need *InputsNeededError) {
	entries := make([]*esc.Entry, len(need.Inputs))
	items := make([]*widget.FormItem, len(need.Inputs))
	for i, in := range need.Inputs {
		e := esc.NewPasswordEntry() // Esc in it dismisses the dialog
		e.SetPlaceHolder("value of ${input:" + in.ID + "}")
		entries[i] = e
		items[i] = widget.NewFormItem(in.ID, e)
		items[i].HintText = "used in " + in.Where
	}
	d := esc.NewForm("Values for "+s.cfg.Name, "Use these values", "Don't connect", items, func(ok bool) {
		if !ok {
			s.setState(StateView{State: StateFailed, Err: need})
			return
		}
		vals := make(map[string]string, len(entries))
		for i, in := range need.Inputs {
			vals[in.ID] = entries[i].Text
		}
		if err := need.Provide(vals); err != nil {
			s.setState(StateView{State: StateFailed, Err: err})
			return
		}
		s.attempt = 0
		s.connectAttempt()
	}, s.w.win)
	d.Resize(fyne.NewSize(460, d.MinSize().Height))
	esc.Show(d, s.w.win)
}

func (s *server) onConnected(gen int, ctx context.Context, err error) {
	if gen != s.gen {
		return
	}
	if err == nil {
		s.state = StateView{State: StateConnected}
		if s.screens == nil || !s.dropped {
			s.screens = newServerScreens(s)
			for _, ln := range s.bootStderr {
				s.screens.logs.onStderr(ln)
			}
			if len(s.bootStderr) > 0 {
				// drawn, and the empty state hidden: it was left over the
				// start-up lines ("Starting default (STDIO) server...")
				s.screens.logs.stderrChanged()
			}
			s.restoreTab()
		}
		s.bootStderr = nil
		s.dropped = false
		s.refreshUI()
		s.screens.load()
		s.w.toast("ok", "Connected to "+s.cfg.Name)
		return
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		s.closeConn()
		s.setState(StateView{State: StateDisconnected})
		return
	}
	s.closeConn()
	if s.screens != nil {
		s.screens.stop()
		s.screens = nil
	}
	s.dropped = false
	s.state = StateView{State: StateFailed, Err: err}
	if s.attempt < s.w.opts.ConnectAttempts && retryable(err) {
		s.retrying = true
		delay := s.w.opts.RetryDelay << (s.attempt - 1)
		s.retry = time.AfterFunc(delay, func() {
			do(func() {
				if gen == s.gen && s.retrying {
					s.connectAttempt()
				}
			})
		})
	}
	s.refreshUI()
}

// onEngineState follows state changes the engine reports by itself of
// the server's connection: the server crashed, the OAuth flow started.
func (s *server) onEngineState(st StateView) {
	switch {
	case st.State == StateAuthorizing && (s.state.State == StateConnecting || s.state.State == StateAuthorizing):
		// a sign-in started, or its authorization URL is known
		s.setState(st)
	case s.state.State == StateAuthorizing && st.State == StateConnecting:
		s.setState(st)
	case s.state.State == StateConnected && (st.State == StateFailed || st.State == StateDisconnected):
		// the server went away by itself: keep its screens, say so
		s.state = StateView{State: StateFailed, Err: st.Err}
		if st.Err == nil {
			s.state.Err = errors.New("the connection closed")
		}
		s.dropped = true
		s.attempt = s.w.opts.ConnectAttempts // no automatic retry of a drop
		s.refreshUI()
		s.w.toastErr("error", s.cfg.Name+" disconnected", s.state.Err)
	case s.dropped && st.State == StateConnecting:
		s.setState(st)
	case s.dropped && st.State == StateConnected:
		// the next request started the server again
		s.dropped = false
		s.attempt = 0
		s.setState(st)
	}
}

// onCancel stops connecting or retrying.
func (s *server) onCancel() {
	s.disconnect()
}

// onToggle is the card's connect toggle.
func (s *server) onToggle(on bool) {
	if on {
		s.onConnect()
	} else {
		s.disconnect()
	}
}

// disconnect closes the connection and cancels any attempt.
func (s *server) disconnect() {
	s.gen++
	s.stopRetry()
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	if s.screens != nil {
		s.screens.stop()
	}
	s.screens = nil
	s.dropped = false
	s.closeConn()
	s.attempt = 0
	if s.state.State != StateDisconnected {
		s.setState(StateView{State: StateDisconnected})
	}
}

func (s *server) stopRetry() {
	s.retrying = false
	if s.retry != nil {
		s.retry.Stop()
		s.retry = nil
	}
}

func (s *server) closeConn() {
	if s.conn != nil {
		c := s.conn
		s.conn = nil
		done := make(chan struct{})
		s.closing = done
		go func() {
			defer close(done)
			c.Close()
		}()
	}
}

// waitClosed reports whether the last connection is still closing, and
// then connects (attempt gen) once it has closed: the log pairs messages
// by the server's name, so a connection that starts while the last one
// is still closing had its initialize marked "no response" by the old
// one's end and its answer shown as "unknown id" (Reconnect, the card's
// toggle off and on). Until then the server shows Connecting….
func (s *server) waitClosed(gen int) bool {
	done := s.closing
	if done == nil {
		return false
	}
	select {
	case <-done:
		s.closing = nil
		return false
	default:
	}
	s.setState(StateView{State: StateConnecting})
	go func() {
		<-done
		do(func() {
			if gen == s.gen && s.conn == nil { // not cancelled meanwhile
				s.attempt--
				s.connectAttempt()
			}
		})
	}()
	return true
}

func (s *server) setState(st StateView) {
	s.state = st
	s.refreshUI()
}

func (s *server) refreshUI() {
	s.w.list.refresh()
	s.refreshPane()
}

// retryText is "Retry attempt 3 of 5" while retrying, or what happened.
func (s *server) retryText() string {
	max := s.w.opts.ConnectAttempts
	switch {
	case s.state.State != StateFailed || max <= 1:
		return ""
	case s.retrying:
		return fmt.Sprintf("Retry attempt %d of %d", s.attempt+1, max)
	case !s.dropped && !retryable(s.state.Err):
		return "Not retried by itself: another attempt would fail the same way"
	case s.attempt >= max:
		return fmt.Sprintf("Gave up after %d attempts", s.attempt)
	}
	return ""
}

// errorText is the human wording of the failure.
func (s *server) errorText() string {
	if s.state.Err == nil {
		return ""
	}
	if s.dropped {
		return "Disconnected: " + s.state.Err.Error()
	}
	return "Failed to connect: " + s.state.Err.Error()
}

// causeText is the failure's cause without the "Failed to connect"
// its card's state already says: the card's one line.
func (s *server) causeText() string {
	if s.state.Err == nil {
		return ""
	}
	if s.dropped {
		return "Disconnected: " + s.state.Err.Error()
	}
	headline, _ := plainError(s.state.Err) // as the server's page says it
	return headline
}
