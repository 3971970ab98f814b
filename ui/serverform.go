package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yosida95/uritemplate/v3"

	"github.com/spyglass-mcp/spyglass/core/oauth"
	"github.com/spyglass-mcp/spyglass/core/schemaform"
	"github.com/spyglass-mcp/spyglass/ui/esc"
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

// FirstField implements argsEditor.
func (a *formArgs) FirstField() fyne.Focusable { return a.f.FirstField() }

// JSON implements argsEditor.
func (a *formArgs) JSON() (json.RawMessage, error) { return a.f.Values() }

// Problems validates the arguments and words each problem.
func (a *formArgs) Problems() []string {
	var out []string
	for _, is := range a.f.Validate() {
		out = append(out, a.f.Problem(is)) // in words: "message is required"
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

// OAuthConfig is a server's oauth block as the form edits it; the zero
// value of each field is the catalog's default.
type OAuthConfig struct {
	ClientID string
	// ClientSecret is a secret typed in the form, to be kept in the OS
	// keyring; "" keeps the one stored. ForgetClientSecret deletes it.
	ClientSecret       string
	ForgetClientSecret bool
	Scopes             string
	// NoRefreshToken is requestRefreshToken false; NoRevokeOnClear is
	// revokeOnClear false (both default to true).
	NoRefreshToken      bool
	NoRevokeOnClear     bool
	AuthorizationParams map[string]string
	AuthorizationURL    string
	TokenURL            string
	EnterpriseManaged   bool
	OnInsufficientScope string // "" (step-up) or "fail"
	AssertionFile       string
	AssertionEnv        string
	DPoP                string // "" (auto) or "off"
	// The enterprise identity provider (EnterpriseManaged).
	IDPIssuer   string
	IDPTokenURL string
	IDPClientID string
	// IDPClientSecret, like ClientSecret, goes to the keyring.
	IDPClientSecret       string
	ForgetIDPClientSecret bool
	IDTokenFile           string
	IDTokenEnv            string
}

// IsZero reports whether every field has its default.
func (o OAuthConfig) IsZero() bool {
	return o.ClientID == "" && o.ClientSecret == "" && !o.ForgetClientSecret && o.Scopes == "" &&
		!o.NoRefreshToken && !o.NoRevokeOnClear && len(o.AuthorizationParams) == 0 &&
		o.AuthorizationURL == "" && o.TokenURL == "" && !o.EnterpriseManaged && o.OnInsufficientScope == "" &&
		o.AssertionFile == "" && o.AssertionEnv == "" && o.DPoP == "" && o.IDPIssuer == "" &&
		o.IDPTokenURL == "" && o.IDPClientID == "" && o.IDPClientSecret == "" && !o.ForgetIDPClientSecret &&
		o.IDTokenFile == "" && o.IDTokenEnv == ""
}

// OAuthClearer is implemented by a Backend that can forget a server's
// OAuth state.
type OAuthClearer interface {
	// ClearOAuth forgets the named server's stored tokens, client
	// registration and DPoP key, revoking the grant at the authorization
	// server first when its revokeOnClear says so. It returns a sentence
	// for the user saying what happened (revoked, not revoked and why).
	ClearOAuth(ctx context.Context, name string) (string, error)
}

// ServerRestorer is implemented by a Backend that can undo RemoveServer.
type ServerRestorer interface {
	// RestoreServer puts the server removed last under name back at its
	// position in the catalog, with its keyring secrets, and saves.
	RestoreServer(name string) error
}

// reservedAuthParams are the authorization request parameters the sign-in
// sets itself (core/oauth), plus the ones of PKCE and OpenID Connect that
// make no sense to override.
var reservedAuthParams = append(slices.Clone(oauth.ReservedParams), "code", "nonce", "grant_type")

// Choices of the form's selects: what is shown, then the catalog value.
var (
	stepUpChoices = []string{"Sign in again with the wider scope (default)", "Fail the request"}
	dpopChoices   = []string{"auto — when the servers offer it (default)", "off — plain Bearer tokens"}
	logChoices    = []string{"debug (default)", "info", "notice", "warning", "error", "critical", "alert", "emergency", "off"}
)

// emaIgnored is the note at a field enterprise-managed authorization
// does not use.
const emaIgnored = "Not used under enterprise-managed authorization."

// serverForm is the add/edit dialog of a server, with its Server Settings
// in sections (Protocol, OAuth, Advanced) and errors at their fields.
type serverForm struct {
	w       *Window
	oldName string
	name    *esc.Entry
	trans   *esc.Select
	command *esc.Entry
	args    *esc.Entry
	env     *esc.Entry
	cwd     *esc.Entry
	url     *esc.Entry
	headers *esc.Entry

	protoVer  *esc.Select
	protoEra  *esc.Select
	logLevel  *esc.Select
	connTO    *esc.Entry
	reqTO     *esc.Entry
	taskTTL   *esc.Entry
	autoRef   *esc.Check
	paginated *esc.Check
	roots     *esc.Entry
	metadata  *esc.Entry
	exts      *esc.Entry
	maxFetch  *esc.Entry
	maxMsg    *esc.Entry

	clientID     *esc.Entry
	clientSecret *esc.Entry
	forgetSecret *esc.Check
	scopes       *esc.Entry
	refreshTok   *esc.Check
	revoke       *esc.Check
	params       []*paramRow
	paramBox     *fyne.Container
	authURL      *esc.Entry
	tokenURL     *esc.Entry
	stepUp       *esc.Select
	dpop         *esc.Select
	assertFile   *esc.Entry
	assertEnv    *esc.Entry
	ema          *esc.Check
	emaBox       *fyne.Container
	idpIssuer    *esc.Entry
	idpTokenURL  *esc.Entry
	idpClientID  *esc.Entry
	idpSecret    *esc.Entry
	forgetIdp    *esc.Check
	idTokenFile  *esc.Entry
	idTokenEnv   *esc.Entry
	emaNotes     []*widget.Label // "does not apply under enterprise-managed authorization"

	errLbl *widget.Label
	// scroll is the form's scroller: a problem at a field scrolled out of
	// it is said under the form too.
	scroll *container.Scroll
	// submit saves and closes as Save does (Enter in a one-line field).
	submit func()
	// fields are the inputs of the fields with an error line, by key.
	fields map[string]fyne.CanvasObject
	// checked: a Save showed problems; the form is validated as it is
	// edited from then on
	checked bool
	errs    map[string]*widget.Label // inline errors by catalog field name
	kept    map[string]bool          // the fields whose error line keeps its room once fixed
	base    ServerConfig
	acc     *esc.Accordion
	oauth   *widget.AccordionItem
	// advancedItem is the Advanced section.
	advancedItem *widget.AccordionItem
	// rebuild lays the form out again for the transport.
	rebuild func()
}

// paramRow is one row of oauth.authorizationParams.
type paramRow struct {
	key, value *esc.Entry
	err        *widget.Label
	obj        fyne.CanvasObject
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
	f.submit = func() {
		if f.onSave() {
			d.Hide()
		}
	}
	save := esc.NewButton("Save", f.submit)
	save.Importance = widget.HighImportance
	cancel := esc.NewButton("Cancel", func() { d.Hide() })
	form := f.buildUI(cfg)
	for _, e := range f.lineEntries() {
		f.submitOnEnter(e)
	}
	scroll := esc.NewVScroll(barRoom(form, false)) // the entries end before the scroll bar
	f.scroll = scroll
	content := container.NewBorder(nil, container.NewVBox(f.errLblInit(), container.NewHBox(layout.NewSpacer(), cancel, save)), nil, nil, scroll)
	d = dialog.NewCustomWithoutButtons(title, content, w.win)
	d.Resize(serverFormSize(d, scroll, w.win.Canvas().Size()))
	// a section opened or closed: the dialog follows its content, and an
	// opened section is scrolled into view below its header
	f.acc.OnChanged = func(i int, open bool) {
		d.Resize(serverFormSize(d, scroll, w.win.Canvas().Size()))
		// lay the sections out at their new height now, not at the next
		// frame, so that showSection finds them where they will be
		c := scroll.Content
		c.Resize(fyne.NewSize(c.Size().Width, fyne.Max(c.MinSize().Height, scroll.Size().Height)))
		if open && i < len(f.acc.Items) {
			showSection(scroll, form.Position().Y+f.acc.Position().Y, f.acc.Items[i].Detail)
		}
	}
	esc.Show(d, w.win)
	w.win.Canvas().Focus(f.name) // typing goes into the first field at once
}

// serverFormSize is the server form dialog's size: 660 wide, and as tall
// as its content with the sections as they are (a fixed 600 px left an
// empty band under Advanced wherever the closed sections were shorter,
// as on 1920×1080), at most 600 px or 80% of a taller window, and never
// beyond the window (it fits a 1024×700 one); beyond that the sections
// scroll.
func serverFormSize(d dialog.Dialog, scroll *container.Scroll, win fyne.Size) fyne.Size {
	size := fyne.NewSize(660, fyne.Max(600, win.Height*0.8))
	if h := d.MinSize().Height - scroll.MinSize().Height + scroll.Content.MinSize().Height; h < size.Height {
		size.Height = h
	}
	if win.Width > 0 && win.Height > 0 {
		size = fyne.NewSize(fyne.Min(size.Width, win.Width-40), fyne.Min(size.Height, win.Height-60))
	}
	return size
}

// showSection scrolls the server form so that an opened section's fields
// are in view, as many as fit, its header kept on screen; accTop is where
// the sections start in the scrolled content.
func showSection(scroll *container.Scroll, accTop float32, detail fyne.CanvasObject) {
	top := accTop + detail.Position().Y
	header := widget.NewButton("Advanced", nil).MinSize().Height + 2*theme.Padding()
	off, view := scroll.Offset.Y, scroll.Size().Height
	if bottom := top + detail.MinSize().Height; bottom > off+view {
		off = fyne.Min(bottom-view, top-header)
	}
	scroll.ScrollToOffset(fyne.NewPos(0, off))
}

// errLblInit makes the summary line under the form: one line, kept while
// empty, so that Save showing it does not move the form (the problems are
// whole at their fields).
func (f *serverForm) errLblInit() *widget.Label {
	f.errLbl = widget.NewLabel("")
	f.errLbl.Importance = widget.DangerImportance
	f.errLbl.Truncation = fyne.TextTruncateEllipsis
	return f.errLbl
}

// lineEntries are the form's one-line entries, where Enter saves (the
// authorization parameters' rows are added as they are made).
func (f *serverForm) lineEntries() []*esc.Entry {
	return []*esc.Entry{f.name, f.command, f.cwd, f.url,
		f.connTO, f.reqTO, f.taskTTL, f.maxFetch, f.maxMsg,
		f.clientID, f.clientSecret, f.scopes, f.authURL, f.tokenURL, f.assertFile, f.assertEnv,
		f.idpIssuer, f.idpTokenURL, f.idpClientID, f.idpSecret, f.idTokenFile, f.idTokenEnv}
}

// submitOnEnter makes Enter in e save the form as Save does, with the
// same checks: a form with problems stays open and shows them.
func (f *serverForm) submitOnEnter(e *esc.Entry) {
	e.OnSubmitted = func(string) {
		if f.submit != nil {
			f.submit()
		}
	}
}

// at puts the inline error line of field key under obj.
func (f *serverForm) at(key string, obj fyne.CanvasObject) fyne.CanvasObject {
	if f.errs == nil {
		f.errs = map[string]*widget.Label{}
		f.fields = map[string]fyne.CanvasObject{}
	}
	f.fields[key] = obj
	l := wrapLabel("")
	l.Importance = widget.DangerImportance
	l.Hide()
	f.errs[key] = l
	return container.NewVBox(obj, l)
}

// atReserved is at for a field that an empty Save complains about (name,
// command, URL) or that is checked as it is typed (request metadata,
// advertised extensions): the line of its error is kept while it is
// hidden, so that the fields below do not move when Save or a keystroke
// shows it or when typing clears it (#12).
// lines is how many lines of error it keeps room for.
func (f *serverForm) atReserved(key string, obj fyne.CanvasObject, lines int) fyne.CanvasObject {
	c := f.at(key, obj).(*fyne.Container)
	room := canvas.NewRectangle(color.Transparent)
	l := f.errs[key]
	line := l.MinSize().Height - 2*theme.InnerPadding()
	room.SetMinSize(fyne.NewSize(0, l.MinSize().Height+float32(lines-1)*line))
	c.Objects[1] = container.NewStack(room, f.errs[key])
	return c
}

// recheck validates the form again as it is edited once a Save showed
// problems: a fixed field loses its error at once, not at the next Save.
func (f *serverForm) recheck() {
	if !f.checked || f.errLbl == nil {
		return
	}
	_, ps := f.config()
	f.showProblems(ps)
}

// showProblems shows ps at their fields (a field without one loses its
// error) and, under the form, the first that the user does not see at
// its field (one without a field, or scrolled out of view or in a closed
// section), so that a message is not said twice on screen; it reports
// whether there were any.
func (f *serverForm) showProblems(ps []problem) bool {
	for k := range f.errs {
		if k != "oauth.scopes" {
			f.setErr(k, "")
		}
	}
	var unseen []problem
	for _, p := range ps {
		f.setErr(p.field, p.msg)
		if !f.inView(p.field) {
			unseen = append(unseen, p)
		}
	}
	if len(unseen) == 0 {
		f.errLbl.SetText("")
		return len(ps) > 0
	}
	first := unseen[0].msg
	switch more := len(ps) - 1; {
	case more == 1:
		first += " (and 1 more problem, marked at its field)"
	case more > 1:
		first += fmt.Sprintf(" (and %d more problems, marked at their fields)", more)
	}
	f.errLbl.SetText(first)
	return true
}

// inView reports whether the input of field key shows whole in the
// form's scroller now (false for a problem without a field line). A field
// not drawn (another transport's, or in a closed section) has no place
// on the canvas: the driver puts it at 0, above the dialog's scroller.
func (f *serverForm) inView(key string) bool {
	obj := f.fields[key]
	if obj == nil || f.errs[key] == nil || f.scroll == nil {
		return false
	}
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(obj).Y
	viewTop := d.AbsolutePositionForObject(f.scroll).Y
	return top >= viewTop && top+obj.Size().Height <= viewTop+f.scroll.Size().Height
}

// setErr shows msg at field key ("" hides it).
func (f *serverForm) setErr(key, msg string) {
	l := f.errs[key]
	if l == nil {
		return
	}
	l.SetText(msg)
	// a line that showed an error keeps its room once fixed: the fields
	// below stay where they were under the pointer (#12)
	if msg != "" {
		if f.kept == nil {
			f.kept = map[string]bool{}
		}
		f.kept[key] = true
	}
	l.Hidden = msg == "" && !f.kept[key]
	l.Refresh()
}

// note is a muted explanatory line.
func note(s string) *widget.Label {
	l := wrapLabel(s)
	l.Importance = widget.LowImportance
	return l
}

func entry(text, placeholder string) *esc.Entry {
	e := esc.NewEntry()
	e.SetText(text)
	e.SetPlaceHolder(placeholder)
	return e
}

func multiEntry(text, placeholder string, rows int) *esc.Entry {
	e := esc.NewMultiLineEntry()
	e.TabMovesFocus = true // one value a line: Tab walks the form
	e.SetText(text)
	e.SetPlaceHolder(placeholder)
	e.SetMinRowsVisible(rows)
	return e
}

// liveURL checks an optional URL field as it is typed.
func (f *serverForm) liveURL(e *esc.Entry, key string) {
	e.OnChanged = func(s string) { f.setErr(key, urlProblem(s)) }
}

// urlProblem words what is wrong with an optional absolute http(s) URL.
func urlProblem(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "This is not a URL: write it as https://host/path."
	case u.Scheme != "http" && u.Scheme != "https":
		return "Write the whole URL, starting with https:// (or http:// for a local server)."
	case u.Host == "":
		return "The URL has no host: write it as https://host/path."
	}
	return ""
}

func (f *serverForm) buildUI(c ServerConfig) fyne.CanvasObject {
	f.name = entry(c.Name, "e.g. my-server")
	f.command = entry(c.Command, "e.g. npx")
	f.args = argsEntry(c.Args)
	f.env = multiEntry(joinMap(c.Env, "="), "KEY=value, one per line", 2)
	f.cwd = entry(c.Cwd, "the server's working folder (optional)")
	f.url = entry(c.URL, "e.g. http://127.0.0.1:3001/mcp")
	f.headers = multiEntry(joinMap(c.Headers, ": "), "Name: value, one per line", 2)

	main := container.NewStack()
	fName := f.atReserved("name", f.name, 1)
	fCommand := f.atReserved("command", f.command, 1)
	fArgs := f.at("args", f.args)
	fEnv := f.at("env", f.env)
	fURL := f.atReserved("url", f.url, 1)
	fHeaders := f.at("headers", f.headers)
	for _, e := range []*esc.Entry{f.name, f.command, f.args, f.env, f.url, f.headers} {
		e.OnChanged = func(string) { f.recheck() }
	}
	f.rebuild = func() {
		items := []*widget.FormItem{widget.NewFormItem("Name", fName), widget.NewFormItem("Transport", f.trans)}
		if f.trans.Selected == "stdio" {
			items = append(items,
				widget.NewFormItem("Command", fCommand),
				widget.NewFormItem("Arguments", fArgs),
				widget.NewFormItem("Environment", fEnv),
				widget.NewFormItem("Working folder", f.cwd))
		} else {
			items = append(items, widget.NewFormItem("URL", fURL), widget.NewFormItem("Headers", fHeaders))
		}
		main.Objects = []fyne.CanvasObject{widget.NewForm(items...)}
		main.Refresh()
		if f.acc != nil {
			f.acc.Items = []*widget.AccordionItem{f.acc.Items[0]}
			if f.trans.Selected != "stdio" {
				f.acc.Items = append(f.acc.Items, f.oauth)
			}
			f.acc.Items = append(f.acc.Items, f.advancedItem)
			f.acc.Refresh()
		}
	}
	f.trans = esc.NewSelect([]string{"stdio", "http", "sse"}, func(string) { f.rebuild(); f.recheck() })

	protocol := f.protocolSection(c)
	f.oauth = widget.NewAccordionItem("OAuth", f.oauthSection(c.Auth))
	f.advancedItem = widget.NewAccordionItem("Advanced", f.advancedSection(c))
	f.acc = esc.NewAccordion(widget.NewAccordionItem("Protocol", protocol), f.oauth, f.advancedItem)
	f.acc.MultiOpen = true
	t := c.Transport
	if t == "" {
		t = "stdio"
	}
	f.trans.SetSelected(t)
	f.rebuild()
	return container.NewVBox(main, heading("Server Settings"), f.acc)
}

func (f *serverForm) protocolSection(c ServerConfig) fyne.CanvasObject {
	f.protoVer = esc.NewSelect([]string{"(era default)", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}, nil)
	f.protoVer.SetSelected(firstNonEmpty(c.ProtocolVersion, "(era default)"))
	f.protoEra = esc.NewSelect([]string{"legacy", "modern", "auto"}, nil)
	f.protoEra.SetSelected(firstNonEmpty(c.ProtocolEra, "legacy"))
	f.logLevel = esc.NewSelect(logChoices, nil)
	f.logLevel.SetSelected(logChoices[0])
	for _, l := range logChoices[1:] {
		if l == c.ModernLogLevel {
			f.logLevel.SetSelected(l)
		}
	}
	f.connTO = durEntry(c.ConnectionTimeout, "default")
	f.reqTO = durEntry(c.RequestTimeout, "default")
	f.taskTTL = durEntry(c.TaskTTL, "60s")
	f.roots = multiEntry(strings.Join(c.Roots, "\n"), "file:///path, one per line", 2)
	f.metadata = multiEntry("", `e.g. {"tenant": "acme"} — merged into every request's _meta`, 2)
	if len(c.Metadata) > 0 {
		f.metadata.SetText(prettyJSON(c.Metadata))
	}
	f.metadata.OnChanged = func(s string) { f.setErr("metadata", jsonObjectProblem(s)) }
	for _, e := range []*esc.Entry{f.connTO, f.reqTO, f.taskTTL} {
		e.OnChanged = func(string) { f.recheck() } // a fixed field loses its error at once
	}
	return widget.NewForm(
		widget.NewFormItem("Protocol version", f.protoVer),
		widget.NewFormItem("Protocol era", f.protoEra),
		widget.NewFormItem("Modern log level", container.NewVBox(f.logLevel, note("Stamped on each request of a modern (2026-07-28) connection; legacy connections ignore it."))),
		widget.NewFormItem("Connection timeout", f.at("connectionTimeout", f.connTO)),
		widget.NewFormItem("Request timeout", f.at("requestTimeout", f.reqTO)),
		widget.NewFormItem("Task TTL", f.at("taskTtl", f.taskTTL)),
		widget.NewFormItem("Roots", f.at("roots", f.roots)),
		widget.NewFormItem("Request metadata", f.atReserved("metadata", f.metadata, 2)),
	)
}

func (f *serverForm) advancedSection(c ServerConfig) fyne.CanvasObject {
	f.autoRef = esc.NewCheck("Refresh lists automatically on list_changed", nil)
	f.autoRef.SetChecked(c.AutoRefreshOnListChanged)
	f.paginated = esc.NewCheck("Paginated lists (show \"Load next page\")", nil)
	f.paginated.SetChecked(c.PaginatedLists)
	f.exts = multiEntry("", `e.g. {"io.modelcontextprotocol/ui": {}} — overrides of capabilities.extensions`, 2)
	if len(c.AdvertisedExtensions) > 0 {
		f.exts.SetText(prettyJSON(c.AdvertisedExtensions))
	}
	f.exts.OnChanged = func(s string) { f.setErr("advertisedExtensions", jsonObjectProblem(s)) }
	f.maxFetch = entry("", "1000 (0 keeps every request)")
	if c.MaxFetchRequests != nil {
		f.maxFetch.SetText(strconv.Itoa(*c.MaxFetchRequests))
	}
	f.maxMsg = entry("", "256 MiB (e.g. 1048576, 64KiB, 16MiB)")
	if c.MaxMessageSize > 0 {
		f.maxMsg.SetText(formatBytes(c.MaxMessageSize))
	}
	for _, e := range []*esc.Entry{f.maxFetch, f.maxMsg} {
		e.OnChanged = func(string) { f.recheck() }
	}
	return widget.NewForm(
		widget.NewFormItem("", f.autoRef),
		widget.NewFormItem("", f.paginated),
		widget.NewFormItem("Advertised extensions", f.atReserved("advertisedExtensions", f.exts, 2)),
		widget.NewFormItem("Network log size", f.at("maxFetchRequests", container.NewVBox(f.maxFetch, note("How many HTTP exchanges of this server the inspector keeps.")))),
		widget.NewFormItem("Largest message", f.at("maxMessageSize", container.NewVBox(f.maxMsg, note("A bigger message from the server is recorded as invalid and skipped.")))),
	)
}

func (f *serverForm) oauthSection(o OAuthConfig) fyne.CanvasObject {
	f.clientID = entry(o.ClientID, "empty: registered automatically")
	f.clientSecret = esc.NewPasswordEntry()
	f.clientSecret.SetPlaceHolder("kept in the OS keyring; empty keeps the stored one")
	f.forgetSecret = esc.NewCheck("Forget the stored client secret", nil)
	f.scopes = entry(o.Scopes, "empty: what the server advertises")
	f.refreshTok = esc.NewCheck("Request refresh token", nil)
	f.refreshTok.SetChecked(!o.NoRefreshToken)
	f.revoke = esc.NewCheck("Revoke tokens on clear", nil)
	f.revoke.SetChecked(!o.NoRevokeOnClear)
	f.paramBox = container.NewVBox()
	for _, k := range sortedKeys(o.AuthorizationParams) {
		f.addParam(k, o.AuthorizationParams[k])
	}
	addParam := esc.NewButtonWithIcon("Add parameter", theme.ContentAddIcon(), func() { f.addParam("", "") })
	addParam.Importance = widget.LowImportance
	f.authURL = entry(o.AuthorizationURL, "empty: from the server's metadata")
	f.tokenURL = entry(o.TokenURL, "empty: from the server's metadata")
	f.liveURL(f.authURL, "oauth.authorizationUrl")
	f.liveURL(f.tokenURL, "oauth.tokenUrl")
	f.stepUp = esc.NewSelect(stepUpChoices, nil)
	f.stepUp.SetSelectedIndex(0)
	if o.OnInsufficientScope == "fail" {
		f.stepUp.SetSelectedIndex(1)
	}
	f.dpop = esc.NewSelect(dpopChoices, nil)
	f.dpop.SetSelectedIndex(0)
	if o.DPoP == "off" {
		f.dpop.SetSelectedIndex(1)
	}
	f.assertFile = entry(o.AssertionFile, "e.g. /var/run/secrets/tokens/mcp")
	f.assertEnv = entry(o.AssertionEnv, "e.g. MCP_WORKLOAD_JWT")

	f.idpIssuer = entry(o.IDPIssuer, "e.g. https://login.example.com")
	f.liveURL(f.idpIssuer, "oauth.idpIssuer")
	f.idpTokenURL = entry(o.IDPTokenURL, "empty: from the IdP's discovery")
	f.liveURL(f.idpTokenURL, "oauth.idpTokenUrl")
	f.idpClientID = entry(o.IDPClientID, "Spyglass's client ID at the IdP")
	f.idpSecret = esc.NewPasswordEntry()
	f.idpSecret.SetPlaceHolder("kept in the OS keyring; empty keeps the stored one")
	f.forgetIdp = esc.NewCheck("Forget the stored IdP client secret", nil)
	f.idTokenFile = entry(o.IDTokenFile, "empty: sign in at the IdP in the browser")
	f.idTokenEnv = entry(o.IDTokenEnv, "e.g. IDP_ID_TOKEN")
	f.emaBox = container.NewVBox(
		note("You sign in at your enterprise identity provider (scope openid offline_access); its ID token is exchanged for access to this server with the client ID above."),
		widget.NewForm(
			widget.NewFormItem("IdP issuer", f.at("oauth.idpIssuer", f.idpIssuer)),
			widget.NewFormItem("IdP token URL", f.at("oauth.idpTokenUrl", f.idpTokenURL)),
			widget.NewFormItem("IdP client ID", f.at("oauth.idpClientId", f.idpClientID)),
			widget.NewFormItem("IdP client secret", container.NewVBox(f.idpSecret, f.forgetIdp)),
			widget.NewFormItem("ID token file", f.idTokenFile),
			widget.NewFormItem("ID token variable", f.idTokenEnv),
		))
	// each note says what its field does, or under enterprise-managed
	// authorization that it is not used: the text changes, the layout
	// above the checkbox does not move
	var offTexts []string
	emaNote := func(off string) *widget.Label {
		l := note(off)
		f.emaNotes = append(f.emaNotes, l)
		offTexts = append(offTexts, off)
		return l
	}
	refreshNote := emaNote("Declares the refresh_token grant when registering.")
	paramsNote := emaNote("Added to the authorization request only.")
	urlNote := emaNote("Replace what discovery found (same issuer).")
	f.ema = esc.NewCheck("Enterprise-managed authorization", func(on bool) {
		f.emaBox.Hidden = !on
		f.emaBox.Refresh()
		for i, l := range f.emaNotes {
			if on {
				l.SetText(emaIgnored)
			} else {
				l.SetText(offTexts[i])
			}
		}
	})
	f.ema.SetChecked(o.EnterpriseManaged)
	f.ema.OnChanged(o.EnterpriseManaged)

	clear := esc.NewButtonWithIcon("Clear OAuth state", theme.DeleteIcon(), f.onClearOAuth)
	if _, ok := f.w.be.(OAuthClearer); !ok || f.oldName == "" {
		clear.Hide()
	}
	return container.NewVBox(widget.NewForm(
		widget.NewFormItem("Client ID", f.clientID),
		widget.NewFormItem("Client secret", container.NewVBox(f.clientSecret, f.forgetSecret)),
		widget.NewFormItem("Scopes", f.at("oauth.scopes", f.scopes)),
		widget.NewFormItem("", container.NewVBox(f.refreshTok, refreshNote)),
		widget.NewFormItem("", f.revoke),
		widget.NewFormItem("Authorization parameters", container.NewVBox(f.paramBox, container.NewHBox(addParam), paramsNote)),
		widget.NewFormItem("Authorization URL", f.at("oauth.authorizationUrl", f.authURL)),
		widget.NewFormItem("Token URL", f.at("oauth.tokenUrl", container.NewVBox(f.tokenURL, urlNote))),
		widget.NewFormItem("On insufficient scope", f.stepUp),
		widget.NewFormItem("DPoP", f.dpop),
		widget.NewFormItem("Workload JWT file", f.assertFile),
		widget.NewFormItem("Workload JWT variable", f.assertEnv),
		widget.NewFormItem("", f.ema),
	), f.emaBox, container.NewHBox(clear))
}

// addParam adds a row of authorization parameters; a reserved name is
// refused at the row as it is typed.
func (f *serverForm) addParam(k, v string) {
	r := &paramRow{key: entry(k, "name, e.g. login_hint"), value: entry(v, "value")}
	r.err = wrapLabel("")
	r.err.Importance = widget.DangerImportance
	r.err.Hide()
	check := func(string) {
		msg := paramProblem(r.key.Text)
		r.err.SetText(msg)
		r.err.Hidden = msg == ""
		r.err.Refresh()
	}
	r.key.OnChanged = check
	f.submitOnEnter(r.key)
	f.submitOnEnter(r.value)
	del := esc.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		for i, p := range f.params {
			if p == r {
				f.params = slices.Delete(f.params, i, i+1)
			}
		}
		f.paramBox.Remove(r.obj)
	})
	del.Importance = widget.LowImportance
	r.obj = container.NewVBox(container.NewBorder(nil, nil, nil, del, container.NewGridWithColumns(2, r.key, r.value)), r.err)
	f.params = append(f.params, r)
	f.paramBox.Add(r.obj)
	check(k)
}

// paramProblem words why an authorization parameter name is refused.
func paramProblem(k string) string {
	k = strings.TrimSpace(k)
	if slices.Contains(reservedAuthParams, k) {
		return k + " is set by the sign-in itself (PKCE, state, redirect and resource depend on it), so it cannot be overridden here."
	}
	return ""
}

// jsonObjectProblem words what is wrong with optional JSON object text.
func jsonObjectProblem(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(s, se.Offset)
			return fmt.Sprintf("This is not valid JSON (line %d, column %d). Write an object such as {\"key\": \"value\"}.", line, col)
		}
		return "This is not valid JSON. Write an object such as {\"key\": \"value\"}."
	}
	if _, ok := v.(map[string]any); !ok {
		return "Write a JSON object in braces, such as {\"key\": \"value\"}."
	}
	return ""
}

// parseBytes reads a size: bytes, or a number with KiB, MiB, GiB (or KB,
// MB, GB, read the same way).
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	mult := int64(1)
	low := strings.ToLower(s)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"b", 1}} {
		if strings.HasSuffix(low, u.suf) {
			mult, low = u.m, strings.TrimSpace(strings.TrimSuffix(low, u.suf))
			break
		}
	}
	n, err := strconv.ParseInt(low, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("write a size in bytes, such as 1048576, 64KiB or 16MiB")
	}
	return n * mult, nil
}

// formatBytes writes a size the way parseBytes reads it.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10)
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// onClearOAuth forgets the server's OAuth state (the button in the form).
func (f *serverForm) onClearOAuth() { f.w.clearOAuth(f.oldName) }

// clearOAuth forgets a server's OAuth state in the background and says
// what happened in a toast.
func (w *Window) clearOAuth(name string) {
	cl, ok := w.be.(OAuthClearer)
	if !ok || name == "" {
		return
	}
	go func() {
		msg, err := cl.ClearOAuth(context.Background(), name)
		do(func() {
			if err != nil {
				w.toastErr("error", "Could not clear the OAuth state of "+name, err)
				return
			}
			w.toast("ok", msg)
		})
	}()
}

// FieldError is an error of Backend.SaveServer about one field of the
// entry, named as in the catalog ("url", "oauth.tokenUrl"); the form shows
// it at that field.
type FieldError struct {
	Field string
	Err   error
}

// Error implements error.
func (e *FieldError) Error() string { return e.Err.Error() }

// Unwrap implements error.
func (e *FieldError) Unwrap() error { return e.Err }

// problem is an inline error: the catalog field it concerns and the words.
type problem struct{ field, msg string }

// config reads the form into a ServerConfig, with every problem found.
func (f *serverForm) config() (ServerConfig, []problem) {
	c := f.base
	var ps []problem
	bad := func(field, msg string) { ps = append(ps, problem{field, msg}) }
	c.Name = strings.TrimSpace(f.name.Text)
	if c.Name == "" {
		bad("name", "Give the server a name.")
	}
	c.Transport = f.trans.Selected
	var err error
	if c.Transport == "stdio" {
		c.Command = strings.TrimSpace(f.command.Text)
		if c.Command == "" {
			bad("command", "A stdio server needs a command, such as npx or node.")
		}
		if c.Args, err = splitArgs(f.args.Text); err != nil {
			bad("args", "A quote is not closed.")
		}
		if c.Env, err = parseMap(f.env.Text, "=", "environment"); err != nil {
			bad("env", err.Error())
		}
		c.Cwd = strings.TrimSpace(f.cwd.Text)
		c.URL, c.Headers = "", nil
	} else {
		c.URL = strings.TrimSpace(f.url.Text)
		switch {
		case c.URL == "":
			bad("url", "An "+c.Transport+" server needs its URL, starting with http:// or https://.")
		case urlProblem(c.URL) != "":
			bad("url", "The URL must start with http:// or https:// and name a host.")
		}
		if c.Headers, err = parseMap(f.headers.Text, ": ", "headers"); err != nil {
			bad("headers", err.Error())
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
	c.ModernLogLevel = ""
	if i := f.logLevel.SelectedIndex(); i > 0 {
		c.ModernLogLevel = logChoices[i]
	}
	for _, d := range []struct {
		e     *esc.Entry
		field string
		to    *time.Duration
	}{{f.connTO, "connectionTimeout", &c.ConnectionTimeout}, {f.reqTO, "requestTimeout", &c.RequestTimeout}, {f.taskTTL, "taskTtl", &c.TaskTTL}} {
		v, err := parseDur(d.e.Text, "")
		if err != nil {
			bad(d.field, "Write a duration such as 30s or 5m, or a number of milliseconds.")
		}
		*d.to = v
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
	if msg := jsonObjectProblem(f.metadata.Text); msg != "" {
		bad("metadata", msg)
	} else if m := strings.TrimSpace(f.metadata.Text); m != "" {
		c.Metadata = json.RawMessage(m)
	}
	c.AdvertisedExtensions = nil
	if msg := jsonObjectProblem(f.exts.Text); msg != "" {
		bad("advertisedExtensions", msg)
	} else if m := strings.TrimSpace(f.exts.Text); m != "" {
		c.AdvertisedExtensions = json.RawMessage(m)
	}
	c.MaxFetchRequests = nil
	if s := strings.TrimSpace(f.maxFetch.Text); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			bad("maxFetchRequests", "Write a whole number of requests, such as 1000, or 0 to keep every one.")
		} else {
			c.MaxFetchRequests = &n
		}
	}
	if c.MaxMessageSize, err = parseBytes(f.maxMsg.Text); err != nil {
		bad("maxMessageSize", "Write a size in bytes, such as 1048576, 64KiB or 16MiB.")
	}
	c.Auth, ps = f.oauthConfig(c.Transport, ps)
	return c, ps
}

// oauthConfig reads the OAuth section (left as it was for stdio).
func (f *serverForm) oauthConfig(transport string, ps []problem) (OAuthConfig, []problem) {
	if transport == "stdio" {
		return f.base.Auth, ps
	}
	bad := func(field, msg string) { ps = append(ps, problem{field, msg}) }
	o := OAuthConfig{
		ClientID:              strings.TrimSpace(f.clientID.Text),
		ClientSecret:          f.clientSecret.Text,
		ForgetClientSecret:    f.forgetSecret.Checked && f.clientSecret.Text == "",
		Scopes:                strings.Join(strings.Fields(f.scopes.Text), " "),
		NoRefreshToken:        !f.refreshTok.Checked,
		NoRevokeOnClear:       !f.revoke.Checked,
		AuthorizationURL:      strings.TrimSpace(f.authURL.Text),
		TokenURL:              strings.TrimSpace(f.tokenURL.Text),
		EnterpriseManaged:     f.ema.Checked,
		AssertionFile:         strings.TrimSpace(f.assertFile.Text),
		AssertionEnv:          strings.TrimSpace(f.assertEnv.Text),
		IDPIssuer:             strings.TrimSpace(f.idpIssuer.Text),
		IDPTokenURL:           strings.TrimSpace(f.idpTokenURL.Text),
		IDPClientID:           strings.TrimSpace(f.idpClientID.Text),
		IDPClientSecret:       f.idpSecret.Text,
		ForgetIDPClientSecret: f.forgetIdp.Checked && f.idpSecret.Text == "",
		IDTokenFile:           strings.TrimSpace(f.idTokenFile.Text),
		IDTokenEnv:            strings.TrimSpace(f.idTokenEnv.Text),
	}
	if f.stepUp.SelectedIndex() == 1 {
		o.OnInsufficientScope = "fail"
	}
	if f.dpop.SelectedIndex() == 1 {
		o.DPoP = "off"
	}
	for _, r := range f.params {
		k := strings.TrimSpace(r.key.Text)
		if k == "" {
			continue
		}
		if msg := paramProblem(k); msg != "" {
			bad("oauth.authorizationParams", msg)
			continue
		}
		if o.AuthorizationParams == nil {
			o.AuthorizationParams = map[string]string{}
		}
		o.AuthorizationParams[k] = r.value.Text
	}
	for _, u := range []struct{ field, v string }{
		{"oauth.authorizationUrl", o.AuthorizationURL}, {"oauth.tokenUrl", o.TokenURL},
		{"oauth.idpIssuer", o.IDPIssuer}, {"oauth.idpTokenUrl", o.IDPTokenURL},
	} {
		if msg := urlProblem(u.v); msg != "" {
			bad(u.field, msg)
		}
	}
	if o.NoRefreshToken && slices.Contains(strings.Fields(o.Scopes), "offline_access") && !o.EnterpriseManaged {
		// a warning, not a refusal: it is saved
		f.setErr("oauth.scopes", "offline_access is still requested because Scopes names it, and with it the consent prompt.")
	} else {
		f.setErr("oauth.scopes", "")
	}
	if o.EnterpriseManaged {
		if o.IDPIssuer == "" && o.IDPTokenURL == "" {
			bad("oauth.idpIssuer", "Enterprise-managed authorization needs the IdP's issuer (or its token URL).")
		}
		if o.IDPClientID == "" {
			bad("oauth.idpClientId", "Enterprise-managed authorization needs Spyglass's client ID at the IdP.")
		}
	}
	return o, ps
}

// onSave validates and saves; it reports whether the dialog may close.
// Problems are shown at their fields, and the first one under the form.
func (f *serverForm) onSave() bool {
	c, ps := f.config()
	if len(ps) == 0 && c.Name != f.oldName && f.w.server(c.Name) != nil {
		ps = append(ps, problem{"name", fmt.Sprintf("A server named %q exists already.", c.Name)})
	}
	if len(ps) == 0 {
		if err := f.w.be.SaveServer(f.oldName, c); err != nil {
			field := ""
			var fe *FieldError
			if errors.As(err, &fe) {
				field = fe.Field
			}
			ps = append(ps, problem{field, err.Error()})
		}
	}
	if f.showProblems(ps) {
		f.checked = true
		return false
	}
	// a renamed server is a new entry: its connection under the old name
	// ends, and one that was on connects again under the new name
	renamedOn := false
	if s := f.w.server(f.oldName); s != nil && f.oldName != "" && f.oldName != c.Name {
		renamedOn = s.state.State == StateConnected || s.state.State == StateConnecting || s.state.State == StateAuthorizing
		s.disconnect()
	}
	if f.oldName != "" && f.oldName != c.Name {
		// its search and filter in the inspector go with it
		f.w.inspector.renameServer(f.oldName, c.Name)
	}
	f.w.reloadServers()
	s := f.w.server(c.Name)
	saved := "Saved server “" + c.Name + "”" // "Saved memory" read as memory saved
	if s == nil {
		f.w.toast("ok", saved)
		return true
	}
	f.w.selectServer(s)
	switch {
	case f.oldName == "" || renamedOn:
		// the server just added is the one the user wants to see: it
		// connects at once (a failure shows in its pane, with Retry and Edit)
		f.w.toast("ok", saved+"; connecting…")
		s.onConnect()
	case s.state.State == StateConnected:
		// an edit keeps the connection the user has, made with the old
		// settings, until they choose to reconnect
		f.w.toasts.showAction("ok", saved+". Reconnect to use the new settings.", "Reconnect", undoLife, func() {
			if f.w.server(c.Name) == s { // not removed or renamed since
				s.disconnect()
				s.onConnect()
			}
		})
	case s.state.State == StateFailed && !s.dropped:
		// the failure was the old settings': the new ones are tried
		// (the card's Edit sits beside its Retry for this)
		f.w.toast("ok", saved+"; trying the new settings…")
		s.onRetry()
	default:
		f.w.toast("ok", saved)
	}
	return true
}

func durEntry(d time.Duration, ph string) *esc.Entry {
	e := esc.NewEntry()
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

// argsEntry is the Arguments field: one argument a line, each line
// wrapped when it is longer than the field (a single-line entry would
// scroll sideways under a scroll line of its own, and a long list of
// arguments read as one cut-off line). The field is read as a command
// line whose line ends are spaces (splitArgs), so a line pasted from a
// shell still splits into its arguments.
func argsEntry(args []string) *esc.Entry {
	lines := make([]string, len(args))
	for i, a := range args {
		lines[i] = quoteArg(a)
	}
	return multiEntry(strings.Join(lines, "\n"), "one argument a line, e.g.\n-y\n@modelcontextprotocol/server-everything", min(max(len(args), 3), 6))
}

// quoteArg writes an argument so that splitArgs reads it back unchanged:
// as it is when it holds no space, line end or quote, else in quotes that
// splitArgs takes literally — double ones, single ones when it holds a
// double quote, and for an argument holding both, its runs between
// double quotes each in double quotes with '"' between them (quoted parts
// side by side make one argument). strconv.Quote's backslash escapes,
// which splitArgs does not read, turned a JSON argument or a Windows path
// with a space into another argument on Save.
func quoteArg(s string) string {
	switch {
	case s != "" && !strings.ContainsAny(s, " \t\r\n\"'"):
		return s
	case !strings.Contains(s, `"`):
		return `"` + s + `"`
	case !strings.Contains(s, "'"):
		return "'" + s + "'"
	}
	var b strings.Builder
	for i, part := range strings.Split(s, `"`) {
		if i > 0 {
			b.WriteString(`'"'`)
		}
		if part != "" {
			b.WriteString(`"` + part + `"`)
		}
	}
	return b.String()
}

// splitArgs splits a command line on spaces, tabs and line ends,
// honouring double and single quotes (taken literally: no backslash
// escapes, so a Windows path keeps its backslashes).
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
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
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
	var b strings.Builder
	for _, k := range sortedKeys(m) {
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
