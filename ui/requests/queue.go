package requests

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// ErrCancelled marks a request that ended before the user answered (the
// server cancelled it or the connection ended): the session handlers that
// wait on the queue (cmd/gui_requests.go) wrap it.
var ErrCancelled = errors.New("requests: the request ended before the user answered")

// maxNotes bounds the list of closed requests shown under the queue.
const maxNotes = 20

// QueueOptions configure a Queue.
type QueueOptions struct {
	// Window hosts the modals (details, profiles editor, previews).
	Window fyne.Window
	// Profiles loads and saves the testing profiles ([Edit Profiles] is
	// hidden without it).
	Profiles ProfileStore
	// Responder prefills and auto-responds sampling requests.
	Responder Responder
	// Forms builds elicitation forms.
	Forms FormBuilder
	// Open opens URL-mode elicitation URLs.
	Open Opener
	// Clipboard receives [Copy URL]; the app's clipboard when nil.
	Clipboard fyne.Clipboard
	// Save asks where to save data under a suggested file name and
	// writes it (sampling audio); the window's Save.
	Save func(name string, data []byte)
	// OnCountChanged gets the number of pending requests after every
	// change (for a badge on a tab), once the queue is ready to use.
	OnCountChanged func(n int)
	// OnAdded is called when a request waits for the user (not for one a
	// profile answered by itself), for example to show a toast or switch
	// to the requests screen. run is the operation it belongs to.
	OnAdded func(kind, server, id, run string)
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
}

// Queue lists the pending requests of every server (sampling and
// elicitation), each opening its panel; answered, cancelled and completed
// requests leave with a note in the "Recently closed" list. When the
// active testing profile auto-responds, sampling requests are answered by it
// at once and only noted.
//
// Methods are for the UI goroutine.
type Queue struct {
	opts     QueueOptions
	profiles ProfileSet
	profErr  error

	items    []*queueItem
	selected *queueItem
	// filter is the server whose requests the list shows (Filter); ""
	// shows every server's. shown is that view of items.
	filter string
	shown  []*queueItem
	quiet  bool // refresh leaves OnCountChanged out (Filter: the window asked)

	list   *widget.List
	detail *fyne.Container
	scroll *container.Scroll // the detail pane's: each request starts at its top
	notes  *fyne.Container
	count  *widget.Label
	notesN []string
	obj    fyne.CanvasObject
}

// queueItem is one pending request.
type queueItem struct {
	server, id, kind, summary string
	run                       string
	at                        time.Time
	sampling                  *SamplingPanel
	elicit                    *ElicitationPanel
	elicitID                  string
	// round labels an input request of a multi round-trip request;
	// abandon then cancels its call ([Cancel call]).
	round   string
	abandon func()
	// modal is the dialog the request is open in (OpenModal), or nil.
	modal dialog.Dialog
	// inline is the place outside the queue the panel is shown in (the
	// running tool's panel: Inline), or nil.
	inline *fyne.Container
	// callEnded: the tool call whose panel it was shown in ended while
	// the request still waits (Uninline).
	callEnded bool
}

// ref names the request in the list and in notes: its round, or its id.
func (it *queueItem) ref() string {
	if it.round != "" {
		return it.round
	}
	return "#" + it.id
}

func (it *queueItem) object() fyne.CanvasObject {
	if it.sampling != nil {
		return it.sampling.Object()
	}
	return it.elicit.Object()
}

// NewQueue returns an empty queue.
func NewQueue(opts *QueueOptions) *Queue {
	q := &Queue{}
	if opts != nil {
		q.opts = *opts
	}
	if q.opts.Now == nil {
		q.opts.Now = time.Now
	}
	if q.opts.Profiles != nil {
		q.profiles, q.profErr = q.opts.Profiles.Load()
	}
	q.obj = q.buildUI()
	return q
}

// Object returns the queue's view.
func (q *Queue) Object() fyne.CanvasObject { return q.obj }

// Len returns the number of pending requests.
func (q *Queue) Len() int { return len(q.items) }

// Notes returns the notes of recently closed requests, newest first.
func (q *Queue) Notes() []string { return append([]string(nil), q.notesN...) }

// Profiles returns the testing profiles the queue uses.
func (q *Queue) Profiles() ProfileSet { return q.profiles.clone() }

func (q *Queue) buildUI() fyne.CanvasObject {
	q.count = heading("")
	q.list = widget.NewList(
		func() int { return len(q.shown) },
		func() fyne.CanvasObject {
			icon := widget.NewIcon(theme.QuestionIcon())
			title := widget.NewLabel("")
			title.TextStyle = fyne.TextStyle{Bold: true}
			title.Truncation = fyne.TextTruncateEllipsis
			sub := widget.NewLabel("")
			sub.Importance = widget.LowImportance
			sub.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, icon, nil, container.NewVBox(title, sub))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(q.shown) {
				return
			}
			it := q.shown[i]
			c := o.(*fyne.Container)
			vb := c.Objects[0].(*fyne.Container)
			icon := c.Objects[1].(*widget.Icon)
			if it.sampling != nil {
				icon.SetResource(theme.ComputerIcon())
			} else {
				icon.SetResource(theme.DocumentCreateIcon())
			}
			vb.Objects[0].(*widget.Label).SetText(it.kind + " · " + it.server)
			vb.Objects[1].(*widget.Label).SetText(fmt.Sprintf("%s · %s · %s", it.ref(), it.at.Format("15:04:05"), it.summary))
		},
	)
	q.list.OnSelected = func(i widget.ListItemID) {
		if i < len(q.shown) {
			q.show(q.shown[i])
		}
	}
	q.detail = container.NewStack()
	q.notes = container.NewVBox()
	// the closed requests scroll in a bounded strip: however many there
	// are, they never make the window taller
	notes := container.NewVScroll(q.notes)
	notes.SetMinSize(fyne.NewSize(0, 60))
	left := container.NewBorder(q.count, container.NewVBox(widget.NewSeparator(), heading("Recently closed"), notes), nil, nil, q.list)
	q.scroll = esc.NewVScroll(q.detail)
	split := container.NewHSplit(left, q.scroll)
	split.Offset = 0.32
	q.refresh()
	return split
}

// Filter shows only server's requests in the list ("" shows every
// server's) and returns how many of them wait; the others are counted in
// the list's heading. A request of another server that was shown gives
// way to the first of server's. The window calls it when the user selects
// a server, so that a request of another one does not keep the room below
// the screens.
func (q *Queue) Filter(server string) int {
	q.filter = server
	q.view()
	if q.selected != nil && q.indexOf(q.selected) < 0 {
		q.selected = nil
		q.list.UnselectAll()
		if len(q.shown) > 0 {
			q.show(q.shown[0])
			q.list.Select(0)
		}
	}
	q.quiet = true
	q.refresh()
	q.quiet = false
	return len(q.shown)
}

// Servers returns the servers with requests waiting, in the order of
// their oldest request.
func (q *Queue) Servers() []string {
	var out []string
	for _, it := range q.items {
		if !slices.Contains(out, it.server) {
			out = append(out, it.server)
		}
	}
	return out
}

// view recomputes shown from items and filter.
func (q *Queue) view() {
	q.shown = q.shown[:0]
	for _, it := range q.items {
		if q.filter == "" || it.server == q.filter {
			q.shown = append(q.shown, it)
		}
	}
}

// indexOf is it's row in the list, or -1 when the filter hides it.
func (q *Queue) indexOf(it *queueItem) int {
	return slices.Index(q.shown, it)
}

// refresh redraws the count, the list and the empty state.
func (q *Queue) refresh() {
	q.view()
	var text string
	switch n := len(q.shown); n {
	case 0:
		text = "No pending requests"
	case 1:
		text = "1 pending request"
	default:
		text = fmt.Sprintf("%d pending requests", n)
	}
	if others := len(q.items) - len(q.shown); others > 0 {
		text += fmt.Sprintf(" · %d for other servers", others)
	}
	q.count.SetText(text)
	q.list.Refresh()
	if q.selected == nil {
		q.detail.RemoveAll()
		msg := "Requests a server sends to Spyglass — sampling and elicitation — wait here for your answer."
		if len(q.shown) > 0 {
			msg = "Select a request to answer it."
		}
		q.detail.Add(container.NewPadded(emptyState(msg)))
	}
	if q.notes != nil {
		q.notes.RemoveAll()
		if len(q.notesN) == 0 {
			q.notes.Add(mutedLabel("Nothing yet."))
		}
		for i, n := range q.notesN {
			if i == 5 {
				break
			}
			q.notes.Add(mutedLabel(n))
		}
	}
	if q.opts.OnCountChanged != nil && !q.quiet {
		q.opts.OnCountChanged(len(q.items))
	}
}

// show puts it in the detail pane: a round of a multi round-trip request
// under a bar that names its call and offers to cancel it.
func (q *Queue) show(it *queueItem) {
	q.selected = it
	q.detail.RemoveAll()
	// a new request opens at its heading, not where the last one was left
	q.scroll.ScrollToTop()
	if it.modal != nil { // one panel, one place: it is in the dialog now
		q.detail.Add(container.NewPadded(emptyState("This request is open in a dialog.")))
		return
	}
	if it.inline != nil {
		q.detail.Add(container.NewPadded(emptyState("This request is answered in the panel of the tool call that sent it (Tools).")))
		return
	}
	modal := esc.NewButtonWithIcon("Open in a dialog", theme.ViewFullScreenIcon(), func() { q.OpenModal(it.server, it.id) })
	modal.Importance = widget.LowImportance
	if q.opts.Window == nil {
		modal.Hide()
	}
	body := container.NewVBox(container.NewHBox(layout.NewSpacer(), modal), it.object())
	if it.round != "" {
		body = container.NewVBox(q.roundBar(it), body)
	}
	if it.callEnded {
		body = container.NewVBox(callEndedNote(), body)
	}
	q.detail.Add(container.NewPadded(body))
}

// callEndedNote heads a request whose tool call ended (Uninline).
func callEndedNote() fyne.CanvasObject {
	return wrapLabel("The tool call that sent this request has ended. The server has not cancelled the request, so it waits here: your answer is still sent.")
}

// roundBar names the call a round belongs to, with [Cancel call].
func (q *Queue) roundBar(it *queueItem) fyne.CanvasObject {
	cancel := esc.NewButtonWithIcon("Cancel call", theme.CancelIcon(), func() { q.onCancelCall(it) })
	lbl := wrapLabel(it.round + ": the call waits for this answer, then is sent again with it.")
	return container.NewBorder(nil, nil, nil, container.NewCenter(cancel), lbl)
}

// OpenModal shows the pending request (server, id) in a dialog over the
// window (seed 000's modal view): the same panel as in the queue, which
// shows "open in a dialog" meanwhile. The dialog closes when the request
// leaves the queue (answered, cancelled, or a URL page completed:
// notifications/elicitation/complete). It reports whether such a request
// was pending.
func (q *Queue) OpenModal(server, id string) bool {
	it := q.find(server, id)
	if it == nil || q.opts.Window == nil {
		return false
	}
	if it.modal != nil {
		it.modal.Show()
		return true
	}
	var title string
	if it.elicit != nil {
		title = it.elicit.Title()
		it.elicit.SetViewDetails(nil) // it is the dialog
	} else {
		title = it.sampling.title()
	}
	if it.inline != nil {
		q.fillInline(it, nil)
	}
	content := it.object()
	if it.round != "" { // a round of a multi round-trip request
		content = container.NewVBox(q.roundBar(it), content)
	}
	if it.callEnded {
		content = container.NewVBox(callEndedNote(), content)
	}
	var body fyne.CanvasObject = esc.NewVScroll(container.NewPadded(content))
	lent := it.elicit != nil && it.elicit.isURL()
	if lent {
		// the answers at the dialog's bottom, outside the scroll: what
		// the panel says above them moves none of them (a form's problem
		// line and Submit anyway are below its buttons: they stay with
		// them in the panel)
		body = container.NewBorder(nil, container.NewPadded(it.elicit.LendAnswers()), nil, nil, body)
	}
	d := esc.NewCustom(title, "Close", body, q.opts.Window)
	it.modal = d
	d.SetOnClosed(func() {
		it.modal = nil
		if lent {
			it.elicit.ReturnAnswers()
		}
		if q.find(it.server, it.id) != it {
			return
		}
		if it.inline != nil {
			q.fillInline(it, it.object()) // back in the tool's panel
		}
		if q.selected == it {
			q.show(it) // back in the queue's pane, or it says where it is
		}
	})
	if q.selected == it {
		q.show(it)
	}
	d.Resize(fyne.NewSize(680, 560))
	esc.Show(d, q.opts.Window) // Esc closes it, as Close does
	return true
}

// Inline moves the panel of the pending request (server, id) out of the
// queue's pane into a place of the caller's, the panel of the tool call
// that sent it (seed 000's inline view): a head naming the request, with
// View Details (the modal), above the same panel and its answers. The
// returned object empties and hides itself when the request leaves the
// queue; the queue's list keeps the request, its pane says where it is.
// ok is false when no such request waits.
func (q *Queue) Inline(server, id string) (obj fyne.CanvasObject, ok bool) {
	it := q.find(server, id)
	if it == nil {
		return nil, false
	}
	if it.inline == nil {
		it.inline = container.NewVBox()
	}
	if it.modal == nil {
		q.fillInline(it, it.object())
	}
	if q.selected == it {
		q.show(it)
	}
	return it.inline, true
}

// Answers returns the row of answer buttons of the pending request
// (server, id) where Inline lent its panel, for the caller to keep in
// view; nil when no such request is lent or its panel is in a dialog.
func (q *Queue) Answers(server, id string) fyne.CanvasObject {
	it := q.find(server, id)
	if it == nil || it.inline == nil || it.modal != nil {
		return nil
	}
	if it.sampling != nil {
		return it.sampling.Answers()
	}
	return it.elicit.Answers()
}

// Uninline gives the pending request (server, id) back to the queue's pane
// from the place Inline lent it: the tool call whose panel it was in has
// ended, and the server has not cancelled the request (that would have
// closed it). The pane shows it in full again, saying its call ended, and
// opens at it unless another request is being answered there.
func (q *Queue) Uninline(server, id string) {
	it := q.find(server, id)
	if it == nil || it.inline == nil {
		return
	}
	q.dropInline(it)
	it.callEnded = true
	switch {
	case q.selected == it:
		q.show(it)
	case q.selected == nil || q.selected.inline != nil || q.selected.modal != nil:
		if i := q.indexOf(it); i >= 0 {
			q.show(it)
			q.list.Select(i)
		}
	}
}

// dropInline empties and hides it's place outside the queue.
func (q *Queue) dropInline(it *queueItem) {
	if it.elicit != nil {
		it.elicit.SetViewDetails(nil) // the queue's pane has room
	}
	it.inline.Objects = nil
	it.inline.Hide()
	it.inline.Refresh()
	it.inline = nil
}

// InlinePanels returns the places, outside the queue, where waiting
// requests are answered (what Inline lent to running calls' panels), in
// the queue's order; the window's tests find a request's fields there.
func (q *Queue) InlinePanels() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, it := range q.items {
		if it.inline != nil && it.inline.Visible() && len(it.inline.Objects) > 0 {
			out = append(out, it.inline)
		}
	}
	return out
}

// fillInline draws it's inline place: the panel (nil: a note that the
// request is open in a dialog), above a round's bar if it has one. The
// panel's own header names the request; View Details is the sampling
// panel's own (its full view, seed 000) or, for an elicitation, put at the
// panel's header.
func (q *Queue) fillInline(it *queueItem, panel fyne.CanvasObject) {
	objs := []fyne.CanvasObject{widget.NewSeparator()}
	if it.round != "" {
		objs = append(objs, q.roundBar(it))
	}
	if panel != nil {
		objs = append(objs, panel)
		if it.elicit != nil && q.opts.Window != nil {
			it.elicit.SetViewDetails(func() { q.OpenModal(it.server, it.id) })
		}
	} else {
		objs = append(objs, mutedLabel("Open in a dialog: answer it there."))
	}
	it.inline.Objects = objs
	it.inline.Show()
	it.inline.Refresh()
}

// onCancelCall abandons the call a round belongs to: the request leaves
// the queue and the call ends cancelled, without being sent again.
func (q *Queue) onCancelCall(it *queueItem) {
	if q.find(it.server, it.id) != it {
		return
	}
	const note = "call cancelled"
	if it.sampling != nil {
		it.sampling.Close(note)
	} else {
		it.elicit.Close(note)
	}
	q.remove(it, note)
	if it.abandon != nil {
		it.abandon()
	}
}

// CancelCall abandons the call of the pending round (server, id), as
// [Cancel call] does. It reports whether such a round was pending.
func (q *Queue) CancelCall(server, id string) bool {
	it := q.find(server, id)
	if it == nil || it.round == "" {
		return false
	}
	q.onCancelCall(it)
	return true
}

func (q *Queue) add(it *queueItem) {
	q.items = append(q.items, it)
	q.view()
	if i := q.indexOf(it); q.selected == nil && i >= 0 {
		q.show(it)
		q.list.Select(i)
	}
	q.refresh() // OnCountChanged sees a queue ready to use
	if q.opts.OnAdded != nil {
		q.opts.OnAdded(it.kind, it.server, it.id, it.run)
	}
}

// remove takes it off the queue and notes why.
func (q *Queue) remove(it *queueItem, note string) {
	if it.modal != nil {
		d := it.modal
		it.modal = nil
		d.Hide()
	}
	if it.inline != nil {
		q.dropInline(it)
	}
	for i, x := range q.items {
		if x == it {
			q.items = append(q.items[:i], q.items[i+1:]...)
			break
		}
	}
	if note != "" {
		q.notesN = append([]string{fmt.Sprintf("%s %s %s from %s: %s", q.opts.Now().Format("15:04:05"), it.kind, it.ref(), it.server, note)}, q.notesN...)
		if len(q.notesN) > maxNotes {
			q.notesN = q.notesN[:maxNotes]
		}
	}
	q.view()
	if q.selected == it {
		q.selected = nil
		q.list.UnselectAll()
		if len(q.shown) > 0 { // go on with the oldest pending request
			q.show(q.shown[0])
			q.list.Select(0)
		}
	} else if i := q.indexOf(q.selected); i >= 0 { // keep the highlight on the shown request
		q.list.Select(i)
	}
	q.refresh()
}

func (q *Queue) find(server, id string) *queueItem {
	for _, it := range q.items {
		if it.server == server && it.id == id {
			return it
		}
	}
	return nil
}

// AddSampling queues a sampling request; answer gets the user's answer.
// When the active profile auto-responds (and can), answer is called at once
// with its result and the request is only noted.
func (q *Queue) AddSampling(req SamplingRequest, answer func(SamplingAnswer)) {
	cur := q.profiles.Current()
	if cur.AutoRespond && cur.Provider == ProviderMock && q.opts.Responder != nil {
		if raw, err := q.opts.Responder.Respond(cur, req.Params); err == nil {
			it := &queueItem{server: req.Server, id: req.ID, kind: "sampling", round: req.Round}
			q.remove(it, "auto-responded by the profile “"+cur.Name+"”")
			answer(SamplingAnswer{Result: raw, Profile: cur.Name, Auto: true})
			return
		}
	}
	p := NewSamplingPanel(req, &SamplingOptions{
		Profiles:       q.profiles.clone(),
		Responder:      q.opts.Responder,
		Window:         q.opts.Window,
		OnEditProfiles: q.editProfilesFunc(),
		Save:           q.opts.Save,
	})
	sp, _ := parseSampling(req.Params)
	it := &queueItem{server: req.Server, id: req.ID, kind: "sampling", summary: truncate(sp.preview(), 80), at: q.opts.Now(), sampling: p}
	it.run, it.round = req.Run, req.Round
	if req.Round != "" {
		it.abandon = func() { answer(SamplingAnswer{Abandoned: true}) }
	}
	p.OnAnswer = func(a SamplingAnswer) {
		note := "answered"
		switch {
		case a.Rejected:
			note = "rejected"
		case a.Auto:
			note = "answered by the profile “" + a.Profile + "”"
		}
		q.remove(it, note)
		answer(a)
	}
	q.add(it)
}

// AddElicitation queues an elicitation request; answer gets the user's
// answer. A URL-mode request stays listed after it was accepted, waiting,
// until CompleteElicitation (or the user closes it).
func (q *Queue) AddElicitation(req ElicitationRequest, answer func(ElicitationAnswer)) {
	p := NewElicitationPanel(req, &ElicitationOptions{Forms: q.opts.Forms, Open: q.opts.Open, Clipboard: q.opts.Clipboard})
	kind := "elicitation"
	if req.Mode == "url" {
		kind = "elicitation (URL)"
	}
	it := &queueItem{server: req.Server, id: req.ID, kind: kind, summary: truncate(oneLine(req.Message), 80), at: q.opts.Now(), elicit: p, elicitID: req.ElicitationID}
	p.OnAnswer = func(a ElicitationAnswer) {
		if req.Mode == "url" && a.Action == ActionAccept && req.Round == "" {
			// (a round's page needs no completion: the call goes on)
			it.summary = "waiting for completion · " + it.summary
			q.list.Refresh()
		} else {
			q.remove(it, a.Action)
		}
		answer(a)
	}
	it.run, it.round = req.Run, req.Round
	if req.Round != "" {
		it.abandon = func() { answer(ElicitationAnswer{Abandoned: true}) }
	}
	p.OnDismiss = func() {
		note := "accepted; closed while waiting for completion"
		if p.Completed() {
			note = "completed"
		}
		q.remove(it, note)
	}
	q.add(it)
}

// Cancel closes the pending request (server, id) with note, for example
// when the server sent notifications/cancelled ("" means "cancelled by the
// server"). It reports whether such a request was pending.
func (q *Queue) Cancel(server, id, note string) bool {
	it := q.find(server, id)
	if it == nil {
		return false
	}
	if note == "" {
		note = "cancelled by the server"
	}
	if it.sampling != nil {
		it.sampling.Close(note)
	} else {
		it.elicit.Close(note)
	}
	q.remove(it, note)
	return true
}

// CompleteElicitation marks the URL-mode request with elicitationID from
// server as completed (notifications/elicitation/complete) and closes it.
// It reports whether such a request was listed.
func (q *Queue) CompleteElicitation(server, elicitationID string) bool {
	for _, it := range q.items {
		if it.elicit != nil && it.server == server && it.elicitID == elicitationID && elicitationID != "" {
			it.elicit.Complete()
			q.remove(it, "completed")
			return true
		}
	}
	return false
}

// SetProfiles replaces the profiles (after an edit elsewhere) in the queue
// and in every open sampling panel.
func (q *Queue) SetProfiles(ps ProfileSet) {
	q.profiles = ps.clone()
	for _, it := range q.items {
		if it.sampling != nil {
			it.sampling.SetProfiles(ps)
		}
	}
}

// EditProfiles opens the testing profiles editor over the queue's window
// (Settings → Sampling profiles); saved profiles apply to the queue.
func (q *Queue) EditProfiles() {
	if f := q.editProfilesFunc(); f != nil {
		f()
	}
}

func (q *Queue) editProfilesFunc() func() {
	if q.opts.Profiles == nil || q.opts.Window == nil {
		return nil
	}
	return func() { ShowProfilesEditor(q.opts.Window, q.opts.Profiles, q.SetProfiles) }
}

// AddURLRequired lists the URL elicitations a server asked for through a
// URLElicitationRequiredError (-32042) in answer to one of our requests:
// there is no request to answer, so the panel only opens the URL and waits
// for notifications/elicitation/complete (the caller retries the operation
// afterwards). Use ElicitationsFromError to read them from the error data.
// A page already waiting (the same server and elicitationId, as when the
// tool is run again before the page is done) is not listed twice.
func (q *Queue) AddURLRequired(server string, reqs []ElicitationRequest) {
	for _, r := range reqs {
		r.Server = server
		r.Mode = "url"
		if r.ID == "" {
			r.ID = r.ElicitationID
		}
		if q.waitingURL(server, r.ElicitationID) {
			continue
		}
		q.AddElicitation(r, func(ElicitationAnswer) {})
	}
}

// waitingURL reports whether a URL elicitation with this id from server
// is in the queue.
func (q *Queue) waitingURL(server, elicitationID string) bool {
	if elicitationID == "" {
		return false
	}
	for _, it := range q.items {
		if it.elicit != nil && it.server == server && it.elicitID == elicitationID {
			return true
		}
	}
	return false
}
