package ui

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/events"
)

// rowCacheSize bounds the events the inspector holds: the rows on screen
// (and the newest), read from the source by Seq; everything else stays in
// core's log, which holds the one copy.
const rowCacheSize = 512

// searchDelay is how long the search box waits after a keystroke before
// it searches (typing a new query cancels the search under way).
const searchDelay = 150 * time.Millisecond

// inspectorTabs are the inspector's filters: label and category.
var inspectorTabs = []struct{ label, cat string }{
	{"All", ""}, {"LLM", "llm"}, {"Tools", "tools"}, {"RPC", "rpc"}, {"Logs", "logs"},
}

// inspector is the right panel: the live event list of the selected
// server, with tabs, search, details, counters, pause, clear and download.
type inspector struct {
	w     *Window
	src   EventSource
	unsub func()
	// The list model: the sequence numbers of the rows shown, oldest
	// first. shown holds what the search under way (or done) found, up
	// to searchLast; tail the visible events that arrived in batches
	// since. The rows are tail's entries after shown's last, so a row is
	// never shown twice while a search catches up.
	shown      []uint64
	tail       []uint64
	searchLast uint64
	searchGen  int
	searching  bool
	stopSearch context.CancelFunc
	debounce   *time.Timer
	cache      map[uint64]EventView // rows read lately, at most rowCacheSize
	// per connection: its last Seq, its tool attempts and listen-related
	// events (by Seq), its runs' events (by Seq), its counters since its
	// clear
	lastOf  map[string]uint64
	tools   map[string][]uint64
	listen  map[string][]uint64
	runs    map[string][]uint64 // by server + "\x00" + run
	statsOf map[string]*events.Stats
	// lastCall is the Seq of the connection's newest tools/call,
	// prompts/get or resources/read, what Tools → Save last call and
	// Protocol matrix take (hasCall)
	lastCall map[string]uint64
	loaded   uint64 // the newest Seq read when the inspector was built

	server string
	tab    string
	query  string
	// views is each server's own search as typed and filter tab, put
	// back when the server is selected again: carried over to another
	// server they left its list empty or filtered with no word why. Kept
	// as they change (onSearch, onTab), so that a rename or a removal
	// can move them at any time (renameServer, takeView).
	views   map[string]serverView
	paused  bool
	pending []EventBatch
	cleared map[string]uint64 // per connection: events up to this Seq are cleared
	dropped uint64
	stats   events.Stats // of conn since its clear

	// later redraws the list at most once per redrawInterval
	later *coalescer

	// rounds groups multi round-trip requests (the "round 2/3" of rows)
	rounds events.Rounds

	tabBtns  []*widget.Button
	search   *widget.Entry
	list     *widget.List
	counters *widget.Label
	pauseBtn *widget.Button  // pause.full, which tests tap
	pause    actionPair      // Pause/Resume with its word and as an icon
	head     *fyne.Container // the header row: title, actions with words, icons
	empty    *widget.Label
	detail   *eventDetail
	lane     *listenLane // the subscriptions/listen streams (listenlane.go)
	split    *container.Split
	selSeq   uint64
	// reveal: the list is to bring the event open (selSeq) into view
	// and select its row once it lists it (a search under way may not
	// have found it yet): the details opened from the Tools screen's
	// "Request and response" left the list at its top, the event out of
	// view (revealSelected)
	reveal bool
	// drawn is what the list's rows were at its last redraw, and
	// rowsStale says an event of a row that may be in view changed since
	// (its answer came, a later round renamed it): listChanged redraws
	// only the new rows when nothing else changed (grewOnly)
	drawn     drawnRows
	rowsStale bool
	rowH      float32 // a row's height (rowHeight)
	rowsMade  int     // how many rows createRow made (tests read it)
	obj       fyne.CanvasObject
	// entered is what the user typed for a tools/call, by its request
	// event (the Arguments tab; see attempts.go).
	entered map[uint64]*enteredArgs
	// openRequest opens a pending server request in its dialog (the
	// request queue's OpenModal; see SetRequestOpener).
	openRequest func(server, id string) bool
}

func newInspector(w *Window, src EventSource) *inspector {
	return &inspector{w: w, src: src, cleared: map[string]uint64{}, cache: map[uint64]EventView{},
		lastOf: map[string]uint64{}, tools: map[string][]uint64{}, listen: map[string][]uint64{},
		runs: map[string][]uint64{}, statsOf: map[string]*events.Stats{}, views: map[string]serverView{},
		lastCall: map[string]uint64{}}
}

// isCall reports whether e is a call of ours that the Tools menu's "last
// call" items can take: a tools/call, prompts/get or resources/read sent.
func isCall(e EventView) bool {
	return e.Kind == "message" && e.Dir == "out" && e.Type == "request" &&
		(e.Method == "tools/call" || e.Method == "prompts/get" || e.Method == "resources/read")
}

// hasCall reports whether server made a call since its last Clear.
func (in *inspector) hasCall(server string) bool {
	return in.lastCall[server] > in.cleared[server]
}

func (in *inspector) buildUI() fyne.CanvasObject {
	in.later = newCoalescer(func() {
		in.updateCounters()
		if !in.paused {
			in.listChanged()
		}
	})
	in.makeWidgets()
	in.unsub = in.src.Subscribe(func(b EventBatch) {
		do(func() { in.onBatch(b) })
	})
	// What was recorded before: counted and indexed page by page (the
	// rows come from the search refilter starts).
	for seq := uint64(0); ; {
		evs, _ := in.src.After(seq, 10000)
		if len(evs) == 0 {
			break
		}
		for _, e := range evs {
			in.note(e)
		}
		seq = evs[len(evs)-1].Seq
		in.loaded = seq
	}
	in.refilter()
	return in.obj
}

// makeWidgets makes the inspector's widgets (in.obj and what it holds);
// the events, their indexes and the view (server, tab, search, pause,
// the event open) are the inspector's own and outlive them (rebuild).
func (in *inspector) makeWidgets() {
	title := heading("Inspector")
	in.counters = widget.NewLabel("")
	in.counters.SizeName = theme.SizeNameCaptionText
	// cut, never wider than the inspector: a longer count ("12 of 340
	// events · paused, 8 buffered") must not widen the panel and move
	// the buttons
	in.counters.Truncation = fyne.TextTruncateEllipsis
	in.pause = newActionPair("Pause", theme.MediaPauseIcon(), in.onPause)
	in.pauseBtn = in.pause.full
	in.tabBtns = nil
	clear := newActionPair("Clear", theme.DeleteIcon(), in.onClear)
	dl := newActionPair("Trace", theme.DownloadIcon(), in.onDownload)
	tabs := container.NewHBox()
	for _, t := range inspectorTabs {
		cat := t.cat
		b := widget.NewButton(t.label, func() { in.onTab(cat) })
		in.tabBtns = append(in.tabBtns, b)
		tabs.Add(b)
	}
	in.search = widget.NewEntry()
	in.search.SetPlaceHolder("Search titles and payloads")
	in.search.OnChanged = in.onSearch
	in.list = widget.NewList(
		in.rows,
		in.createRow,
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if e, ok := in.event(in.rowSeq(id)); ok {
				if e.Title == "" {
					e.Heading()
					in.update(e) // the title is made once, for the rows drawn
				}
				// one call, not unrelated requests: "round 2/3 · …"
				updateRow(o, e, in.rounds.Label(&e.Event))
			}
		})
	in.list.OnSelected = func(id widget.ListItemID) {
		// not again for the row revealSelected selects: its event is open
		if seq := in.rowSeq(id); seq != 0 && seq != in.selSeq {
			in.onSelect(seq)
		}
	}
	in.empty = emptyState("No events yet. Connect to a server and they stream in here.")
	in.detail = newEventDetail(in)
	in.lane = newListenLane(in)
	listArea := container.New(&keepInView{in: in}, in.list, in.empty)
	in.split = container.NewVSplit(listArea, in.detail.obj)
	in.split.Offset = 1
	in.detail.obj.Hide()

	in.head = newHeadRow(title, container.NewHBox(in.pauseBtn, clear.full, dl.full),
		container.NewHBox(in.pause.icon, clear.icon, dl.icon))
	header := container.NewVBox(
		in.head,
		in.counters,
		tabs,
		in.search,
		in.lane.obj,
	)
	in.obj = container.NewBorder(header, nil, nil, nil, in.split)
	in.styleTabs()
}

// rebuild makes the inspector's widgets anew for another window (View →
// Detach inspector, and docking it back) and shows in them what the old
// ones showed: the search as typed, the tab, Pause or Resume, the rows,
// the event open with its tab and the divider above it, the listen lane
// open or closed. Moving the same objects to the other window drew a
// main-window text as a black bar: Fyne keys its GL textures by object
// alone, so the main window freed, in its own GL context, the number the
// other window had given a moved image, a number its own live text had
// (DESIGN.md).
func (in *inspector) rebuild() fyne.CanvasObject {
	sel, off := in.selSeq, in.split.Offset
	tab := in.detail.tabs.SelectedIndex()
	laneOpen := in.lane.item.Open
	typed := in.search.Text
	in.makeWidgets()
	on := in.search.OnChanged
	in.search.OnChanged = nil // not a keystroke: the rows are found already
	in.search.SetText(typed)
	in.search.OnChanged = on
	if in.paused {
		in.pause.set("Resume", theme.MediaPlayIcon())
	}
	if laneOpen {
		in.lane.obj.Open(0)
	}
	in.drawn, in.rowH = drawnRows{}, 0
	in.selSeq = 0
	in.listChanged()
	if sel != 0 {
		in.onSelect(sel)
		in.split.SetOffset(off)
		if tab >= 0 && tab < len(in.detail.tabs.Items) {
			in.detail.tabs.SelectIndex(tab)
		}
	}
	return in.obj
}

// placed scrolls a rebuilt inspector's list once its window has laid it
// out (a list not yet sized scrolls nowhere): to the event open, else to
// the newest rows.
func (in *inspector) placed() {
	if in.selSeq != 0 {
		in.reveal = true
		in.revealSelected()
		return
	}
	in.follow()
}

func (in *inspector) stop() {
	if in.unsub != nil {
		in.unsub()
		in.unsub = nil
	}
	if in.debounce != nil {
		in.debounce.Stop()
	}
	if in.stopSearch != nil {
		in.stopSearch()
		in.stopSearch = nil
	}
	in.searchGen++ // results still on their way are dropped
}

func (in *inspector) createRow() fyne.CanvasObject {
	in.rowsMade++
	// texts that take each new event's words in place (rowtext.go)
	dir := newRowText("→")
	dir.monospace = true
	title := newRowText("title")
	title.cut = true
	b := newBadge("", "")
	tm := newRowText("00:00:00.000")
	tm.caption = true
	return container.New(&eventRow{}, title, dir, b, tm) // inspector_row.go
}

// updateRow shows e in row o; round is the "round 2/3" of a multi
// round-trip request ("" for none).
func updateRow(o fyne.CanvasObject, e EventView, round string) {
	c := o.(*fyne.Container)
	title, dir, b, tm := rowParts(c.Objects)
	r := c.Layout.(*eventRow)
	r.titles = rowTitles(e, round)
	text, level := e.Badge, e.BadgeLevel
	if e.Attempt != nil {
		if t, l := e.Attempt.Label(); t != "" {
			text, level = t, l
		}
	}
	title.SetImportance(rowImportance(e))
	dir.SetText(dirArrow(e))
	b.Set(text, level)
	tm.SetText(e.Time.Local().Format("15:04:05.000"))
	r.Layout(c.Objects, c.Size()) // the title's words for this event at this width
}

// rowImportance is how an event's title is drawn: red (danger) for a
// failure of any kind (EventView.IsError: an error response, an attempt
// that failed, a tools/call result that says isError), yellow for a
// warning or an attempt's warning (outcome unknown, may have run twice),
// plain otherwise. The History's rows follow it too.
func rowImportance(e EventView) widget.Importance {
	switch {
	case e.IsError():
		return widget.DangerImportance
	case e.Kind == "warning":
		return widget.WarningImportance
	case e.Attempt != nil:
		if t, l := e.Attempt.Label(); t != "" && l == "warning" {
			return widget.WarningImportance
		}
	}
	return widget.MediumImportance
}

// setText sets a label's text unless it shows that already: a list row
// that shows the same event again is not laid out and shaped again.
func setText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
}

func dirArrow(e EventView) string {
	switch e.Dir {
	case "out":
		return "→"
	case "in":
		return "←"
	}
	return "•"
}

// onBatch takes new and updated events (UI thread).
func (in *inspector) onBatch(b EventBatch) {
	touched := map[*logsScreen]bool{}
	for _, e := range b.Events {
		if e.Kind == "stderr" {
			if s := in.w.server(e.Server); s != nil {
				if l := s.onStderr(e.Text); l != nil {
					touched[l] = true
				}
			}
		}
	}
	for l := range touched {
		l.stderrChanged()
	}
	if in.paused {
		in.pending = append(in.pending, b)
	} else {
		in.apply(b)
	}
	// The counters and the list redraw together, once per interval
	// however many batches (coalesce.go); while events come now and then
	// the counters change at once.
	if !in.later.streaming() {
		in.updateCounters()
	}
	in.later.request()
	if in.paused {
		return
	}
	if in.selSeq != 0 {
		for _, u := range b.Updated {
			if u.Seq == in.selSeq || u.Pair == in.selSeq {
				in.detail.show(in.selSeq)
				break
			}
		}
		for _, e := range b.Events { // an attempt of the call shown ended
			if id := callID(e); e.Kind == "tool" && id != "" && id == callID(in.detail.cur) {
				in.detail.show(in.selSeq)
				break
			}
		}
	}
}

func (in *inspector) apply(b EventBatch) {
	in.dropped += b.Dropped
	for _, e := range b.Events {
		if e.Seq <= in.loaded {
			in.update(e) // recorded before the inspector was built
			continue
		}
		in.note(e)
		if in.visible(e) {
			in.cacheRow(e)
			in.tail = append(in.tail, e.Seq)
		}
	}
	for _, e := range b.Updated {
		in.update(e)
		in.staleIfNear(e.Seq)
	}
}

// staleIfNear marks the rows stale when the row of seq is, or is about
// to be, among those in view while the list follows the newest: within a
// view's height of rows of the end of what was drawn.
func (in *inspector) staleIfNear(seq uint64) {
	if in.rowsStale || in.drawn.rows == 0 {
		return
	}
	near := int(in.list.Size().Height/(in.rowHeight()+theme.Padding())) + 2
	if r := in.rowOf(seq); r >= 0 && r >= in.drawn.rows-near {
		in.rowsStale = true
	}
}

// note takes one new event into the inspector's indexes: counters,
// multi round-trip requests, tool attempts, listen streams and runs.
func (in *inspector) note(e EventView) {
	in.lastOf[e.Server] = max(in.lastOf[e.Server], e.Seq)
	if isCall(e) {
		first := !in.hasCall(e.Server)
		in.lastCall[e.Server] = e.Seq
		if first {
			in.w.updateMenu() // Save last call and Protocol matrix have one now
		}
	}
	in.rounds.Add(&e.Event)
	if in.rounds.Label(&e.Event) != "" {
		in.rowsStale = true // "round 2/3": the rows before it read "…/2"
	}
	if e.Seq > in.cleared[e.Server] {
		st := in.statsOf[e.Server]
		if st == nil {
			st = &events.Stats{}
			in.statsOf[e.Server] = st
		}
		st.Add(&e.Event)
		if e.Server == in.server {
			in.stats = *st
		}
	}
	if e.Kind == "tool" {
		in.tools[e.Server] = append(in.tools[e.Server], e.Seq)
	}
	if listenRelated(e.Event) {
		in.listen[e.Server] = append(in.listen[e.Server], e.Seq)
	}
	if e.Run != "" {
		k := e.Server + "\x00" + e.Run
		in.runs[k] = append(in.runs[k], e.Seq)
	}
}

// update replaces a row read before with its new version.
func (in *inspector) update(e EventView) {
	if _, ok := in.cache[e.Seq]; ok {
		in.cache[e.Seq] = e
	}
}

// cacheRow keeps e for the rows on screen, forgetting the others when
// the cache is full.
func (in *inspector) cacheRow(e EventView) {
	if len(in.cache) >= rowCacheSize {
		clear(in.cache)
	}
	in.cache[e.Seq] = e
}

// rows is how many rows the list shows.
func (in *inspector) rows() int { return len(in.shown) + len(in.tail) - in.tailSkip() }

// tailSkip is how many of tail's first entries the search has found too.
func (in *inspector) tailSkip() int {
	if len(in.shown) == 0 || len(in.tail) == 0 {
		return 0
	}
	last := in.shown[len(in.shown)-1]
	return sort.Search(len(in.tail), func(i int) bool { return in.tail[i] > last })
}

// rowSeq is the Seq of row id (0 if there is none).
func (in *inspector) rowSeq(id int) uint64 {
	if id < 0 {
		return 0
	}
	if id < len(in.shown) {
		return in.shown[id]
	}
	if id -= len(in.shown) - in.tailSkip(); id < len(in.tail) {
		return in.tail[id]
	}
	return 0
}

// rowOf is the row showing seq, or -1.
func (in *inspector) rowOf(seq uint64) int {
	if i, ok := slices.BinarySearch(in.shown, seq); ok {
		return i
	}
	skip := in.tailSkip()
	if i, ok := slices.BinarySearch(in.tail[skip:], seq); ok {
		return len(in.shown) + i
	}
	return -1
}

// counted reports whether e is of the connection shown and after its
// clear.
func (in *inspector) counted(e EventView) bool {
	return e.Server == in.server && e.Seq > in.cleared[e.Server]
}

// visible reports whether e passes the connection, tab, clear and search
// filters.
func (in *inspector) visible(e EventView) bool {
	if !in.counted(e) {
		return false
	}
	if in.tab != "" {
		ok := false
		for _, c := range e.Categories {
			if c == in.tab {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return events.Match(e.Event, in.query)
}

// refilter shows the rows of the current server, tab, clear and query
// afresh: core's log is searched on a goroutine (the one before is
// cancelled) and the rows it finds are added in batches on the UI thread
// as they come, while new events keep arriving at the end.
func (in *inspector) refilter() {
	if in.stopSearch != nil {
		in.stopSearch()
		in.stopSearch = nil
	}
	in.searchGen++
	gen := in.searchGen
	in.shown, in.tail, in.searchLast = nil, nil, 0
	in.list.UnselectAll()
	in.reveal = in.selSeq != 0 // the event open, once the search finds it
	in.searching = in.server != ""
	if in.searching {
		ctx, cancel := context.WithCancel(context.Background())
		in.stopSearch = cancel
		q := EventQuery{Text: in.query, Server: in.server, Category: in.tab, After: in.cleared[in.server]}
		go func() {
			last, err := in.src.Search(ctx, q, func(seqs []uint64) {
				found := slices.Clone(seqs)
				do(func() {
					if gen == in.searchGen {
						in.shown = append(in.shown, found...)
						in.listChanged()
					}
				})
			})
			do(func() {
				if gen != in.searchGen || err != nil {
					return
				}
				in.searching, in.stopSearch = false, nil
				in.searchLast = last
				// What arrived in batches and the search found too.
				i := sort.Search(len(in.tail), func(i int) bool { return in.tail[i] > last })
				in.tail = in.tail[i:]
				in.listChanged()
			})
		}()
	}
	in.listChanged()
	in.updateCounters()
}

// listChanged redraws the list after rows came or went, and the count of
// the rows listed.
func (in *inspector) listChanged() {
	if in.grewOnly() {
		// follow brings the new rows in, drawn in the rows Fyne's list
		// keeps for reuse. A Refresh would draw every row again in rows
		// made anew: it drops that pool, and makes one more row to
		// measure. In a flood, four redraws a second made some hundred
		// rows a second, whose renderers Fyne's cache keeps for a
		// minute: 56–75 MB of heap after a 60 s flood and its Clear (#17).
		in.follow()
		in.noteDrawn()
		in.updateEmpty()
		in.updateCounters()
		return
	}
	in.list.Refresh()
	in.noteDrawn()
	if in.reveal {
		in.revealSelected()
	} else {
		in.follow()
	}
	in.updateEmpty()
	in.updateCounters()
}

// drawnRows is what a redraw of the list showed: how many rows, the
// Seq of the first and of the last.
type drawnRows struct {
	rows        int
	first, last uint64
}

// noteDrawn records what the list shows now.
func (in *inspector) noteDrawn() {
	n := in.rows()
	in.drawn = drawnRows{rows: n, first: in.rowSeq(0), last: in.rowSeq(n - 1)}
	in.rowsStale = false
}

// grewOnly reports whether the rows only grew at the end since the last
// redraw, the list follows the newest (no event open, none to reveal)
// and is scrolled down already (it holds more rows than fit), and no
// event drawn in view changed: then scrolling to the end draws the new
// rows, and the rows drawn before still say what they said.
func (in *inspector) grewOnly() bool {
	d := in.drawn
	if in.selSeq != 0 || in.reveal || in.rowsStale || d.rows == 0 || in.rows() <= d.rows {
		return false
	}
	if in.rowSeq(0) != d.first || in.rowSeq(d.rows-1) != d.last {
		return false
	}
	return in.list.GetScrollOffset() > 0
}

// follow keeps the newest events in view while no event is open.
func (in *inspector) follow() {
	if in.selSeq == 0 && in.rows() > 0 {
		in.list.ScrollToBottom()
	}
}

func (in *inspector) updateEmpty() {
	in.lane.refresh() // every change of what is shown ends here
	if in.rows() > 0 {
		in.empty.Hide()
		return
	}
	switch {
	case in.searching:
		in.empty.SetText("Searching…")
	case in.query != "":
		in.empty.SetText("No event matches \"" + in.query + "\".")
	case in.server == "" && len(in.w.servers) == 0:
		// nothing to select: say what to do first
		in.empty.SetText("No servers yet. Add a server to see its traffic here.")
	case in.server == "":
		in.empty.SetText("Select a server to see its events.")
	default:
		in.empty.SetText("No events yet for " + in.server + ".")
	}
	in.empty.Show()
}

// recount shows the counters of the server shown, since its clear.
func (in *inspector) recount() {
	in.stats = events.Stats{}
	if st := in.statsOf[in.server]; st != nil {
		in.stats = *st
	}
}

// updateCounters shows tool calls, errors and events since the last clear
// (counted by core/events' Stats.Add as the log counts them). While a tab
// or the search filters the list, the events read "12 of 340 events", the
// rows listed of those counted, as the Tools screen words its count ("4 of
// 26 tools").
func (in *inspector) updateCounters() {
	st := in.stats
	evs := plural(int(st.Events), "event")
	if in.tab != "" || in.query != "" {
		evs = itoa(in.rows()) + " of " + evs
	}
	s := plural(int(st.ToolCalls), "tool call") + " · " + plural(int(st.Errors), "error") + " · " + evs
	if in.paused {
		buf := 0
		for _, b := range in.pending {
			buf += len(b.Events)
		}
		s += fmt.Sprintf(" · paused, %d buffered", buf)
	}
	if in.dropped > 0 {
		s += fmt.Sprintf(" · %d dropped", in.dropped)
	}
	setText(in.counters, s)
}

// setServer shows the events of one server.
func (in *inspector) setServer(server string) {
	if in.server == server {
		return
	}
	in.server = server
	v := in.views[server] // none: no search, All
	in.restoreQuery(v.query)
	in.tab = v.tab
	in.styleTabs()
	in.recount()
	in.closeDetail()
	in.refilter()
}

// restoreQuery puts a server's own search back in the search box; the
// caller refilters (the debounced search of the keystrokes before, of
// the server shown until now, is dropped).
func (in *inspector) restoreQuery(q string) {
	if in.debounce != nil {
		in.debounce.Stop()
	}
	if in.search.Text != q {
		on := in.search.OnChanged
		in.search.OnChanged = nil // not a keystroke: no second search
		in.search.SetText(q)
		in.search.OnChanged = on
	}
	in.query = strings.TrimSpace(q)
}

func (in *inspector) onTab(cat string) {
	in.tab = cat
	in.keepView(func(v *serverView) { v.tab = cat })
	in.styleTabs()
	in.refilter()
}

// serverView is what the inspector keeps of a server while another is
// shown: its search as typed and its filter tab ("" is All).
type serverView struct{ query, tab string }

// keepView changes the kept view of the server shown; a view back to no
// search and All is dropped.
func (in *inspector) keepView(change func(*serverView)) {
	v := in.views[in.server]
	change(&v)
	if v == (serverView{}) {
		delete(in.views, in.server)
		return
	}
	in.views[in.server] = v
}

// renameServer moves a server's search and filter to its new name (Edit
// server → Save): the renamed server is a new entry to the window, which
// selects it next, and would have started with neither. A view kept under
// the new name (of a server removed before) gives way to it.
func (in *inspector) renameServer(from, to string) {
	v, ok := in.views[from]
	delete(in.views, from)
	delete(in.views, to)
	if ok {
		in.views[to] = v
	}
}

// takeView drops a removed server's search and filter and returns them,
// for its Undo to put back (putView): a server added later under the same
// name starts with none.
func (in *inspector) takeView(server string) serverView {
	v := in.views[server]
	delete(in.views, server)
	return v
}

// putView gives a server back the view takeView took.
func (in *inspector) putView(server string, v serverView) {
	if v != (serverView{}) {
		in.views[server] = v
	}
}

func (in *inspector) styleTabs() {
	for i, t := range inspectorTabs {
		if t.cat == in.tab {
			in.tabBtns[i].Importance = widget.HighImportance
		} else {
			in.tabBtns[i].Importance = widget.LowImportance
		}
		in.tabBtns[i].Refresh()
	}
}

// onSearch searches a moment after the last keystroke; the search under
// way stops at once.
func (in *inspector) onSearch(q string) {
	in.query = strings.TrimSpace(q)
	in.keepView(func(v *serverView) { v.query = q })
	if in.stopSearch != nil {
		in.stopSearch()
		in.stopSearch = nil
	}
	if in.debounce != nil {
		in.debounce.Stop()
	}
	in.debounce = time.AfterFunc(searchDelay, func() { do(in.refilter) })
}

// onPause freezes the list; events keep buffering until Resume.
func (in *inspector) onPause() {
	in.paused = !in.paused
	if in.paused {
		in.pause.set("Resume", theme.MediaPlayIcon())
		in.head.Refresh()
		in.updateCounters()
		return
	}
	in.pause.set("Pause", theme.MediaPauseIcon())
	in.head.Refresh() // "Pause" may fit where "Resume" did not
	pending := in.pending
	in.pending = nil
	for _, b := range pending {
		in.apply(b)
	}
	in.updateCounters()
	in.listChanged()
}

// onClear hides every event so far of the current connection and resets
// the counters.
func (in *inspector) onClear() {
	last := in.lastOf[in.server]
	for _, b := range in.pending {
		for _, e := range b.Events {
			if e.Server == in.server && e.Seq > last {
				last = e.Seq
			}
		}
	}
	in.cleared[in.server] = last
	in.w.updateMenu() // no last call to save or run any more
	delete(in.statsOf, in.server)
	in.forget(in.server)
	in.recount()
	in.closeDetail()
	in.refilter()
	in.w.releaseServer(in.server, last)
}

// forget drops the rows read lately and the indexes of a server's events
// (its Clear): they name events the log may drop now.
func (in *inspector) forget(server string) {
	clear(in.cache)
	delete(in.tools, server)
	delete(in.listen, server)
	for k := range in.runs {
		if strings.HasPrefix(k, server+"\x00") {
			delete(in.runs, k)
		}
	}
}

// onDownload saves the trace of the current connection.
func (in *inspector) onDownload() {
	server := in.server
	name := "spyglass-trace"
	if server != "" {
		name += "-" + safeFileName(server)
	}
	name += "-" + time.Now().Format("20060102-150405") + ".json"
	in.w.saveFile(name, func(wr io.Writer) error {
		return in.src.WriteTrace(wr, server)
	})
}

func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' {
			return '-'
		}
		return r
	}, s)
}

func (in *inspector) onSelect(seq uint64) {
	in.selSeq = seq
	in.detail.show(seq)
	in.detail.obj.Show()
	if in.split.Offset > 0.9 {
		in.split.SetOffset(in.detailOffset())
	}
	// the list shrank under its scroll, or the event was opened from
	// elsewhere (a screen's "Request and response", the listen lane, a
	// run's bar): its row is selected and in view
	in.reveal = true
	in.revealSelected()
}

// revealSelected selects the row of the event open and scrolls the list
// to it, once the list has that row (a search under way may not have
// found it yet: reveal stays set, and listChanged comes back here); a
// search done without it (another tab's event) gives up.
func (in *inspector) revealSelected() {
	if !in.reveal || in.selSeq == 0 {
		in.reveal = false
		return
	}
	r := in.rowOf(in.selSeq)
	if r < 0 {
		in.reveal = in.searching
		return
	}
	in.reveal = false
	in.list.Select(r) // OnSelected does not open it again
	in.list.ScrollTo(r)
}

// keepInView lays out the inspector's list area (the list, and its empty
// state over it) and keeps the row of the event open in view while the
// area changes height (the details opened, their content grew, the
// divider moved): a row in view before is in view after, not left below
// the list's shorter end.
type keepInView struct {
	in     *inspector
	height float32
}

// MinSize implements fyne.Layout: as a Stack.
func (k *keepInView) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if o.Visible() {
			s = s.Max(o.MinSize())
		}
	}
	return s
}

// Layout implements fyne.Layout.
func (k *keepInView) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	before := k.height
	k.height = size.Height
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if in := k.in; before > 0 && size.Height != before && in.selSeq != 0 {
		in.keepRowInView(before, size.Height)
	}
}

// keepRowInView scrolls the list to the row of the event open when the
// list went from height before to height after and the row, whole in
// view before, is no longer.
func (in *inspector) keepRowInView(before, after float32) {
	r := in.rowOf(in.selSeq)
	if r < 0 {
		return
	}
	pad := theme.Padding() // the list's separator
	row := in.rowHeight()
	top := float32(r) * (row + pad)
	off := in.list.GetScrollOffset()
	was := top >= off-1 && top+row <= off+before+1
	is := top >= off-1 && top+row <= off+after+1
	if was && !is {
		in.list.ScrollTo(r)
	}
}

// rowHeight is the height of one row of the list (every row has the
// same).
func (in *inspector) rowHeight() float32 {
	if in.rowH == 0 {
		in.rowH = in.createRow().MinSize().Height
	}
	return in.rowH
}

// detailOffset is where the split between the list and the details goes
// when details open: where the user last dragged it, else the list keeps
// a usable number of rows — five where the split has the room (1280×800),
// three on a shorter one (1024×700), two below — and the details get the
// rest. The new-user walk found one row left at both sizes: the event
// shown and nothing around it, so the list read as gone; the payload's
// trees scroll in what is left, and the divider the user drags is kept.
func (in *inspector) detailOffset() float64 {
	if off := in.w.app.Preferences().FloatWithFallback(prefDetailOff, 0); off > 0.05 && off < 0.95 {
		return off
	}
	h := in.split.Size().Height
	if h <= 0 {
		return 0.3
	}
	row := in.createRow().MinSize().Height + theme.Padding()
	rows := float32(5)
	switch {
	case h < 440:
		rows = 2
	case h < 580:
		rows = 3
	}
	// the divider's own room and a padding, so that the last row is whole
	list := rows*row + theme.Padding() + 2*theme.Padding()
	return float64(min(max(list/h, 0.05), 0.5))
}

// keepDetailOffset remembers where the split between the list and the
// open details is (the user may have dragged it).
func (in *inspector) keepDetailOffset() {
	if in.detail.obj.Visible() && in.split.Offset > 0.05 && in.split.Offset < 0.95 {
		in.w.app.Preferences().SetFloat(prefDetailOff, in.split.Offset)
	}
}

func (in *inspector) closeDetail() {
	in.keepDetailOffset()
	in.selSeq = 0
	in.reveal = false
	in.list.UnselectAll() // a click on the same row opens it again
	in.detail.obj.Hide()
	in.split.SetOffset(1)
}

// event returns an event by Seq from the rows read lately or the source.
func (in *inspector) event(seq uint64) (EventView, bool) {
	if seq == 0 {
		return EventView{}, false
	}
	if e, ok := in.cache[seq]; ok {
		return e, true
	}
	e, ok := in.src.Get(seq)
	if ok {
		in.cacheRow(e)
	}
	return e, ok
}

// eventsOf reads the events seqs (an index of the inspector's) that are
// of the server shown after its clear.
func (in *inspector) eventsOf(seqs []uint64) []EventView {
	var out []EventView
	for _, s := range seqs {
		if e, ok := in.event(s); ok {
			out = append(out, e)
		}
	}
	return out
}

// runEvents returns the events of one run of a server, in order.
func (in *inspector) runEvents(server, run string) []EventView {
	return in.eventsOf(in.runs[server+"\x00"+run])
}

// shownTitles returns the titles of the rows shown (tests).
func (in *inspector) shownTitles() []string {
	out := make([]string, in.rows())
	for i := range out {
		e, _ := in.event(in.rowSeq(i))
		out[i] = e.Heading()
	}
	return out
}

// eventDetail is the details pane of the selected event.
type eventDetail struct {
	in      *inspector
	title   *widget.Label
	badge   *badge
	meta    *widget.Label   // one line: #seq, time, kind, direction, size
	round   *widget.Label   // a multi round-trip request's conversation
	attempt *widget.Label   // a tool call attempt's lineage and warnings
	actions *fyne.Container // the meta's line, with Replay, Edit and replay… at its end
	save    *widget.Button  // Save to collection… of a client→server request
	answer  *widget.Button  // View Details of a server request waiting in the queue
	// the actions with their words and as icons (headRow picks the one
	// that fits): replay, edit, answer, save
	acts    [4]actionPair
	payload *fyne.Container
	run     *fyne.Container
	tabs    *container.AppTabs
	obj     fyne.CanvasObject
	cur     EventView
}

func newEventDetail(in *inspector) *eventDetail {
	d := &eventDetail{in: in}
	d.title = heading("")
	d.title.Truncation = fyne.TextTruncateEllipsis
	d.badge = newBadge("", "")
	d.meta = widget.NewLabel("")
	d.meta.SizeName = theme.SizeNameCaptionText
	d.meta.Truncation = fyne.TextTruncateEllipsis
	d.round = wrapLabel("")
	d.round.SizeName = theme.SizeNameCaptionText
	d.round.Hide()
	d.attempt = wrapLabel("")
	d.attempt.Hide()
	d.payload = container.NewStack()
	d.run = container.NewVBox()
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), in.closeDetail)
	closeBtn.Importance = widget.LowImportance
	cp := copyButton("Copy", func() string {
		if len(d.cur.Raw) > 0 {
			return prettyJSON(d.cur.Raw)
		}
		return d.cur.Text
	})
	d.tabs = container.NewAppTabs(
		container.NewTabItem("Payload", d.payload),
		container.NewTabItem("This run", container.NewVScroll(d.run)),
	)
	d.acts = [4]actionPair{
		newActionPair("Replay", theme.MediaReplayIcon(), func() { in.onReplay(d.cur, false) }),
		newActionPair("Edit and replay", theme.DocumentCreateIcon(), func() { in.onReplay(d.cur, true) }),
		newActionPair("View Details", theme.ZoomInIcon(), func() { in.onOpenRequest(d.cur) }),
		newActionPair("Save to collection…", theme.DocumentSaveIcon(), func() { in.onSaveRequest(d.cur) }),
	}
	d.acts[2].full.Importance, d.acts[2].icon.Importance = widget.MediumImportance, widget.MediumImportance
	d.answer, d.save = d.acts[2].full, d.acts[3].full
	full, icons := container.NewHBox(), container.NewHBox()
	for _, p := range d.acts {
		full.Add(p.full)
		icons.Add(p.icon)
	}
	d.acts[2].show(false)
	d.acts[3].show(false)
	// the actions share the meta's line (words when they fit beside it,
	// else icons): at 1024×700 the meta's two lines and the actions' own
	// line left a stacked pair two rows a side
	d.actions = newMetaRow(d.meta, full, icons)
	// as wide as the inspector's split, never wider: a tab's words
	// (an attempt's, a run's) must not move the divider when it opens
	d.obj = newFreeWidth(container.New(detailColumn{},
		container.NewBorder(nil, nil, nil, container.NewHBox(container.NewCenter(d.badge), cp, closeBtn), d.title),
		d.actions,
		d.round,
		d.attempt,
		d.tabs,
	))
	return d
}

// show fills the pane with event seq.
func (d *eventDetail) show(seq uint64) {
	e, ok := d.in.event(seq)
	if !ok {
		return
	}
	d.cur = e
	d.title.SetText(e.Heading())
	d.badge.Set(e.Badge, e.BadgeLevel)
	d.round.SetText(d.in.rounds.Describe(&e.Event))
	setVisible(d.round, d.round.Text != "")
	d.attempt.Hide()
	if a := e.Attempt; a != nil {
		if text := a.Explain(); text != "" {
			d.attempt.SetText(text)
			d.attempt.Importance = widget.MediumImportance
			if _, level := a.Label(); level == "warning" {
				d.attempt.Importance = widget.WarningImportance
			}
			d.attempt.Show()
		}
	}

	var req, resp *EventView
	if e.Kind == "message" && (e.Type == "request" || e.Type == "result" || e.Type == "error") {
		if e.Type == "request" {
			req = &e
			if p, ok := d.in.event(e.Pair); ok && e.Pair != 0 {
				resp = &p
			}
		} else {
			resp = &e
			if p, ok := d.in.event(e.Pair); ok && e.Pair != 0 {
				req = &p
			}
		}
	}
	// the facts, the duration in words first after the number (the
	// line is cut at its end when narrow, and the time is on the list's
	// row too): a badge's "0ms" said nothing of a local call
	meta := fmt.Sprintf("#%d", e.Seq)
	if took := detailDuration(e, req); took != "" {
		meta += " · " + took
	}
	meta += " · " + e.Time.Local().Format("15:04:05.000") + " · " + e.Kind
	if e.Dir != "" {
		meta += " · " + map[string]string{"out": "client → server", "in": "server → client"}[e.Dir]
	}
	if e.Size > 0 {
		meta += " · " + sizeText(e.Size)
	}
	d.meta.SetText(meta)
	if req != nil || resp != nil {
		missing := "No response yet."
		if req != nil {
			missing = missingResponse(req.Badge)
		}
		open := 0 // stacked, the side of the event chosen is open
		if e.Type != "request" {
			open = 1
		}
		d.payload.Objects = []fyne.CanvasObject{newPair(pane("Request", req, ""), pane("Response", resp, missing), open)}
	} else {
		shown := withSyntheticPayload(e) // a tool · event shows its own record
		d.payload.Objects = []fyne.CanvasObject{pane("", &shown, "")}
	}
	d.payload.Refresh()
	d.showRun(e)
	// The actions (Replay, Edit and replay, View Details, Save to
	// collection…) at the end of the meta's line, those that apply.
	canReplay, canAnswer := replayable(e, req) != nil, queued(e) && d.in.openRequest != nil
	canSave := d.in.canSave(req, resp)
	for i, v := range []bool{canReplay, canReplay, canAnswer, canSave} {
		d.acts[i].show(v)
	}
	d.actions.Refresh()
	d.showToolCall(e)
}

// detailDuration says in words how long what the details show took: a
// tool call attempt ("took 1.23 ms"), an HTTP exchange, a request's
// round trip, for a response its request's ("took 2.5 s": "answered in"
// was cut off the line at 1280×800); "" when nothing was measured yet.
func detailDuration(e EventView, req *EventView) string {
	switch {
	case e.Event.Tool != nil && e.Event.Tool.Duration > 0:
		return "took " + events.DurationWords(e.Event.Tool.Duration)
	case e.Event.HTTP != nil && e.Event.HTTP.Duration > 0:
		return "took " + events.DurationWords(e.Event.HTTP.Duration)
	case req != nil && req.Latency > 0:
		return "took " + events.DurationWords(req.Latency)
	}
	return ""
}

// pane is one side of the request/response view: a Border of the body
// and, for a side with a label, its head line.
func pane(label string, e *EventView, missing string) *fyne.Container {
	if e == nil {
		msg := missing
		if label == "Request" {
			msg = "The request is no longer in memory."
		}
		return container.NewBorder(heading(label), nil, nil, nil, emptyState(msg))
	}
	tree := newJSONTree()
	tree.nsWords = e.Kind == "tool" // a record of Spyglass's own
	if len(e.Raw) > 0 {
		tree.SetJSON(e.Raw)
	} else {
		text := e.Text
		tree.SetJSON(nil)
		tree.empty.SetText(text)
	}
	// the side's name, longest first: it gives way to a shorter one
	// before it is cut (the id and badge are in the detail's head too)
	names := []string{label}
	if e.ID != "" {
		names = append(names, label+" · id "+e.ID)
	}
	if e.Badge != "" && label == "Request" {
		names = append(names, names[len(names)-1]+" · "+e.Badge)
	}
	slices.Reverse(names)
	hl := heading(names[0])
	hl.Truncation = fyne.TextTruncateEllipsis
	var top fyne.CanvasObject = hl
	if label == "" {
		top = nil
		if e.HTTP() != "" {
			top = wrapLabel(e.HTTP())
		}
	}
	raw := e.Raw
	cp := copyButton("", func() string {
		if tree.rawChk.Checked {
			return string(raw) // the bytes as they crossed the wire
		}
		return prettyJSON(raw)
	})
	if top == nil {
		return container.NewBorder(nil, nil, nil, nil, tree.obj)
	}
	// One line for the side's name, Raw, Expand all and Copy: the
	// tree's own bar on a line of its own left a stacked pair about one
	// row each at 1280×800.
	if !tree.bar.Visible() {
		return container.NewBorder(container.NewBorder(nil, nil, nil, cp, top), nil, nil, nil, tree.obj)
	}
	// Raw and Expand all leave the tree's bar for this line, and the
	// tree is laid out without it (body): obj's Border kept the bar's
	// row, a blank row above the first node.
	if top != fyne.CanvasObject(hl) { // an HTTP event's line, not a side's name
		return container.NewBorder(container.NewBorder(nil, nil, nil, container.NewHBox(tree.rawChk, tree.expand, cp), top), nil, nil, nil, tree.body)
	}
	expand := tree.expand
	// four arrows outwards: the chevrons of a stacked pair are ▸ and ▾
	icon := widget.NewButtonWithIcon("", theme.ViewFullScreenIcon(), expand.OnTapped)
	icon.Importance = widget.LowImportance
	iconNames[icon] = expand.Text
	icon.Hide()
	tree.expandIcon = icon // greyed with Expand all while Raw is shown
	if expand.Disabled() {
		icon.Disable()
	}
	acts := container.NewHBox(tree.rawChk, expand, icon, cp)
	return container.NewBorder(newNameRow(hl, names, acts, expand, icon), nil, nil, nil, tree.body)
}

// missingResponse says why a request has no response, from its badge.
func missingResponse(badge string) string {
	switch {
	case badge == "no response":
		return "No response: the connection closed while the request was open."
	case strings.HasPrefix(badge, "timed out"):
		return "Timed out: Spyglass gave up waiting (and sent notifications/cancelled)."
	case badge == "cancelled":
		return "Cancelled: notifications/cancelled was sent; no answer came."
	case strings.HasPrefix(badge, "waiting"):
		return "Waiting for the answer…"
	}
	return "No response yet."
}

// HTTP is the HTTP summary line of an http event ("" otherwise).
func (e EventView) HTTP() string {
	if e.Kind != "http" {
		return ""
	}
	return e.Text
}

// showRun draws the "This run" waterfall: every step of the same user
// action on one time axis.
func (d *eventDetail) showRun(e EventView) {
	d.run.Objects = nil
	if e.Run == "" {
		d.run.Add(emptyState("This event is not part of a run (a user action such as a tool call)."))
		d.run.Refresh()
		return
	}
	var evs []events.Event
	for _, x := range d.in.runEvents(e.Server, e.Run) {
		evs = append(evs, x.Event)
	}
	steps := events.Waterfall(evs, e.Run)
	if len(steps) == 0 {
		d.run.Refresh()
		return
	}
	var total time.Duration
	for _, st := range steps {
		total = max(total, st.Offset+st.Duration)
	}
	if total <= 0 {
		total = time.Millisecond
	}
	// a response is drawn on its request's bar, not as a row of its
	// own: the count is of the rows shown, and says where the rest are
	// (it said "5 steps" over 3 rows)
	var rows []events.Step
	answered := 0
	for _, st := range steps {
		if x, _ := d.in.event(st.Event.Seq); x.Type == "result" || x.Type == "error" {
			answered++
			continue
		}
		rows = append(rows, st)
	}
	head := plural(len(rows), "step") + " · " + events.DurationWords(total)
	switch {
	case answered == 1:
		head += " · the response is drawn on its request's bar"
	case answered > 1:
		head += " · the " + itoa(answered) + " responses are drawn on their requests' bars"
	}
	hl := widget.NewLabel(head)
	hl.Wrapping = fyne.TextWrapWord
	d.run.Add(hl)
	for _, st := range rows {
		x, _ := d.in.event(st.Event.Seq)
		from := float32(st.Offset) / float32(total)
		to := float32(st.Offset+st.Duration) / float32(total)
		level := "primary"
		if x.IsError() {
			level = "error"
		}
		lbl := widget.NewLabel(x.Heading())
		lbl.Truncation = fyne.TextTruncateEllipsis
		dur := widget.NewLabel(x.Badge)
		dur.SizeName = theme.SizeNameCaptionText
		seq := x.Seq
		bar := newWaterfallBar(from, to, level, func() { d.in.onSelect(seq) })
		row := container.NewGridWithColumns(2, lbl, container.NewBorder(nil, nil, nil, dur, bar))
		d.run.Add(row)
	}
	d.run.Refresh()
}

// waterfallBar draws one step's span on the run's time axis.
type waterfallBar struct {
	widget.BaseWidget
	from, to float32
	level    string
	onTap    func()
}

func newWaterfallBar(from, to float32, level string, onTap func()) *waterfallBar {
	b := &waterfallBar{from: from, to: to, level: level, onTap: onTap}
	b.ExtendBaseWidget(b)
	return b
}

// Tapped opens the step's event.
func (b *waterfallBar) Tapped(*fyne.PointEvent) {
	if b.onTap != nil {
		b.onTap()
	}
}

// CreateRenderer implements fyne.Widget.
func (b *waterfallBar) CreateRenderer() fyne.WidgetRenderer {
	bg := newBarRect(colorFor(""), 0x30)
	fg := newBarRect(colorFor(b.level), 0xff)
	return &barRenderer{b: b, bg: bg, fg: fg}
}
