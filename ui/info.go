package ui

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"fyne.io/fyne/v2"

	"github.com/spyglass-mcp/spyglass/ui/fit"
)

// infoScreen shows what the handshake negotiated.
type infoScreen struct {
	ss  *serverScreens
	box *fyne.Container
}

func (i *infoScreen) buildUI() fyne.CanvasObject {
	i.box = container.NewVBox()
	return container.NewVScroll(container.NewPadded(i.box))
}

func (i *infoScreen) onRefresh() {
	c := i.ss.conn()
	if c == nil {
		return
	}
	info := c.Info()
	var objs []fyne.CanvasObject
	name := firstNonEmpty(info.Title, info.Name, i.ss.s.cfg.Name)
	h := heading(name)
	h.SizeName = theme.SizeNameSubHeadingText
	head := container.NewHBox()
	if img := iconImage(info.IconURL); img != nil {
		head.Add(img)
	}
	head.Add(h)
	objs = append(objs, head)
	form := widget.NewForm(
		widget.NewFormItem("Protocol version", widget.NewLabel(orDash(info.ProtocolVersion))),
		widget.NewFormItem("Handshake", wrapLabel(handshake(info))),
		widget.NewFormItem("Server name", widget.NewLabel(orDash(info.Name))),
		widget.NewFormItem("Version", widget.NewLabel(orDash(info.Version))),
	)
	if info.Fallback != "" {
		form.Append("Fallback", wrapLabel(info.Fallback))
	}
	objs = append(objs, form)
	if info.Instructions != "" {
		// Plain text, as the spec has it: read as markdown, slow_task
		// became "slow_ task" (each "_" its own text segment).
		instr := wrapLabel(info.Instructions)
		instr.Selectable = true
		objs = append(objs, heading("Instructions"), instr)
	}
	objs = append(objs, heading("Server capabilities"), capabilityView(info.ServerCapabilities))
	objs = append(objs, heading("Client capabilities (what Spyglass advertised)"), capabilityView(info.ClientCapabilities))
	i.box.Objects = objs
	i.box.Refresh()
}

// handshake says which era the connection speaks and through which
// request, and the version first asked for when the server chose another.
func handshake(info ServerInfo) string {
	if info.ProtocolVersion == "" {
		return "-"
	}
	how := "legacy era, via initialize"
	if info.Modern {
		how = "modern era, via server/discover"
	}
	if info.RequestedVersion != "" && info.RequestedVersion != info.ProtocolVersion {
		how += " (asked for " + info.RequestedVersion + ")"
	}
	return how
}

// iconImage shows a server icon given as a data: URI (the usual case) or
// an http(s) URL; nil when there is none.
func iconImage(src string) fyne.CanvasObject {
	var img *canvas.Image
	switch {
	case strings.HasPrefix(src, "data:"):
		meta, data, ok := strings.Cut(strings.TrimPrefix(src, "data:"), ",")
		if !ok || !strings.HasSuffix(meta, ";base64") {
			return nil
		}
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return nil
		}
		img = canvas.NewImageFromReader(bytes.NewReader(b), "icon")
	case strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://"):
		u, err := storage.ParseURI(src)
		if err != nil {
			return nil
		}
		img = canvas.NewImageFromURI(u)
	default:
		return nil
	}
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(32, 32))
	return img
}

// capabilityView shows capabilities as badges with the JSON tree below,
// experimental ones included.
func capabilityView(raw json.RawMessage) fyne.CanvasObject {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return emptyState("none")
	}
	// the badges wrap onto more rows: in a scrolled row they were cut at
	// the pane's edge, under its scroll bar (#12)
	badges := container.New(fit.NewRowWrap())
	for _, k := range slices.Sorted(maps.Keys(m)) {
		level := "primary"
		if k == "experimental" {
			level = "warning"
		}
		label := k
		var sub map[string]any
		if json.Unmarshal(m[k], &sub) == nil && len(sub) > 0 {
			var on []string
			for sk := range sub {
				on = append(on, sk)
			}
			sort.Strings(on)
			label += " (" + strings.Join(on, ", ") + ")"
		}
		badges.Add(newBadge(label, level))
	}
	tree := newJSONTree()
	tree.SetJSON(raw)
	sc := container.NewVScroll(tree.obj)
	sc.SetMinSize(fyne.NewSize(200, 140))
	return container.NewVBox(badges, sc)
}

// logsScreen shows notifications/message with level and text filters, a
// logging/setLevel selector, and stderr lines in their own view.
type logsScreen struct {
	ss     *serverScreens
	all    []logLine
	shown  []logLine
	minLvl int
	filter string
	list   *widget.List
	level  *widget.Select
	show   *widget.Select
	search *widget.Entry
	stderr *widget.List
	tabs   *container.AppTabs // Messages, stderr
	errs   []string
	empty  *widget.Label
	// errsEmpty says why the stderr view is empty
	errsEmpty *widget.Label
	levelSet  string // the level logging/setLevel last set, "" before
	// dirty: messages were added since the last redraw; stale: the
	// history was trimmed and the shown list must be rebuilt.
	dirty, stale bool
	// errsStale: the stderr lines were trimmed, so the rows in view
	// show other lines than before
	errsStale bool
	rowsMade  int // how many rows the two lists made (tests read it)
	// later redraws at most once per redrawInterval however many batches
	// came (the UI thread may run several queued ones back to back);
	// errsDirty: stderr lines were added since.
	later     *coalescer
	errsDirty bool
}

type logLine struct {
	time   time.Time
	level  string
	logger string
	text   string
}

// logLevels are the syslog levels of MCP logging, lowest first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func levelIndex(l string) int {
	for i, x := range logLevels {
		if x == l {
			return i
		}
	}
	return 0
}

func (l *logsScreen) buildUI() fyne.CanvasObject {
	l.later = newCoalescer(l.redraw)
	l.list = widget.NewList(
		func() int { return len(l.shown) },
		l.createLine,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(l.shown) {
				return
			}
			ln := l.shown[i]
			c := o.(*fyne.Container)
			c.Objects[0].(*rowText).SetText(ln.text)
			left := c.Objects[1].(*fyne.Container)
			left.Objects[0].(*rowText).SetText(ln.time.Local().Format("15:04:05.000"))
			left.Objects[1].(*fyne.Container).Objects[0].(*badge).Set(ln.level, levelColor(ln.level))
		})
	l.level = widget.NewSelect(logLevels, l.onSetLevel)
	l.level.PlaceHolder = "Choose…" // the label beside it says what (no wider than "emergency")
	l.show = widget.NewSelect(logLevels, func(s string) {
		l.minLvl = levelIndex(s)
		l.refilter()
	})
	l.show.SetSelectedIndex(0)
	l.search = widget.NewEntry()
	l.search.SetPlaceHolder("Filter messages")
	l.search.OnChanged = func(s string) {
		l.filter = strings.ToLower(s)
		l.refilter()
	}
	l.empty = emptyState(l.emptyText())
	bar := container.NewVBox(
		container.NewHBox(widget.NewLabel("Server level (logging/setLevel)"), l.level),
		container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Show from"), l.show), nil, l.search))
	msgs := container.NewBorder(bar, nil, nil, nil, container.NewStack(l.list, l.empty))
	l.errsEmpty = emptyState(l.noStderrText())
	l.stderr = widget.NewList(
		func() int { return len(l.errs) },
		func() fyne.CanvasObject {
			l.rowsMade++
			t := newRowText("")
			t.monospace, t.cut = true, true
			return t
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(l.errs) {
				o.(*rowText).SetText(l.errs[i])
			}
		})
	l.tabs = container.NewAppTabs(
		container.NewTabItem("Messages", msgs),
		container.NewTabItem("stderr", container.NewStack(l.stderr, container.NewVBox(l.errsEmpty))),
	)
	return l.tabs
}

// createLine makes a row of the messages: its time, level and text, in
// texts that take each new line's words in place (rowtext.go).
func (l *logsScreen) createLine() fyne.CanvasObject {
	l.rowsMade++
	t := newRowText("00:00:00.000")
	t.caption = true
	t.importance = widget.LowImportance
	txt := newRowText("")
	txt.cut = true
	return container.NewBorder(nil, nil, container.NewHBox(t, container.NewCenter(newBadge("", ""))), nil, txt)
}

func levelColor(l string) string {
	switch i := levelIndex(l); {
	case i >= 4:
		return "error"
	case i == 3:
		return "warning"
	case i == 0:
		return ""
	}
	return "primary"
}

// onMessage adds a notifications/message of the server.
func (l *logsScreen) onMessage(n Notification) { l.addLine(logLineOf(n)) }

// logLineOf reads a notifications/message (any goroutine: the batch of
// notifications is read before it goes to the UI thread).
func logLineOf(n Notification) logLine {
	var p struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(n.Params, &p)
	text := string(p.Data)
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		text = s
	}
	if p.Logger != "" {
		text = p.Logger + ": " + text
	}
	return logLine{time: n.Time, level: p.Level, logger: p.Logger, text: text}
}

// maxLogLines bounds the messages (and the stderr lines) the Logs screen
// keeps: beyond it, only the newest keepLogLines stay.
const maxLogLines, keepLogLines = 12000, 10000

// addLine adds a log line (UI thread).
func (l *logsScreen) addLine(ln logLine) {
	l.all = append(l.all, ln)
	if len(l.all) > maxLogLines {
		l.all = append([]logLine(nil), l.all[len(l.all)-keepLogLines:]...)
		l.stale = true
		return
	}
	if l.match(ln) {
		l.shown = append(l.shown, ln)
		l.dirty = true
	}
}

// flush redraws after a batch of messages, within redrawInterval.
func (l *logsScreen) flush() {
	if l.stale || l.dirty {
		l.later.request()
	}
}

// stderrChanged redraws the stderr lines within redrawInterval.
func (l *logsScreen) stderrChanged() {
	l.errsDirty = true
	l.later.request()
}

// redraw shows the messages and stderr lines added since the last redraw.
func (l *logsScreen) redraw() {
	if l.ss.ctx.Err() != nil {
		return
	}
	if l.errsDirty {
		l.errsDirty = false
		l.showErrsEmpty()
		if l.errsStale {
			l.errsStale = false
			l.stderr.Refresh()
			l.stderr.ScrollToBottom()
		} else {
			followAppended(l.stderr)
		}
	}
	switch {
	case l.stale:
		l.stale, l.dirty = false, false
		l.refilter()
		l.list.ScrollToBottom() // the newest stay in view, as below
	case l.dirty:
		l.dirty = false
		followAppended(l.list)
		l.empty.Hide()
	}
}

// emptyText is what the messages view says while it shows none.
func (l *logsScreen) emptyText() string {
	switch {
	case len(l.all) > 0:
		return "No message matches: show from a lower level, or change the filter."
	case l.levelSet != "":
		return "No log messages yet at " + l.levelSet + " or above since the level was set."
	}
	return "No log messages yet. Set a level to ask the server for them."
}

// noStderrText is what the stderr view says while it has no line: a
// stdio server's stderr is read from its first byte; an HTTP server's
// is its own terminal's, not Spyglass's to read.
func (l *logsScreen) noStderrText() string {
	if t := l.ss.s.cfg.Transport; t != "" && t != "stdio" {
		return "An HTTP server writes its stderr where it runs, not to Spyglass: look in the terminal or log of its process."
	}
	return "Nothing on stderr yet. What the server writes there appears here, from its first byte."
}

// showErrsEmpty shows the stderr view's empty state while it has no line.
func (l *logsScreen) showErrsEmpty() {
	if len(l.errs) > 0 {
		l.errsEmpty.Hide()
		return
	}
	l.errsEmpty.SetText(l.noStderrText())
	l.errsEmpty.Show()
}

// onStderr adds a stderr line of the server.
func (l *logsScreen) onStderr(line string) {
	l.errs = append(l.errs, line)
	if len(l.errs) > maxLogLines {
		l.errs = append([]string(nil), l.errs[len(l.errs)-keepLogLines:]...)
		l.errsStale = true
	}
}

// release forgets the messages and stderr lines the screen holds (the
// inspector's Clear).
func (l *logsScreen) release() {
	l.all, l.shown, l.errs = nil, nil, nil
	l.dirty, l.stale = false, false
	l.refilter()
	l.stderr.Refresh()
	l.showErrsEmpty()
}

func (l *logsScreen) match(ln logLine) bool {
	return levelIndex(ln.level) >= l.minLvl && (l.filter == "" || strings.Contains(strings.ToLower(ln.text), l.filter))
}

func (l *logsScreen) refilter() {
	l.shown = l.shown[:0]
	for _, ln := range l.all {
		if l.match(ln) {
			l.shown = append(l.shown, ln)
		}
	}
	if l.list != nil {
		l.list.Refresh()
	}
	if l.empty != nil {
		if len(l.shown) > 0 {
			l.empty.Hide()
		} else {
			l.empty.SetText(l.emptyText())
			l.empty.Show()
		}
	}
}

func (l *logsScreen) onSetLevel(level string) {
	run(l.ss, func(ctx context.Context, c Conn) (struct{}, error) { return struct{}{}, c.SetLogLevel(ctx, level) },
		func(_ struct{}, err error) {
			if err != nil {
				l.ss.s.w.toastErr("error", "logging/setLevel failed", err)
				return
			}
			l.ss.s.w.toast("ok", "Server log level set to "+level)
			l.levelSet = level
			l.refilter() // its empty state says the level
		})
}
