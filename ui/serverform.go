package ui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yosida95/uritemplate/v3"

	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/form"
)

// newArgsEditor is the editor for a tool's arguments: the schema-driven
// form of ui/form (with its own JSON toggle), or a JSON field when the
// schema is not even JSON. prev are the arguments of the last call.
func (w *Window) newArgsEditor(schema, prev json.RawMessage, submit func()) argsEditor {
	model, err := schemaform.Build(schema)
	if err != nil {
		return newJSONArgs(schema, string(prev))
	}
	f := form.New(model, &form.Options{Values: prev})
	f.OnSubmit = submit
	return &formArgs{f: f}
}

// formArgs is the schema-driven form.
type formArgs struct{ f *form.Form }

// Object implements argsEditor.
func (a *formArgs) Object() fyne.CanvasObject { return a.f }

// JSON implements argsEditor.
func (a *formArgs) JSON() (json.RawMessage, error) { return a.f.Values() }

// Problems validates the arguments and words each problem.
func (a *formArgs) Problems() []string {
	var out []string
	for _, is := range a.f.Validate() {
		out = append(out, is.String())
	}
	return out
}

// Set loads arguments (automation).
func (a *formArgs) Set(raw json.RawMessage) error { return a.f.SetValues(raw) }

// expandTemplate expands an RFC 6570 URI template.
//
// uritemplate v3.0.2 percent-encodes a character outside ASCII as the
// bytes of its code point (é becomes %E9, こ becomes %30%53) instead of
// its UTF-8 bytes (%C3%A9) as RFC 6570 asks, so such characters go
// through the expansion as ASCII stand-ins and are encoded here. (A
// prefix modifier such as {var:3} then counts a stand-in's length.)
func (w *Window) expandTemplate(tmpl string, vals map[string]string) (string, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return "", fmt.Errorf("bad URI template %q: %w", tmpl, err)
	}
	// the marker occurs neither in the template nor in any value
	marker := "zQz"
	for used := true; used; {
		used = strings.Contains(tmpl, marker)
		for _, s := range vals {
			used = used || strings.Contains(s, marker)
		}
		if used {
			marker += "Q"
		}
	}
	var back []string // stand-in, encoding, ...
	standIn := map[rune]string{}
	v := uritemplate.Values{}
	for k, s := range vals {
		if s == "" {
			continue
		}
		var b strings.Builder
		for _, r := range s {
			if r < utf8.RuneSelf {
				b.WriteRune(r)
				continue
			}
			si, ok := standIn[r]
			if !ok {
				si = marker + strconv.Itoa(len(standIn)) + marker
				standIn[r] = si
				var enc strings.Builder
				for _, c := range []byte(string(r)) {
					fmt.Fprintf(&enc, "%%%02X", c)
				}
				back = append(back, si, enc.String())
			}
			b.WriteString(si)
		}
		v.Set(k, uritemplate.String(b.String()))
	}
	out, err := t.Expand(v)
	if err != nil || len(back) == 0 {
		return out, err
	}
	return strings.NewReplacer(back...).Replace(out), nil
}

// serverForm is the add/edit dialog of a server, with its Server Settings.
type serverForm struct {
	w       *Window
	oldName string
	name    *widget.Entry
	trans   *widget.Select
	command *widget.Entry
	args    *widget.Entry
	env     *widget.Entry
	cwd     *widget.Entry
	url     *widget.Entry
	headers *widget.Entry

	protoVer  *widget.Select
	protoEra  *widget.Select
	connTO    *widget.Entry
	reqTO     *widget.Entry
	taskTTL   *widget.Entry
	autoRef   *widget.Check
	paginated *widget.Check
	roots     *widget.Entry
	metadata  *widget.Entry
	clientID  *widget.Entry
	scopes    *widget.Entry
	errLbl    *widget.Label
	base      ServerConfig
	// settingsOpen shows the Server Settings; rebuild lays the form out
	// again (transport changed, settings opened or closed).
	settingsOpen bool
	rebuild      func()
}

// showServerForm opens the add (oldName "") or edit form.
func showServerForm(w *Window, oldName string, cfg ServerConfig) {
	if ro, why := w.be.ReadOnly(); ro {
		w.toast("error", "Editing is off: "+why)
		return
	}
	f := &serverForm{w: w, oldName: oldName, base: cfg}
	title := "Add server"
	if oldName != "" {
		title = "Edit " + oldName
	}
	var d dialog.Dialog
	save := widget.NewButton("Save", func() {
		if f.onSave() {
			d.Hide()
		}
	})
	save.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { d.Hide() })
	content := container.NewBorder(nil, container.NewVBox(f.errLblInit(), container.NewHBox(layout.NewSpacer(), cancel, save)), nil, nil,
		container.NewVScroll(f.buildUI(cfg)))
	d = dialog.NewCustomWithoutButtons(title, content, w.win)
	d.Resize(fyne.NewSize(620, 600))
	d.Show()
}

func (f *serverForm) errLblInit() *widget.Label {
	f.errLbl = wrapLabel("")
	f.errLbl.Importance = widget.DangerImportance
	f.errLbl.Hide()
	return f.errLbl
}

func (f *serverForm) buildUI(c ServerConfig) fyne.CanvasObject {
	f.name = widget.NewEntry()
	f.name.SetText(c.Name)
	f.command = widget.NewEntry()
	f.command.SetText(c.Command)
	f.command.SetPlaceHolder("npx")
	f.args = widget.NewEntry()
	f.args.SetText(joinArgs(c.Args))
	f.args.SetPlaceHolder("-y @modelcontextprotocol/server-everything")
	f.env = widget.NewMultiLineEntry()
	f.env.SetText(joinMap(c.Env, "="))
	f.env.SetPlaceHolder("KEY=value, one per line")
	f.env.SetMinRowsVisible(2)
	f.cwd = widget.NewEntry()
	f.cwd.SetText(c.Cwd)
	f.url = widget.NewEntry()
	f.url.SetText(c.URL)
	f.url.SetPlaceHolder("http://127.0.0.1:3001/mcp")
	f.headers = widget.NewMultiLineEntry()
	f.headers.SetText(joinMap(c.Headers, ": "))
	f.headers.SetPlaceHolder("Name: value, one per line")
	f.headers.SetMinRowsVisible(2)

	// one form, rebuilt for the transport and when Server Settings open
	// or close, so that every label lines up
	main := container.NewStack()
	var settings []*widget.FormItem
	var toggle *widget.Button
	f.rebuild = func() {
		items := []*widget.FormItem{widget.NewFormItem("Name", f.name), widget.NewFormItem("Transport", f.trans)}
		if f.trans.Selected == "stdio" {
			items = append(items,
				widget.NewFormItem("Command", f.command),
				widget.NewFormItem("Arguments", f.args),
				widget.NewFormItem("Environment", f.env),
				widget.NewFormItem("Working folder", f.cwd))
		} else {
			items = append(items, widget.NewFormItem("URL", f.url), widget.NewFormItem("Headers", f.headers))
		}
		items = append(items, widget.NewFormItem("", container.NewHBox(toggle)))
		if f.settingsOpen {
			toggle.SetIcon(theme.MenuDropUpIcon())
			items = append(items, settings...)
		} else {
			toggle.SetIcon(theme.MenuDropDownIcon())
		}
		main.Objects = []fyne.CanvasObject{widget.NewForm(items...)}
		main.Refresh()
	}
	toggle = widget.NewButtonWithIcon("Server Settings", theme.MenuDropDownIcon(), func() {
		f.settingsOpen = !f.settingsOpen
		f.rebuild()
	})
	toggle.Importance = widget.LowImportance
	toggle.IconPlacement = widget.ButtonIconTrailingText
	// editing: the settings are what one often comes to change
	f.settingsOpen = f.oldName != ""
	f.trans = widget.NewSelect([]string{"stdio", "http", "sse"}, func(string) { f.rebuild() })
	t := c.Transport
	if t == "" {
		t = "stdio"
	}
	f.trans.SetSelected(t)

	f.protoVer = widget.NewSelect([]string{"(era default)", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}, nil)
	f.protoVer.SetSelected(firstNonEmpty(c.ProtocolVersion, "(era default)"))
	f.protoEra = widget.NewSelect([]string{"legacy", "modern", "auto"}, nil)
	f.protoEra.SetSelected(firstNonEmpty(c.ProtocolEra, "legacy"))
	f.connTO = durEntry(c.ConnectionTimeout, "default")
	f.reqTO = durEntry(c.RequestTimeout, "default")
	f.taskTTL = durEntry(c.TaskTTL, "default")
	f.autoRef = widget.NewCheck("Refresh lists automatically on list_changed", nil)
	f.autoRef.SetChecked(c.AutoRefreshOnListChanged)
	f.paginated = widget.NewCheck("Paginated lists (show \"Load next page\")", nil)
	f.paginated.SetChecked(c.PaginatedLists)
	f.roots = widget.NewMultiLineEntry()
	f.roots.SetText(strings.Join(c.Roots, "\n"))
	f.roots.SetPlaceHolder("file:///path, one per line")
	f.roots.SetMinRowsVisible(2)
	f.metadata = widget.NewMultiLineEntry()
	if len(c.Metadata) > 0 {
		f.metadata.SetText(prettyJSON(c.Metadata))
	}
	f.metadata.SetPlaceHolder(`{"key": "value"} merged into every request's _meta`)
	f.clientID = widget.NewEntry()
	f.clientID.SetText(c.OAuthClientID)
	f.scopes = widget.NewEntry()
	f.scopes.SetText(c.OAuthScopes)
	settings = []*widget.FormItem{
		widget.NewFormItem("Protocol version", f.protoVer),
		widget.NewFormItem("Protocol era", f.protoEra),
		widget.NewFormItem("Connection timeout", f.connTO),
		widget.NewFormItem("Request timeout", f.reqTO),
		widget.NewFormItem("Task TTL", f.taskTTL),
		widget.NewFormItem("", f.autoRef),
		widget.NewFormItem("", f.paginated),
		widget.NewFormItem("Roots", f.roots),
		widget.NewFormItem("Metadata", f.metadata),
		widget.NewFormItem("OAuth client ID", f.clientID),
		widget.NewFormItem("OAuth scopes", f.scopes),
	}
	f.rebuild()
	return main
}

func durEntry(d time.Duration, ph string) *widget.Entry {
	e := widget.NewEntry()
	if d > 0 {
		e.SetText(d.String())
	}
	e.SetPlaceHolder(ph + " (e.g. 30s, 5m)")
	return e
}

func parseDur(s, what string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: write a duration such as 30s or 5m, or milliseconds", what)
	}
	return d, nil
}

func joinArgs(a []string) string {
	out := make([]string, len(a))
	for i, s := range a {
		if s == "" || strings.ContainsAny(s, " \t\"'") {
			s = strconv.Quote(s)
		}
		out[i] = s
	}
	return strings.Join(out, " ")
}

// splitArgs splits a command line on spaces, honouring double and single
// quotes.
func splitArgs(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in := rune(0)
	has := false
	for _, r := range s {
		switch {
		case in != 0 && r == in:
			in = 0
		case in != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			in, has = r, true
		case r == ' ' || r == '\t':
			if has || cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteRune(r)
		}
	}
	if in != 0 {
		return nil, fmt.Errorf("arguments: a quote is not closed")
	}
	if has || cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out, nil
}

func joinMap(m map[string]string, sep string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + sep + m[k] + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func parseMap(s, sep, what string) (map[string]string, error) {
	out := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, strings.TrimSpace(sep))
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%s: write %q as NAME%sVALUE", what, line, sep)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// config reads the form into a ServerConfig.
func (f *serverForm) config() (ServerConfig, error) {
	c := f.base
	c.Name = strings.TrimSpace(f.name.Text)
	if c.Name == "" {
		return c, fmt.Errorf("give the server a name")
	}
	c.Transport = f.trans.Selected
	var err error
	if c.Transport == "stdio" {
		c.Command = strings.TrimSpace(f.command.Text)
		if c.Command == "" {
			return c, fmt.Errorf("a stdio server needs a command, such as npx or node")
		}
		if c.Args, err = splitArgs(f.args.Text); err != nil {
			return c, err
		}
		if c.Env, err = parseMap(f.env.Text, "=", "environment"); err != nil {
			return c, err
		}
		c.Cwd = strings.TrimSpace(f.cwd.Text)
		c.URL, c.Headers = "", nil
	} else {
		c.URL = strings.TrimSpace(f.url.Text)
		if !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://") {
			return c, fmt.Errorf("the URL must start with http:// or https://")
		}
		if c.Headers, err = parseMap(f.headers.Text, ": ", "headers"); err != nil {
			return c, err
		}
		c.Command, c.Args, c.Env, c.Cwd = "", nil, nil, ""
	}
	c.ProtocolVersion = f.protoVer.Selected
	if c.ProtocolVersion == "(era default)" {
		c.ProtocolVersion = ""
	}
	c.ProtocolEra = f.protoEra.Selected
	if c.ProtocolEra == "legacy" {
		c.ProtocolEra = ""
	}
	if c.ConnectionTimeout, err = parseDur(f.connTO.Text, "connection timeout"); err != nil {
		return c, err
	}
	if c.RequestTimeout, err = parseDur(f.reqTO.Text, "request timeout"); err != nil {
		return c, err
	}
	if c.TaskTTL, err = parseDur(f.taskTTL.Text, "task TTL"); err != nil {
		return c, err
	}
	c.AutoRefreshOnListChanged = f.autoRef.Checked
	c.PaginatedLists = f.paginated.Checked
	c.Roots = nil
	for _, r := range strings.Split(f.roots.Text, "\n") {
		if r = strings.TrimSpace(r); r != "" {
			c.Roots = append(c.Roots, r)
		}
	}
	c.Metadata = nil
	if m := strings.TrimSpace(f.metadata.Text); m != "" {
		var obj map[string]any
		if err := json.Unmarshal([]byte(m), &obj); err != nil {
			return c, fmt.Errorf("metadata must be a JSON object: %v", err)
		}
		c.Metadata = json.RawMessage(m)
	}
	c.OAuthClientID = strings.TrimSpace(f.clientID.Text)
	c.OAuthScopes = strings.TrimSpace(f.scopes.Text)
	return c, nil
}

// onSave validates and saves; it reports whether the dialog may close.
func (f *serverForm) onSave() bool {
	c, err := f.config()
	if err == nil && c.Name != f.oldName && f.w.server(c.Name) != nil {
		err = fmt.Errorf("a server named %q exists already", c.Name)
	}
	if err == nil {
		err = f.w.be.SaveServer(f.oldName, c)
	}
	if err != nil {
		f.errLbl.SetText(err.Error())
		f.errLbl.Show()
		return false
	}
	if s := f.w.server(f.oldName); s != nil && f.oldName != "" && f.oldName != c.Name {
		s.disconnect()
	}
	f.w.reloadServers()
	if s := f.w.server(c.Name); s != nil {
		f.w.selectServer(s)
	}
	msg := "Saved " + c.Name
	if s := f.w.server(c.Name); s != nil && s.state.State == StateConnected {
		msg += ". Reconnect to use the new settings."
	}
	f.w.toast("ok", msg)
	return true
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
