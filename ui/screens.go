package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // decode GIF content
	_ "image/jpeg" // decode JPEG content
	_ "image/png"  // decode PNG content
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/ident"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// opTimeout bounds the list/read operations a screen starts by itself.
const opTimeout = 60 * time.Second

// serverScreens are the screens of one connected server.
type serverScreens struct {
	s         *server
	tools     *toolsScreen
	resources *resourcesScreen
	prompts   *promptsScreen
	tasks     *tasksScreen
	logs      *logsScreen
	info      *infoScreen
	exp       *experimentalScreen
	tester    *testerScreen
	history   *historyScreen
	skills    *skillsScreen
	cache     *cacheTracker // the cache-hint countdowns of the lists and reads
	roots     *requests.RootsPanel
	tabs      *container.AppTabs
	where     *widget.Label // the active screen's name beside the server's
	obj       fyne.CanvasObject
	ctx       context.Context
	cancel    context.CancelFunc

	qmu      sync.Mutex
	pending  []Notification
	flushing bool
	// order is held from taking a batch until it is handed to the UI
	// thread, so batches reach it in the order they came (a test driver
	// runs fyne.Do at once, on the timer's goroutine).
	order sync.Mutex
}

func newServerScreens(s *server) *serverScreens {
	ss := &serverScreens{s: s}
	ss.ctx, ss.cancel = context.WithCancel(context.Background())
	ss.cache = newCacheTracker(ss.ctx)
	ss.tools = &toolsScreen{ss: ss}
	ss.resources = &resourcesScreen{ss: ss}
	ss.prompts = &promptsScreen{ss: ss}
	ss.tasks = &tasksScreen{ss: ss}
	ss.logs = &logsScreen{ss: ss}
	ss.info = &infoScreen{ss: ss}
	ss.exp = &experimentalScreen{ss: ss}
	ss.tester = &testerScreen{ss: ss}
	ss.history = &historyScreen{ss: ss}
	ss.skills = &skillsScreen{ss: ss}
	ss.tabs = container.NewAppTabs(
		container.NewTabItem("Tools", ss.tools.buildUI()),
		container.NewTabItem("Resources", ss.resources.buildUI()),
		container.NewTabItem("Prompts", ss.prompts.buildUI()),
		container.NewTabItem("Skills", ss.skills.buildUI()),
		container.NewTabItem("Tasks", ss.tasks.buildUI()),
		container.NewTabItem("Logs", ss.logs.buildUI()),
		container.NewTabItem("Roots", ss.buildRoots()),
		container.NewTabItem("Server info", ss.info.buildUI()),
		// Experimental Features & Advanced Testing: the experimental
		// capabilities and the JSON-RPC Tester below them, in one scroll.
		container.NewTabItem("Experimental", ss.exp.buildUI()),
		container.NewTabItem("History", ss.history.buildUI()),
	)
	title := heading(s.cfg.Name)
	title.SizeName = theme.SizeNameSubHeadingText
	disc := widget.NewButtonWithIcon("Disconnect", theme.MediaStopIcon(), s.disconnect)
	disc.Importance = widget.LowImportance
	var right fyne.CanvasObject = disc
	if rc := ss.recordedConn(); rc != nil {
		right = ss.recordedMark(rc) // nothing to disconnect
		// its tools do not run: the pane says what selecting one shows
		ss.tools.detail.Objects = []fyne.CanvasObject{emptyState("A recorded session: select a tool to see the calls recorded for it. Nothing runs here; Replay against… sends them to a live server.")}
	}
	// the header names the active screen too: at 1024 px Logs, Roots,
	// Server info, Experimental and History sit behind the tab bar's "…",
	// and Fyne cannot relabel that button, so the bar alone did not say
	// where the user was
	ss.where = widget.NewLabel("› " + ss.tabs.Selected().Text)
	ss.where.SizeName = theme.SizeNameSubHeadingText
	ss.where.Importance = widget.LowImportance
	ss.tabs.OnSelected = func(ti *container.TabItem) {
		ss.where.SetText("› " + ti.Text)
		s.w.updateMenu() // Run tool follows the screen's main action
	}
	ss.obj = container.NewBorder(container.NewBorder(nil, nil, nil, right, container.NewHBox(title, ss.where)), nil, nil, nil, ss.tabs)
	conn := s.conn
	conn.OnNotification(func(n Notification) {
		ss.queue(n)
	})
	return ss
}

// notifyBatch is how long notifications are gathered before the screens
// are redrawn, so that a server flooding them never floods the UI thread.
const notifyBatch = 50 * time.Millisecond

// queue gathers a notification (any goroutine) for the next batch.
func (ss *serverScreens) queue(n Notification) {
	ss.qmu.Lock()
	defer ss.qmu.Unlock()
	ss.pending = append(ss.pending, n)
	if ss.flushing {
		return
	}
	ss.flushing = true
	time.AfterFunc(notifyBatch, func() {
		ss.order.Lock()
		defer ss.order.Unlock()
		ss.qmu.Lock()
		batch := ss.pending
		ss.pending, ss.flushing = nil, false
		ss.qmu.Unlock()
		// the log messages are read here, not on the UI thread
		lines := make([]logLine, len(batch))
		for i, n := range batch {
			if n.Method == "notifications/message" {
				lines[i] = logLineOf(n)
			}
		}
		do(func() {
			if ss.ctx.Err() != nil {
				return
			}
			for i, n := range batch {
				if n.Method == "notifications/message" {
					ss.logs.addLine(lines[i])
				} else {
					ss.onNotification(n)
				}
			}
			ss.logs.flush()
		})
	})
}

// buildRoots is the Roots screen: ui/requests' roots panel for this server.
func (ss *serverScreens) buildRoots() fyne.CanvasObject {
	var rs []requests.Root
	for _, u := range ss.s.cfg.Roots {
		rs = append(rs, requests.Root{URI: u})
	}
	ss.roots = requests.NewRootsPanel(rs, &requests.RootsOptions{Window: ss.s.w.win})
	ss.roots.SetServer(ss.s.cfg.Name)
	name, be, w := ss.s.cfg.Name, ss.s.w.be, ss.s.w
	ss.roots.OnChanged = func(rs []requests.Root) {
		roots := make([]Root, len(rs))
		for i, r := range rs {
			roots[i] = Root{Name: r.Name, URI: r.URI}
		}
		go func() {
			if err := be.SetRoots(name, roots); err != nil {
				do(func() { w.toastErr("error", "Could not change the roots", err) })
			}
		}()
	}
	// scrolled: the panel is a tall column, and the tabs need the height
	// of their tallest screen, which made the window taller than a small
	// screen as soon as the request queue shared the height
	return container.NewVScroll(ss.roots.Object())
}

// load fetches every list once connected.
func (ss *serverScreens) load() {
	ss.info.onRefresh()
	ss.exp.onRefresh()
	ss.tools.onRefresh()
	ss.resources.onRefresh()
	ss.prompts.onRefresh()
	ss.tasks.onRefresh()
	ss.skills.onRefresh()
}

// mainAction is what mod+Enter (Tools → Run tool) does on the screen
// shown: Get prompt on Prompts, Read on Resources, and elsewhere Run of
// the selected tool, as before there were others. ready says whether it
// does something now: an item is selected and its button is not waiting
// for an answer.
func (ss *serverScreens) mainAction() (act func(), ready bool) {
	switch ss.tabs.Selected().Text {
	case "Prompts":
		p := ss.prompts
		return p.onGet, p.cur != nil && !p.getBtn.Disabled()
	case "Resources":
		r := ss.resources
		return r.onRead, r.cur != nil && !r.readBtn.Disabled()
	}
	t := ss.tools
	return t.onRun, t.selected != nil && t.running == nil
}

// focusField gives the focus to f, the first field of a form just shown
// (a tool's arguments, a prompt's, a template's variables), so that what
// the user types next goes into it; nil (no field) leaves the focus
// where it is.
func (ss *serverScreens) focusField(f fyne.Focusable) {
	if f != nil {
		ss.s.w.win.Canvas().Focus(f)
	}
}

func (ss *serverScreens) stop() { ss.cancel() }

// conn is the live connection, or nil once disconnected.
func (ss *serverScreens) conn() Conn {
	if ss.s.screens != ss {
		return nil
	}
	return ss.s.conn
}

// run calls op on a goroutine with a bounded context and hands its result
// to done on the UI thread (unless the server went away meanwhile).
func run[T any](ss *serverScreens, op func(ctx context.Context, c Conn) (T, error), done func(T, error)) {
	c := ss.conn()
	if c == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(ss.ctx, opTimeout)
		defer cancel()
		v, err := op(ctx, c)
		do(func() {
			if ss.ctx.Err() == nil {
				done(v, err)
			}
		})
	}()
}

func (ss *serverScreens) onNotification(n Notification) {
	switch n.Method {
	case "notifications/tools/list_changed":
		ss.tools.onListChanged(n.Time)
	case "notifications/resources/list_changed":
		ss.resources.onListChanged(n.Time)
	case "notifications/prompts/list_changed":
		ss.prompts.onListChanged(n.Time)
	case "notifications/resources/updated":
		ss.resources.onUpdated(n)
	case "notifications/message":
		ss.logs.onMessage(n)
	case "notifications/tasks/status":
		ss.tasks.onRefresh()
	}
}

// page is one page of a list and the cursor of the next.
type page[T any] struct {
	items []T
	next  string
	// asked is when the request for the page started.
	asked time.Time
}

// nextPageButton is the "Load next page" button of a paginated list.
func nextPageButton(load func()) *widget.Button {
	b := widget.NewButtonWithIcon("Load next page", arrowIcon(theme.IconNameMoveDown), load)
	b.Hide()
	return b
}

// listBanner is a list screen's "List updated — Refresh" indicator. It
// shows when the server says its list changed after the list shown was
// asked for. A list_changed read off the wire before the request that
// fetched the list went out is in that list already and leaves no banner:
// server-everything announces its tools right after initialize, before
// the first tools/list, and the banner called a fresh list stale.
type listBanner struct {
	obj *fyne.Container
	// changed is when the newest list_changed was read off the wire.
	changed time.Time
}

// newListBanner is a hidden banner whose Refresh button calls refresh.
func newListBanner(refresh func()) *listBanner {
	b := widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), refresh)
	b.Importance = widget.WarningImportance
	l := widget.NewLabel("List updated")
	c := container.NewHBox(widget.NewIcon(theme.InfoIcon()), l, b)
	c.Hide()
	return &listBanner{obj: c}
}

// listChanged notes a list_changed read at at, and shows the banner.
func (b *listBanner) listChanged(at time.Time) {
	if at.IsZero() {
		at = time.Now()
	}
	if at.After(b.changed) {
		b.changed = at
	}
	b.obj.Show()
}

// listed notes a list whose request started at asked: it holds every
// change announced before then, so the banner goes unless a change came
// after.
func (b *listBanner) listed(asked time.Time) {
	if b.changed.Before(asked) {
		b.obj.Hide()
	}
}

// hide hides the banner (the user asked for the list again).
func (b *listBanner) hide() { b.obj.Hide() }

// visible reports whether the banner shows.
func (b *listBanner) visible() bool { return b.obj.Visible() }

// contentView renders one content block: text (markdown when it reads
// like markdown), images, audio, resource links and embedded resources.
func (ss *serverScreens) contentView(c Content) fyne.CanvasObject {
	w := ss.s.w
	switch c.Type {
	case "text", "":
		return textView(c.FullText(), c.MIMEType)
	case "image":
		return imageView(c, w)
	case "audio":
		info := widget.NewLabel(fmt.Sprintf("Audio · %s · %s", c.MIMEType, sizeText(len(c.Data))))
		return container.NewHBox(widget.NewIcon(theme.MediaMusicIcon()), info, saveButton(w, "audio"+extFor(c.MIMEType), c.Data))
	case "resource_link":
		name := c.Name
		if name == "" {
			name = c.URI
		}
		open := widget.NewButtonWithIcon("Open "+name, theme.DocumentIcon(), func() { ss.openResource(c.URI) })
		open.Importance = widget.LowImportance
		l := widget.NewLabel(c.URI)
		l.Truncation = fyne.TextTruncateEllipsis
		return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), open, l)
	case "resource":
		return ss.resourceView(c, embeddedLabel(c))
	}
	return wrapLabel(fmt.Sprintf("(%s content, which MCP does not define) %s", c.Type, c.Raw))
}

// embeddedLabel names a resource embedded in a tool result or prompt
// message.
func embeddedLabel(c Content) string { return "Embedded resource " + c.URI }

// readLabel names one item of a resources/read result — the resource
// itself, not one embedded in something else: its URI and MIME type
// ("demo://readme · text/markdown").
func readLabel(c Content) string {
	var parts []string
	for _, p := range []string{c.URI, c.MIMEType} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "(no URI)"
	}
	return strings.Join(parts, " · ")
}

// resourceView is a resource's contents under a line naming it: label
// beside a file icon, then the text (a page at a time beyond bigText)
// or the bytes.
func (ss *serverScreens) resourceView(c Content, label string) fyne.CanvasObject {
	// broken only after a separator: the URI's "architecture.md" and
	// "· text/markdown" stay whole (a label's wrap broke the URI inside a
	// word, "architecture.m" then "d")
	name := ident.New(label)
	name.Plain = true
	head := container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), nil, name)
	var body fyne.CanvasObject
	switch {
	case c.Data != nil:
		body = binaryView(c, ss.s.w)
	case c.TextLen() > bigText:
		body = newPagedContent(c).obj
	default:
		body = textView(c.FullText(), c.MIMEType)
	}
	return container.NewVBox(head, body)
}

// openResource reads uri and shows its contents in a dialog.
func (ss *serverScreens) openResource(uri string) {
	run(ss, func(ctx context.Context, c Conn) (ReadResult, error) { return c.ReadResource(ctx, uri) },
		func(r ReadResult, err error) {
			if err != nil {
				ss.s.w.toastErr("error", "Could not read "+uri, err)
				return
			}
			box := container.NewVBox()
			for _, c := range r.Contents {
				box.Add(ss.readContentView(c))
			}
			d := esc.NewCustom(uri, "Close", container.NewVScroll(box), ss.s.w.win)
			d.Resize(fyne.NewSize(640, 480))
			esc.Show(d, ss.s.w.win)
		})
}

// textView shows a text content: JSON (so typed, or a text that is a JSON
// object or array) indented in the monospace text style, as raw JSON is
// everywhere; markdown rendered; other text as a wrapped label.
func textView(text, mime string) fyne.CanvasObject {
	if isJSONText(text, mime) {
		return monoText(prettyJSON([]byte(text)))
	}
	if mime == "text/markdown" || looksLikeMarkdown(text) {
		rt := widget.NewRichTextFromMarkdown(text)
		rt.Segments = joinTextSegments(rt.Segments)
		rt.Wrapping = fyne.TextWrapWord
		return rt
	}
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	return l
}

// joinTextSegments joins each run of inline text segments of one style
// (the lines of a Markdown paragraph: the parser makes a segment of each)
// into one. Fyne 2.7.1 wraps a segment that starts too near the right edge
// for even one letter one letter per row, to the paragraph's end (its
// lineBounds never goes back to the full width): server-everything's
// architecture.md showed a paragraph as a column of letters. Joined, a
// paragraph of plain text wraps as one.
func joinTextSegments(segs []widget.RichTextSegment) []widget.RichTextSegment {
	out := segs[:0:0]
	for _, s := range segs {
		t, ok := s.(*widget.TextSegment)
		if ok && t.Style.Inline && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*widget.TextSegment); ok && prev.Style == t.Style {
				out[len(out)-1] = &widget.TextSegment{Style: prev.Style, Text: prev.Text + t.Text}
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// isJSONText reports whether a text content is JSON: its MIME type says
// so (application/json, …+json), or, up to 200,000 bytes, it is a valid
// JSON object or array (a tool's text result often is, untyped).
func isJSONText(text, mime string) bool {
	mt, _, _ := strings.Cut(mime, ";")
	mt = strings.TrimSpace(mt)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		return true
	}
	t := strings.TrimSpace(text)
	return len(t) < 200000 && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t))
}

func looksLikeMarkdown(s string) bool {
	return strings.HasPrefix(s, "#") || strings.Contains(s, "\n#") || strings.Contains(s, "**") || strings.Contains(s, "```") || strings.Contains(s, "\n- ")
}

func imageView(c Content, w *Window) fyne.CanvasObject {
	img, _, err := image.Decode(bytes.NewReader(c.Data))
	if err != nil {
		return binaryView(c, w)
	}
	ci := canvas.NewImageFromImage(img)
	ci.FillMode = canvas.ImageFillContain
	b := img.Bounds()
	wd, ht := float32(b.Dx()), float32(b.Dy())
	if wd > 360 {
		ht = ht * 360 / wd
		wd = 360
	}
	if ht < 16 {
		ht = 16
	}
	ci.SetMinSize(fyne.NewSize(wd, ht))
	info := widget.NewLabel(fmt.Sprintf("%s · %d×%d · %s", c.MIMEType, b.Dx(), b.Dy(), sizeText(len(c.Data))))
	info.SizeName = theme.SizeNameCaptionText
	return container.NewVBox(container.NewHBox(ci), container.NewHBox(info, saveButton(w, "image"+extFor(c.MIMEType), c.Data)))
}

// binaryView shows bytes as hex with their size, and lets them be saved.
func binaryView(c Content, w *Window) fyne.CanvasObject {
	if strings.HasPrefix(c.MIMEType, "image/") {
		if _, _, err := image.Decode(bytes.NewReader(c.Data)); err == nil {
			return imageView(c, w)
		}
	}
	n := len(c.Data)
	show := c.Data
	if len(show) > 256 {
		show = show[:256]
	}
	var hex strings.Builder
	for i, b := range show {
		if i > 0 && i%16 == 0 {
			hex.WriteByte('\n')
		} else if i > 0 {
			hex.WriteByte(' ')
		}
		fmt.Fprintf(&hex, "%02x", b)
	}
	if n > len(show) {
		hex.WriteString("\n…")
	}
	grid := widget.NewTextGridFromString(hex.String())
	info := widget.NewLabel(fmt.Sprintf("%s · %s", orDash(c.MIMEType), sizeText(n)))
	return container.NewVBox(container.NewHBox(info, saveButton(w, "contents"+extFor(c.MIMEType), c.Data)), grid)
}

// saveButton saves data through the save dialog.
func saveButton(w *Window, name string, data []byte) *widget.Button {
	b := widget.NewButtonWithIcon("Save…", theme.DocumentSaveIcon(), func() {
		w.Save(name, data)
	})
	b.Importance = widget.LowImportance
	return b
}

// Save asks where to save data, suggesting the file name name, and
// writes it there (see saveFile). It is for the UI thread.
func (w *Window) Save(name string, data []byte) {
	w.saveFile(name, func(wr io.Writer) error {
		_, err := wr.Write(data)
		return err
	})
}

// saveFile asks where to save and writes there through write. The
// dialog hands over Fyne's writer on the chosen file; with
// Options.SaveFile the content goes through that instead (a regular file
// replaced atomically, a FIFO or device written in place), and Fyne's
// writer is only closed.
func (w *Window) saveFile(name string, write func(io.Writer) error) {
	done := func(wr fyne.URIWriteCloser, err error) {
		if err != nil {
			w.toastErr("error", "Could not open the file to save", err)
			return
		}
		if wr == nil {
			return // the user cancelled
		}
		path := wr.URI().Path()
		if err = w.writeChosen(path, wr, write); err != nil {
			w.toastErr("error", "Could not save "+path, err)
			return
		}
		w.toast("ok", "Saved "+path)
	}
	if w.opts.SaveDialog != nil {
		w.opts.SaveDialog(name, done)
		return
	}
	d := dialog.NewFileSave(done, w.win)
	d.SetFileName(name)
	d.Resize(fyne.NewSize(800, 560))
	esc.Show(d, w.win)
}

// writeChosen writes the file at path that the dialog opened as wr.
func (w *Window) writeChosen(path string, wr fyne.URIWriteCloser, write func(io.Writer) error) error {
	if w.opts.SaveFile == nil {
		err := write(wr)
		if cerr := wr.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		// closed first: the file is then replaced (Windows cannot rename
		// over a file that is open)
		if err := wr.Close(); err != nil {
			return err
		}
		return w.opts.SaveFile(path, write)
	}
	// a FIFO or device: Fyne's writer stays open until the content is
	// written, so that a reader does not see the end of the stream first
	err := w.opts.SaveFile(path, write)
	if cerr := wr.Close(); err == nil {
		err = cerr
	}
	return err
}

func extFor(mime string) string {
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "audio/wav", "audio/x-wav":
		return ".wav"
	case "audio/mpeg":
		return ".mp3"
	case "application/json":
		return ".json"
	case "text/plain":
		return ".txt"
	}
	return ".bin"
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return plural(n, "byte")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
