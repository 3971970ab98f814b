package requests

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/fit"
	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
	"github.com/spyglass-mcp/spyglass/ui/plain"
)

// stopReasons are offered in the Stop Reason dropdown.
var stopReasons = []string{StopEndTurn, StopToolUse, StopMaxTokens, StopStopSequence}

// SamplingOptions configure a SamplingPanel.
type SamplingOptions struct {
	// Profiles are the testing profiles; the active one is preselected.
	Profiles ProfileSet
	// Responder prefills the response and answers Auto-respond; without
	// it the response starts empty and Auto-respond is disabled.
	Responder Responder
	// Window hosts the details modal, image previews and file dialogs.
	Window fyne.Window
	// OnEditProfiles is called by [Edit Profiles] (hidden when nil).
	OnEditProfiles func()
	// Save saves an audio block (the window's save dialog and writer);
	// the block's [Save…] is disabled when nil.
	Save func(name string, data []byte)
}

// SamplingPanel shows one sampling/createMessage request: a compact inline
// view (model hints, message preview, [View Details]) and a full modal view,
// both around one response editor (profile, response text, tool calls,
// model, stop reason) with [Auto-respond] [Edit & Send] [Reject]. It answers
// once, through OnAnswer.
type SamplingPanel struct {
	// OnAnswer gets the user's answer (once).
	OnAnswer func(SamplingAnswer)

	req      SamplingRequest
	params   *samplingParams
	parseErr error
	opts     SamplingOptions
	done     bool

	profileSel *esc.Select
	editBtn    *esc.Button
	response   *esc.Entry // the wheel over it scrolls the pane at its end
	model      *esc.Entry
	stop       *esc.Select
	calls      *fyne.Container
	noCalls    *widget.Label
	callRows   []*toolCallRow
	addCall    *esc.Button
	toolWarn   fyne.CanvasObject
	errLbl     *widget.Label
	noteLbl    *widget.Label
	autoBtn    *esc.Button
	sendBtn    *esc.Button
	rejectBtn  *esc.Button
	answers    *fyne.Container // the row of Auto-respond, Reject, Edit & Send
	editor     *fyne.Container
	inlineSlot *fyne.Container
	modal      *dialog.CustomDialog
	obj        fyne.CanvasObject
}

// toolCallRow is one tool call of a tool_use answer.
type toolCallRow struct {
	tool   *esc.Select
	args   *jsonedit.Entry // the text of argsEd
	argsEd *jsonedit.Editor
	obj    fyne.CanvasObject
}

// NewSamplingPanel returns the panel of req.
func NewSamplingPanel(req SamplingRequest, opts *SamplingOptions) *SamplingPanel {
	p := &SamplingPanel{req: req}
	if opts != nil {
		p.opts = *opts
	}
	p.params, p.parseErr = parseSampling(req.Params)
	p.obj = p.buildUI()
	return p
}

// Object returns the inline view.
func (p *SamplingPanel) Object() fyne.CanvasObject { return p.obj }

// Request returns the request shown.
func (p *SamplingPanel) Request() SamplingRequest { return p.req }

// Answered reports whether the panel has answered or been closed.
func (p *SamplingPanel) Answered() bool { return p.done }

// title names the kind of request.
func (p *SamplingPanel) title() string {
	switch {
	case p.params.hasToolResults():
		return "Sampling Request (continuation with tool results)"
	case len(p.params.Tools) > 0:
		return "Sampling Request (with tools)"
	}
	return "Sampling Request"
}

// buildUI builds the inline view and the shared response editor.
func (p *SamplingPanel) buildUI() fyne.CanvasObject {
	p.buildEditor()

	hints := p.params.hints()
	hintText := "(none)"
	if len(hints) > 0 {
		hintText = strings.Join(hints, ", ")
	}
	preview := p.params.preview()
	if preview == "" {
		preview = "(no text)"
	}
	msgLbl := wrapLabel(fmt.Sprintf("Messages (%d): “%s”", len(p.params.Messages), truncate(preview, 160)))
	summary := container.NewVBox(
		wrapLabel("Model hints: "+hintText),
		msgLbl,
	)
	if n := len(p.params.Tools); n > 0 {
		names := make([]string, 0, n)
		for _, t := range p.params.Tools {
			names = append(names, t.Name)
		}
		summary.Add(wrapLabel(fmt.Sprintf("Tools (%d): %s", n, strings.Join(names, ", "))))
	}
	if p.parseErr != nil {
		summary.Add(errText("The params could not be read. " + plain.Headline(p.parseErr)))
	}
	details := esc.NewButtonWithIcon("View Details", theme.ZoomInIcon(), p.onViewDetails)
	details.Importance = widget.LowImportance
	summary.Add(container.NewHBox(details))

	top := requestHeader(p.title(), p.req.Server, p.req.ID, p.req.Round, nil)
	p.inlineSlot = container.NewStack(p.editor)
	return box("primary", container.NewVBox(top, box("", summary), p.inlineSlot))
}

// buildEditor builds the response editor shared by both views.
func (p *SamplingPanel) buildEditor() {
	p.profileSel = esc.NewSelect(p.opts.Profiles.Names(), func(string) { p.onProfile() })
	p.profileSel.PlaceHolder = "(no profiles)"
	p.editBtn = esc.NewButtonWithIcon("Edit Profiles", theme.SettingsIcon(), func() {
		if p.opts.OnEditProfiles != nil {
			p.opts.OnEditProfiles()
		}
	})
	p.editBtn.Importance = widget.LowImportance
	if p.opts.OnEditProfiles == nil {
		p.editBtn.Hide()
	}
	p.response = esc.NewMultiLineEntry()
	p.response.Wrapping = fyne.TextWrapWord
	p.response.SetMinRowsVisible(4)
	p.response.SetPlaceHolder("Type the model's response…")
	// Tab walks on to the buttons (a keyboard user was kept in the field)
	p.response.TabMovesFocus = true
	p.model = esc.NewEntry()
	p.model.SetPlaceHolder(DefaultModel)
	p.stop = esc.NewSelect(stopReasons, func(string) { p.onStopReason() })
	p.noCalls = mutedLabel("None: the answer is text only. Add a tool call to answer with toolUse.")
	p.calls = container.NewVBox(p.noCalls)
	p.addCall = esc.NewButtonWithIcon("Add tool call", theme.ContentAddIcon(), p.onAddToolCall)
	p.addCall.Importance = widget.LowImportance
	warn, _ := warning("Server must execute the tools and send a follow-up sampling request with the results.")
	p.toolWarn = warn
	p.toolWarn.Hide()
	p.errLbl = errorLine()
	p.noteLbl = mutedLabel("")
	p.noteLbl.Hide()

	p.autoBtn = esc.NewButtonWithIcon("Auto-respond", theme.MediaFastForwardIcon(), p.onAutoRespond)
	p.sendBtn = esc.NewButtonWithIcon("Edit & Send", theme.MailSendIcon(), p.onSend)
	p.sendBtn.Importance = widget.HighImportance
	p.rejectBtn = esc.NewButtonWithIcon("Reject", theme.CancelIcon(), p.onReject)
	p.rejectBtn.Importance = widget.DangerImportance

	// the label and Edit Profiles above the choice, which takes the width:
	// on one line the three needed more than a narrow queue has
	profileRow := container.NewVBox(container.New(fit.NewRowWrap(), widget.NewLabel("Testing Profile:"), p.editBtn), p.profileSel)
	form := container.New(layout.NewFormLayout(),
		widget.NewLabel("Model Used:"), p.model,
		widget.NewLabel("Stop Reason:"), p.stop,
	)
	parts := []fyne.CanvasObject{profileRow, widget.NewLabel("Response:"), p.response}
	if len(p.params.Tools) > 0 {
		parts = append(parts, widget.NewLabel("Tool Calls Requested:"), p.calls, container.NewHBox(p.addCall))
	}
	// the answers wrap onto a second row in a narrow queue rather than
	// widening the window past a small screen
	p.answers = container.New(fit.NewRowWrap(), p.autoBtn, p.rejectBtn, p.sendBtn)
	parts = append(parts, form, p.toolWarn, p.errLbl, p.noteLbl, p.answers)
	p.editor = container.NewVBox(parts...)

	cur := p.opts.Profiles.Current()
	if len(p.opts.Profiles.Profiles) > 0 {
		p.profileSel.SetSelected(cur.Name) // calls onProfile
	} else {
		p.onProfile()
	}
}

// profile returns the selected profile.
func (p *SamplingPanel) profile() Profile {
	if pr, ok := p.opts.Profiles.Get(p.profileSel.Selected); ok {
		return pr
	}
	return p.opts.Profiles.Current()
}

// onProfile prefills the editor from the selected profile.
func (p *SamplingPanel) onProfile() {
	pr := p.profile()
	for len(p.callRows) > 0 {
		p.removeRow(p.callRows[0])
	}
	model := pr.Model
	if model == "" {
		model = DefaultModel
	}
	stop := pr.StopReason
	if stop == "" {
		stop = StopEndTurn
	}
	text := ""
	if p.opts.Responder != nil {
		text = p.opts.Responder.Draft(pr, p.req.Params)
		if pr.Provider == ProviderMock {
			if raw, err := p.opts.Responder.Respond(pr, p.req.Params); err == nil {
				text, model, stop = p.fillFromResult(raw, text, model, stop)
			}
		}
	}
	p.response.SetText(text)
	p.model.SetText(model)
	p.stop.SetSelected(stop)
	mock := pr.Provider == ProviderMock && p.opts.Responder != nil
	if mock {
		p.autoBtn.Enable()
	} else {
		p.autoBtn.Disable()
	}
	setError(p.errLbl, "")
}

// fillFromResult reads a profile's result into the editor: its text, tool
// calls, model and stop reason.
func (p *SamplingPanel) fillFromResult(raw json.RawMessage, text, model, stop string) (string, string, string) {
	var r struct {
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return text, model, stop
	}
	var texts []string
	for _, b := range (samplingMessage{Content: r.Content}).blocks() {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_use":
			if len(p.params.Tools) > 0 {
				row := p.addRow(b.Name, string(b.Input))
				_ = row
			}
		}
	}
	text = strings.Join(texts, "\n")
	if r.Model != "" {
		model = r.Model
	}
	if r.StopReason != "" {
		stop = r.StopReason
	}
	return text, model, stop
}

// onStopReason shows the tool loop warning for toolUse.
func (p *SamplingPanel) onStopReason() {
	if p.stop.Selected == StopToolUse {
		p.toolWarn.Show()
	} else {
		p.toolWarn.Hide()
	}
}

// onAddToolCall adds a call of the first tool (toolChoice's tool when it
// names one) and switches the stop reason to toolUse.
func (p *SamplingPanel) onAddToolCall() {
	if len(p.params.Tools) == 0 {
		return
	}
	name := p.params.Tools[0].Name
	if tc := p.params.ToolChoice; tc != nil && tc.Name != "" {
		name = tc.Name
	}
	p.addRow(name, "")
	p.stop.SetSelected(StopToolUse)
}

// addRow adds a tool call row; args "" means a skeleton from the schema.
func (p *SamplingPanel) addRow(name, args string) *toolCallRow {
	names := make([]string, 0, len(p.params.Tools))
	for _, t := range p.params.Tools {
		names = append(names, t.Name)
	}
	r := &toolCallRow{}
	r.argsEd = jsonedit.New()
	r.argsEd.MarkSyntax = true
	r.argsEd.SetMinRowsVisible(2)
	r.args = r.argsEd.Entry
	r.tool = esc.NewSelect(names, func(n string) {
		if strings.TrimSpace(r.args.Text) == "" || r.args.Text == "{}" {
			r.args.SetText(p.skeleton(n))
		}
	})
	r.tool.SetSelected(name)
	if args != "" {
		r.args.SetText(args)
	} else {
		r.args.SetText(p.skeleton(name))
	}
	rm := esc.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		p.removeRow(r)
		if len(p.callRows) == 0 && p.stop.Selected == StopToolUse {
			p.stop.SetSelected(StopEndTurn)
		}
	})
	rm.Importance = widget.LowImportance
	num := widget.NewLabel("[" + strconv.Itoa(len(p.callRows)+1) + "]")
	r.obj = container.NewBorder(nil, nil, container.NewVBox(container.NewHBox(num, r.tool)), container.NewVBox(rm), r.argsEd)
	p.callRows = append(p.callRows, r)
	p.calls.Add(r.obj)
	p.noCalls.Hide()
	return r
}

func (p *SamplingPanel) removeRow(r *toolCallRow) {
	for i, x := range p.callRows {
		if x == r {
			p.callRows = append(p.callRows[:i], p.callRows[i+1:]...)
			p.calls.Remove(r.obj)
			if len(p.callRows) == 0 {
				p.noCalls.Show()
			}
			return
		}
	}
}

// skeleton is an arguments object with a placeholder per required property.
func (p *SamplingPanel) skeleton(tool string) string {
	for _, t := range p.params.Tools {
		if t.Name != tool {
			continue
		}
		var s struct {
			Properties map[string]struct {
				Type    any             `json:"type"`
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if json.Unmarshal(t.InputSchema, &s) != nil || len(s.Required) == 0 {
			return "{}"
		}
		var parts []string
		for _, n := range s.Required {
			v := `""`
			prop := s.Properties[n]
			switch {
			case len(prop.Default) > 0:
				v = string(prop.Default)
			case prop.Type == "number" || prop.Type == "integer":
				v = "0"
			case prop.Type == "boolean":
				v = "false"
			case prop.Type == "object":
				v = "{}"
			case prop.Type == "array":
				v = "[]"
			}
			k, _ := json.Marshal(n)
			parts = append(parts, string(k)+": "+v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "{}"
}

// result builds the result JSON from the editor.
func (p *SamplingPanel) result() (json.RawMessage, error) {
	type textBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type toolUse struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	type result struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		Model      string `json:"model"`
		StopReason string `json:"stopReason,omitempty"`
	}
	model := strings.TrimSpace(p.model.Text)
	if model == "" {
		model = DefaultModel
	}
	r := result{Role: "assistant", Model: model, StopReason: p.stop.Selected}
	if len(p.callRows) == 0 {
		if p.stop.Selected == StopToolUse {
			return nil, errors.New("stop reason toolUse needs at least one tool call: add one, or pick another stop reason")
		}
		r.Content = textBlock{Type: "text", Text: p.response.Text}
	} else {
		var blocks []any
		if strings.TrimSpace(p.response.Text) != "" {
			blocks = append(blocks, textBlock{Type: "text", Text: p.response.Text})
		}
		for i, row := range p.callRows {
			if row.tool.Selected == "" {
				return nil, fmt.Errorf("tool call %d: pick a tool", i+1)
			}
			args := strings.TrimSpace(row.args.Text)
			if args == "" {
				args = "{}"
			}
			var obj map[string]any
			if err := json.Unmarshal([]byte(args), &obj); err != nil {
				return nil, fmt.Errorf("tool call %d (%s): the arguments are not a JSON object. %s", i+1, row.tool.Selected, plain.Headline(err))
			}
			var buf bytes.Buffer
			_ = json.Compact(&buf, []byte(args))
			blocks = append(blocks, toolUse{Type: "tool_use", ID: p.callID(i), Name: row.tool.Selected, Input: buf.Bytes()})
		}
		r.Content = blocks
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}

// callID is the id of tool call i: unique per request.
func (p *SamplingPanel) callID(i int) string {
	id := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, p.req.ID)
	if id == "" {
		id = "0"
	}
	return fmt.Sprintf("call_%s_%d", id, i+1)
}

// onAutoRespond answers with the selected profile's own result.
func (p *SamplingPanel) onAutoRespond() {
	if p.done || p.opts.Responder == nil {
		return
	}
	pr := p.profile()
	raw, err := p.opts.Responder.Respond(pr, p.req.Params)
	if err != nil {
		setError(p.errLbl, "The profile “"+pr.Name+"” cannot answer by itself. "+plain.Headline(err))
		return
	}
	p.answer(SamplingAnswer{Result: raw, Profile: pr.Name, Auto: true}, "Answered by the profile “"+pr.Name+"”.")
}

// onSend answers with the edited response.
func (p *SamplingPanel) onSend() {
	if p.done {
		return
	}
	raw, err := p.result()
	if err != nil {
		setError(p.errLbl, plain.Headline(err))
		return
	}
	send := func() { p.answer(SamplingAnswer{Result: raw, Profile: p.profileSel.Selected}, "Response sent.") }
	if len(p.callRows) == 0 && strings.TrimSpace(p.response.Text) == "" && p.opts.Window != nil {
		// an empty text is a valid answer a server must handle, but
		// more often a response the user forgot to type
		esc.Show(esc.NewConfirm("Send an empty response?", "The response has no text: the server gets an empty message from the model.",
			"Send empty", func(ok bool) {
				if ok && !p.done {
					send()
				}
			}, p.opts.Window), p.opts.Window)
		return
	}
	send()
}

// onReject declines the request.
func (p *SamplingPanel) onReject() {
	if p.done {
		return
	}
	p.answer(SamplingAnswer{Rejected: true, Profile: p.profileSel.Selected}, "Rejected.")
}

func (p *SamplingPanel) answer(a SamplingAnswer, note string) {
	p.finish(note)
	if p.OnAnswer != nil {
		p.OnAnswer(a)
	}
}

// Close ends the panel without an answer (for example when the server
// cancelled the request), showing note.
func (p *SamplingPanel) Close(note string) {
	if p.done {
		return
	}
	p.finish(note)
}

// finish disables the editor and closes the modal.
func (p *SamplingPanel) finish(note string) {
	p.done = true
	setError(p.errLbl, "")
	for _, w := range []fyne.Disableable{p.autoBtn, p.sendBtn, p.rejectBtn, p.profileSel, p.response, p.model, p.stop, p.addCall} {
		w.Disable()
	}
	for _, r := range p.callRows {
		r.tool.Disable()
		r.args.Disable()
	}
	p.noteLbl.SetText(note)
	p.noteLbl.Show()
	if p.modal != nil {
		p.modal.Hide()
	}
}

// SetProfiles replaces the profiles (after they were edited), keeping the
// selection when it still exists.
func (p *SamplingPanel) SetProfiles(ps ProfileSet) {
	sel := p.profileSel.Selected
	p.opts.Profiles = ps.clone()
	p.profileSel.SetOptions(ps.Names())
	if _, ok := ps.Get(sel); ok && !p.done {
		p.profileSel.SetSelected(sel)
		p.onProfile()
	} else if !p.done {
		p.profileSel.SetSelected(ps.Current().Name)
	}
}

// onViewDetails opens the modal view: the full request above the editor.
func (p *SamplingPanel) onViewDetails() {
	if p.opts.Window == nil || p.modal != nil {
		return
	}
	// the place it leaves says where the answer went (a tool's panel
	// or the queue's pane keeps the summary above it)
	p.inlineSlot.Objects = []fyne.CanvasObject{mutedLabel("Open in a dialog: answer it there.")}
	p.inlineSlot.Refresh()
	p.sendBtn.SetText("Send Response")
	p.rejectBtn.SetText("Reject Request")
	body := container.NewVBox(p.buildDetails(), widget.NewSeparator(), p.editor)
	scroll := esc.NewVScroll(container.New(&rightInset{w: theme.Padding() * 3}, body))
	d := esc.NewCustom(p.title(), "Close", scroll, p.opts.Window)
	d.SetOnClosed(func() {
		p.modal = nil
		p.sendBtn.SetText("Edit & Send")
		p.rejectBtn.SetText("Reject")
		body.Remove(p.editor)
		p.inlineSlot.Objects = []fyne.CanvasObject{p.editor}
		p.inlineSlot.Refresh()
	})
	p.modal = d
	size := p.opts.Window.Canvas().Size()
	d.Resize(fyne.NewSize(fyne.Min(760, size.Width*0.95), fyne.Min(720, size.Height*0.95)))
	esc.Show(d, p.opts.Window)
}

// Answers returns the row of the panel's answer buttons (Auto-respond,
// Reject, Edit & Send) where Object shows it, for a caller that keeps it
// in view; nil while the editor is in the View Details dialog.
func (p *SamplingPanel) Answers() fyne.CanvasObject {
	if p.modal != nil {
		return nil
	}
	return p.answers
}

// Details returns the full request view (messages, preferences,
// parameters, tools) for callers that show it in place.
func (p *SamplingPanel) Details() fyne.CanvasObject { return p.buildDetails() }

// buildDetails builds the full request view.
func (p *SamplingPanel) buildDetails() fyne.CanvasObject {
	sp := p.params
	out := container.NewVBox(wrapLabel("The server “" + p.req.Server + "” is requesting an LLM completion (request " + p.req.ID + ")."))
	if p.parseErr != nil {
		out.Add(errText("The params could not be read. " + plain.Headline(p.parseErr)))
	}
	if sp.SystemPrompt != "" {
		out.Add(heading("System Prompt:"))
		out.Add(box("", wrapLabel(sp.SystemPrompt)))
	}
	out.Add(heading("Messages:"))
	msgs := container.NewVBox()
	if len(sp.Messages) == 0 {
		msgs.Add(emptyState("No messages."))
	}
	for i, m := range sp.Messages {
		if i > 0 {
			msgs.Add(widget.NewSeparator())
		}
		msgs.Add(p.messageView(i, m))
	}
	out.Add(box("", msgs))

	out.Add(heading("Model Preferences:"))
	prefs := container.New(layout.NewFormLayout())
	hints := "(none)"
	if h := sp.hints(); len(h) > 0 {
		b, _ := json.Marshal(h)
		hints = string(b)
	}
	var mp modelPrefs
	if sp.ModelPreferences != nil {
		mp = *sp.ModelPreferences
	}
	addRow := func(c *fyne.Container, k, v string) { c.Add(widget.NewLabel(k)); c.Add(wrapLabel(v)) }
	addRow(prefs, "Hints:", hints)
	addRow(prefs, "Cost Priority:", priority(mp.CostPriority))
	addRow(prefs, "Speed Priority:", priority(mp.SpeedPriority))
	addRow(prefs, "Intelligence Priority:", priority(mp.IntelligencePriority))
	out.Add(box("", prefs))

	out.Add(heading("Parameters:"))
	params := container.New(layout.NewFormLayout())
	maxTok := "(not specified)"
	if sp.MaxTokens != nil {
		maxTok = strconv.Itoa(*sp.MaxTokens)
	}
	stops := "(none)"
	if len(sp.StopSequences) > 0 {
		b, _ := json.Marshal(sp.StopSequences)
		stops = string(b)
	}
	temp := "(not specified)"
	if sp.Temperature != nil {
		temp = strconv.FormatFloat(*sp.Temperature, 'g', -1, 64)
	}
	ctxText := "none"
	if sp.IncludeContext != "" {
		ctxText = sp.IncludeContext
	}
	addRow(params, "Max Tokens:", maxTok)
	addRow(params, "Stop Sequences:", stops)
	addRow(params, "Temperature:", temp)
	addRow(params, "Include Context:", ctxText)
	out.Add(params)

	if len(sp.Tools) > 0 {
		out.Add(heading(fmt.Sprintf("Available Tools (%d):", len(sp.Tools))))
		tools := container.NewVBox()
		for i, t := range sp.Tools {
			if i > 0 {
				tools.Add(widget.NewSeparator())
			}
			name := widget.NewLabel(t.Name)
			name.TextStyle = fyne.TextStyle{Bold: true} // bold monospace is missing from some themes
			tools.Add(name)
			if t.Description != "" {
				tools.Add(wrapLabel(t.Description))
			}
			tools.Add(mutedLabel("Parameters: " + schemaSummary(t.InputSchema)))
		}
		out.Add(box("", tools))
		choice := "auto (not specified)"
		if tc := sp.ToolChoice; tc != nil {
			switch {
			case tc.Name != "":
				choice = "specific tool: " + tc.Name
			case tc.Mode != "":
				choice = tc.Mode
			}
		}
		out.Add(wrapLabel("Tool Choice: " + choice))
	}
	return out
}

// messageView draws one message and its blocks.
func (p *SamplingPanel) messageView(i int, m samplingMessage) fyne.CanvasObject {
	blocks := m.blocks()
	role := m.Role
	for _, b := range blocks {
		if b.Type == "tool_result" {
			role += " (tool_result)"
			break
		}
	}
	head := widget.NewLabel(fmt.Sprintf("[%d] role: %s", i, role))
	head.TextStyle = fyne.TextStyle{Bold: true}
	v := container.NewVBox(head)
	var calls []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			v.Add(wrapLabel("“" + truncate(b.Text, 4000) + "”"))
		case "image":
			v.Add(p.imageView(b))
		case "audio":
			v.Add(p.audioView(b))
		case "tool_use":
			calls = append(calls, b.summary())
		case "tool_result":
			v.Add(wrapLabel(p.toolName(b.ToolUseID) + ": " + truncate(b.summary(), 1000)))
		default:
			v.Add(mutedLabel(truncate(compactJSON(b.raw), 400)))
		}
	}
	if len(calls) > 0 {
		v.Add(wrapLabel("Tool calls: " + strings.Join(calls, ", ")))
	}
	return v
}

// toolName finds the tool call a tool result answers, as "name(args)".
func (p *SamplingPanel) toolName(id string) string {
	for _, m := range p.params.Messages {
		for _, b := range m.blocks() {
			if b.Type == "tool_use" && b.ID == id {
				return b.summary()
			}
		}
	}
	return "result for " + id
}

// imageView shows an image block as a thumbnail with a preview button.
func (p *SamplingPanel) imageView(b block) fyne.CanvasObject {
	label := mutedLabel(b.summary())
	data, err := base64.StdEncoding.DecodeString(b.Data)
	if err != nil || len(data) == 0 {
		return container.NewVBox(label, errText("The image data is not valid base64."))
	}
	img := canvas.NewImageFromReader(bytes.NewReader(data), "image")
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(160, 100))
	preview := esc.NewButtonWithIcon("Preview", theme.ZoomInIcon(), func() {
		if p.opts.Window == nil {
			return
		}
		big := canvas.NewImageFromReader(bytes.NewReader(data), "image")
		big.FillMode = canvas.ImageFillContain
		big.SetMinSize(fyne.NewSize(480, 360))
		esc.Show(esc.NewCustom("Image ("+b.MimeType+")", "Close", big, p.opts.Window), p.opts.Window)
	})
	preview.Importance = widget.LowImportance
	return container.NewVBox(label, container.NewHBox(img, container.NewVBox(preview)))
}

// audioView shows an audio block with a save button (Fyne cannot play it).
func (p *SamplingPanel) audioView(b block) fyne.CanvasObject {
	label := widget.NewLabel("♪ " + b.summary())
	data, err := base64.StdEncoding.DecodeString(b.Data)
	if err != nil {
		return container.NewVBox(label, errText("The audio data is not valid base64."))
	}
	save := esc.NewButtonWithIcon("Save…", theme.DocumentSaveIcon(), func() {
		p.opts.Save("sampling-audio"+audioExt(b.MimeType), data)
	})
	if p.opts.Save == nil {
		save.Disable()
	}
	save.Importance = widget.LowImportance
	return container.NewHBox(label, save)
}

// audioExt is a file extension for an audio MIME type.
func audioExt(mime string) string {
	switch mime {
	case "audio/wav", "audio/x-wav", "audio/wave":
		return ".wav"
	case "audio/mpeg", "audio/mp3":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	}
	return ".bin"
}

// errText is a red wrapped label.
func errText(s string) *widget.Label {
	l := wrapLabel(s)
	l.Importance = widget.DangerImportance
	return l
}
