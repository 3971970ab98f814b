package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
	"github.com/spyglass-mcp/spyglass/ui/plain"
)

// RawConn is a Conn that sends any request, standard or not: the Advanced
// JSON-RPC Tester uses it. The session gives the request its id (never one
// of its own), records it in the inspector like every other request and
// pairs the answer.
type RawConn interface {
	SendRaw(ctx context.Context, req RawRequest, progress func(Progress), notify func(Notification)) (RawReply, error)
}

// RawRequest is one request of the tester.
type RawRequest struct {
	Method string
	// Params is the params value as written (a JSON object, usually), or
	// nil for none. Its _meta entries are kept as given.
	Params json.RawMessage
	// Header holds extra HTTP headers for this one request (HTTP
	// transports only).
	Header map[string]string
	// Progress asks for progress: a progressToken is added unless
	// params._meta has one already.
	Progress bool
}

// RawReply is what came back. Error is set when the server answered with
// a JSON-RPC error; SendRaw's error means no answer came at all.
type RawReply struct {
	ID       string // the request's id as JSON text
	Seq      uint64 // the inspector event of the request (0 if never recorded)
	Duration time.Duration
	Result   json.RawMessage
	Error    *RawError
}

// RawError is a JSON-RPC error answer.
type RawError struct {
	Code    int
	Message string
	Data    json.RawMessage
}

// TesterStore is what the backend offers the Experimental screen and the
// tester: the client experimental capabilities saved per server, and the
// tester's request history kept across restarts (secrets masked). A
// Backend that does not implement it gets both for the app's life only.
type TesterStore interface {
	// ClientExperimental returns the server's saved client experimental
	// capabilities (a JSON object, or nil).
	ClientExperimental(server string) json.RawMessage
	// SetClientExperimental saves them (nil for none); they are
	// advertised on the next connect.
	SetClientExperimental(server string, caps json.RawMessage) error
	// History returns the tester's history of the server, newest first.
	History(server string) ([]HistoryEntry, error)
	// AddHistory records one request (masking its secrets).
	AddHistory(server string, e HistoryEntry) error
}

// HistoryEntry is one request of the tester's history.
type HistoryEntry struct {
	Time     time.Time
	Method   string
	Params   json.RawMessage
	Header   map[string]string
	Progress bool
	Status   string // ok, error, timed out, cancelled, no response
	Code     int    // the JSON-RPC error code of an error answer
	Duration time.Duration
	// Nested are the server's own requests during a call of the History
	// (none for the tester's requests).
	Nested []NestedRequest
}

// Label is the history row: time, method, status and duration.
func (e HistoryEntry) Label() string {
	s := e.Time.Local().Format("15:04:05") + " — " + e.Method + " (" + e.Status
	if e.Code != 0 {
		s += " " + itoa(e.Code)
	}
	s += ")"
	if e.Duration > 0 {
		s += " " + latency(e.Duration)
	}
	return s
}

// latency writes a round trip as the inspector's badges do: 17ms, 1.2s.
func latency(d time.Duration) string {
	if d < time.Second {
		return itoa(int(d/time.Millisecond)) + "ms"
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// methodTemplates are the params the tester starts from for each method.
var methodTemplates = map[string]string{
	"ping":                     `{}`,
	"tools/list":               `{}`,
	"tools/call":               `{"name": "echo", "arguments": {"message": "test"}}`,
	"resources/list":           `{}`,
	"resources/templates/list": `{}`,
	"resources/read":           `{"uri": ""}`,
	"resources/subscribe":      `{"uri": ""}`,
	"prompts/list":             `{}`,
	"prompts/get":              `{"name": "", "arguments": {}}`,
	"completion/complete":      `{"ref": {"type": "ref/prompt", "name": ""}, "argument": {"name": "", "value": ""}}`,
	"logging/setLevel":         `{"level": "info"}`,
	"tasks/list":               `{}`,
	"tasks/get":                `{"taskId": ""}`,
}

// requestTemplate is the editor's text for method.
func requestTemplate(method string) string {
	params, ok := methodTemplates[method]
	if !ok {
		params = `{}`
	}
	var p any
	_ = json.Unmarshal([]byte(params), &p)
	b, _ := json.MarshalIndent(map[string]any{"jsonrpc": "2.0", "method": method, "params": p}, "", "  ")
	return string(b)
}

// jsonErrorText says where text fails to be JSON ("line 3, column 7:
// unexpected character 'x'"), or "" when it is valid.
func jsonErrorText(text string) string {
	msg, _, _ := jsonProblem(text)
	return msg
}

// jsonProblem is jsonErrorText with the line and column it names (0, 0
// for an empty text, which has nothing to point at).
func jsonProblem(text string) (msg string, line, col int) {
	if strings.TrimSpace(text) == "" {
		return "line 1, column 1: the request is empty", 0, 0
	}
	var v any
	err := json.Unmarshal([]byte(text), &v)
	if err == nil {
		return "", 0, 0
	}
	var se *json.SyntaxError
	off := int64(len(text))
	msg = "unexpected text"
	if errors.As(err, &se) {
		off = se.Offset
		msg = plain.Syntax(se) // plain words, as the window's other JSON errors
	}
	line, col = lineCol(text, off)
	return fmt.Sprintf("line %d, column %d: %s", line, col, msg), line, col
}

// lineCol turns a byte offset (the JSON decoder's: the byte just read)
// into a 1-based line and column.
func lineCol(text string, off int64) (line, col int) {
	if off > int64(len(text)) {
		off = int64(len(text))
	}
	before := text[:off]
	line = strings.Count(before, "\n") + 1
	col = len([]rune(before[strings.LastIndexByte(before, '\n')+1:]))
	if col == 0 {
		col = 1
	}
	return line, col
}

// parseRequest reads the editor's request: a JSON-RPC message with a
// method and optional params. Its id, if any, is ignored (the session
// gives one).
func parseRequest(text string) (method string, params json.RawMessage, err error) {
	if e := jsonErrorText(text); e != "" {
		return "", nil, errors.New(e)
	}
	var env struct {
		Method *string         `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		return "", nil, errors.New("the request must be a JSON object with \"method\" and \"params\"")
	}
	if env.Method == nil || strings.TrimSpace(*env.Method) == "" {
		return "", nil, errors.New(`the request has no "method": add "method": "name/of/method"`)
	}
	if p := bytes.TrimSpace(env.Params); string(p) == "null" {
		env.Params = nil
	}
	return *env.Method, env.Params, nil
}

// editorPlaceholder is what the empty request editor shows.
const editorPlaceholder = `{"jsonrpc": "2.0", "method": "…", "params": {…}}`

// testerScreen is the Advanced JSON-RPC Tester.
type testerScreen struct {
	ss *serverScreens

	template   *widget.Select
	jsonEd     *jsonedit.Editor // the request editor (coloured, marks errors)
	editor     *jsonedit.Entry  // its text
	jsonErr    *widget.Label
	progress   *widget.Check
	headerRows *fyne.Container
	headers    []*headerRow
	addHeader  *widget.Button
	send       *widget.Button
	cancelBtn  *widget.Button
	running    context.CancelFunc // the waiting request's, nil when none waits
	cancelled  bool               // the user cancelled the waiting request
	badge      *badge
	replyInfo  *widget.Label
	response   *widget.Label
	copyResp   *widget.Button
	saveResp   *widget.Button // Save to collection… of the request answered
	sentSeq    uint64         // the request saveResp saves
	progBar    *widget.ProgressBar
	progText   *widget.Label
	notes      *fyne.Container
	loadHist   *widget.Select
	histBox    *fyne.Container
	history    []HistoryEntry
	extra      []string // methods named by the server's experimental capabilities
	obj        fyne.CanvasObject
}

// headerRow is one custom header of the request.
type headerRow struct {
	name, value *widget.Entry
	obj         fyne.CanvasObject
}

func (t *testerScreen) buildUI() fyne.CanvasObject {
	t.jsonEd = jsonedit.New()
	t.editor = t.jsonEd.Entry
	t.jsonEd.SetMinRowsVisible(9)
	t.jsonEd.SetPlaceHolder(editorPlaceholder)
	t.jsonEd.PassWheel = func(ev *fyne.ScrollEvent) { // the page scrolls on over the editor
		if s := t.ss.exp.scroll; s != nil {
			s.Scrolled(ev)
		}
	}
	t.editor.OnChanged = func(string) { t.onEdited() }
	t.jsonErr = widget.NewLabel("")
	t.jsonErr.Importance = widget.DangerImportance
	t.jsonErr.Truncation = fyne.TextTruncateEllipsis // one line, so the space kept for it is enough
	t.jsonErr.Hide()
	// The line's space is kept while the JSON parses, so its coming and
	// going never moves Send Request from under the pointer.
	errRoom := canvas.NewRectangle(color.Transparent)
	errRoom.SetMinSize(fyne.NewSize(0, widget.NewLabel("x").MinSize().Height))
	t.template = widget.NewSelect(t.methods(), t.onTemplate)
	t.template.PlaceHolder = "Template for a method…"
	t.progress = widget.NewCheck("Ask for progress", nil)

	t.headerRows = container.NewVBox()
	t.addHeader = widget.NewButtonWithIcon("Add Header", theme.ContentAddIcon(), func() { t.onAddHeader("", "") })
	headerNote := wrapLabel("Sent with this request only, on top of the server's own headers.")
	if tr := t.ss.s.cfg.Transport; tr == "stdio" || tr == "" {
		headerNote.SetText("Custom headers travel only over HTTP; this server runs over stdio.")
		t.addHeader.Disable()
	}
	headerNote.SizeName = theme.SizeNameCaptionText

	t.send = widget.NewButtonWithIcon("Send Request", theme.MailSendIcon(), t.onSend)
	t.send.Importance = widget.HighImportance
	t.cancelBtn = widget.NewButtonWithIcon("Cancel", theme.MediaStopIcon(), t.onCancel)
	t.cancelBtn.Hide()
	t.loadHist = widget.NewSelect(nil, t.onLoadHistory)
	t.loadHist.PlaceHolder = "Load from History"

	t.badge = newBadge("not sent", "")
	t.replyInfo = widget.NewLabel("")
	t.response = widget.NewLabel("")
	t.response.TextStyle = fyne.TextStyle{Monospace: true}
	t.response.Wrapping = fyne.TextWrapBreak
	t.response.Selectable = true
	t.copyResp = copyButton("Copy", func() string { return t.response.Text })
	t.copyResp.Disable()
	t.saveResp = t.newSaveButton()
	t.progBar = widget.NewProgressBar()
	t.progBar.Hide()
	t.progText = widget.NewLabel("")
	t.progText.Hide()
	t.notes = container.NewVBox()
	t.histBox = container.NewVBox()

	t.editor.SetText(requestTemplate("ping"))
	t.loadStoredHistory()

	idNote := wrapLabel("The id is given by the session when the request is sent, so it never collides with its own. " +
		"Put _meta (a progressToken of your own too) in params: the session adds its own _meta entries only where you left them out, " +
		"and Ask for progress adds a progressToken when params._meta has none.")
	idNote.SizeName = theme.SizeNameCaptionText
	box := container.NewVBox(
		heading("Advanced JSON-RPC Tester"),
		wrapLabel("Send raw JSON-RPC requests to test any method, standard or experimental. Every request is recorded in the inspector."),
		heading("Custom headers (optional)"),
		t.headerRows,
		container.NewHBox(t.addHeader),
		headerNote,
		heading("Request"),
		container.NewBorder(nil, nil, widget.NewLabel("Method template"), nil, t.template),
		t.jsonEd,
		container.NewStack(errRoom, t.jsonErr),
		idNote,
		t.progress,
		container.NewBorder(nil, nil, nil, container.NewHBox(t.cancelBtn, t.send), t.loadHist),
		widget.NewSeparator(),
		container.NewBorder(nil, nil, heading("Response"), container.NewHBox(t.saveResp, t.copyResp), container.NewHBox(container.NewCenter(t.badge), t.replyInfo)), // centred: an HBox would stretch the pill to the buttons' height
		t.response,
		t.progBar, t.progText,
		t.notes,
		widget.NewSeparator(),
		heading("Request history"),
		t.histBox,
	)
	t.obj = box
	return box
}

// methods are the template choices: the standard methods and the
// server's experimental ones.
func (t *testerScreen) methods() []string {
	out := make([]string, 0, len(methodTemplates)+len(t.extra))
	for m := range methodTemplates {
		out = append(out, m)
	}
	sort.Strings(out)
	return append(out, t.extra...)
}

// setExperimentalMethods adds the server's experimental methods to the
// template choices.
func (t *testerScreen) setExperimentalMethods(ms []string) {
	t.extra = ms
	t.template.Options = t.methods()
	t.template.Refresh()
}

func (t *testerScreen) onTemplate(method string) {
	if method != "" {
		t.editor.SetText(requestTemplate(method))
	}
}

// prefill opens the tester on method (the Experimental screen's Test →).
func (t *testerScreen) prefill(method string) {
	t.editor.SetText(requestTemplate(method))
}

func (t *testerScreen) onEdited() {
	e, line, col := jsonProblem(t.editor.Text)
	t.jsonEd.SetProblem(line, col)
	if e != "" {
		t.jsonErr.SetText(e)
		t.jsonErr.Show()
		return
	}
	t.jsonErr.Hide()
}

func (t *testerScreen) onAddHeader(name, value string) {
	r := &headerRow{name: widget.NewEntry(), value: widget.NewEntry()}
	r.name.SetPlaceHolder("Header-Name")
	r.value.SetPlaceHolder("value")
	r.name.SetText(name)
	r.value.SetText(value)
	rm := widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { t.onRemoveHeader(r) })
	rm.Importance = widget.LowImportance
	r.obj = container.NewBorder(nil, nil, nil, rm, container.NewGridWithColumns(2, r.name, r.value))
	t.headers = append(t.headers, r)
	t.headerRows.Add(r.obj)
}

func (t *testerScreen) onRemoveHeader(r *headerRow) {
	for i, h := range t.headers {
		if h == r {
			t.headers = append(t.headers[:i], t.headers[i+1:]...)
			break
		}
	}
	t.headerRows.Remove(r.obj)
}

// header is the custom headers as a map (rows without a name skipped).
func (t *testerScreen) header() map[string]string {
	if len(t.headers) == 0 {
		return nil
	}
	h := map[string]string{}
	for _, r := range t.headers {
		if n := strings.TrimSpace(r.name.Text); n != "" {
			h[n] = r.value.Text
		}
	}
	return h
}

func (t *testerScreen) onSend() {
	method, params, err := parseRequest(t.editor.Text)
	if err != nil {
		t.jsonErr.SetText(err.Error())
		t.jsonErr.Show()
		return
	}
	c := t.ss.conn()
	rc, ok := c.(RawConn)
	if !ok {
		t.ss.s.w.toast("error", "This connection cannot send raw requests.")
		return
	}
	req := RawRequest{Method: method, Params: params, Header: t.header(), Progress: t.progress.Checked}
	t.send.Disable()
	t.badge.Set("waiting", "warning")
	t.replyInfo.SetText("")
	t.response.SetText("")
	t.copyResp.Disable()
	t.saveResp.Disable()
	t.progBar.Hide()
	t.progText.Hide()
	t.notes.RemoveAll()
	ctx, cancel := context.WithCancel(t.ss.ctx)
	t.running, t.cancelled = cancel, false
	t.cancelBtn.Show()
	started := time.Now()
	progress := func(p Progress) { do(func() { t.onProgress(p) }) }
	notify := func(n Notification) { do(func() { t.onRelated(n) }) }
	go func() {
		defer cancel()
		rep, err := rc.SendRaw(ctx, req, progress, notify)
		do(func() {
			if t.ss.ctx.Err() == nil {
				t.onReply(req, started, rep, err)
			}
		})
	}()
}

// onCancel stops waiting for the request: the session sends
// notifications/cancelled and the request's outcome is cancelled.
func (t *testerScreen) onCancel() {
	if t.running != nil {
		t.cancelled = true
		t.running()
	}
}

func (t *testerScreen) onProgress(p Progress) {
	t.progBar.Show()
	t.progText.Show()
	if p.Total > 0 {
		t.progBar.Max = p.Total
		t.progBar.SetValue(p.Progress)
	}
	s := fmt.Sprintf("Progress %g", p.Progress)
	if p.Total > 0 {
		s += fmt.Sprintf(" of %g", p.Total)
	}
	if p.Message != "" {
		s += " — " + p.Message
	}
	t.progText.SetText(s)
}

// onRelated shows a notification the server sent for this request.
func (t *testerScreen) onRelated(n Notification) {
	l := widget.NewLabel(n.Method + " " + string(n.Params))
	l.Wrapping = fyne.TextWrapBreak
	l.TextStyle = fyne.TextStyle{Monospace: true}
	t.notes.Add(l)
}

// onReply shows the answer: the response exactly as recorded in the
// inspector when it is there, its outcome badge, and adds it to the
// history.
func (t *testerScreen) onReply(req RawRequest, started time.Time, rep RawReply, err error) {
	t.send.Enable()
	t.cancelBtn.Hide()
	t.running = nil
	entry := HistoryEntry{Time: started, Method: req.Method, Params: req.Params, Header: req.Header, Progress: req.Progress, Duration: rep.Duration}
	badgeText, level := "", ""
	var raw []byte
	if rep.Seq > 0 {
		if ev, ok := t.ss.s.w.be.Events().Get(rep.Seq); ok {
			badgeText, level = ev.Badge, ev.BadgeLevel
			if ev.Pair > 0 {
				if resp, ok := t.ss.s.w.be.Events().Get(ev.Pair); ok {
					raw = resp.Raw
				}
			}
		}
	}
	switch {
	case err != nil && t.cancelled:
		entry.Status = "cancelled"
		t.response.SetText("Cancelled: Spyglass sent notifications/cancelled and stopped waiting for the answer.")
		badgeText, level = "cancelled", "warning"
	case err != nil:
		entry.Status = "no response"
		if badgeText != "" {
			entry.Status = badgeText
		}
		head, _ := plainError(err)
		t.response.SetText("No response: " + head)
		if badgeText == "" {
			badgeText, level = "no response", "error"
		}
	case rep.Error != nil:
		entry.Status, entry.Code = "error", rep.Error.Code
		if raw == nil {
			raw, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(orNull(rep.ID)),
				"error": map[string]any{"code": rep.Error.Code, "message": rep.Error.Message}})
		}
		if code := fmt.Sprintf("error %d", rep.Error.Code); badgeText == "" {
			badgeText, level = code, "error"
		} else {
			badgeText = strings.Replace(badgeText, "error", code, 1) // "error -32601 · 3ms"
		}
	default:
		entry.Status = "ok"
		if raw == nil {
			raw, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(orNull(rep.ID)), "result": rep.Result})
		}
		if badgeText == "" {
			badgeText, level = "ok", "ok"
		}
	}
	if raw != nil {
		t.response.SetText(prettyJSON(raw))
	}
	t.copyResp.SetIcon(theme.ContentCopyIcon()) // not the check mark of the last response's Copy
	t.copyResp.Enable()
	t.onAnswered(rep.Seq, raw != nil)
	t.badge.Set(badgeText, level)
	info := ""
	if rep.ID != "" {
		info = "id " + rep.ID
	}
	if rep.Duration > 0 {
		info += " · " + latency(rep.Duration)
	}
	if rep.Error != nil {
		info += " · " + rep.Error.Message
	}
	t.replyInfo.SetText(info)
	t.addHistory(entry)
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// store is the backend's TesterStore, or nil.
func (t *testerScreen) store() TesterStore {
	st, _ := t.ss.s.w.be.(TesterStore)
	return st
}

func (t *testerScreen) loadStoredHistory() {
	st := t.store()
	if st == nil {
		return
	}
	name := t.ss.s.cfg.Name
	go func() {
		hs, err := st.History(name)
		do(func() {
			if err != nil {
				t.ss.s.w.toastErr("warning", "Could not read the tester's history", err)
			}
			t.history = append(t.history, hs...)
			t.showHistory()
		})
	}()
}

func (t *testerScreen) addHistory(e HistoryEntry) {
	t.history = append([]HistoryEntry{e}, t.history...)
	t.showHistory()
	if st := t.store(); st != nil {
		name, w := t.ss.s.cfg.Name, t.ss.s.w
		w.saveInBackground(func() {
			if err := st.AddHistory(name, e); err != nil {
				do(func() { w.toastErr("warning", "Could not save the tester's history", err) })
			}
		})
	}
}

// showHistory redraws the history rows and the Load from History choices.
func (t *testerScreen) showHistory() {
	const shown = 50
	t.histBox.RemoveAll()
	var opts []string
	for i, e := range t.history {
		if i == shown {
			break
		}
		opts = append(opts, e.Label())
		t.histBox.Add(widget.NewLabel(e.Label()))
	}
	if len(t.history) == 0 {
		t.histBox.Add(emptyState("No requests sent yet."))
	}
	t.loadHist.Options = opts
	t.loadHist.ClearSelected()
	t.loadHist.Refresh()
}

// onLoadHistory puts a history entry back into the editor.
func (t *testerScreen) onLoadHistory(label string) {
	for _, e := range t.history {
		if e.Label() != label {
			continue
		}
		var p any
		if json.Unmarshal(e.Params, &p) != nil {
			p = nil
		}
		m := map[string]any{"jsonrpc": "2.0", "method": e.Method}
		if p != nil {
			m["params"] = p
		}
		b, _ := json.MarshalIndent(m, "", "  ")
		t.editor.SetText(string(b))
		t.progress.SetChecked(e.Progress)
		for len(t.headers) > 0 {
			t.onRemoveHeader(t.headers[0])
		}
		names := make([]string, 0, len(e.Header))
		for k := range e.Header {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			t.onAddHeader(k, e.Header[k])
		}
		return
	}
}
