package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/fit"
	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
)

// Options configure a Form. The zero value (or nil) is a form holding the
// schema defaults, in form mode.
type Options struct {
	// Values are loaded instead of the defaults (for example the last
	// arguments of the tool).
	Values json.RawMessage
	// JSON starts in the JSON editor.
	JSON bool
	// Elicitation shows the warnings of schemaform.CheckElicitation above
	// the fields (a schema outside the restriction still gets a form).
	Elicitation bool
	// NoToggle hides the form/JSON toggle and the reset button.
	NoToggle bool
}

// ErrNotSent is wrapped by the error of Values when the JSON editor holds
// text that is not JSON: such arguments are never sent.
var ErrNotSent = errors.New("the arguments are not valid JSON")

// Form is a Fyne widget that edits the argument object of a JSON Schema,
// either as generated controls or as JSON text. Create it with New and
// use it from the UI goroutine only. It does not scroll by itself: put it
// in an esc.NewVScroll, which the wheel over its entries scrolls.
type Form struct {
	widget.BaseWidget

	// OnChanged is called after every edit (form or JSON).
	OnChanged func()
	// OnSubmit is called when the user presses Enter in a single-line
	// field (for example to run the tool).
	OnSubmit func()
	// OnFieldKey, when set, sees the keys typed in the text entry of the
	// field named name first; returning true keeps a key from the entry
	// (see esc.Entry.OnKey).
	OnFieldKey func(name string, ev *fyne.KeyEvent) bool
	// OnFieldFocusLost, when set, is called when the text entry of the
	// field named name lost the focus.
	OnFieldFocusLost func(name string)

	model *schemaform.Form
	state *schemaform.State
	opts  Options

	mode      *widget.RadioGroup
	resetBtn  *esc.Button
	notes     *widget.Label // elicitation warnings, validator notes
	elicit    string        // the elicitation warning, when there is one
	fields    *fyne.Container
	jsonEdit  *jsonedit.Editor // the JSON mode's editor (coloured, marks errors)
	jsonEntry *jsonedit.Entry  // its text
	jsonErr   *widget.Label
	jsonBox   *fyne.Container
	body      *fyne.Container

	jsonMode bool
	// typed and typedValue remember the JSON text the user typed and the
	// form value it became, so that switching back without edits shows
	// the text exactly as typed.
	typed      string
	typedValue *schemaform.Value
	// generated is the text the form put into the JSON editor; coming
	// back with it unchanged keeps the form as it was.
	generated string

	rows     map[*schemaform.State]*row
	controls map[*schemaform.State]fyne.CanvasObject // for tests
	building bool
}

// row is the box of one field: label, control, helper text, errors.
type row struct {
	box *fyne.Container
	err *widget.Label
}

// New returns a form for model.
func New(model *schemaform.Form, opts *Options) *Form {
	f := &Form{model: model}
	if opts != nil {
		f.opts = *opts
	}
	f.ExtendBaseWidget(f)
	f.state = model.NewState()
	f.buildUI()
	if len(f.opts.Values) > 0 {
		if err := f.SetValues(f.opts.Values); err != nil {
			f.setJSONText(string(f.opts.Values))
			f.showJSON(true)
		}
	}
	if f.opts.JSON {
		f.setMode(true)
	}
	return f
}

// CreateRenderer implements fyne.Widget.
func (f *Form) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(f.body)
}

func (f *Form) buildUI() {
	f.mode = widget.NewRadioGroup([]string{"Form", "JSON"}, f.onMode)
	f.mode.Horizontal = true
	f.mode.Required = true
	f.mode.SetSelected("Form")
	f.resetBtn = esc.NewButtonWithIcon("Reset", theme.HistoryIcon(), f.onReset)
	f.resetBtn.Importance = widget.LowImportance
	f.notes = widget.NewLabel("")
	f.notes.Wrapping = fyne.TextWrapWord
	f.notes.Importance = widget.WarningImportance
	f.notes.Hide()
	if f.opts.Elicitation {
		if issues := f.model.CheckElicitation(); len(issues) > 0 {
			msgs := make([]string, len(issues))
			for i, is := range issues {
				msgs[i] = is.Message
			}
			f.elicit = "This request is outside what elicitation allows (a flat object of primitive values); you may decline it.\n" +
				strings.Join(msgs, "\n")
			f.notes.SetText(f.elicit)
			f.notes.Show()
		}
	}
	f.fields = container.NewVBox()
	f.jsonEdit = jsonedit.New()
	f.jsonEntry = f.jsonEdit.Entry
	f.jsonEdit.SetMinRowsVisible(12)
	f.jsonEntry.OnChanged = f.onJSONChanged
	f.jsonErr = widget.NewLabel("")
	f.jsonErr.Importance = widget.DangerImportance
	f.jsonErr.Wrapping = fyne.TextWrapWord
	f.jsonErr.Hide()
	f.jsonBox = container.NewBorder(nil, f.jsonErr, nil, nil, f.jsonEdit)
	f.jsonBox.Hide()
	top := container.NewBorder(nil, nil, nil, f.resetBtn, f.mode)
	if f.opts.NoToggle {
		top.Hide()
	}
	// The right inset keeps an overlaid scroll bar off the controls.
	inset := layout.NewCustomPaddedLayout(0, 0, 0, theme.Padding()*2)
	f.body = container.NewBorder(container.NewVBox(top, f.notes), nil, nil, nil,
		container.New(inset, container.NewStack(f.fields, f.jsonBox)))
	f.rebuild()
}

// rebuild recreates every control from the state.
func (f *Form) rebuild() {
	f.rows = map[*schemaform.State]*row{}
	f.controls = map[*schemaform.State]fyne.CanvasObject{}
	f.building = true
	defer func() { f.building = false }()
	root := f.state
	var objs []fyne.CanvasObject
	if root.Field.Kind == schemaform.KindObject && !root.Raw {
		for _, p := range root.Props {
			objs = append(objs, f.fieldRow(p, "").box)
		}
		if len(root.Props) == 0 {
			text := "No arguments."
			if ap := f.model.Schema.Get("additionalProperties"); ap != nil && !(ap.Type == schemaform.TypeBool && !ap.Bool) {
				text = "Free-form arguments: edit them as JSON."
			}
			l := widget.NewLabel(text)
			l.Importance = widget.LowImportance
			objs = append(objs, l)
		}
		if len(root.Extra) > 0 {
			objs = append(objs, f.extraNote(root))
		}
	} else {
		objs = append(objs, f.fieldRow(root, "").box)
	}
	f.fields.Objects = objs
	f.fields.Refresh()
}

// extraNote tells that members without a control are kept.
func (f *Form) extraNote(st *schemaform.State) fyne.CanvasObject {
	names := make([]string, len(st.Extra))
	for i, m := range st.Extra {
		names[i] = m.Key
	}
	l := widget.NewLabel("Also sent, edit in JSON: " + strings.Join(names, ", "))
	l.Importance = widget.LowImportance
	l.Wrapping = fyne.TextWrapWord
	return l
}

// label is the label of a field, with * when required.
func label(st *schemaform.State, fallback string) string {
	l := st.Field.Label()
	if l == "" {
		l = fallback
	}
	if st.Field.Required && fallback == "" {
		l += " *"
	}
	return l
}

// fieldRow builds the row of st: label, control, description, errors.
// item is the label of an array item ("#1"), "" for properties.
func (f *Form) fieldRow(st *schemaform.State, item string) *row {
	r := &row{box: container.NewVBox()}
	// the validation line always takes its one line, so a message that
	// appears while the user types never moves what is below it
	r.err = widget.NewLabel("")
	r.err.Importance = widget.DangerImportance
	r.err.SizeName = theme.SizeNameCaptionText
	r.err.Truncation = fyne.TextTruncateEllipsis
	f.rows[st] = r
	f.fillRow(st, r, item)
	return r
}

func (f *Form) fillRow(st *schemaform.State, r *row, item string) {
	ctl := f.control(st, item)
	f.controls[st] = ctl
	var objs []fyne.CanvasObject
	k := st.Field.Kind
	// Booleans carry their label, objects show it as their header, and
	// list items of other kinds go without one.
	if st.Raw || (k != schemaform.KindBoolean && k != schemaform.KindObject && item == "") {
		l := widget.NewLabel(label(st, item))
		l.TextStyle = fyne.TextStyle{Bold: true}
		l.Truncation = fyne.TextTruncateEllipsis
		objs = append(objs, l)
	}
	if e, ok := ctl.(*widget.Entry); ok {
		// the wheel over a one-line entry scrolls the form around it
		objs = append(objs, esc.PassWheel(e))
	} else {
		objs = append(objs, ctl)
	}
	if d := st.Field.Description; d != "" && k != schemaform.KindObject {
		objs = append(objs, snug(helper(d)))
	}
	if st.Raw {
		objs = append(objs, snug(helper("This value does not fit the form control; it is kept and edited as JSON.")))
		back := esc.NewButton("Clear it and use the form control", func() {
			st.Set(nil)
			f.fillRow(st, r, item)
			f.changed(st)
		})
		back.Importance = widget.LowImportance
		objs = append(objs, container.NewHBox(back))
	} else if k == schemaform.KindJSON && st.Field.Reason != "" {
		objs = append(objs, snug(helper("Edited as JSON ("+st.Field.Reason+").")))
	}
	objs = append(objs, snug(r.err))
	r.box.Objects = objs
	r.box.Refresh()
	// A fresh form shows what is wrong with its values, but does not
	// call empty fields "required" before the user did anything.
	var issues []schemaform.Issue
	for _, is := range st.Check() {
		if is.Code != schemaform.CodeRequired {
			issues = append(issues, is)
		}
	}
	f.showIssues(st, issues)
}

// snug holds a caption line under a control without the label's own
// padding above and below it: the control and the field's box pad
// themselves, and the two padded lines (the description, the error line
// kept for what may go wrong) made each field ~32 px taller, so that at
// 1024×700 a form showed two fields.
func snug(l *widget.Label) fyne.CanvasObject {
	return container.New(fit.NewSnug(), l)
}

// helper is description text under a control.
func helper(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.SizeName = theme.SizeNameCaptionText
	l.Importance = widget.LowImportance
	return l
}

// control builds the control of st: the one place where field kinds
// become widgets.
func (f *Form) control(st *schemaform.State, item string) fyne.CanvasObject {
	fld := st.Field
	kind := fld.Kind
	if st.Raw {
		kind = schemaform.KindJSON
	}
	switch kind {
	case schemaform.KindString, schemaform.KindText:
		return f.textControl(st, kind == schemaform.KindText)
	case schemaform.KindFormat:
		ee := esc.NewEntry() // passes Esc and the wheel on
		e := &ee.Entry
		e.SetPlaceHolder(placeholders[fld.Format])
		e.SetText(st.Text)
		e.OnChanged = func(s string) { st.SetText(s); f.changed(st) }
		e.OnSubmitted = f.onSubmitted
		return ee
	case schemaform.KindNumber, schemaform.KindInteger:
		// A plain entry: a typo (12.5x in an integer) is shown and refused
		// by the field check, never silently turned into another number.
		ee := esc.NewEntry()
		e := &ee.Entry
		e.SetPlaceHolder(numberHint(fld))
		e.SetText(st.Text)
		e.OnChanged = func(s string) { st.SetText(s); f.changed(st) }
		e.OnSubmitted = f.onSubmitted
		return ee
	case schemaform.KindEnum, schemaform.KindTitledEnum:
		titles := make([]string, 0, len(fld.Options)+1)
		offset := 0
		if !fld.Required {
			titles = append(titles, notSet)
			offset = 1
		}
		for _, o := range fld.Options {
			titles = append(titles, o.Title)
		}
		s := esc.NewSelect(titles, nil)
		s.PlaceHolder = "(choose)"
		if st.Index >= 0 {
			s.SetSelectedIndex(st.Index + offset)
		}
		s.OnChanged = func(string) { st.Select(s.SelectedIndex() - offset); f.changed(st) }
		return s
	case schemaform.KindMultiSelect:
		box := container.NewVBox()
		for i, o := range fld.Options {
			c := esc.NewCheck(o.Title, nil)
			c.SetChecked(st.IsChecked(i))
			c.OnChanged = func(on bool) { st.SetChecked(i, on); f.changed(st) }
			box.Add(c)
		}
		return box
	case schemaform.KindBoolean:
		c := esc.NewCheck(label(st, item), nil)
		c.SetChecked(st.Bool)
		c.OnChanged = func(on bool) { st.SetBool(on); f.changed(st) }
		return c
	case schemaform.KindArray:
		return f.arrayControl(st)
	case schemaform.KindObject:
		box := container.NewVBox()
		if d := fld.Description; d != "" {
			box.Add(helper(d))
		}
		for _, p := range st.Props {
			box.Add(f.fieldRow(p, "").box)
		}
		if len(st.Extra) > 0 {
			box.Add(f.extraNote(st))
		}
		indent := layout.NewCustomPaddedLayout(0, 0, theme.Padding()*3, 0)
		ai := widget.NewAccordionItem(label(st, item), container.New(indent, box))
		ai.Open = true
		return esc.NewAccordion(ai)
	case schemaform.KindNullable:
		inner := f.control(st.Inner, item)
		f.controls[st.Inner] = inner
		nullLabel := widget.NewLabel("null")
		nullLabel.Importance = widget.LowImportance
		c := esc.NewCheck("null", nil)
		c.SetChecked(st.Null)
		show := func() {
			if st.Null {
				inner.Hide()
				nullLabel.Show()
			} else {
				inner.Show()
				nullLabel.Hide()
			}
		}
		show()
		c.OnChanged = func(on bool) { st.SetNull(on); show(); f.changed(st) }
		return container.NewBorder(nil, nil, nil, c, container.NewStack(inner, nullLabel))
	default: // KindJSON and values that do not fit their control
		ee := esc.NewMultiLineEntry() // scrolls the form at its end
		e := &ee.Entry
		e.TextStyle = fyne.TextStyle{Monospace: true}
		e.Wrapping = fyne.TextWrapOff
		e.SetMinRowsVisible(min(max(strings.Count(st.Text, "\n")+1, 3), 10))
		e.SetPlaceHolder("JSON value")
		e.SetText(st.Text)
		e.OnChanged = func(s string) { st.SetText(s); f.changed(st) }
		return ee
	}
}

const notSet = "(not set)"

var placeholders = map[string]string{
	"uri": "https://…", "iri": "https://…", "url": "https://…", "uri-reference": "https://… or /path",
	"date": "YYYY-MM-DD", "date-time": "YYYY-MM-DDThh:mm:ssZ", "time": "hh:mm:ssZ",
	"email": "name@example.com", "uuid": "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
	"ipv4": "127.0.0.1", "ipv6": "::1",
}

// numberHint describes the accepted range in a placeholder.
func numberHint(f *schemaform.Field) string {
	what := "number"
	if f.Kind == schemaform.KindInteger {
		what = "integer"
	}
	var parts []string
	if f.Min != nil {
		op := "≥ "
		if f.Min.Exclusive {
			op = "> "
		}
		parts = append(parts, op+string(f.Min.Value))
	}
	if f.Max != nil {
		op := "≤ "
		if f.Max.Exclusive {
			op = "< "
		}
		parts = append(parts, op+string(f.Max.Value))
	}
	if f.MultipleOf != "" {
		parts = append(parts, "× "+string(f.MultipleOf))
	}
	if len(parts) == 0 {
		return what
	}
	return what + ", " + strings.Join(parts, ", ")
}

// textControl is a text entry with a button that switches between one
// line and several.
func (f *Form) textControl(st *schemaform.State, multi bool) fyne.CanvasObject {
	slot := container.NewStack()
	var build func(multi bool)
	build = func(multi bool) {
		// esc entries pass Esc to a dialog and the wheel to the form
		ee := esc.NewEntry()
		if multi {
			ee = esc.NewMultiLineEntry()
		}
		e := &ee.Entry
		if multi {
			e.Wrapping = fyne.TextWrapWord
			e.SetMinRowsVisible(4)
		}
		if st.Field.MaxLength >= 0 {
			chars := "characters"
			if st.Field.MaxLength == 1 {
				chars = "character" // ui's plural is not reachable from here
			}
			e.SetPlaceHolder(fmt.Sprintf("up to %d %s", st.Field.MaxLength, chars))
		}
		e.SetText(st.Text)
		e.OnChanged = func(s string) { st.SetText(s); f.changed(st) }
		name := st.Field.Name
		ee.OnKey = func(ev *fyne.KeyEvent) bool {
			return f.OnFieldKey != nil && f.OnFieldKey(name, ev)
		}
		ee.OnFocusLost = func() {
			if f.OnFieldFocusLost != nil {
				f.OnFieldFocusLost(name)
			}
		}
		if !multi {
			e.OnSubmitted = f.onSubmitted
		}
		icon := theme.MenuExpandIcon()
		if multi {
			icon = theme.MenuDropUpIcon()
		}
		toggle := esc.NewButtonWithIcon("", icon, func() { build(!multi) })
		toggle.Importance = widget.LowImportance
		e.ActionItem = toggle
		slot.Objects = []fyne.CanvasObject{ee}
		slot.Refresh()
		f.controls[st] = slot
	}
	build(multi || strings.Contains(st.Text, "\n"))
	return slot
}

// arrayControl is a list of item rows with add, remove and reorder.
func (f *Form) arrayControl(st *schemaform.State) fyne.CanvasObject {
	items := container.NewVBox()
	var refresh func()
	var shown []*schemaform.State
	refresh = func() {
		for _, o := range shown {
			f.forget(o)
		}
		shown = append(shown[:0], st.Items...)
		items.Objects = nil
		for i, it := range st.Items {
			r := f.fieldRow(it, fmt.Sprintf("#%d", i+1))
			up := esc.NewButtonWithIcon("", theme.MoveUpIcon(), func() { st.Move(i, i-1); refresh(); f.changed(st) })
			// Fyne's own ↓: the window's theme draws MoveDown as a tree's ▾
			down := esc.NewButtonWithIcon("", theme.DefaultTheme().Icon(theme.IconNameMoveDown), func() { st.Move(i, i+1); refresh(); f.changed(st) })
			del := esc.NewButtonWithIcon("", theme.DeleteIcon(), func() { st.Remove(i); refresh(); f.changed(st) })
			up.Importance, down.Importance, del.Importance = widget.LowImportance, widget.LowImportance, widget.LowImportance
			if i == 0 {
				up.Disable()
			}
			if i == len(st.Items)-1 {
				down.Disable()
			}
			items.Add(container.NewBorder(nil, nil, nil, container.NewHBox(up, down, del), r.box))
		}
		items.Refresh()
	}
	refresh()
	add := esc.NewButtonWithIcon("Add item", theme.ContentAddIcon(), func() {
		st.Add()
		refresh()
		f.changed(st)
	})
	add.Importance = widget.LowImportance
	return container.NewVBox(items, container.NewHBox(add))
}

// forget drops the rows and controls of st and everything below it (the
// list rebuilds them).
func (f *Form) forget(st *schemaform.State) {
	st.Walk(func(_ string, x *schemaform.State) {
		delete(f.rows, x)
		delete(f.controls, x)
	})
}

// changed runs after an edit of st: it shows st's own problems and tells
// the owner.
func (f *Form) changed(st *schemaform.State) {
	if f.building {
		return
	}
	f.showIssues(st, st.Check())
	f.typedValue = nil
	if f.OnChanged != nil {
		f.OnChanged()
	}
}

// showIssues puts the problems of st's own value under its field, in
// words (see fieldText).
func (f *Form) showIssues(st *schemaform.State, issues []schemaform.Issue) {
	msgs := make([]string, len(issues))
	for i, is := range issues {
		msgs[i] = fieldText(st, is)
	}
	f.showMessages(st, msgs)
}

// showMessages puts msgs under the field of st.
func (f *Form) showMessages(st *schemaform.State, msgs []string) {
	r := f.rows[st]
	if r == nil {
		return
	}
	r.err.SetText(strings.Join(msgs, "; "))
}

// Problem words is for a person, naming the value by the labels the form
// shows: "message is required", "count must be at least 1", "items › #2 ›
// when: not a date (YYYY-MM-DD)". A problem of the whole document is its
// message alone. (Issue.String's JSON pointer, "/message: required", is
// for logs and the CLI.)
func (f *Form) Problem(is schemaform.Issue) string {
	return problemText(f.pathName(is.Path), is)
}

// problemText words is for the value called name ("" for the whole
// document).
func problemText(name string, is schemaform.Issue) string {
	switch {
	case name == "":
		return is.Message
	case is.Code == schemaform.CodeRequired:
		return name + " is required"
	case strings.HasPrefix(is.Message, "must "):
		return name + " " + is.Message
	}
	return name + ": " + is.Message
}

// fieldText words a problem of st's own value under its field: the label
// above says which field, so only a missing value names it ("message is
// required", where the bare "required" read like a tag).
func fieldText(st *schemaform.State, is schemaform.Issue) string {
	if is.Code != schemaform.CodeRequired {
		return is.Message
	}
	name := st.Field.Label()
	if name == "" {
		name = "a value" // an array item
	}
	return name + " is required"
}

// pathName names the value at a JSON pointer as the form labels it: each
// property by its label, an array item as "#n", joined by " › ". A part
// the form does not hold keeps its name from the pointer.
func (f *Form) pathName(path string) string {
	if path == "" {
		return ""
	}
	toks := strings.Split(strings.TrimPrefix(path, "/"), "/")
	names := make([]string, len(toks))
	parent := f.state
	for i, tok := range toks {
		name := strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var st *schemaform.State
		if parent != nil {
			if s, exact := f.state.Find("/" + strings.Join(toks[:i+1], "/")); exact {
				st = s
			}
			for parent.Field.Kind == schemaform.KindNullable && parent.Inner != nil && !parent.Raw {
				parent = parent.Inner
			}
		}
		n, err := strconv.Atoi(name)
		switch {
		case parent != nil && parent.Field.Kind == schemaform.KindArray && err == nil:
			name = "#" + strconv.Itoa(n+1) // as the form numbers its items
		case st != nil && st.Field.Label() != "":
			name = st.Field.Label()
		}
		names[i] = name
		parent = st
	}
	return strings.Join(names, " › ")
}

// onMode switches between the form and the JSON editor.
func (f *Form) onMode(sel string) {
	want := sel == "JSON"
	if want == f.jsonMode {
		return
	}
	if err := f.setMode(want); err != nil {
		f.mode.SetSelected("JSON") // stay until the JSON is fixed
	}
}

// setMode switches modes. Leaving the JSON editor fails (and stays) while
// its text is not valid JSON.
func (f *Form) setMode(jsonMode bool) error {
	if jsonMode {
		v := f.value()
		text := string(v.Indent())
		if f.typedValue != nil && schemaform.Equal(v, f.typedValue) {
			text = f.typed // unchanged since it was typed: show it as typed
		}
		f.setJSONText(text)
		f.generated = text
		f.showJSON(true)
		return nil
	}
	if f.jsonEntry.Text == f.generated {
		f.showJSON(false) // nothing typed: the form is still right
		return nil
	}
	v, err := f.parseJSON()
	if err != nil {
		f.showJSONError(err)
		return err
	}
	f.state.Set(v)
	f.typed = f.jsonEntry.Text
	f.typedValue = f.value()
	f.rebuild()
	f.showJSON(false)
	return nil
}

func (f *Form) showJSON(on bool) {
	f.jsonMode = on
	if on {
		f.fields.Hide()
		f.jsonBox.Show()
		f.mode.SetSelected("JSON")
	} else {
		f.jsonBox.Hide()
		f.fields.Show()
		f.mode.SetSelected("Form")
	}
	f.body.Refresh()
}

func (f *Form) setJSONText(s string) {
	old := f.jsonEntry.OnChanged
	f.jsonEntry.OnChanged = nil
	f.jsonEntry.SetText(s)
	f.jsonEntry.OnChanged = old
	f.onJSONText()
}

func (f *Form) onJSONChanged(string) {
	f.onJSONText()
	if f.OnChanged != nil {
		f.OnChanged()
	}
}

// onJSONText marks invalid JSON with its position; the text itself is
// never touched.
func (f *Form) onJSONText() {
	if _, err := f.parseJSON(); err != nil {
		f.showJSONError(err)
		return
	}
	f.jsonErr.SetText("")
	f.jsonErr.Hide()
	f.jsonEdit.SetProblem(0, 0)
}

func (f *Form) showJSONError(err error) {
	msg := err.Error() // the one place it is said: cause first, a sentence
	r, n := utf8.DecodeRuneInString(msg)
	f.jsonErr.SetText(string(unicode.ToUpper(r)) + msg[n:])
	f.jsonErr.Show()
	var se *schemaform.SyntaxError
	if errors.As(err, &se) {
		f.jsonEdit.SetProblem(se.Line, se.Col)
	}
}

// parseJSON parses the JSON editor ("" stands for {}).
func (f *Form) parseJSON() (*schemaform.Value, error) {
	text := f.jsonEntry.Text
	if strings.TrimSpace(text) == "" {
		return schemaform.Object(), nil
	}
	v, err := schemaform.ParseValue([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotSent, err)
	}
	return v, nil
}

// value is the form's value ({} when everything is left out).
func (f *Form) value() *schemaform.Value {
	if v := f.state.Value(); v != nil {
		return v
	}
	return schemaform.Object()
}

// Values returns the arguments that would be sent. In the JSON editor they
// are the typed text with only insignificant white space removed (never
// re-escaped or reformatted); invalid JSON is an error wrapping
// ErrNotSent and *schemaform.SyntaxError (with line and column).
func (f *Form) Values() (json.RawMessage, error) {
	if f.jsonMode {
		if _, err := f.parseJSON(); err != nil {
			return nil, err
		}
		if strings.TrimSpace(f.jsonEntry.Text) == "" {
			return json.RawMessage(`{}`), nil
		}
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(f.jsonEntry.Text)); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotSent, err)
		}
		return b.Bytes(), nil
	}
	return f.value().JSON(), nil
}

// SetValues loads arguments into the form (and the JSON editor, if
// shown, gets them as text exactly). Members without a control are kept
// and sent back unchanged.
func (f *Form) SetValues(raw json.RawMessage) error {
	v, err := schemaform.ParseValue(raw)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNotSent, err)
	}
	f.state.Set(v)
	f.typed, f.typedValue = string(raw), f.value()
	f.rebuild()
	if f.jsonMode {
		f.setJSONText(string(raw))
		f.generated = string(raw)
	}
	return nil
}

// Reset puts the schema defaults back (in both views).
func (f *Form) Reset() {
	f.state.Reset()
	f.typedValue = nil
	f.rebuild()
	if f.jsonMode {
		f.generated = string(f.value().Indent())
		f.setJSONText(f.generated)
	}
	if f.OnChanged != nil {
		f.OnChanged()
	}
}

func (f *Form) onReset() { f.Reset() }

func (f *Form) onSubmitted(string) {
	if f.OnSubmit != nil {
		f.OnSubmit()
	}
}

// FirstProblem is the box of the field whose error line comes first in
// the form as drawn (nil when none shows one), for a caller that scrolls
// it into view after Validate.
func (f *Form) FirstProblem() fyne.CanvasObject {
	boxOf := map[*widget.Label]*fyne.Container{}
	for _, r := range f.rows {
		boxOf[r.err] = r.box
	}
	var found fyne.CanvasObject
	var visit func(o fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		if found != nil || o == nil || !o.Visible() {
			return
		}
		switch c := o.(type) {
		case *widget.Label:
			if box := boxOf[c]; box != nil && strings.TrimSpace(c.Text) != "" {
				found = box
			}
		case *fyne.Container:
			for _, x := range c.Objects {
				visit(x)
			}
		}
	}
	visit(f.body)
	return found
}

// Validate checks the arguments (per field, then the whole document
// against the schema), shows each problem next to its field (in the JSON
// editor: under it, with paths) and returns them all. It never blocks
// sending: the caller decides, for example after asking the user.
// Invalid JSON in the editor is one issue with code schemaform.CodeJSON.
func (f *Form) Validate() []schemaform.Issue {
	if f.jsonMode {
		raw, err := f.Values()
		if err != nil {
			f.showJSONError(err)
			return []schemaform.Issue{{Code: schemaform.CodeJSON, Message: err.Error()}}
		}
		issues := f.model.Validate(raw)
		if len(issues) == 0 {
			f.jsonErr.SetText("")
			f.jsonErr.Hide()
			return nil
		}
		msgs := make([]string, len(issues))
		for i, is := range issues {
			msgs[i] = f.Problem(is)
		}
		f.jsonErr.SetText(strings.Join(msgs, "\n"))
		f.jsonErr.Show()
		return issues
	}
	issues := f.model.Check(f.state)
	// each problem under its field, in words; one of a value the form
	// has no field of goes under the nearest field above it, or above the
	// fields, naming the value
	byState := map[*schemaform.State][]string{}
	for _, is := range issues {
		st, exact := f.state.Find(is.Path)
		for st != nil && f.rows[st] == nil && st.Field.Kind == schemaform.KindNullable {
			st = st.Inner
		}
		if f.rows[st] == nil {
			st, exact = f.state, is.Path == ""
		}
		msg := f.Problem(is)
		if exact {
			msg = fieldText(st, is)
		}
		byState[st] = append(byState[st], msg)
	}
	for st := range f.rows {
		f.showMessages(st, byState[st])
	}
	var top []string
	if f.rows[f.state] == nil {
		top = byState[f.state]
	}
	if err := f.model.Validator(); err != nil {
		top = append(top, "The whole-document check is off: the schema cannot be compiled.")
	}
	f.setNotes(top)
	return issues
}

// setNotes shows the elicitation warning and whole-document notes above
// the fields.
func (f *Form) setNotes(lines []string) {
	if f.elicit != "" {
		lines = append([]string{f.elicit}, lines...)
	}
	f.notes.SetText(strings.Join(lines, "\n"))
	if len(lines) > 0 {
		f.notes.Show()
	} else {
		f.notes.Hide()
	}
}

// State returns the state behind the form (for callers that inspect
// fields); edits through it show after SetValues or Reset.
func (f *Form) State() *schemaform.State { return f.state }

// FieldEntry is the text entry of the top-level field named name, as the
// form shows it now (nil for another control, or in JSON mode). The form
// makes its entries again when values are loaded.
func (f *Form) FieldEntry(name string) *esc.Entry {
	if f.jsonMode {
		return nil
	}
	for _, st := range f.state.Props {
		if st.Field.Name != name {
			continue
		}
		if slot, ok := f.controls[st].(*fyne.Container); ok && len(slot.Objects) == 1 {
			e, _ := slot.Objects[0].(*esc.Entry)
			return e
		}
	}
	return nil
}

// FirstField is the control of the form's first field that takes the
// focus (an entry, list or box; a field inside a closed section is
// passed over), or the JSON editor in JSON mode; nil when the form has no
// such field ("No arguments.").
func (f *Form) FirstField() fyne.Focusable {
	if f.jsonMode {
		return f.jsonEntry
	}
	return firstFocusable(f.fields)
}

// firstFocusable is the first visible, enabled focusable object in o's
// containers, depth first (nil when there is none).
func firstFocusable(o fyne.CanvasObject) fyne.Focusable {
	if o == nil || !o.Visible() {
		return nil
	}
	if fo, ok := o.(fyne.Focusable); ok {
		if d, ok := o.(fyne.Disableable); ok && d.Disabled() {
			return nil
		}
		return fo
	}
	if c, ok := o.(*fyne.Container); ok {
		for _, x := range c.Objects {
			if fo := firstFocusable(x); fo != nil {
				return fo
			}
		}
	}
	return nil
}

// JSONText returns the JSON editor's text as typed, and whether the form
// is in its JSON editor (what the user entered, for the Arguments view).
func (f *Form) JSONText() (string, bool) { return f.jsonEntry.Text, f.jsonMode }
