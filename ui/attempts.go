package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/wI2L/jsondiff"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/core/sessiondiff"
)

// This file is seed 001's "Attempts" and "Arguments at each hop": for a
// tool call, the inspector's details show every attempt of its retry
// lineage (outcome, duration, request id, each a link to its messages),
// and the arguments as the user entered them, as Spyglass parsed them and
// as the server received them, with the differences listed by JSON path.
// Both are views over the event log; only what the user typed is kept
// beside it (enteredArgs), since no message carries it.

// enteredArgs is what the user entered for one tools/call: the form's
// fields (path → text, as typed) or the JSON editor's text, and the
// arguments Spyglass made of them.
type enteredArgs struct {
	// Mode is "form" or "json".
	Mode string
	// Text is the JSON text as typed (json mode).
	Text string
	// Fields are the form's field texts by JSON pointer (form mode).
	Fields []enteredField
	// Parsed is the arguments object Spyglass made of them.
	Parsed json.RawMessage
}

// enteredField is one form control's text as the user left it.
type enteredField struct {
	Path, Text string
}

// enteredOf reads what the user entered in an arguments editor.
func enteredOf(ed argsEditor, parsed json.RawMessage) *enteredArgs {
	out := &enteredArgs{Parsed: parsed}
	switch a := ed.(type) {
	case *jsonArgs:
		out.Mode, out.Text = "json", a.e.Text
	case *formArgs:
		if text, ok := a.f.JSONText(); ok {
			out.Mode, out.Text = "json", text
			break
		}
		out.Mode = "form"
		out.Fields = formFields(a.f.State(), nil)
	default:
		return nil
	}
	return out
}

// formFields lists the texts of the form's leaf controls that hold one.
func formFields(st *schemaform.State, out []enteredField) []enteredField {
	if st == nil || st.Field == nil {
		return out
	}
	f := st.Field
	switch f.Kind {
	case schemaform.KindObject:
		for _, p := range st.Props {
			out = formFields(p, out)
		}
		return out
	case schemaform.KindArray:
		for _, it := range st.Items {
			out = formFields(it, out)
		}
		return out
	case schemaform.KindNullable:
		if st.Null {
			return append(out, enteredField{f.Path, "null"})
		}
		return formFields(st.Inner, out)
	case schemaform.KindBoolean:
		if !st.Touched {
			return out
		}
		return append(out, enteredField{f.Path, fmt.Sprint(st.Bool)})
	case schemaform.KindEnum, schemaform.KindTitledEnum:
		if st.Index < 0 || st.Index >= len(f.Options) {
			return out
		}
		o := f.Options[st.Index]
		text := o.Title
		if text == "" && o.Value != nil {
			text = string(o.Value.JSON())
		}
		return append(out, enteredField{f.Path, text})
	case schemaform.KindMultiSelect:
		var names []string
		for _, i := range st.Checked {
			if i >= 0 && i < len(f.Options) {
				names = append(names, string(f.Options[i].Value.JSON()))
			}
		}
		if len(names) == 0 {
			return out
		}
		return append(out, enteredField{f.Path, strings.Join(names, ", ")})
	}
	if st.Text == "" && !st.Touched {
		return out
	}
	return append(out, enteredField{f.Path, st.Text})
}

// noteEntered keeps what the user entered for the tools/call request
// event seq.
func (in *inspector) noteEntered(seq uint64, e *enteredArgs) {
	if seq == 0 || e == nil {
		return
	}
	if in.entered == nil {
		in.entered = map[uint64]*enteredArgs{}
	}
	in.entered[seq] = e
	if in.selSeq != 0 && in.detail != nil && in.detail.obj.Visible() {
		if req, ok := in.toolCallRequest(in.detail.cur); ok && req.Seq == seq {
			in.detail.showToolCall(in.detail.cur)
		}
	}
}

// callID is the tool call attempt an event belongs to ("" if none): a raw
// tools/call, its response, or the attempt's tool event.
func callID(e EventView) string {
	if e.Event.RPC != nil {
		return e.Event.RPC.CallID
	}
	return ""
}

// toolCallRequest is the tools/call request event of a tool call event:
// the request itself, its response, or the attempt's tool event.
func (in *inspector) toolCallRequest(e EventView) (EventView, bool) {
	switch {
	case e.Kind == "message" && e.Type == "request" && e.Method == "tools/call" && e.Dir == "out":
		return e, true
	case e.Kind == "message" && (e.Type == "result" || e.Type == "error") && e.Method == "tools/call" && e.Pair != 0:
		return in.event(e.Pair)
	case e.Kind == "tool" && e.Event.Tool != nil && e.Event.Tool.RequestSeq != 0:
		return in.event(e.Event.Tool.RequestSeq)
	}
	return EventView{}, false
}

// attemptsOf returns the attempts (tool events, in order) of the lineage
// that e's tool call attempt belongs to, and that attempt's tool event;
// none while the attempt is still running.
func (in *inspector) attemptsOf(e EventView) (attempts []EventView, this *EventView) {
	id := callID(e)
	if id == "" {
		return nil, nil
	}
	lineage := ""
	tools := in.eventsOf(in.tools[e.Server])
	for i := len(tools) - 1; i >= 0; i-- {
		x := tools[i]
		if x.Kind == "tool" && callID(x) == id && x.Event.Lineage != nil && x.Server == e.Server {
			lineage = x.Event.Lineage.ID
			break
		}
	}
	if lineage == "" {
		return nil, nil
	}
	for _, x := range tools {
		if x.Kind == "tool" && x.Server == e.Server && x.Event.Lineage != nil && x.Event.Lineage.ID == lineage {
			attempts = append(attempts, x)
		}
	}
	for i := range attempts {
		if callID(attempts[i]) == id {
			this = &attempts[i]
		}
	}
	return attempts, this
}

// attemptText is one attempt's line: its number, outcome, duration and
// request id.
func attemptText(x EventView) string {
	head, rest := attemptParts(x)
	return head + " · " + rest
}

// attemptParts are an attempt's line in two: "Attempt N", and its
// outcome, duration and request id.
func attemptParts(x EventView) (head, rest string) {
	ev := x.Event
	n := 0
	if ev.Lineage != nil {
		n = ev.Lineage.Attempt
	}
	head = fmt.Sprintf("Attempt %d", n)
	s := ""
	switch {
	case ev.Tool != nil && ev.Tool.Status == "ok":
		s += "ok"
	case ev.ErrorClass != "":
		s += "failed: " + ev.ErrorClass
	default:
		s += "failed"
	}
	if ev.OutcomeUnknown {
		s += " (outcome unknown)"
	}
	if ev.Tool != nil {
		if ev.Tool.MayHaveRunTwice {
			s += " (may have run twice)"
		}
		if ev.Tool.Duration > 0 {
			s += " · " + latency(ev.Tool.Duration)
		}
		if ev.Tool.RequestID != "" {
			s += " · id " + ev.Tool.RequestID
		} else {
			s += " · not sent"
		}
	}
	return head, s
}

// attemptRow is one attempt in the Attempts tab: a small "Attempt N"
// button that opens its messages, and beside it its outcome, duration and
// request id in a label that wraps at spaces, so that the whole line reads
// in a details pane as narrow as 250 px (a button's text is never wrapped
// or cut by Fyne: a long outcome ran off the pane's right edge). this
// marks the attempt whose details are open.
func attemptRow(x EventView, this bool, onTap func()) fyne.CanvasObject {
	head, rest := attemptParts(x)
	if this {
		head = "▸ " + head
	}
	b := widget.NewButtonWithIcon(head, theme.SearchIcon(), onTap)
	b.Alignment = widget.ButtonAlignLeading
	b.Importance = widget.LowImportance
	l := wrapLabel(rest)
	if x.BadgeLevel == "error" || x.Event.ErrorClass != "" {
		b.Importance = widget.DangerImportance
		l.Importance = widget.DangerImportance
	}
	return container.NewBorder(nil, nil, container.NewVBox(b), nil, l)
}

// attemptsView is the Attempts tab of a tool call event.
func (d *eventDetail) attemptsView(e EventView) fyne.CanvasObject {
	attempts, this := d.in.attemptsOf(e)
	box := container.NewVBox()
	if len(attempts) == 0 {
		box.Add(emptyState("The attempt is still running: its lineage shows here once it has ended."))
		return box
	}
	head := fmt.Sprintf("%d attempt", len(attempts))
	if len(attempts) != 1 {
		head += "s"
	}
	if l := attempts[0].Event.Lineage; l != nil {
		head += " of this call · lineage " + l.ID
	}
	box.Add(heading(head))
	for i := range attempts {
		x := attempts[i]
		box.Add(attemptRow(x, this != nil && x.Seq == this.Seq, func() { d.in.onAttempt(x) }))
	}
	note := wrapLabel("Attempts share a lineage when they call the same tool with the same arguments (key order aside) and the same input schema. Click one to see its messages.")
	note.SizeName = theme.SizeNameCaptionText
	box.Add(note)
	return box
}

// onAttempt selects an attempt's messages in the inspector: its
// tools/call request (with its response beside it), or the attempt's own
// event when no request was sent. The Attempts tab stays open.
func (in *inspector) onAttempt(x EventView) {
	seq := x.Seq
	if t := x.Event.Tool; t != nil && t.RequestSeq != 0 {
		seq = t.RequestSeq
	}
	in.w.inspectEvent(seq)
	in.detail.selectTab("Attempts")
}

// selectTab opens the details tab named text, if shown.
func (d *eventDetail) selectTab(text string) {
	for _, it := range d.tabs.Items {
		if it.Text == text {
			d.tabs.Select(it)
			return
		}
	}
}

// showToolCall adds (or removes) the Attempts tab for e: the attempts of
// its lineage and, for a tools/call, its arguments at each hop (one tab,
// so that the details' tab bar still fits a 1024×700 window).
func (d *eventDetail) showToolCall(e EventView) {
	sel := ""
	if it := d.tabs.Selected(); it != nil {
		sel = it.Text
	}
	for _, it := range append([]*container.TabItem(nil), d.tabs.Items...) {
		if it.Text == "Attempts" {
			d.tabs.Remove(it)
		}
	}
	req, isCall := d.in.toolCallRequest(e)
	if callID(e) == "" && !isCall {
		return
	}
	box := container.NewVBox(d.attemptsView(e))
	if isCall {
		box.Add(widget.NewSeparator())
		box.Add(heading("Arguments at each hop"))
		box.Add(d.argumentsView(req))
	}
	d.tabs.Append(container.NewTabItem("Attempts", container.NewVScroll(box)))
	if sel != "" {
		d.selectTab(sel)
	}
}

// sentArguments is params.arguments of a recorded tools/call request, as
// its bytes went out.
func sentArguments(raw json.RawMessage) json.RawMessage {
	var msg struct {
		Params struct {
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &msg) != nil {
		return nil
	}
	return msg.Params.Arguments
}

// argumentsView is the Arguments tab of a tools/call: what the user
// entered, what Spyglass parsed, what the server received, and the
// differences between the hops by JSON path.
func (d *eventDetail) argumentsView(req EventView) fyne.CanvasObject {
	box := container.NewVBox()
	sent := sentArguments(req.Raw)
	ent := d.in.entered[req.Seq]
	box.Add(heading("Entered by you"))
	switch {
	case ent == nil:
		box.Add(wrapLabel("Not entered in this window (a replay, the tester, or a call from before this window opened): only the sent arguments are known."))
	case ent.Mode == "json":
		box.Add(wrapLabel("JSON text, as typed:"))
		box.Add(monoText(ent.Text))
	default:
		box.Add(wrapLabel("Form fields, as typed:"))
		var lines []string
		for _, f := range ent.Fields {
			lines = append(lines, fmt.Sprintf("%s = %s", pathOrRoot(f.Path), f.Text))
		}
		if len(lines) == 0 {
			lines = []string{"(every field left empty)"}
		}
		box.Add(monoText(strings.Join(lines, "\n")))
	}
	if ent != nil {
		box.Add(heading("Parsed by Spyglass"))
		box.Add(monoText(prettyJSON(ent.Parsed)))
		box.Add(diffView("Entered → parsed", enteredDiffs(ent)))
	}
	box.Add(heading("Sent to server"))
	if sent == nil {
		box.Add(wrapLabel("The request has no arguments member."))
	} else {
		box.Add(monoText(prettyJSON(sent)))
	}
	if ent != nil {
		box.Add(diffView("Parsed → sent", jsonDiffs(ent.Parsed, sent)))
	}
	return box
}

// pathOrRoot names a JSON pointer for people ("/" for the root).
func pathOrRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// monoText is selectable monospace text.
func monoText(s string) fyne.CanvasObject {
	l := widget.NewLabel(s)
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Wrapping = fyne.TextWrapBreak
	l.Selectable = true
	return l
}

// diffView lists differences under a caption, or says there are none.
func diffView(caption string, diffs []string) fyne.CanvasObject {
	if len(diffs) == 0 {
		l := widget.NewLabel(caption + ": no differences")
		l.Importance = widget.SuccessImportance
		return l
	}
	l := wrapLabel(fmt.Sprintf("%s: %d difference(s)\n• %s", caption, len(diffs), strings.Join(diffs, "\n• ")))
	l.Importance = widget.WarningImportance
	return l
}

// enteredDiffs are where the parsed arguments differ from what was
// entered: for JSON text, a different document (duplicate keys, say); for
// form fields, a value whose JSON is not the text typed (a number's
// literal, text sent as a string is no difference).
func enteredDiffs(ent *enteredArgs) []string {
	if ent.Mode == "json" {
		text := strings.TrimSpace(ent.Text)
		if text == "" {
			text = "{}"
		}
		return jsonDiffs(json.RawMessage(text), ent.Parsed)
	}
	parsed, err := sessiondiff.Decode(ent.Parsed)
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range ent.Fields {
		v, ok := sessiondiff.Lookup(parsed, f.Path)
		if !ok {
			out = append(out, fmt.Sprintf("%s: entered %q, not sent", pathOrRoot(f.Path), f.Text))
			continue
		}
		switch x := v.(type) {
		case string:
			if x == f.Text {
				continue
			}
		case json.Number:
			if x.String() == strings.TrimSpace(f.Text) && x.String() == f.Text {
				continue
			}
		default:
			b, _ := json.Marshal(x)
			if string(b) == f.Text || strings.Contains(f.Text, ",") { // a multi-select's list
				continue
			}
		}
		b, _ := json.Marshal(v)
		out = append(out, fmt.Sprintf("%s: entered %q, parsed %s", pathOrRoot(f.Path), f.Text, b))
	}
	return out
}

// jsonDiffs lists where b differs from a, by JSON path, one line each
// as core/sessiondiff describes a change: "changed /message: "a" → "b"".
// Text that is not JSON on either side is one difference.
func jsonDiffs(a, b json.RawMessage) []string {
	if len(bytes.TrimSpace(a)) == 0 {
		a = json.RawMessage("null")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		b = json.RawMessage("null")
	}
	changes, err := sessiondiff.Messages(a, b, nil)
	if err != nil {
		return []string{"/: not comparable: " + plainHeadline(err)}
	}
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.Describe(120)
	}
	sort.Strings(out)
	return out
}

// diffPaths are just the paths where b differs from a.
func diffPaths(a, b json.RawMessage) []string {
	patch, err := jsondiff.CompareJSON(a, b)
	if err != nil {
		return []string{"/"}
	}
	var out []string
	for _, op := range patch {
		out = append(out, pathOrRoot(op.Path))
	}
	return out
}

// inspectAttempts opens the inspector on event seq with its Attempts tab.
func (w *Window) inspectAttempts(seq uint64) {
	w.inspectEvent(seq)
	w.inspector.detail.selectTab("Attempts")
}
