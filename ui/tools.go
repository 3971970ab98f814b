package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/form"
	"github.com/spyglass-mcp/spyglass/ui/ident"
	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
)

// toolsScreen lists a server's tools; selecting one shows its form, Run,
// progress and the result.
type toolsScreen struct {
	ss *serverScreens
	// waiting names the tools whose rows said "waiting for you" when
	// the rows were last looked at (requestsChanged)
	waiting  string
	all      []Tool
	shown    []Tool
	selected *Tool
	lastArgs map[string]json.RawMessage // last arguments per tool, for this session
	offer    *offerPane                 // the pane while the server offers no tools

	// rows are what the list draws (the shown tools, under group headers
	// when grouped: toolgroups.go); hay the lower-cased text of each of
	// all for search; groupOf each tool's group (nil: not grouped).
	rows      []toolRow
	hay       []string
	groupOf   []string
	collapsed map[string]bool

	search  *widget.Entry
	list    *widget.List
	banner  *listBanner
	status  *widget.Label
	cache   *cacheBadge
	detail  *fyne.Container
	name    *widget.Label // the tool's title, when it has one
	ident   *ident.Text   // its name: the heading, or a caption under the title
	desc    *widget.Label
	badges  *fyne.Container
	refused *widget.Label // why the selected tool is not called (HeaderError)
	args    argsEditor
	argsBox *fyne.Container
	asTask  *widget.Check
	runBtn  *widget.Button
	cancel  *widget.Button
	prog    *widget.ProgressBar
	progInf *widget.ProgressBarInfinite
	progMsg *widget.Label
	result  *fyne.Container
	// calls are each tool's call and what it left (by tool name), shown
	// whenever that tool is selected; running is the shown tool's call
	// while it runs (nil otherwise: Run calls it, Cancel stops it).
	calls   map[string]*toolCall
	running context.CancelFunc
	inline  *fyne.Container   // holds the shown call's server requests (ShowRequestInline)
	formObj fyne.CanvasObject // the scrollable form, shown once a tool is selected
	icons   map[string]fyne.CanvasObject
	next    string // cursor of the next page
	more    *widget.Button
	// sendAnyway skips validation once the user confirmed.
	sendAnyway bool
}

// toolCall is one tool's call on the Tools screen and what it left (#12):
// while it runs, its progress and the server requests it sent; once it
// ended, its result. It belongs to its tool: selecting another tool shows
// that tool's own, and a call that ends while its tool is not shown marks
// the tool's row instead of replacing what is shown.
type toolCall struct {
	cancel  context.CancelFunc // nil once the call ended
	started time.Time
	// the last progress: total 0 shows the bar that runs without end
	progress, total float64
	msg             string
	requests        *fyne.Container // the server requests it sent (holdLayout each)
	sent            []string        // their ids, in the order they came
	result          []fyne.CanvasObject
	// mark is the row's badge of a call that ended unseen ("done",
	// "failed", "cancelled") until its tool is shown.
	mark, markLevel string
}

// argsEditor is the arguments editor of a tool or prompt: the schema form
// (ui/form), or a JSON text field.
type argsEditor interface {
	Object() fyne.CanvasObject
	// JSON returns the arguments object to send.
	JSON() (json.RawMessage, error)
	// FirstField is the control that takes the focus when the form is
	// shown (nil: none).
	FirstField() fyne.Focusable
}

// jsonArgs is the JSON text field editor (coloured; a syntax error's
// position is marked as it is typed).
type jsonArgs struct {
	ed *jsonedit.Editor
	e  *jsonedit.Entry
}

func newJSONArgs(schema json.RawMessage, prev string) *jsonArgs {
	ed := jsonedit.New()
	ed.SetMinRowsVisible(6)
	e := ed.Entry
	e.OnChanged = func(text string) {
		_, line, col := jsonProblem(text)
		ed.SetProblem(line, col)
	}
	if prev != "" {
		e.SetText(prev)
	} else {
		e.SetText(argsSkeleton(schema))
	}
	return &jsonArgs{ed: ed, e: e}
}

// Object implements argsEditor.
func (j *jsonArgs) Object() fyne.CanvasObject { return j.ed }

// FirstField implements argsEditor: the JSON text.
func (j *jsonArgs) FirstField() fyne.Focusable { return j.e }

// JSON implements argsEditor.
func (j *jsonArgs) JSON() (json.RawMessage, error) {
	t := strings.TrimSpace(j.e.Text)
	if t == "" {
		return json.RawMessage("{}"), nil
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(t), &v); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	return json.RawMessage(t), nil
}

// argsSkeleton is a starting JSON object for a schema: defaults, and a
// placeholder of the right type for every required property.
func argsSkeleton(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type    any `json:"type"`
			Default any `json:"default"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return "{}"
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	out := map[string]any{}
	for k, p := range s.Properties {
		switch {
		case p.Default != nil:
			out[k] = p.Default
		case req[k]:
			switch p.Type {
			case "number", "integer":
				out[k] = 0
			case "boolean":
				out[k] = false
			case "array":
				out[k] = []any{}
			case "object":
				out[k] = map[string]any{}
			default:
				out[k] = ""
			}
		}
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	return string(b)
}

func (t *toolsScreen) buildUI() fyne.CanvasObject {
	t.lastArgs = map[string]json.RawMessage{}
	t.calls = map[string]*toolCall{}
	t.search = widget.NewEntry()
	t.search.SetPlaceHolder("Search tools")
	t.search.OnChanged = func(string) { t.applyFilter() }
	t.list = widget.NewList(
		func() int { return len(t.rows) },
		func() fyne.CanvasObject {
			// the title has the row's whole width; the caption line
			// (name · description) carries the annotation icons
			name := widget.NewLabel("tool")
			name.TextStyle = fyne.TextStyle{Bold: true}
			name.Truncation = fyne.TextTruncateEllipsis
			desc := widget.NewLabel("")
			desc.Truncation = fyne.TextTruncateEllipsis
			desc.SizeName = theme.SizeNameCaptionText
			// the title row's badge says a call runs or ended unseen
			return container.NewVBox(
				container.NewBorder(nil, nil, container.NewStack(), container.NewCenter(newBadge("", "")), name),
				container.NewBorder(nil, nil, nil, container.NewHBox(), desc))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(t.rows) {
				return
			}
			box := o.(*fyne.Container)
			row := box.Objects[0].(*fyne.Container)
			left := row.Objects[1].(*fyne.Container)
			left.Objects = nil
			caption := box.Objects[1].(*fyne.Container)
			icons := caption.Objects[1].(*fyne.Container)
			mark := row.Objects[2].(*fyne.Container).Objects[0].(*badge)
			if r := t.rows[i]; r.tool == nil { // a group's header
				mark.Set("", "")
				head, sub := r.headerText(t.collapsed[r.group])
				row.Objects[0].(*widget.Label).SetText(head)
				left.Refresh()
				icons.Objects = nil
				icons.Refresh()
				caption.Objects[0].(*widget.Label).SetText(sub)
				return
			}
			tool := *t.rows[i].tool
			mark.Set(t.rowMark(tool.Name))
			row.Objects[0].(*widget.Label).SetText(firstNonEmpty(tool.Title, tool.Name))
			if img := t.icon(tool); img != nil {
				left.Objects = []fyne.CanvasObject{img}
			}
			left.Refresh()
			icons.Objects = annotationIcons(tool)
			icons.Refresh()
			// the name under a title that is not it; a row titled by its
			// name gives the whole line to the description (it read
			// "echo" over "echo · Echoes th…")
			sub := tool.Name
			if d := firstLine(tool.Description); d != "" {
				if tool.Title == "" || tool.Title == tool.Name {
					sub = d
				} else {
					sub += " · " + d
				}
			}
			caption.Objects[0].(*widget.Label).SetText(sub)
		})
	t.list.OnSelected = func(i widget.ListItemID) {
		if i >= len(t.rows) {
			return
		}
		if r := t.rows[i]; r.tool == nil {
			t.list.Unselect(i)
			t.onToggleGroup(r.group)
			return
		}
		t.onSelect(*t.rows[i].tool)
	}
	t.banner = newListBanner(t.onRefresh)
	t.status = widget.NewLabel("Loading tools…")
	t.status.SizeName = theme.SizeNameCaptionText
	t.more = nextPageButton(t.onNextPage)
	t.cache = t.ss.cache.badge()
	left := container.NewBorder(container.NewVBox(t.banner.obj, t.search, t.status, t.cache.obj), t.more, nil, nil, t.list)

	t.name = heading("")
	t.name.SizeName = theme.SizeNameSubHeadingText
	t.name.Wrapping = fyne.TextWrapWord
	t.name.Hide()
	t.ident = ident.New("")
	t.desc = wrapLabel("")
	t.badges = wrapRow()
	t.refused = wrapLabel("")
	t.refused.Importance = widget.WarningImportance
	t.refused.Hide()
	t.argsBox = container.NewStack()
	t.asTask = widget.NewCheck("Run as task", nil)
	t.asTask.Hide()
	t.runBtn = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), t.onRun)
	t.runBtn.Importance = widget.HighImportance
	t.cancel = widget.NewButtonWithIcon("Cancel", theme.MediaStopIcon(), t.onCancel)
	t.cancel.Hide()
	t.prog = widget.NewProgressBar()
	t.prog.Hide()
	t.progInf = widget.NewProgressBarInfinite()
	t.progInf.Hide()
	t.progMsg = widget.NewLabel("")
	t.progMsg.Hide()
	t.inline = container.NewStack()
	t.result = container.NewVBox()
	form := container.NewVBox(
		t.name, t.ident, t.badges, t.refused, t.desc,
		heading("Arguments"), t.argsBox,
		wrapRow(t.runBtn, t.cancel, t.asTask, runHint()),
		t.prog, t.progInf, t.progMsg, t.inline,
		widget.NewSeparator(),
		t.result,
	)
	t.detail = container.NewStack(emptyState("Select a tool to see its arguments and run it."))
	t.offer = newOfferPane(t.detail, t.search)
	t.formObj = esc.NewVScroll(container.NewPadded(form))
	return listSplit(left, t.detail)
}

// runHint is the muted "Ctrl+Enter" (⌘+Enter on macOS) beside a
// screen's main button (Run, Get prompt, Read): the keys that press it
// from anywhere in the form (see serverScreens.mainAction).
func runHint() *widget.Label {
	_, mod := shortcutMod()
	hint := widget.NewLabel(mod + "+Enter")
	hint.Importance = widget.LowImportance
	hint.SizeName = theme.SizeNameCaptionText
	return hint
}

// icon is the tool's own icon (from its icons list), decoded once.
func (t *toolsScreen) icon(tool Tool) fyne.CanvasObject {
	if tool.IconURL == "" {
		return nil
	}
	if t.icons == nil {
		t.icons = map[string]fyne.CanvasObject{}
	}
	img, ok := t.icons[tool.Name]
	if !ok {
		if im := iconImage(tool.IconURL); im != nil {
			if ci, ok := im.(*canvas.Image); ok {
				ci.SetMinSize(fyne.NewSize(20, 20))
			}
			img = im
		}
		t.icons[tool.Name] = img
	}
	return img
}

// showHeading heads the form with the tool's title, its name as a
// caption under it, or with the name alone when it has no other title.
// The name never sits in the title's label: "Weather (trigger-elicitation-
// request)" wrapped there broke the name inside a word.
func (t *toolsScreen) showHeading(tool Tool) {
	if tool.Title != "" && tool.Title != tool.Name {
		t.name.SetText(tool.Title)
		t.name.Show()
		t.ident.Heading = false
	} else {
		t.name.Hide()
		t.ident.Heading = true
	}
	t.ident.SetText(tool.Name)
}

// annotationIcons are the small icons of a tool's annotations in the list.
func annotationIcons(t Tool) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	if t.ReadOnly {
		out = append(out, widget.NewIcon(theme.VisibilityIcon()))
	}
	if t.Destructive {
		out = append(out, widget.NewIcon(theme.WarningIcon()))
	}
	if t.TaskSupport == "optional" || t.TaskSupport == "required" {
		out = append(out, widget.NewIcon(theme.HistoryIcon()))
	}
	return out
}

// annotationBadges are a tool's annotations as badges.
func annotationBadges(t Tool) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	add := func(on bool, text, level string) {
		if on {
			out = append(out, newBadge(text, level))
		}
	}
	add(t.ReadOnly, "read-only", "ok")
	add(t.Destructive, "destructive", "error")
	add(t.Idempotent, "idempotent", "primary")
	add(t.OpenWorld, "open world", "warning")
	add(t.TaskSupport == "optional" || t.TaskSupport == "required", "task: "+t.TaskSupport, "primary")
	add(len(t.OutputSchema) > 0, "output schema", "")
	return out
}

func (t *toolsScreen) onRefresh() {
	t.banner.hide()
	t.all = nil
	t.loadPage("")
}

// onNextPage loads the next page of a paginated list.
func (t *toolsScreen) onNextPage() { t.loadPage(t.next) }

func (t *toolsScreen) loadPage(cursor string) {
	run(t.ss, func(ctx context.Context, c Conn) (page[Tool], error) {
		asked := time.Now()
		tools, next, err := c.ListTools(ctx, cursor)
		return page[Tool]{tools, next, asked}, err
	}, func(p page[Tool], err error) {
		if err != nil {
			t.offer.failed(t.status, "tools", err, "tools", "tools/list")
			t.status.Show()
			return
		}
		t.offer.offered()
		if cursor == "" {
			t.banner.listed(p.asked)
		}
		t.all = append(t.all, p.items...)
		t.hay = nil // a new listing: search and groups are made again
		if c := t.ss.conn(); c != nil && cursor == "" {
			t.cache.set(lastHint(c, "tools/list"), listContent(p.items))
		}
		t.next = p.next
		if p.next != "" {
			t.more.Show()
		} else {
			t.more.Hide()
		}
		t.applyFilter()
	})
}

func (t *toolsScreen) onListChanged(at time.Time) {
	t.cache.listChanged()
	if t.ss.s.cfg.AutoRefreshOnListChanged {
		t.onRefresh()
		return
	}
	t.banner.listChanged(at)
}

func (t *toolsScreen) applyFilter() {
	t.filterRows(strings.ToLower(strings.TrimSpace(t.search.Text)))
	switch {
	case len(t.all) == 0:
		t.status.SetText("This server offers no tools.")
		t.status.Show()
	case len(t.shown) == 0:
		t.status.SetText(noMatch("tool", t.search.Text))
		t.status.Show()
	default:
		t.status.SetText(listCount(len(t.shown), len(t.all), "tool"))
		t.status.Show()
	}
	t.list.UnselectAll()
	t.list.Refresh()
	if t.selected != nil {
		if i := t.rowOf(t.selected.Name); i >= 0 {
			t.list.Select(i)
		}
	}
}

// onSelect shows tool's form, and its call: running, or what it left.
func (t *toolsScreen) onSelect(tool Tool) {
	if t.selected != nil && t.selected.Name == tool.Name && t.detail.Objects[0] == t.formObj {
		return
	}
	before := t.shownRequests()
	t.saveArgs()
	t.selected = &tool
	t.showHeading(tool)
	t.desc.SetText(tool.Description)
	t.badges.Objects = annotationBadges(tool)
	t.badges.Refresh()
	if tool.HeaderError != nil {
		head, _ := plainError(tool.HeaderError)
		t.refused.SetText("⚠ Spyglass does not call this tool: " + head)
		t.refused.Show()
	} else {
		t.refused.Hide()
	}
	t.args = t.ss.s.w.newArgsEditor(tool.InputSchema, t.lastArgs[tool.Name], t.onRun)
	t.argsBox.Objects = []fyne.CanvasObject{t.args.Object()}
	t.argsBox.Refresh()
	t.asTask.SetChecked(tool.TaskSupport == "required")
	if tool.TaskSupport == "optional" || tool.TaskSupport == "required" {
		t.asTask.Show()
	} else {
		t.asTask.Hide()
	}
	t.showCall()
	t.showRecordedCalls(tool)
	t.detail.Objects = []fyne.CanvasObject{t.formObj}
	t.detail.Refresh()
	t.formObj.(*container.Scroll).ScrollToTop() // a new tool's form starts at its top
	// unless its call waits for an answer
	if t.shownRequests() > 0 {
		t.revealRequests()
	}
	if c := t.calls[tool.Name]; c != nil && c.mark != "" {
		c.mark, c.markLevel = "", "" // seen now
		t.list.Refresh()
	}
	if t.shownRequests() != before { // the queue below takes room for the others
		t.ss.s.w.SetRequestCount(t.ss.s.w.reqCount)
	}
	t.ss.focusField(t.args.FirstField())
}

// shownCall is the call of the tool shown (nil: none yet).
func (t *toolsScreen) shownCall() *toolCall {
	if t.selected == nil {
		return nil
	}
	return t.calls[t.selected.Name]
}

// showCall draws the shown tool's call into the form: Run or Cancel, its
// progress and server requests while it runs, its result once it ended.
func (t *toolsScreen) showCall() {
	c := t.shownCall()
	t.running = nil
	if c != nil && c.cancel != nil {
		t.running = c.cancel
		t.runBtn.Disable()
		t.cancel.Show()
		t.showProgress(c)
		t.progMsg.Show()
		t.inline.Objects = []fyne.CanvasObject{c.requests}
	} else {
		t.runBtn.Enable()
		t.cancel.Hide()
		t.prog.Hide()
		t.progInf.Stop()
		t.progInf.Hide()
		t.progMsg.Hide()
		t.inline.Objects = nil
	}
	t.inline.Refresh()
	t.result.Objects = nil
	if c != nil {
		t.result.Objects = c.result
	}
	t.result.Refresh()
	t.ss.s.w.updateMenu() // Tools → Run tool and Cancel call follow the shown call
}

// showProgress draws c's last progress: a bar once the server gave a
// total, else the one that runs without end.
func (t *toolsScreen) showProgress(c *toolCall) {
	if c.total > 0 {
		t.progInf.Stop()
		t.progInf.Hide()
		t.prog.Max = c.total
		t.prog.SetValue(c.progress)
		t.prog.Show()
	} else {
		t.prog.Hide()
		t.progInf.Show()
		t.progInf.Start()
	}
	t.progMsg.SetText(c.msg)
}

// requestsChanged redraws the rows when a server request that came or
// left changes a running call's mark ("waiting for you", then "running"
// again once it is answered or the server cancelled it).
func (t *toolsScreen) requestsChanged() {
	var names []string
	for name := range t.calls {
		if mark, _ := t.rowMark(name); mark == "waiting for you" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if key := strings.Join(names, "\x00"); key != t.waiting {
		t.waiting = key
		t.list.Refresh()
	}
}

// rowMark is the badge of the tool's row: its call runs, or ended while
// the tool was not shown.
func (t *toolsScreen) rowMark(name string) (text, level string) {
	c := t.calls[name]
	switch {
	case c == nil:
		return "", ""
	case c.cancel != nil && visibleRequests(c.requests) > 0:
		return "waiting for you", "warning"
	case c.cancel != nil:
		return "running", "primary"
	}
	return c.mark, c.markLevel
}

func (t *toolsScreen) saveArgs() {
	if t.selected == nil || t.args == nil {
		return
	}
	if args, err := t.args.JSON(); err == nil {
		t.lastArgs[t.selected.Name] = args
	}
}

// setResult makes objs what the shown tool's card says (a failure before
// anything was sent); its call's card until the next call.
func (t *toolsScreen) setResult(objs []fyne.CanvasObject) {
	name := t.selected.Name
	c := t.calls[name]
	if c == nil {
		c = &toolCall{}
		t.calls[name] = c
	}
	c.result = objs
	t.result.Objects = objs
	t.result.Refresh()
}

// onRun calls the selected tool (Run, Ctrl+Enter). Each tool has its own
// call; another tool's that runs goes on.
func (t *toolsScreen) onRun() {
	if t.selected == nil || t.running != nil {
		return
	}
	if err := t.selected.HeaderError; err != nil {
		t.setResult(t.protocolError("Not sent: the tool's x-mcp-header declarations are invalid", err))
		return
	}
	args, err := t.args.JSON()
	if errors.Is(err, form.ErrNotSent) {
		return // the editor says where the JSON is broken; said once
	}
	if err != nil {
		t.setResult(t.protocolError("Arguments", err))
		return
	}
	if v, ok := t.args.(interface{ Problems() []string }); ok && !t.sendAnyway {
		if probs := v.Problems(); len(probs) > 0 {
			msg := "The arguments do not match the tool's schema:\n\n• " + strings.Join(probs, "\n• ") + "\n\nSend them anyway?"
			d := esc.NewConfirm("Send invalid arguments?", msg, "Send anyway", func(ok bool) {
				if ok {
					t.sendAnyway = true
					t.onRun()
					t.sendAnyway = false
				}
			}, t.ss.s.w.win)
			// going back to fix them is the choice that stands out
			d.SetConfirmImportance(widget.MediumImportance)
			d.SetDismissImportance(widget.HighImportance)
			esc.Show(d, t.ss.s.w.win)
			return
		}
	}
	t.saveArgs()
	conn := t.ss.conn()
	if conn == nil {
		return
	}
	name := t.selected.Name
	req := ToolCall{Name: name, Arguments: args, AsTask: t.asTask.Visible() && t.asTask.Checked}
	ctx, cancel := context.WithCancel(t.ss.ctx)
	c := &toolCall{cancel: cancel, started: time.Now(), msg: "Running " + name + "…", requests: container.NewVBox()}
	t.calls[name] = c
	t.showCall()
	t.list.Refresh()
	entered := enteredOf(t.args, args)
	go func() {
		res, err := conn.CallTool(ctx, req, func(p Progress) {
			do(func() { t.onProgress(c, p) })
		})
		do(func() {
			t.ss.s.w.inspector.noteEntered(res.Seq, entered)
			t.onResult(name, ctx, res, err)
		})
	}()
}

func (t *toolsScreen) onProgress(c *toolCall, p Progress) {
	if c.cancel == nil {
		return
	}
	if p.Total > 0 {
		c.progress, c.total = p.Progress, p.Total
	}
	c.msg = p.Message
	if c.msg == "" {
		if p.Total > 0 {
			c.msg = fmt.Sprintf("%g of %g", p.Progress, p.Total)
		} else {
			c.msg = fmt.Sprintf("%g", p.Progress)
		}
	}
	if t.shownCall() == c {
		t.showProgress(c)
	}
}

// onCancel cancels the shown tool's running call (notifications/cancelled).
func (t *toolsScreen) onCancel() {
	if t.running != nil {
		t.running()
	}
}

// onResult ends the call of the tool named name (one runs per tool): its
// card is the result or the failure. Shown, the card is brought into
// view; not shown, the tool's row says it ended.
func (t *toolsScreen) onResult(name string, ctx context.Context, res ToolResult, err error) {
	cancelled := ctx.Err() != nil
	c := t.calls[name]
	if c == nil {
		c = &toolCall{started: time.Now()}
		t.calls[name] = c
	}
	if c.cancel != nil {
		c.cancel()
	}
	c.cancel = nil
	t.giveBackRequests(c)
	elapsed := time.Since(c.started).Round(time.Millisecond)
	switch {
	case err != nil && cancelled:
		c.result = []fyne.CanvasObject{container.NewHBox(newBadge("cancelled", "warning")), wrapLabel("You cancelled the call; the server was sent notifications/cancelled.")}
		c.mark, c.markLevel = "cancelled", "warning"
	case err != nil:
		c.result = append(t.protocolError("The call failed", err), attemptObjects(res.Attempt)...)
		c.mark, c.markLevel = "failed", "error"
	default:
		if res.Duration > 0 {
			elapsed = res.Duration
		}
		c.result = t.ss.toolResultObjects(res, elapsed, "tools/call result")
		c.mark, c.markLevel = "done", "ok"
		if res.IsError {
			c.mark, c.markLevel = "tool error", "error"
		}
		if res.TaskID != "" {
			t.ss.tasks.onRefresh()
		}
	}
	shown := t.shownCall() == c
	if shown {
		c.mark, c.markLevel = "", ""
		before := t.shownRequests()
		t.showCall()
		t.formObj.Refresh() // again, now that the wrapping rows know their height
		t.revealResult()
		if t.shownRequests() != before {
			t.ss.s.w.SetRequestCount(t.ss.s.w.reqCount)
		}
	}
	t.list.Refresh()
	// in view, the card or the row's mark says it already; a toast would
	// only cover it
	if err != nil && !cancelled && !t.inView() {
		head, _ := plainError(err)
		t.ss.s.w.toast("error", head)
	}
}

// inView reports whether the user is looking at this screen: its server
// is the one shown and its tab is open.
func (t *toolsScreen) inView() bool {
	w := t.ss.s.w
	tab := t.ss.tabs.Selected()
	return w.selected == t.ss.s && tab != nil && tab.Text == "Tools"
}

// revealResult scrolls the form to the result card when its top landed
// below the fold (a long form); a card already in view keeps the form's
// scroll where the user left it.
func (t *toolsScreen) revealResult() {
	if s, ok := t.formObj.(*container.Scroll); ok {
		esc.RevealHead(s, t.result)
	}
}

// protocolError is the card of a call that failed (or was not sent).
func (t *toolsScreen) protocolError(title string, err error) []fyne.CanvasObject {
	return []fyne.CanvasObject{
		container.NewHBox(widget.NewIcon(theme.ErrorIcon()), heading(title)),
		errorView(err, title, t.ss.s.w.win),
	}
}

// attemptLabel is a tool call's lineage label (the inspector's badge)
// and its explanation.
type attemptLabel struct {
	badge *badge
	text  *widget.Label
}

// attemptLine is the result card's lineage label for a (nil when the call
// has none to show: a first attempt without warnings).
func attemptLine(a *AttemptView) *attemptLabel {
	if a == nil {
		return nil
	}
	text, level := a.Label()
	if text == "" {
		return nil
	}
	l := wrapLabel(a.Explain())
	if level == "warning" {
		l.Importance = widget.WarningImportance
	}
	return &attemptLabel{badge: newBadge(text, level), text: l}
}

// attemptObjects are a failed call's lineage label, put under its error.
func attemptObjects(a *AttemptView) []fyne.CanvasObject {
	lbl := attemptLine(a)
	if lbl == nil {
		return nil
	}
	return []fyne.CanvasObject{container.NewHBox(lbl.badge), lbl.text}
}

// latencyText words a round trip like the inspector's badges: 17ms, 1.2s.
func latencyText(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dms", d.Milliseconds())
}

// toolResultObjects draws a tool's result (a tools/call answer, or the
// result of the task a call started): outcome, the ways to look closer,
// lineage, content and structuredContent. elapsed 0 leaves the round trip
// out; title names the Raw JSON dialog.
func (ss *serverScreens) toolResultObjects(res ToolResult, elapsed time.Duration, title string) []fyne.CanvasObject {
	var objs []fyne.CanvasObject
	// the heading with its outcome, then the ways to look closer
	head := container.NewHBox(heading("Result"))
	if res.IsError {
		head.Add(container.NewCenter(newBadge("tool error (isError)", "error")))
	} else {
		ok := "ok"
		if elapsed > 0 {
			ok += " · " + latencyText(elapsed)
		}
		head.Add(container.NewCenter(newBadge(ok, "ok")))
	}
	raw := widget.NewButtonWithIcon("Raw JSON", theme.FileTextIcon(), func() {
		showRawJSON(title, res.Raw, ss.s.w.win)
	})
	raw.Importance = widget.LowImportance
	links := wrapRow(raw)
	if res.Seq != 0 {
		seq := res.Seq
		insp := widget.NewButtonWithIcon("Request and response", theme.SearchIcon(), func() { ss.s.w.inspectEvent(seq) })
		insp.Importance = widget.LowImportance
		att := widget.NewButtonWithIcon("Attempts", theme.HistoryIcon(), func() { ss.s.w.inspectAttempts(seq) })
		att.Importance = widget.LowImportance
		links.Add(insp)
		links.Add(att)
		if _, ok := ss.s.w.be.(CollectionStore); ok {
			name := ss.s.cfg.Name
			save := widget.NewButtonWithIcon("Save to collection…", theme.DocumentSaveIcon(), func() { ss.s.w.SaveToCollection(name, seq) })
			save.Importance = widget.LowImportance
			links.Add(save)
		}
	}
	objs = append(objs, head, links)
	if lbl := attemptLine(res.Attempt); lbl != nil {
		head.Add(container.NewCenter(lbl.badge))
		objs = append(objs, lbl.text)
	}
	if res.IsError {
		objs = append(objs, wrapLabel("The tool ran and reported an error:"))
	}
	if len(res.Problems) > 0 {
		a := wrapLabel("⚠ The result does not match the MCP schema (shown as far as it can be; Raw JSON has it as sent): " + res.Problems.Error())
		a.Importance = widget.WarningImportance
		objs = append(objs, a)
	}
	if res.TaskID != "" {
		objs = append(objs, wrapLabel("Started task "+res.TaskID+": see the Tasks tab."))
	}
	for _, c := range res.Content {
		objs = append(objs, ss.resultContentView(c))
	}
	if len(res.StructuredContent) > 0 {
		objs = append(objs, heading("structuredContent"))
		if res.SchemaAdvisory != "" {
			a := wrapLabel("⚠ Does not match the outputSchema: " + res.SchemaAdvisory)
			a.Importance = widget.WarningImportance
			objs = append(objs, a)
		}
		tree := newJSONTree()
		tree.SetJSON(res.StructuredContent)
		sc := container.NewVScroll(tree.obj)
		sc.SetMinSize(fyne.NewSize(200, 180))
		objs = append(objs, sc, container.NewHBox(copyButton("Copy", func() string { return prettyJSON(res.StructuredContent) })))
	}
	if len(res.Content) == 0 && len(res.StructuredContent) == 0 && res.TaskID == "" {
		objs = append(objs, emptyState("The tool returned an empty result (no content)."))
	}
	return objs
}
