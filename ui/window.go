package ui

import (
	"fmt"
	"io"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Options tune the window. The zero value is the app's defaults.
type Options struct {
	// Title of the window ("Spyglass").
	Title string
	// ConnectAttempts is how many times a failed connection is tried
	// before giving up (default 5); RetryDelay the first pause between
	// attempts, doubled each time (default 1s).
	ConnectAttempts int
	RetryDelay      time.Duration
	// Select names the server selected at start ("" = the first);
	// AutoConnect connects to it once the app calls Window.AutoConnect
	// (after its request handlers are in place).
	Select      string
	AutoConnect bool
	// SaveDialog replaces the system save dialog (tests): it is called
	// with the suggested file name and returns the writer, or nil.
	SaveDialog func(name string, done func(w fyne.URIWriteCloser, err error))
	// Version is the build's version, shown by Help → About.
	Version string
	// SaveFile writes a file the user chose in a save dialog (a download,
	// a trace): cmd gives core/catalog's WriteOutputFunc, which replaces a
	// regular file atomically and writes a FIFO or device in place. When
	// nil, the content goes through the dialog's own writer.
	SaveFile func(path string, write func(io.Writer) error) error
	// OpenURL opens a web page in the user's browser (a sign-in's
	// authorization URL); the app's OpenURL when nil.
	OpenURL func(u string) error
	// PreviousCrash is the crash log of the last run when it crashed ("" when
	// it did not): the window offers to show it once it opens.
	PreviousCrash string
	// ReportProblem writes Help → Report a problem's zip: the version, the
	// system and the last crash log, and the trace of server's session when
	// withTrace is set.
	ReportProblem func(w io.Writer, withTrace bool, server string) error
	// OpenTrace loads a trace file as recorded sessions and returns the
	// server entries it added, and a warning when only part of the file
	// could be read (where it stopped).
	OpenTrace func(path string) (servers []string, warning string, err error)
}

// Window is Spyglass's main window: the server list, the selected
// server's screens and the inspector.
type Window struct {
	app fyne.App
	// files counts the History's and tester's file writes under way.
	files sync.WaitGroup
	win   fyne.Window
	be    Backend
	opts  Options

	servers  []*server
	selected *server

	list     *serverList
	middle   *fyne.Container // the selected server's pane
	center   *fyne.Container // middle, with the requests panel below it when requests wait
	requests fyne.CanvasObject
	reqSplit *container.Split
	// reqChipped is the screens with the line of other servers' waiting
	// requests below (requestChip), while the work area shows it
	reqChipped fyne.CanvasObject
	inliner    RequestInliner  // SetRequestInliner
	reqCount   int             // the requests waiting (SetRequestCount)
	reqQueue   RequestQueue    // SetRequestQueue: filters the panel by server
	reqChip    *widget.Button  // "N requests wait on S": selects S
	reqChipRow *fyne.Container // reqChip, at its width
	inspector  *inspector
	body       *fyne.Container // middle, or middle + inspector split
	split      *container.Split
	inspOpen   bool
	toasts     *toaster
	// main is the server list beside the body; listOpen says the user
	// wants the list shown (collapsed, a narrow rail with its toggle
	// stays). listShown says it is: a window too narrow for it collapses
	// it as the toggle would (giveWay), unless the user opened it there
	// by hand (listPinned), and shows it again once there is room.
	main       *fyne.Container
	mainSp     *container.Split
	rail       fyne.CanvasObject
	listOpen   bool
	listShown  bool
	listPinned bool
	// fitted is the scroll around main (giveWay)
	fitted *container.Scroll
	// editProfiles opens the sampling profiles editor (Settings menu).
	editProfiles func()
	// tabRestored: the remembered screen was shown once (see restoreTab).
	tabRestored bool
	// baseTheme is the app's theme at start; View › Theme draws it light or dark.
	baseTheme fyne.Theme
	// palette is the command palette last opened (Ctrl+K), or nil.
	palette *palette
	// inspWin is the inspector's own window while it is detached (View →
	// Detach inspector), else nil; detachItem is that menu item.
	inspWin    fyne.Window
	detachItem *fyne.MenuItem
	themeItems map[string]*fyne.MenuItem // View → Theme's Light, Dark, System: the current one is checked
	// harItem is File → Export HAR…, off for stdio and recorded servers
	// (harexport.go).
	harItem *fyne.MenuItem
	// menuState says which menu items are on now (updateMenu, menu.go)
	menuState func() map[*fyne.MenuItem]bool
	// screen is the screen's size FitScreen was given (zero: unknown); a
	// detached inspector's window is kept within it too
	screen fyne.Size
}

// New builds the main window on app a (not shown yet).
func New(a fyne.App, be Backend, opts *Options) *Window {
	w := &Window{app: a, be: be}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.Title == "" {
		w.opts.Title = "Spyglass"
	}
	if w.opts.ConnectAttempts <= 0 {
		w.opts.ConnectAttempts = 5
	}
	if w.opts.RetryDelay <= 0 {
		w.opts.RetryDelay = time.Second
	}
	a.Settings().SetTheme(newReadableTheme())
	w.restoreTheme() // before anything is built (see restoreTheme)
	w.win = a.NewWindow(w.opts.Title)
	w.win.SetContent(w.buildUI())
	w.win.Resize(fyne.NewSize(1280, 800))
	w.win.SetOnDropped(w.onDropped)
	w.addShortcuts()
	w.restorePrefs()
	w.win.SetCloseIntercept(func() {
		w.Close()
		w.win.Close()
	})
	w.offerCrash()
	return w
}

// Window is the underlying Fyne window.
func (w *Window) Window() fyne.Window { return w.win }

// ShowAndRun shows the window and runs the app until it closes.
func (w *Window) ShowAndRun() { w.win.ShowAndRun() }

// Scale is the window canvas's scale (device pixels per canvas unit).
func (w *Window) Scale() float32 { return w.win.Canvas().Scale() }

// FitScreen shrinks the window, when it is larger, to fit a screen of
// width×height (in the canvas's units) with a margin for the desktop's
// panels, so that nothing starts off-screen on a small display. The
// default and the remembered size are 1280×800 or more.
func (w *Window) FitScreen(width, height float32) {
	if width <= 0 || height <= 0 {
		return
	}
	w.screen = fyne.NewSize(width, height)
	cur := w.win.Canvas().Size()
	fit := fyne.NewSize(min(cur.Width, width*0.95), min(cur.Height, height*0.92))
	if fit != cur {
		w.win.Resize(fit)
	}
}

// Close disconnects every server and stops the inspector's subscription.
func (w *Window) Close() {
	w.savePrefs() // the detached inspector's size too
	if w.inspWin != nil {
		w.inspWin.SetCloseIntercept(nil)
		w.inspWin.Close()
		w.inspWin = nil
	}
	for _, s := range w.servers {
		s.disconnect()
	}
	w.inspector.stop()
	w.toasts.stop()
	w.files.Wait() // a History or tester write under way lands before the window is gone
}

// saveInBackground runs a file write off the UI thread; Close waits for it.
func (w *Window) saveInBackground(write func()) {
	w.files.Add(1)
	go func() {
		defer w.files.Done()
		write()
	}()
}

func (w *Window) buildUI() fyne.CanvasObject {
	w.toasts = newToaster()
	w.list = newServerList(w)
	w.middle = container.NewStack()
	w.center = container.NewStack(w.middle)
	w.toasts.anchor = w.center // over the work area, never the inspector's newest rows
	w.inspector = newInspector(w, w.be.Events())
	// the inspector is a panel whose divider the user drags; the
	// working area starts with about two thirds of the width
	w.split = container.NewHSplit(w.center, w.inspector.buildUI())
	w.split.Offset = 0.66
	w.body = container.NewStack(w.split)
	w.inspOpen = true

	left := w.list.buildUI()
	w.reloadServers()
	w.mainSp = container.NewHSplit(left, w.body)
	w.mainSp.Offset = 0.2
	expand := widget.NewButtonWithIcon("", theme.MenuIcon(), w.ToggleServerList)
	expand.Importance = widget.LowImportance
	w.rail = container.New(railLayout{}, w.body, container.NewVBox(expand))
	w.main = container.New(mainLayout{w}, w.mainSp)
	w.listOpen, w.listShown = true, true
	// a window smaller than its content gives way instead of cutting it
	// off: the list collapses, and what still does not fit scrolls
	w.fitted = container.NewScroll(w.main)
	return container.NewStack(container.New(&giveWay{w: w}, w.fitted), w.toasts.layer)
}

// ToggleServerList collapses the server list to a narrow rail with its
// toggle, or shows it again (View → Server list, Ctrl+B). Shown in a
// window too narrow for it, the list stays (the window scrolls sideways).
func (w *Window) ToggleServerList() {
	if w.listShown {
		w.listOpen, w.listPinned = false, false
	} else {
		w.listOpen = true
		w.listPinned = w.main.Size().Width > 0 && w.main.Size().Width < w.mainSp.MinSize().Width
	}
	w.showList(w.listOpen)
}

// showList shows the server list beside the body, or the rail in its
// place.
func (w *Window) showList(on bool) {
	w.listShown = on
	if on {
		w.mainSp.Trailing = w.body
		w.main.Objects = []fyne.CanvasObject{w.mainSp}
		w.mainSp.Refresh()
	} else {
		w.rail.(*fyne.Container).Objects[0] = w.body
		w.main.Objects = []fyne.CanvasObject{w.rail}
		w.rail.Refresh()
	}
	w.main.Refresh()
	if w.fitted != nil {
		w.fitted.Refresh() // main needs another width: the scroll sizes it again
	}
	// under the GL driver the refreshes above left the inspector's list
	// at its first row: it goes back to the newest, or the event open
	w.inspector.placed()
}

// railLayout puts the collapsed list's toggle (objs[1]) at the left edge
// and the body (objs[0]) right beside it, without the theme's padding
// between them that a Border adds: the toggle's button has room of its
// own, and at 700 px those 4 px made the Tools screen with a tool shown
// scroll sideways, the inspector's right edge cut off.
type railLayout struct{}

// MinSize implements fyne.Layout.
func (railLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	body, toggle := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(toggle.Width+body.Width, max(toggle.Height, body.Height))
}

// Layout implements fyne.Layout.
func (railLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	tw := objs[1].MinSize().Width
	objs[1].Move(fyne.NewPos(0, 0))
	objs[1].Resize(fyne.NewSize(tw, size.Height))
	objs[0].Move(fyne.NewPos(tw, 0))
	objs[0].Resize(fyne.NewSize(size.Width-tw, size.Height))
}

// minWindow is the least the window's content asks for: a smaller window
// than its content needs scrolls (giveWay), so the window's minimum size
// stays within any screen.
var minWindow = fyne.NewSize(480, 320)

// giveWay lays out the window's content (a scroll around main) over the
// window's whole size, and asks for no more than minWindow: at a width
// that cannot hold the server list beside the body the list collapses
// to its rail, as the user could by hand, and comes back when the window
// is wide enough again; what still does not fit scrolls, so no control
// is cut off at the window's edge.
type giveWay struct{ w *Window }

// MinSize implements fyne.Layout.
func (g *giveWay) MinSize([]fyne.CanvasObject) fyne.Size { return minWindow }

// Layout implements fyne.Layout.
func (g *giveWay) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	// the scroll first: fit's list shown lays main out in the scroll's
	// new size (in the old, smaller one, main's layout collapsed the list
	// again — a window grown from small kept it collapsed)
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	g.w.fit(size.Width)
}

// fit shows the server list beside the body when a window width wide
// holds both, else (unless the user opened it there) collapses it.
func (w *Window) fit(width float32) {
	room := width >= w.mainSp.MinSize().Width
	if room {
		w.listPinned = false
	}
	if want := w.listOpen && (room || w.listPinned); want != w.listShown {
		w.showList(want)
	}
}

// mainLayout stacks main's one object, and fits the window again when
// it is laid out: a screen that came to need more width (a tool shown)
// makes the scroll lay main out wider without resizing the window, and
// the server list beside it has to give way then too, not only at the
// next resize (at 800 px the inspector was cut at the right edge).
type mainLayout struct{ w *Window }

// MinSize implements fyne.Layout.
func (m mainLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return layout.NewStackLayout().MinSize(objs)
}

// Layout implements fyne.Layout.
func (m mainLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if m.w.fitted != nil && m.w.fitted.Size().Width > 0 && size.Width > m.w.fitted.Size().Width {
		m.w.fit(m.w.fitted.Size().Width)
	}
}

// reloadServers re-reads the catalog, keeping live connections.
func (w *Window) reloadServers() {
	old := map[string]*server{}
	for _, s := range w.servers {
		old[s.cfg.Name] = s
	}
	w.servers = nil
	for _, cfg := range w.be.Servers() {
		s := old[cfg.Name]
		if s == nil {
			s = newServer(w, cfg)
		} else {
			s.cfg = cfg
			delete(old, cfg.Name)
		}
		w.servers = append(w.servers, s)
	}
	for _, s := range old {
		s.disconnect()
		if w.selected == s {
			w.selected = nil
		}
	}
	w.list.refresh()
	if w.selected == nil && len(w.servers) > 0 {
		pick := w.servers[0]
		for _, s := range w.servers {
			if s.cfg.Name == w.opts.Select {
				pick = s
			}
		}
		w.selectServer(pick)
	} else if w.selected == nil {
		w.showNoServer()
	}
}

// ServersChanged shows the backend's server list again after it changed
// outside the window (the catalog file was edited elsewhere): new servers
// get cards, changed ones their new settings (used from the next
// connection on), removed ones are disconnected. Call it on the UI thread.
func (w *Window) ServersChanged() { w.reloadServers() }

// AutoConnect connects the selected server when Options.AutoConnect asks
// for it. The app calls it once the handlers of the server's own requests
// (the request queue) are in place: connected from New, a server that
// asks for sampling or elicitation would find none and get "Method not
// found".
func (w *Window) AutoConnect() {
	if w.opts.AutoConnect && w.selected != nil && w.selected.state.State != StateConnected {
		w.selected.onConnect()
	}
}

// server returns the named server, or nil.
func (w *Window) server(name string) *server {
	for _, s := range w.servers {
		if s.cfg.Name == name {
			return s
		}
	}
	return nil
}

// selectServer shows s's screens in the middle and its events in the
// inspector.
func (w *Window) selectServer(s *server) {
	w.selected = s
	w.middle.Objects = []fyne.CanvasObject{s.pane()}
	w.middle.Refresh()
	w.list.refresh()
	w.inspector.setServer(s.cfg.Name)
	w.updateHARItem()
	if w.reqQueue != nil {
		w.SetRequestCount(w.reqCount) // the queue shows this server's requests
	}
}

// ToggleInspector shows or hides the inspector panel (Ctrl+I). A detached
// inspector is docked back and hidden.
func (w *Window) ToggleInspector() {
	if w.inspWin != nil {
		w.dockInspector()
	}
	w.inspOpen = !w.inspOpen
	if w.inspOpen {
		w.split.Leading = w.center
		w.body.Objects = []fyne.CanvasObject{w.split}
	} else {
		w.body.Objects = []fyne.CanvasObject{w.center}
	}
	w.split.Refresh()
	w.body.Refresh()
	if w.inspOpen {
		w.inspector.placed() // its list laid out anew, at the newest
	}
}

// SetEditProfiles gives the window what Settings → Sampling profiles
// opens (ui/requests' profiles editor, through the queue). UI thread only.
func (w *Window) SetEditProfiles(open func()) { w.editProfiles = open }

// onEditProfiles opens the sampling profiles editor (Settings menu).
func (w *Window) onEditProfiles() {
	if w.editProfiles == nil {
		w.toast("error", "Sampling profiles are not available in this window.")
		return
	}
	w.editProfiles()
}

// onRunAction does the main action of the selected server's screen
// shown (Tools → Run tool, mod+Enter): runs the selected tool, gets the
// selected prompt or reads the selected resource.
//
// Not while a dialog or the palette is open over the window: the
// shortcut reached the screen behind a confirmation and asked it again
// over the first; the dialog is answered first.
func (w *Window) onRunAction() {
	if w.selected == nil || w.selected.screens == nil || w.win.Canvas().Overlays().Top() != nil {
		return
	}
	if act, ready := w.selected.screens.mainAction(); ready {
		act()
	}
}

// inspectEvent opens the inspector on one event (its request and
// response side by side).
func (w *Window) inspectEvent(seq uint64) {
	if !w.inspOpen {
		w.ToggleInspector()
	}
	in := w.inspector
	in.search.SetText("")
	in.onTab("")
	in.onSelect(seq) // its row is selected and in view once listed
}

// SetRequests gives the window the panel of the server's own requests
// waiting for the user (ui/requests' queue). It shows under the server's
// screens while requests wait (see SetRequestCount). UI thread only.
func (w *Window) SetRequests(panel fyne.CanvasObject) {
	w.requests = panel
}

// RequestQueue is what the window asks of the requests panel's queue
// (ui/requests' Queue): to show only one server's requests, and which
// servers have requests waiting.
type RequestQueue interface {
	Filter(server string) int
	Servers() []string
}

// SetRequestQueue lets the window show only the selected server's
// requests in the panel below the screens; another server's waiting
// requests are then a one-line chip that selects that server. UI thread
// only.
func (w *Window) SetRequestQueue(q RequestQueue) {
	w.reqQueue = q
	w.SetRequestCount(w.reqCount)
}

// reqShare is the requests panel's default share of the centre's height:
// at 1024×700 the screen above keeps 300 px and more (at 0.45 it kept
// ~180); the user drags the divider from there.
const reqShare = 0.62

// SetRequestCount shows the requests panel when n requests wait, and hides
// it when none do. UI thread only.
func (w *Window) SetRequestCount(n int) {
	if w.requests == nil {
		return
	}
	// the title says so too, for a window behind others or minimised
	if n > 0 {
		w.win.SetTitle(fmt.Sprintf("%s (%d waiting for you)", w.opts.Title, n))
	} else {
		w.win.SetTitle(w.opts.Title)
	}
	w.reqCount = n
	// the queue takes room below the screens only for requests that are
	// not answered in a running tool's panel, and, with a RequestQueue,
	// only for the selected server's
	mine, inline := n, w.inlineRequests()
	for _, s := range w.servers {
		if s.screens != nil && s.screens.tools != nil {
			s.screens.tools.requestsChanged()
		}
	}
	var chip fyne.CanvasObject
	if w.reqQueue != nil {
		sel := ""
		if w.selected != nil {
			sel = w.selected.cfg.Name
		}
		mine, inline = w.reqQueue.Filter(sel), w.InlineRequests(sel)
		if other := w.otherRequestServer(sel); other != "" && n-mine > 0 {
			chip = w.requestChip(n-mine, other)
		}
	}
	switch {
	case mine-inline > 0:
		if w.reqSplit == nil || !w.showing(w.reqSplit) {
			// a split of its own each time it comes back (its divider
			// where the user left it): the one shown before would keep
			// the screens' old size, a split of the same size is not
			// laid out again
			off := reqShare
			if w.reqSplit != nil {
				off = w.reqSplit.Offset
			}
			w.reqSplit = container.NewVSplit(w.middle, w.requests)
			w.reqSplit.Offset = off
			w.showCenter(w.reqSplit)
		}
	case chip != nil:
		if !w.showing(w.reqChipped) {
			w.reqChipped = container.NewBorder(nil, chip, nil, nil, w.middle)
			w.showCenter(w.reqChipped)
		}
	default:
		w.showCenter(w.middle)
	}
}

// showing reports whether o is what the work area shows.
func (w *Window) showing(o fyne.CanvasObject) bool {
	return o != nil && len(w.center.Objects) == 1 && w.center.Objects[0] == o
}

// showCenter puts o in the work area: the screens, with the requests
// panel below or the line of other servers' requests, or alone. Laid out,
// not refreshed: a container's Refresh refreshes every object beneath it,
// and the GL painter drops their text textures, so each request that came
// or went shaped every text of the screens again (twenty came and went in
// 94 s of a test under -race, most of it in Fyne's text shaping).
func (w *Window) showCenter(o fyne.CanvasObject) {
	if w.showing(o) {
		return
	}
	w.center.Objects = []fyne.CanvasObject{o}
	w.center.Layout.Layout(w.center.Objects, w.center.Size())
	if cv := fyne.CurrentApp().Driver().CanvasForObject(w.center); cv != nil {
		// the frame is due; the texts drawn anew are the queue's own,
		// which changed (or left)
		cv.Refresh(w.requests)
	}
}

// otherRequestServer is the first server other than sel with a request
// waiting that is not answered in its tool's panel, or "".
func (w *Window) otherRequestServer(sel string) string {
	for _, s := range w.reqQueue.Servers() {
		if s != sel && w.server(s) != nil {
			return s
		}
	}
	return ""
}

// requestChip is the line below the screens that says n requests of
// other servers wait and selects server, the first of them.
func (w *Window) requestChip(n int, server string) fyne.CanvasObject {
	if w.reqChip == nil {
		w.reqChip = widget.NewButtonWithIcon("", theme.WarningIcon(), nil)
		w.reqChipRow = container.NewHBox(w.reqChip)
	}
	word := "requests wait"
	if n == 1 {
		word = "request waits"
	}
	if text := fmt.Sprintf("%d %s for you on %s — show", n, word, server); text != w.reqChip.Text {
		w.reqChip.SetText(text)
		w.reqChipRow.Refresh() // its width
	}
	w.reqChip.OnTapped = func() {
		if s := w.server(server); s != nil {
			w.selectServer(s)
		}
	}
	return w.reqChipRow
}

// Toast shows a transient message ("ok" or "error" level). UI thread only.
func (w *Window) Toast(level, msg string) { w.toast(level, msg) }

// toast shows a transient message; level is "ok" or "error".
func (w *Window) toast(level, msg string) { w.toasts.show(level, msg) }

// uiMu serialises the callbacks the window hands to the UI thread. With a
// real driver they all run on the UI thread anyway; with the headless test
// driver fyne.Do runs them on the calling goroutine, so the lock keeps
// tests free of data races.
var uiMu sync.Mutex

// do runs fn on the UI thread (fyne.Do), never at the same time as another
// callback of the window.
func do(fn func()) {
	fyne.Do(func() {
		uiMu.Lock()
		defer uiMu.Unlock()
		fn()
	})
}

// Do runs fn on the UI thread without waiting, never at the same time as
// another callback of the window: other packages' components that live in
// the window (ui/requests' queue) hand work over through it.
func Do(fn func()) { do(fn) }

// Sync runs fn on the UI thread, while no callback of the window is
// touching widgets, and waits for it. Tests and the screenshot script drive
// the window through it; never call it from the UI thread itself.
func Sync(fn func()) {
	fyne.DoAndWait(func() {
		uiMu.Lock()
		defer uiMu.Unlock()
		fn()
	})
}
