package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"regexp"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
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

// maxSuggestions bounds the completion values shown as buttons.
const maxSuggestions = 12

// paramForm fills named string parameters (a prompt's arguments, a
// resource template's variables) through ui/form, from the schema that
// schemaform.StringsSchema makes of them: the generator of tool arguments
// and elicitation. Under the form it shows the server's completion
// suggestions (completion/complete) for the parameter last edited; a
// suggestion taken fills that parameter.
type paramForm struct {
	ss     *serverScreens
	ref    string // "ref/prompt" or "ref/resource"
	name   string // the prompt's name, or the template
	params []schemaform.StringParam
	form   *form.Form
	// values are the parameters as of the last change.
	values map[string]string
	// active is the parameter the suggestions are for; gen drops the
	// answers to older edits, and the pending request of an edit typed
	// over before completionDelay passed.
	active string
	gen    int
	// after runs f on the UI thread after d unless stopped (time.AfterFunc
	// and do; tests drive their own clock).
	after func(d time.Duration, f func()) (stop func() bool)
	stop  func() bool // the pending request's timer

	suggHead *widget.Label
	sugg     *fyne.Container
	suggBox  *fyne.Container
	obj      fyne.CanvasObject

	// onChanged is called after every edit (a suggestion taken included).
	onChanged func()
	// relayout lays the screen out again when the suggestions change
	// (the row keeps its height; its content's width changes).
	relayout func()
}

// newParamForm builds the form of params; submit runs on Enter.
func newParamForm(ss *serverScreens, ref, name string, params []schemaform.StringParam, submit func()) *paramForm {
	p := &paramForm{ss: ss, ref: ref, name: name, params: params, values: map[string]string{}}
	model, err := schemaform.Build(schemaform.StringsSchema(params))
	if err != nil {
		// StringsSchema always makes a valid schema; an error is a bug.
		p.obj = wrapLabel("Cannot build the form: " + err.Error())
		return p
	}
	p.form = form.New(model, nil)
	p.form.OnSubmit = submit
	p.form.OnChanged = p.onFormChanged
	p.suggHead = widget.NewLabel("")
	p.suggHead.SizeName = theme.SizeNameCaptionText
	p.suggHead.Importance = widget.LowImportance
	p.after = func(d time.Duration, f func()) func() bool {
		return time.AfterFunc(d, func() { do(f) }).Stop
	}
	// the suggestions take one row that keeps its height whether chips
	// show or not (more chips scroll sideways, the bar below them, not
	// over them), so nothing below them moves under the pointer
	p.sugg = container.NewHBox()
	row := canvas.NewRectangle(color.Transparent)
	row.SetMinSize(fyne.NewSize(0, widget.NewButton("M", nil).MinSize().Height))
	p.suggBox = container.NewVBox(p.suggHead, container.NewHScroll(barRoom(container.NewStack(row, p.sugg), true)))
	p.suggBox.Hide()
	p.obj = container.NewVBox(p.form, p.suggBox)
	if len(params) > 0 && p.serverCompletes() {
		p.suggHead.SetText(" ")
		p.suggBox.Show()
		p.active = params[0].Name
		p.request(p.active)
	}
	return p
}

// Object is the form with its suggestions.
func (p *paramForm) Object() fyne.CanvasObject { return p.obj }

// serverCompletes reports whether the server declared the completions
// capability (the form then asks for the first parameter's suggestions
// before anything is typed).
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
	if edited != "" && p.suggBox.Visible() {
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

// showSuggestions lists the completion values of arg as buttons (none
// when the server has nothing to offer or refused).
func (p *paramForm) showSuggestions(arg string, vals []string, err error) {
	p.sugg.Objects = nil
	// A value already typed in full is not worth suggesting again.
	if err != nil || len(vals) == 0 || (len(vals) == 1 && vals[0] == p.values[arg]) {
		p.clearSuggestions()
		return
	}
	more := ""
	if len(vals) > maxSuggestions {
		more = fmt.Sprintf(" (first %d of %d)", maxSuggestions, len(vals))
		vals = vals[:maxSuggestions]
	}
	p.suggHead.SetText("Suggestions for " + p.label(arg) + more)
	for _, v := range vals {
		p.sugg.Add(widget.NewButton(v, func() { p.onSuggestion(arg, v) }))
	}
	p.sugg.Refresh()
	p.layout()
}

// clearSuggestions empties the suggestions row (it keeps its room).
func (p *paramForm) clearSuggestions() {
	p.suggHead.SetText(" ")
	p.sugg.Objects = nil
	p.sugg.Refresh()
}

// layout lays the form and its suggestions out again. Twice: a row-wrap
// layout knows its height only once it has been laid out at its width.
func (p *paramForm) layout() {
	for range 2 {
		if p.relayout != nil {
			p.relayout()
		} else {
			p.obj.Refresh()
		}
	}
}

// label is how the form names a parameter: its title, or its name.
func (p *paramForm) label(name string) string {
	for _, prm := range p.params {
		if prm.Name == name && prm.Title != "" {
			return prm.Title
		}
	}
	return name
}

// onSuggestion fills arg with a suggested value.
func (p *paramForm) onSuggestion(arg, v string) {
	vals := map[string]string{}
	for k, x := range p.values {
		vals[k] = x
	}
	vals[arg] = v
	if err := p.Set(vals); err != nil {
		return
	}
	// the next parameter still empty gets its suggestions
	for _, prm := range p.params {
		if vals[prm.Name] == "" {
			p.active = prm.Name
			p.request(prm.Name)
			return
		}
	}
	p.clearSuggestions()
}

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
