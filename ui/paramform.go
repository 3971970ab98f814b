package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yosida95/uritemplate/v3"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/form"
)

// ContextCompleter is an optional interface of Conn: Complete with the
// other arguments already filled in (sent as the request's
// context.arguments), so that a server can complete one template variable
// or prompt argument from another. Without it the window calls Complete.
type ContextCompleter interface {
	CompleteWith(ctx context.Context, ref, name, arg, value string, resolved map[string]string) ([]string, error)
}

// completionDelay is how long after the last keystroke the form asks
// for completions: one request per pause, not one per keystroke.
const completionDelay = 250 * time.Millisecond

// maxSuggestions bounds the completion values listed.
const maxSuggestions = 12

// suggestRows is how many suggestions the list under a field shows at
// once; more scroll inside it.
const suggestRows = 6

// paramForm fills named string parameters (a prompt's arguments, a
// resource template's variables) through ui/form, from the schema that
// schemaform.StringsSchema makes of them: the generator of tool arguments
// and elicitation. Under the field being typed in it drops down the
// server's completion suggestions (completion/complete), as a list laid
// over what is below the field, so nothing moves: Down and Up walk it,
// Enter or a click takes one, Esc or leaving the field closes it.
type paramForm struct {
	ss     *serverScreens
	ref    string // "ref/prompt" or "ref/resource"
	name   string // the prompt's name, or the template
	params []schemaform.StringParam
	form   *form.Form
	// values are the parameters as of the last change.
	values map[string]string
	// completes is set when the server declared the completions
	// capability.
	completes bool
	// active is the parameter the suggestions are for; gen drops the
	// answers to older edits, and the pending request of an edit typed
	// over before completionDelay passed.
	active string
	gen    int
	// after runs f on the UI thread after d unless stopped (time.AfterFunc
	// and do; tests drive their own clock).
	after func(d time.Duration, f func()) (stop func() bool)
	stop  func() bool // the pending request's timer

	// drop is the suggestions list, in layer, a layer over the form that
	// places drop under the entry of active; items are its rows, sel the
	// one Down and Up moved to (-1: none).
	layer  *fyne.Container
	drop   *fyne.Container
	list   *fyne.Container
	scroll *container.Scroll
	more   *widget.Label
	items  []*widget.Button
	sel    int
	obj    fyne.CanvasObject

	// view is the scroll the layer is in (its content's top is the
	// layer's): a list that would open below the part shown opens above
	// its field.
	view *container.Scroll

	// onChanged is called after every edit (a suggestion taken included).
	onChanged func()
}

// newParamForm builds the form of params; submit runs on Enter.
func newParamForm(ss *serverScreens, ref, name string, params []schemaform.StringParam, submit func()) *paramForm {
	p := &paramForm{ss: ss, ref: ref, name: name, params: params, values: map[string]string{}, sel: -1}
	model, err := schemaform.Build(schemaform.StringsSchema(params))
	if err != nil {
		// StringsSchema always makes a valid schema; an error is a bug.
		p.obj = wrapLabel("Cannot build the form: " + err.Error())
		return p
	}
	p.form = form.New(model, nil)
	p.form.OnSubmit = submit
	p.form.OnChanged = p.onFormChanged
	p.form.OnFieldKey = p.onKey
	p.form.OnFieldFocusLost = func(name string) {
		if name == p.active {
			p.hideSuggestions()
		}
	}
	p.after = func(d time.Duration, f func()) func() bool {
		return time.AfterFunc(d, func() { do(f) }).Stop
	}
	p.list = container.NewVBox()
	p.scroll = container.NewVScroll(p.list)
	p.more = widget.NewLabel("")
	p.more.SizeName = theme.SizeNameCaptionText
	p.more.Importance = widget.LowImportance
	p.drop = container.NewStack()
	p.drop.Hide()
	// the layer takes no room of its own: the list lies over the fields
	// and buttons below the one typed in, as a drop-down does
	p.layer = container.New(&dropLayout{p: p}, p.drop)
	p.obj = p.form
	p.completes = len(params) > 0 && p.serverCompletes()
	return p
}

// Object is the form.
func (p *paramForm) Object() fyne.CanvasObject { return p.obj }

// FirstField is the entry of the first parameter (nil: none).
func (p *paramForm) FirstField() fyne.Focusable {
	if p.form == nil {
		return nil
	}
	return p.form.FirstField()
}

// Layer is the layer of the suggestions list: the screen lays it over
// its whole pane, the form included, after (so over) everything else, as
// large as the pane; it asks for no room.
func (p *paramForm) Layer() fyne.CanvasObject {
	if p.layer == nil {
		return container.NewStack() // no form, no suggestions
	}
	return p.layer
}

// serverCompletes reports whether the server declared the completions
// capability.
func (p *paramForm) serverCompletes() bool {
	c := p.ss.conn()
	if c == nil {
		return false
	}
	var caps struct {
		Completions json.RawMessage `json:"completions"`
	}
	return json.Unmarshal(c.Info().ServerCapabilities, &caps) == nil && len(caps.Completions) > 0
}

// Values are the parameters as the form holds them; empty ones are left
// out. In the form's JSON editor a value that is not a string is taken as
// its JSON text.
func (p *paramForm) Values() (map[string]string, error) {
	out := map[string]string{}
	if p.form == nil {
		return out, nil
	}
	raw, err := p.form.Values()
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	for k, v := range m {
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		if s != "" {
			out[k] = s
		}
	}
	return out, nil
}

// Set loads values into the form, as if the user had typed them.
func (p *paramForm) Set(vals map[string]string) error {
	if p.form == nil {
		return nil
	}
	raw, err := json.Marshal(vals)
	if err != nil {
		return err
	}
	if err := p.form.SetValues(raw); err != nil {
		return err
	}
	p.onFormChanged()
	return nil
}

// missing names the required parameters left empty.
func (p *paramForm) missing(vals map[string]string) []string {
	var out []string
	for _, prm := range p.params {
		if prm.Required && vals[prm.Name] == "" {
			out = append(out, prm.Name)
		}
	}
	return out
}

// onFormChanged finds the parameter the user edited and asks for its
// suggestions.
func (p *paramForm) onFormChanged() {
	vals, err := p.Values()
	if err != nil {
		return // invalid JSON in the editor: the form shows where
	}
	edited := ""
	for _, prm := range p.params {
		if vals[prm.Name] != p.values[prm.Name] {
			edited = prm.Name
			break
		}
	}
	p.values = vals
	if edited != "" && p.completes {
		if edited != p.active {
			p.hideSuggestions()
		}
		p.active = edited
		p.complete(edited)
	}
	if p.onChanged != nil {
		p.onChanged()
	}
}

// complete asks for the suggestions of arg once the user stopped typing
// for completionDelay; an edit before then takes its place.
func (p *paramForm) complete(arg string) {
	p.gen++
	gen := p.gen
	if p.stop != nil {
		p.stop()
	}
	p.stop = p.after(completionDelay, func() {
		if gen == p.gen {
			p.request(arg)
		}
	})
}

// request asks the server for suggestions of arg now, with the other
// filled parameters as context.
func (p *paramForm) request(arg string) {
	p.gen++
	gen := p.gen
	value := p.values[arg]
	resolved := map[string]string{}
	for k, v := range p.values {
		if k != arg {
			resolved[k] = v
		}
	}
	ref, name := p.ref, p.name
	run(p.ss, func(ctx context.Context, c Conn) ([]string, error) {
		if cc, ok := c.(ContextCompleter); ok {
			return cc.CompleteWith(ctx, ref, name, arg, value, resolved)
		}
		return c.Complete(ctx, ref, name, arg, value)
	}, func(vals []string, err error) {
		if gen != p.gen {
			return
		}
		p.showSuggestions(arg, vals, err)
	})
}

// focused reports whether the entry of arg has the keyboard focus: the
// answer for a field the user left is not shown.
func (p *paramForm) focused(arg string) bool {
	e := p.form.FieldEntry(arg)
	if e == nil || fyne.CurrentApp() == nil {
		return false
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	return c != nil && c.Focused() == e
}

// showSuggestions drops the completion values of arg down under its
// field (none when the server has nothing to offer or refused, or the
// field lost the focus meanwhile).
func (p *paramForm) showSuggestions(arg string, vals []string, err error) {
	// A value already typed in full is not worth suggesting again.
	if err != nil || len(vals) == 0 || (len(vals) == 1 && vals[0] == p.values[arg]) || !p.focused(arg) {
		p.hideSuggestions()
		return
	}
	p.active = arg
	p.more.SetText("")
	if len(vals) > maxSuggestions {
		p.more.SetText(fmt.Sprintf("first %d of %d", maxSuggestions, len(vals)))
		vals = vals[:maxSuggestions]
	}
	p.items = p.items[:0]
	p.list.Objects = nil
	for _, v := range vals {
		b := widget.NewButton(v, func() { p.onSuggestion(arg, v) })
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		p.items = append(p.items, b)
		p.list.Add(b)
	}
	if p.more.Text != "" {
		p.list.Add(p.more)
	}
	p.sel = -1
	rows := min(len(vals), suggestRows)
	p.scroll.SetMinSize(fyne.NewSize(0, float32(rows)*p.items[0].MinSize().Height+float32(rows-1)*theme.Padding()))
	p.scroll.ScrollToTop()
	bg := newPanelBg(theme.ColorNameOverlayBackground, theme.ColorNameInputBorder, 1, theme.InputRadiusSize())
	p.drop.Objects = []fyne.CanvasObject{bg, container.New(layout.NewCustomPaddedLayout(2, 2, 2, 2), p.scroll)}
	p.drop.Show()
	p.layer.Refresh()
}

// hideSuggestions closes the list.
func (p *paramForm) hideSuggestions() {
	p.sel = -1
	p.items = nil
	p.list.Objects = nil
	p.drop.Hide()
	p.layer.Refresh()
}

// onKey moves through the open list (Down, Up), takes the suggestion
// moved to (Enter) or closes the list (Esc); Down in a field with the
// list closed asks for its suggestions. Other keys go to the entry.
func (p *paramForm) onKey(arg string, ev *fyne.KeyEvent) bool {
	if !p.completes {
		return false
	}
	open := p.drop.Visible() && p.active == arg && len(p.items) > 0
	switch ev.Name {
	case fyne.KeyDown:
		if !open {
			p.active = arg
			p.request(arg)
			return true
		}
		p.highlight(min(p.sel+1, len(p.items)-1))
	case fyne.KeyUp:
		if !open {
			return false
		}
		p.highlight(max(p.sel-1, -1))
	case fyne.KeyReturn, fyne.KeyEnter:
		if !open || p.sel < 0 {
			return false
		}
		p.onSuggestion(arg, p.items[p.sel].Text)
	case fyne.KeyEscape:
		if !open {
			return false
		}
		p.gen++ // an answer on its way does not open it again
		p.hideSuggestions()
	default:
		return false
	}
	return true
}

// highlight marks row i as the one Enter takes, scrolled into the list.
func (p *paramForm) highlight(i int) {
	p.sel = i
	for j, b := range p.items {
		imp := widget.LowImportance
		if j == i {
			imp = widget.HighImportance
		}
		if b.Importance != imp {
			b.Importance = imp
			b.Refresh()
		}
	}
	if i < 0 {
		return
	}
	b := p.items[i]
	top, bottom := b.Position().Y, b.Position().Y+b.Size().Height
	if top < p.scroll.Offset.Y {
		p.scroll.ScrollToOffset(fyne.NewPos(0, top))
	} else if h := p.scroll.Size().Height; bottom > p.scroll.Offset.Y+h {
		p.scroll.ScrollToOffset(fyne.NewPos(0, bottom-h))
	}
}

// onSuggestion fills arg with a suggested value; the field keeps the
// focus, its cursor after the value.
func (p *paramForm) onSuggestion(arg, v string) {
	vals := map[string]string{}
	for k, x := range p.values {
		vals[k] = x
	}
	vals[arg] = v
	p.gen++ // nor does the answer to the last keystroke
	if p.stop != nil {
		p.stop()
	}
	p.hideSuggestions()
	if err := p.Set(vals); err != nil {
		return
	}
	p.gen++ // Set counted as an edit of arg: no list for the value taken
	if p.stop != nil {
		p.stop()
	}
	if e := p.form.FieldEntry(arg); e != nil && fyne.CurrentApp() != nil {
		if c := fyne.CurrentApp().Driver().CanvasForObject(p.obj); c != nil {
			c.Focus(e)
		}
		e.CursorRow, e.CursorColumn = 0, len([]rune(v))
		e.Refresh()
	}
}

// dropLayout places the suggestions list right under the entry it is
// for, as wide as the entry; it asks for no room, so the list lies over
// what is below and nothing moves when it opens or closes.
type dropLayout struct{ p *paramForm }

// Layout implements fyne.Layout.
func (l *dropLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	p := l.p
	if !p.drop.Visible() {
		return
	}
	e := p.form.FieldEntry(p.active)
	if e == nil {
		return
	}
	// the form is a widget (its children are its renderer's): the driver
	// knows where the entry is, drawn since the user typed in it
	d := fyne.CurrentApp().Driver()
	pos := d.AbsolutePositionForObject(e).Subtract(d.AbsolutePositionForObject(p.layer))
	top, bottom := float32(0), size.Height
	if v := p.view; v != nil {
		top, bottom = v.Offset.Y, min(bottom, v.Offset.Y+v.Size().Height)
	}
	for _, o := range objs {
		y, h := dropPlace(pos.Y, pos.Y+e.Size().Height, o.MinSize().Height, top, bottom)
		o.Move(fyne.NewPos(pos.X, y))
		o.Resize(fyne.NewSize(e.Size().Width, h))
	}
}

// dropPlace is where a list h tall goes for a field from fieldTop to
// fieldBottom, in a view shown from top to bottom: under the field, or
// above it when only there it fits; when it fits on neither side, it
// takes the larger side and is made shorter (it scrolls), never running
// past what is shown. It returns the list's top and height.
func dropPlace(fieldTop, fieldBottom, h, top, bottom float32) (y, height float32) {
	below, above := bottom-fieldBottom, fieldTop-top
	switch {
	case h <= below:
		return fieldBottom, h
	case h <= above:
		return fieldTop - h, h
	case below >= above:
		return fieldBottom, max(below, 0)
	default:
		return top, above
	}
}

// MinSize implements fyne.Layout: none.
func (l *dropLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.Size{} }

// promptParams are a prompt's arguments as string parameters.
func promptParams(pr Prompt) []schemaform.StringParam {
	out := make([]schemaform.StringParam, len(pr.Arguments))
	for i, a := range pr.Arguments {
		out[i] = schemaform.StringParam{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required}
	}
	return out
}

// templateExpr is one expression of an RFC 6570 template, with its
// operator.
var templateExpr = regexp.MustCompile(`\{([+#./;?&]?)([^}]*)\}`)

// templateParams are the variables of an RFC 6570 template as string
// parameters, in order of appearance. Variables of path-like expressions
// are required (the URI makes little sense without them); those of query
// expressions ({?q}, {&page}) are optional.
func templateParams(tmpl string) ([]schemaform.StringParam, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return nil, fmt.Errorf("bad URI template %q: %w", tmpl, err)
	}
	optional := map[string]bool{}
	required := map[string]bool{}
	for _, m := range templateExpr.FindAllStringSubmatch(tmpl, -1) {
		for _, v := range strings.Split(m[2], ",") {
			v = strings.TrimSuffix(strings.SplitN(v, ":", 2)[0], "*")
			if m[1] == "?" || m[1] == "&" {
				optional[v] = true
			} else {
				required[v] = true
			}
		}
	}
	var out []schemaform.StringParam
	for _, v := range t.Varnames() {
		out = append(out, schemaform.StringParam{Name: v, Required: required[v] && !optional[v]})
	}
	return out, nil
}
