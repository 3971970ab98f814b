package ui

import (
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/fit"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// serverList is the left column: one card per catalog server, add and
// import.
type serverList struct {
	w     *Window
	box   *fyne.Container
	cards map[*server]*serverCard
	ro    *widget.Label
	add   *widget.Button
	imp   *widget.Button
}

func newServerList(w *Window) *serverList {
	return &serverList{w: w, box: container.NewVBox(), cards: map[*server]*serverCard{}}
}

func (l *serverList) buildUI() fyne.CanvasObject {
	l.add = widget.NewButtonWithIcon("", theme.ContentAddIcon(), l.onAdd)
	l.imp = widget.NewButtonWithIcon("", theme.ContentPasteIcon(), l.onPasteImport)
	title := heading("Servers")
	l.ro = wrapLabel("")
	l.ro.Importance = widget.LowImportance
	l.ro.Hide()
	if ro, why := l.w.be.ReadOnly(); ro {
		l.add.Hide()
		l.imp.Hide()
		l.ro.SetText("Read-only: " + why)
		l.ro.Show()
	}
	hide := widget.NewButtonWithIcon("", theme.NavigateBackIcon(), l.w.ToggleServerList)
	hide.Importance = widget.LowImportance
	top := container.NewVBox(container.NewBorder(nil, nil, hide, container.NewHBox(l.imp, l.add), title), l.ro)
	hint := wrapLabel("Drop or paste a Claude, Cursor or VS Code config to import it.")
	hint.SizeName = theme.SizeNameCaptionText
	if ro, _ := l.w.be.ReadOnly(); ro {
		hint.Hide()
	}
	return container.NewBorder(top, hint, nil, nil, container.NewVScroll(l.box))
}

// refresh rebuilds the cards from the window's servers.
func (l *serverList) refresh() {
	objs := make([]fyne.CanvasObject, 0, len(l.w.servers))
	seen := map[*server]bool{}
	for _, s := range l.w.servers {
		c := l.cards[s]
		if c == nil {
			c = newServerCard(s)
			l.cards[s] = c
		}
		seen[s] = true
		c.update()
		objs = append(objs, c)
	}
	for s, c := range l.cards {
		if !seen[s] {
			c.cancel.forget()
			c.retry.forget()
			delete(l.cards, s)
		}
	}
	l.box.Objects = objs
	l.box.Refresh()
	l.w.updateMenu() // every change of a server's state or the selection ends here
}

func (l *serverList) onAdd() {
	showServerForm(l.w, "", ServerConfig{Transport: "stdio"})
}

// showNoServer fills the middle when no server is selected (none is
// left, or the catalog has none yet): it names no server, the inspector
// neither, and offers what a newcomer does next, Add server and the
// imports, right there (a read-only catalog says why it has none).
func (w *Window) showNoServer() {
	w.middle.Objects = []fyne.CanvasObject{w.list.noServerPane()}
	w.middle.Refresh()
	w.inspector.setServer("")
	w.updateHARItem()
	w.updateMenu()
	if w.reqQueue != nil {
		w.SetRequestCount(w.reqCount) // no server's requests are the selected one's now
	}
}

// noServerPane is the middle's empty state: no servers yet.
func (l *serverList) noServerPane() fyne.CanvasObject {
	title := heading("No servers yet")
	title.SizeName = theme.SizeNameSubHeadingText
	title.Alignment = fyne.TextAlignCenter
	col := func(objs ...fyne.CanvasObject) fyne.CanvasObject {
		return container.New(fit.NewColumn(480), objs...)
	}
	if ro, why := l.w.be.ReadOnly(); ro {
		return col(title, emptyState("The server file is read-only ("+why+"), so none can be added here."))
	}
	add := widget.NewButtonWithIcon("Add server…", theme.ContentAddIcon(), l.onAdd)
	add.Importance = widget.HighImportance
	file := widget.NewButtonWithIcon("Import a config file…", theme.FolderOpenIcon(), l.onImportFile)
	paste := widget.NewButtonWithIcon("Paste a config", theme.ContentPasteIcon(), l.onPasteImport)
	hint := emptyState("Import takes the servers of a Claude, Cursor or VS Code config (mcp.json); you can also drop the file on the window.")
	return col(title, emptyState("Add a server to connect to it and see its tools, resources and prompts."),
		container.NewCenter(add), container.NewCenter(container.NewHBox(file, paste)), hint)
}

// onImportFile imports a config file the user picks (or opens a trace,
// as a drop does).
func (l *serverList) onImportFile() {
	l.w.pickFile([]string{".json", ".jsonc", TraceExt}, func(u fyne.URI) { l.w.onDropped(fyne.Position{}, []fyne.URI{u}) })
}

// onPasteImport imports a config from the clipboard.
func (l *serverList) onPasteImport() {
	text := fyne.CurrentApp().Clipboard().Content()
	if strings.TrimSpace(text) == "" {
		l.w.toast("error", "The clipboard is empty: copy a Claude, Cursor or VS Code config first.")
		return
	}
	l.w.importConfig([]byte(text), "clipboard")
}

// serverCard is one server in the list.
type serverCard struct {
	widget.BaseWidget
	s       *server
	bg      *canvas.Rectangle
	dot     *statusDot
	name    *widget.Label
	trans   *badge
	summary *tailLabel
	toggle  *widget.Check
	cancel  actionPair
	retry   actionPair
	line    *fyne.Container // the second line: the command, a failure's cause or the sign-in hint
	cause   *widget.Label   // a failure's cause, one line; the whole error is in the centre pane
	oauth   *widget.Label   // "↗ Complete sign-in in your browser", one line
	status  *widget.Label   // beside the toggle: "attempt 2 of 3", "retry 4 of 5", one line
	menu    *widget.Button
	content *fyne.Container
	lastLvl string
	lastPul bool

	nameFit *middleName // fits name to the card's width
}

func newServerCard(s *server) *serverCard {
	c := &serverCard{s: s}
	c.bg = canvas.NewRectangle(color.Transparent)
	c.bg.CornerRadius = 6
	c.bg.StrokeWidth = 1
	c.dot = newStatusDot()
	// the whole name where it fits, else its head and tail around "…"
	// (under the pointer it is drawn smaller, to show more of it)
	c.name = heading(s.cfg.Name)
	c.nameFit = newMiddleName(c.name)
	c.trans = newBadge("", "")
	c.summary = newTailLabel()
	// the connect toggle is labelled with a short word for the state it
	// shows ("☐ Off", "☑ Connected", "☐ Failed"), so a newcomer reads a
	// switch rather than a bare box, and the command's end keeps the
	// rest of its line (at 1024 wide "Disconnected" left it "…rver")
	c.toggle = widget.NewCheck("Off", nil)
	c.cancel = newActionPair("Cancel", theme.CancelIcon(), s.onCancel)
	c.retry = newActionPair("Retry", theme.ViewRefreshIcon(), func() { c.selectThen(s.onRetry) })
	// a failed card says its cause in its second line and offers Retry;
	// the whole error, Edit, Show full error and the guide are in the
	// centre pane, not repeated here
	c.cause = oneLine(widget.NewLabel(""))
	c.cause.Importance = widget.DangerImportance
	c.oauth = oneLine(widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Italic: true}))
	c.status = oneLine(widget.NewLabel(""))
	c.menu = widget.NewButtonWithIcon("", theme.MoreVerticalIcon(), c.onMenu)
	c.menu.Importance = widget.LowImportance

	// three lines, whatever the state, so that a card that connects or
	// fails does not move the cards below it under the pointer (#12):
	// the name and the menu; the transport and the end of the command
	// line or URL (a failure's cause, or the sign-in hint, in its place);
	// the toggle with the state's word, a count of attempts, and Cancel
	// or Retry at the right end, where nothing else is.
	head := container.NewBorder(nil, nil, c.dot, c.menu, c.nameFit)
	c.line = container.NewStack(c.summary, c.cause, c.oauth)
	line := container.New(fit.NewSnug(), container.NewBorder(nil, nil, container.NewCenter(c.trans), nil, c.line))
	controls := newControlsRow(c.toggle, c.status,
		container.NewStack(c.cancel.full, c.retry.full), container.NewStack(c.cancel.icon, c.retry.icon))
	c.content = container.NewVBox(head, line, controls)
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer implements fyne.Widget.
func (c *serverCard) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(c.bg, container.NewPadded(c.content)))
}

// Tapped selects the server.
func (c *serverCard) Tapped(*fyne.PointEvent) {
	c.s.w.selectServer(c.s)
}

// onToggle connects or disconnects the card's server and selects it, so
// its screens show what the toggle did (the connection's progress, its
// tools, or why it failed): a click on a card's control is a click on
// the card.
func (c *serverCard) onToggle(on bool) {
	c.selectThen(func() { c.s.onToggle(on) })
}

// selectThen selects the card's server, when it is not the selected one,
// and runs fn.
func (c *serverCard) selectThen(fn func()) {
	if c.s.w.selected != c.s {
		c.s.w.selectServer(c.s)
	}
	fn()
}

// update shows the server's current state.
func (c *serverCard) update() {
	s := c.s
	c.nameFit.SetFull(s.cfg.Name)
	names := make([]string, len(s.w.servers))
	for i, o := range s.w.servers {
		names[i] = o.cfg.Name
	}
	c.nameFit.SetSiblings(names)
	t := s.cfg.Transport
	if t == "" {
		t = "stdio"
	}
	// stdio is the usual case and its command says so; the badge is
	// for the others, and the command's end keeps the room
	if t == "stdio" {
		c.trans.Set("", "")
	} else {
		c.trans.Set(t, "primary")
	}
	c.summary.SetFull(s.cfg.CardSummary())
	st := s.state.State
	c.toggle.OnChanged = nil
	recorded := s.cfg.Recorded != "" // a trace opened in the window: nothing connects
	c.toggle.SetChecked(!recorded && (st == StateConnected || st == StateConnecting || st == StateAuthorizing))
	c.toggle.OnChanged = c.onToggle

	level, pulse := "gray", false
	txt, status := "Off", ""
	switch st {
	case StateConnecting:
		level, pulse, txt = "yellow", true, "Connecting…"
		if s.attempt > 1 {
			status = "attempt " + itoa(s.attempt) + " of " + itoa(s.w.opts.ConnectAttempts)
		}
	case StateAuthorizing:
		level, pulse, txt = "yellow", true, "Signing in…"
	case StateConnected:
		level, txt = "green", "Connected"
	case StateFailed:
		level, txt = "red", "Failed"
	}
	if recorded { // its screens show what was recorded, not a live connection
		level, pulse, txt, status = "primary", false, "Recorded", ""
	}
	if level != c.lastLvl || pulse != c.lastPul {
		c.dot.Set(level, pulse)
		c.lastLvl, c.lastPul = level, pulse
	}
	if recorded {
		c.toggle.Disable()
	}
	c.toggle.Text = txt
	c.toggle.Refresh()
	cancel := st == StateConnecting || st == StateAuthorizing || s.retrying
	c.cancel.show(cancel)
	c.retry.show(st == StateFailed && !cancel)
	if s.retrying { // the centre pane words it whole: "Retry attempt 2 of 3"
		status = "retry " + itoa(s.attempt+1) + " of " + itoa(s.w.opts.ConnectAttempts)
	}
	if st == StateDisconnected && s.cfg.OAuth && !recorded {
		status = "signs in when connecting"
	}
	c.status.SetText(status)
	// the second line: the command, else what the user should know first
	switch {
	case st == StateFailed && s.state.Err != nil:
		c.cause.SetText(s.causeText())
		c.showLine(c.cause)
	case st == StateAuthorizing:
		if si := s.state.SignIn; si != nil {
			c.oauth.SetText("↗ Complete sign-in in your browser (waits up to " + si.waitText() + ")")
		} else {
			c.oauth.SetText("↗ Complete sign-in in your browser")
		}
		c.showLine(c.oauth)
	default:
		c.showLine(c.summary)
	}
	selected := s.w.selected == s
	if selected {
		c.bg.FillColor = theme.Color(theme.ColorNameSelection)
		c.bg.StrokeColor = theme.Color(theme.ColorNamePrimary)
	} else {
		c.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
		c.bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	}
	c.bg.Refresh()
}

// showLine shows o alone in the card's second line.
func (c *serverCard) showLine(o fyne.CanvasObject) {
	for _, x := range c.line.Objects {
		setVisible(x, x == o)
	}
}

func (c *serverCard) onEdit() { c.s.onEdit() }

func (c *serverCard) onMenu() {
	w := c.s.w
	ro, _ := w.be.ReadOnly()
	items := []*fyne.MenuItem{
		fyne.NewMenuItem("Edit…", c.onEdit),
		fyne.NewMenuItem("Duplicate", c.onDuplicate),
		fyne.NewMenuItem("Remove…", c.onRemove),
	}
	if ro {
		for _, it := range items {
			it.Disabled = true
		}
	}
	if _, ok := w.be.(OAuthClearer); ok && c.s.cfg.Transport != "stdio" {
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Clear OAuth state", c.onClearOAuth))
	}
	if _, ok := w.be.(Tapper); ok {
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Tap this server in…", c.onTapIn))
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(c.menu)
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), w.win.Canvas(), pos.Add(fyne.NewPos(0, c.menu.Size().Height)))
}

func (c *serverCard) onDuplicate() {
	w := c.s.w
	cfg := c.s.cfg
	base := cfg.Name + " copy"
	name := base
	for i := 2; w.server(name) != nil; i++ {
		name = base + " " + itoa(i)
	}
	cfg.Name = name
	if err := w.be.SaveServer("", cfg); err != nil {
		w.toastErr("error", "Could not duplicate "+c.s.cfg.Name, err)
		return
	}
	w.reloadServers()
	w.toast("ok", "Added "+name)
}

func (c *serverCard) onRemove() {
	w := c.s.w
	name := c.s.cfg.Name
	esc.Show(esc.NewConfirm("Remove "+name+"?", "The server is removed from the catalog file (Undo brings it back).", "Remove", func(ok bool) {
		if ok {
			w.removeServer(name)
		}
	}, w.win), w.win)
}

// onClearOAuth forgets the server's sign-in (card menu, Servers menu).
func (c *serverCard) onClearOAuth() {
	if c.s.cfg.Transport == "stdio" {
		c.s.w.toast("error", c.s.cfg.Name+" is a stdio server: it has no OAuth state.")
		return
	}
	c.s.w.clearOAuth(c.s.cfg.Name)
}

// undoLife is how long "Removed NAME — Undo" stays.
const undoLife = 10 * time.Second

// removeServer deletes a server from the catalog. Undo puts it back as
// it was: connected again when it was connected (or connecting).
func (w *Window) removeServer(name string) {
	wasOn := false
	if s := w.server(name); s != nil {
		st := s.state.State
		wasOn = st == StateConnected || st == StateConnecting || st == StateAuthorizing || s.retrying
		s.disconnect()
	}
	if err := w.be.RemoveServer(name); err != nil {
		w.toastErr("error", "Could not remove "+name, err)
		return
	}
	if w.selected != nil && w.selected.cfg.Name == name {
		w.selected = nil
	}
	view := w.inspector.takeView(name) // its search and filter, for Undo
	w.reloadServers()
	r, ok := w.be.(ServerRestorer)
	if !ok {
		w.toast("ok", "Removed "+name)
		return
	}
	w.toasts.showAction("ok", "Removed "+name, "Undo", undoLife, func() {
		if err := r.RestoreServer(name); err != nil {
			w.toastErr("error", "Could not put "+name+" back", err)
			return
		}
		w.inspector.putView(name, view)
		w.reloadServers()
		s := w.server(name)
		if s == nil {
			w.toast("ok", "Restored "+name)
			return
		}
		w.selectServer(s)
		if !wasOn {
			w.toast("ok", "Restored "+name)
			return
		}
		w.toast("ok", "Restored "+name+"; connecting to it again, as it was")
		s.onConnect()
	})
}

// onDropped imports dropped config files; dropped folders become roots
// of the selected server.
func (w *Window) onDropped(_ fyne.Position, uris []fyne.URI) {
	folders, files := requests.SplitFolders(uris)
	if len(folders) > 0 {
		if w.selected != nil && w.selected.screens != nil {
			w.selected.screens.roots.OnDropped(folders)
			_ = w.ShowScreenNow("Roots")
		} else {
			w.toast("error", "Connect to a server first: dropped folders become its roots.")
		}
	}
	for _, u := range files {
		r, err := storageReader(u)
		if err != nil {
			w.toastErr("error", "Could not read "+u.Name(), err)
			continue
		}
		if IsTrace(u.Name(), r) {
			w.OpenTrace(u.Path())
			continue
		}
		w.importConfig(r, u.Path())
	}
}

// importConfig merges another client's config into the catalog.
func (w *Window) importConfig(data []byte, source string) {
	if ro, why := w.be.ReadOnly(); ro {
		w.toast("error", "Import is off: "+why)
		return
	}
	added, skipped, err := w.be.Import(data, source)
	if err != nil {
		w.toastErr("error", "Could not import "+source, err)
		return
	}
	w.reloadServers()
	msg := "Imported " + plural(len(added), "server")
	if len(added) > 0 {
		msg += ": " + strings.Join(added, ", ")
	}
	if len(skipped) > 0 {
		msg += ". Skipped (name exists): " + strings.Join(skipped, ", ")
	}
	w.toast("ok", msg)
}

// oneLine makes l a caption-sized line that ends in "…" where it is cut,
// so that what it says never changes the height of what holds it.
func oneLine(l *widget.Label) *widget.Label {
	l.SizeName = theme.SizeNameCaptionText
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}
