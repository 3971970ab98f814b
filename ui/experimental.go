package ui

import (
	"encoding/json"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// experimentalScreen is the seed's "Experimental Features & Advanced
// Testing" panel: the server's experimental capabilities (each with
// [Test →] into the tester below), the client experimental capabilities
// to advertise on the next connect, and the Advanced JSON-RPC Tester.
type experimentalScreen struct {
	ss      *serverScreens
	server  *fyne.Container
	client  *fyne.Container
	now     *widget.Label
	saved   map[string]json.RawMessage // what the catalog holds for this server
	offered []string                   // names offered as toggles (server's, saved, added)
	scroll  *container.Scroll
}

// experimentalCap is one experimental capability as a server declares it.
type experimentalCap struct {
	Name        string
	Description string
	Methods     []string
	Raw         json.RawMessage
}

// experimentalCaps reads capabilities.experimental: name → value, where a
// value may carry "description" and "methods".
func experimentalCaps(caps json.RawMessage) []experimentalCap {
	var c struct {
		Experimental map[string]json.RawMessage `json:"experimental"`
	}
	if json.Unmarshal(caps, &c) != nil {
		return nil
	}
	out := make([]experimentalCap, 0, len(c.Experimental))
	for name, raw := range c.Experimental {
		var v struct {
			Description string   `json:"description"`
			Methods     []string `json:"methods"`
		}
		_ = json.Unmarshal(raw, &v)
		out = append(out, experimentalCap{Name: name, Description: v.Description, Methods: v.Methods, Raw: raw})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (e *experimentalScreen) buildUI() fyne.CanvasObject {
	e.server = container.NewVBox()
	e.client = container.NewVBox()
	e.now = wrapLabel("")
	e.now.SizeName = theme.SizeNameCaptionText
	warn := widget.NewLabel("These features are non-standard and may change or be removed.")
	warn.Importance = widget.WarningImportance
	warn.Wrapping = fyne.TextWrapWord
	add := widget.NewButtonWithIcon("Add custom capability…", theme.ContentAddIcon(), e.onAddCustom)
	add.Importance = widget.LowImportance
	if e.store() == nil {
		add.Disable()
	}
	box := container.NewVBox(
		container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, warn),
		heading("Server experimental capabilities"),
		e.server,
		heading("Client experimental capabilities (advertised to the server)"),
		e.client,
		container.NewHBox(add),
		e.now,
		widget.NewSeparator(),
		e.ss.tester.buildUI(),
	)
	// both ways: a long capability name or header must not widen the window
	e.scroll = container.NewScroll(container.NewPadded(box))
	return e.scroll
}

func (e *experimentalScreen) store() TesterStore {
	st, _ := e.ss.s.w.be.(TesterStore)
	return st
}

// onRefresh redraws both lists from the handshake and the catalog.
func (e *experimentalScreen) onRefresh() {
	c := e.ss.conn()
	if c == nil {
		return
	}
	info := c.Info()
	caps := experimentalCaps(info.ServerCapabilities)
	e.server.RemoveAll()
	var methods []string
	for _, cp := range caps {
		e.server.Add(e.capCard(cp))
		methods = append(methods, cp.Methods...)
	}
	if len(caps) == 0 {
		e.server.Add(emptyState("This server declares no experimental capabilities."))
	}
	e.ss.tester.setExperimentalMethods(methods)

	e.saved = map[string]json.RawMessage{}
	if st := e.store(); st != nil {
		_ = json.Unmarshal(st.ClientExperimental(e.ss.s.cfg.Name), &e.saved)
	}
	for _, cp := range caps {
		e.offer(cp.Name)
	}
	for name := range e.saved {
		e.offer(name)
	}
	var adv []string
	for _, cp := range experimentalCaps(info.ClientCapabilities) {
		adv = append(adv, cp.Name)
	}
	if len(adv) == 0 {
		e.now.SetText("Advertised on this connection: none. Changes are sent on the next connect.")
	} else {
		e.now.SetText("Advertised on this connection: " + strings.Join(adv, ", ") + ". Changes are sent on the next connect.")
	}
	e.showClient()
}

// capCard is one server capability: name, description, methods, [Test →].
func (e *experimentalScreen) capCard(cp experimentalCap) fyne.CanvasObject {
	box := container.NewVBox()
	if cp.Description != "" {
		box.Add(wrapLabel("Description: " + cp.Description))
	}
	if len(cp.Methods) > 0 {
		box.Add(wrapLabel("Methods: " + strings.Join(cp.Methods, ", ")))
	} else if s := strings.TrimSpace(string(cp.Raw)); s != "" && s != "{}" && cp.Description == "" {
		v, _ := truncate(s, 300)
		box.Add(wrapLabel("Value: " + v))
	}
	method := cp.Name
	if len(cp.Methods) > 0 {
		method = cp.Methods[0]
	}
	test := widget.NewButtonWithIcon("Test", arrowIcon(theme.IconNameNavigateNext), func() { e.onTest(method) })
	test.IconPlacement = widget.ButtonIconTrailingText
	box.Add(container.NewHBox(test))
	return widget.NewCard(cp.Name, "", box)
}

// onTest opens the tester pre-filled for method.
func (e *experimentalScreen) onTest(method string) {
	e.ss.tester.prefill(method)
	e.scroll.ScrollToOffset(fyne.NewPos(0, e.ss.tester.obj.Position().Y))
}

func (e *experimentalScreen) offer(name string) {
	for _, n := range e.offered {
		if n == name {
			return
		}
	}
	e.offered = append(e.offered, name)
}

// showClient redraws the toggles.
func (e *experimentalScreen) showClient() {
	e.client.RemoveAll()
	sort.Strings(e.offered)
	ro := e.store() == nil
	for _, name := range e.offered {
		name := name
		_, on := e.saved[name]
		chk := widget.NewCheck(name, nil)
		chk.SetChecked(on)
		chk.OnChanged = func(v bool) { e.onToggle(name, v) }
		if ro {
			chk.Disable()
		}
		e.client.Add(chk)
	}
	if len(e.offered) == 0 {
		e.client.Add(emptyState("None yet: add a custom capability to advertise one."))
	}
	if ro {
		e.client.Add(wrapLabel("This window cannot save client capabilities."))
	}
}

func (e *experimentalScreen) onToggle(name string, on bool) {
	if on {
		if _, ok := e.saved[name]; !ok {
			e.saved[name] = json.RawMessage(`{}`)
		}
	} else {
		delete(e.saved, name)
	}
	e.save()
}

// save writes the client capabilities to the catalog (off the UI thread).
func (e *experimentalScreen) save() {
	st := e.store()
	if st == nil {
		return
	}
	var raw json.RawMessage
	if len(e.saved) > 0 {
		raw, _ = json.Marshal(e.saved)
	}
	name, w := e.ss.s.cfg.Name, e.ss.s.w
	go func() {
		if err := st.SetClientExperimental(name, raw); err != nil {
			do(func() { w.toastErr("error", "Could not save the client capabilities", err) })
			return
		}
		do(func() { w.toast("ok", "Saved: sent on the next connect to "+name) })
	}()
}

// onAddCustom asks for a capability name and value (a JSON object) and
// advertises it from the next connect.
func (e *experimentalScreen) onAddCustom() {
	name := esc.NewEntry()
	name.SetPlaceHolder("vendor.example/feature")
	value := esc.NewMultiLineEntry()
	value.TextStyle = fyne.TextStyle{Monospace: true}
	value.SetText("{}")
	form := container.NewVBox(widget.NewLabel("Name"), name, widget.NewLabel("Value (a JSON object)"), value)
	d := esc.NewCustomConfirm("Add custom capability", "Add", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		n := strings.TrimSpace(name.Text)
		v := strings.TrimSpace(value.Text)
		if n == "" {
			e.ss.s.w.toast("error", "The capability needs a name.")
			return
		}
		if msg := jsonErrorText(v); msg != "" || !strings.HasPrefix(v, "{") {
			if msg == "" {
				msg = "the value must be a JSON object"
			}
			e.ss.s.w.toast("error", "Not added: "+msg)
			return
		}
		e.addCustom(n, json.RawMessage(v))
	}, e.ss.s.w.win)
	d.Resize(fyne.NewSize(480, 320))
	esc.Show(d, e.ss.s.w.win)
	e.ss.s.w.win.Canvas().Focus(name)
}

// addCustom advertises name with value from the next connect.
func (e *experimentalScreen) addCustom(name string, value json.RawMessage) {
	if e.saved == nil {
		e.saved = map[string]json.RawMessage{}
	}
	e.saved[name] = value
	e.offer(name)
	e.showClient()
	e.save()
}
