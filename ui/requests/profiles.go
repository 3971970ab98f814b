package requests

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/plain"
)

// providerLabels are the Provider dropdown's choices.
var providerLabels = map[string]string{ProviderManual: "Manual", ProviderMock: "Mock/Template"}

// ProfilesEditor is the Sampling Settings screen: the active profile, the
// saved profiles with [Edit Selected] [Delete] [+ New Profile], and the
// editor of one profile (name, provider, auto-respond, call tools,
// template, default model, default stop reason, model-specific overrides)
// with [Save Profile] [Cancel]. Every save goes through the store; OnSaved
// then gets the new set.
type ProfilesEditor struct {
	// OnSaved gets the profiles after every successful save.
	OnSaved func(ProfileSet)

	store   ProfileStore
	set     ProfileSet
	editing string // name of the profile being edited; "" for a new one
	isNew   bool

	active    *esc.Select
	list      *fyne.Container
	selected  string
	errLbl    *widget.Label
	status    *widget.Label
	editBox   *fyne.Container
	editTitle *widget.Label

	name      *esc.Entry
	provider  *esc.Select
	auto      *esc.Check
	callTools *esc.Check
	template  *esc.Entry
	model     *esc.Entry
	stop      *esc.Select
	overrides *fyne.Container
	rows      []*overrideRow

	obj fyne.CanvasObject
	// scroll is the dialog's scroller (ShowProfilesEditor): after a save
	// closes the edit fields it goes back to the top, or it would show
	// the empty space below the shorter editor.
	scroll *container.Scroll
}

type overrideRow struct {
	pattern, template *esc.Entry
	obj               fyne.CanvasObject
}

// NewProfilesEditor loads the profiles from store and returns the editor;
// a load error is shown in the editor (the defaults of the store are
// whatever Load returned with it).
func NewProfilesEditor(store ProfileStore) *ProfilesEditor {
	e := &ProfilesEditor{store: store}
	set, err := store.Load()
	e.set = set.clone()
	e.obj = e.buildUI()
	if err != nil {
		setError(e.errLbl, "The saved profiles could not be read. "+plain.Headline(err))
	}
	return e
}

// Object returns the editor's view.
func (e *ProfilesEditor) Object() fyne.CanvasObject { return e.obj }

// Profiles returns a copy of the profiles as last saved or loaded.
func (e *ProfilesEditor) Profiles() ProfileSet { return e.set.clone() }

func (e *ProfilesEditor) buildUI() fyne.CanvasObject {
	e.active = esc.NewSelect(nil, e.onActive)
	newBtn := esc.NewButtonWithIcon("New Profile", theme.ContentAddIcon(), e.onNew)
	e.list = container.NewVBox()
	editSel := esc.NewButtonWithIcon("Edit Selected", theme.DocumentCreateIcon(), func() { e.onEdit(e.selected) })
	del := esc.NewButtonWithIcon("Delete", theme.DeleteIcon(), e.onDelete)
	del.Importance = widget.DangerImportance
	e.errLbl = errorLine()
	e.status = wrapLabel("")
	e.status.Importance = widget.SuccessImportance
	e.status.Hide()

	e.name = esc.NewEntry()
	e.provider = esc.NewSelect([]string{providerLabels[ProviderManual], providerLabels[ProviderMock]}, nil)
	e.auto = esc.NewCheck("Auto-respond to sampling requests", nil)
	e.callTools = esc.NewCheck("Answer requests that offer tools with a tool call (toolUse)", nil)
	e.template = esc.NewMultiLineEntry()
	e.template.Wrapping = fyne.TextWrapWord
	e.template.SetMinRowsVisible(3)
	e.template.SetPlaceHolder("Placeholders: {{last_user_message}}, {{model_hint}}")
	e.model = esc.NewEntry()
	e.model.SetPlaceHolder(DefaultModel)
	e.stop = esc.NewSelect(stopReasons, nil)
	e.overrides = container.NewVBox()
	addOv := esc.NewButtonWithIcon("Add", theme.ContentAddIcon(), func() { e.addOverride(Override{}) })
	addOv.Importance = widget.LowImportance
	save := esc.NewButtonWithIcon("Save Profile", theme.DocumentSaveIcon(), e.onSave)
	save.Importance = widget.HighImportance
	cancel := esc.NewButton("Cancel", e.onCancelEdit)
	e.editTitle = heading("")
	fields := container.New(layout.NewFormLayout(),
		widget.NewLabel("Profile Name:"), e.name,
		widget.NewLabel("Provider:"), e.provider,
		widget.NewLabel("Default Model:"), e.model,
		widget.NewLabel("Default Stop Reason:"), e.stop,
	)
	e.editBox = container.NewVBox(
		widget.NewSeparator(),
		e.editTitle,
		fields,
		e.auto,
		e.callTools,
		widget.NewLabel("Default Response Template:"),
		e.template,
		container.NewBorder(nil, nil, widget.NewLabel("Model-Specific Overrides:"), addOv),
		e.overrides,
		container.NewHBox(layout.NewSpacer(), cancel, save),
	)
	e.editBox.Hide()
	e.refresh()
	return container.NewVBox(
		heading("Sampling Settings"),
		container.NewBorder(nil, nil, widget.NewLabel("Active Profile:"), newBtn, e.active),
		widget.NewLabel("Saved Profiles:"),
		box("", e.list),
		container.NewHBox(editSel, del),
		e.errLbl,
		e.status,
		e.editBox,
	)
}

// describe summarises a profile as "Mock, auto-respond, 2 overrides".
func describe(p Profile) string {
	parts := []string{providerLabels[p.Provider]}
	if parts[0] == "" {
		parts[0] = p.Provider
	}
	if p.AutoRespond {
		parts = append(parts, "auto-respond")
	} else {
		parts = append(parts, "no auto-respond")
	}
	if p.CallTools {
		parts = append(parts, "calls tools")
	}
	switch n := len(p.Overrides); {
	case n == 1:
		parts = append(parts, "1 model-specific template")
	case n > 1:
		parts = append(parts, fmt.Sprintf("%d model-specific templates", n))
	case p.Provider == ProviderMock:
		parts = append(parts, "simple template")
	}
	return strings.Join(parts, ", ")
}

// refresh redraws the active dropdown and the list.
func (e *ProfilesEditor) refresh() {
	cur := e.set.Current().Name
	e.active.OnChanged = nil
	e.active.SetOptions(e.set.Names())
	if len(e.set.Profiles) > 0 {
		e.active.SetSelected(cur)
	} else {
		e.active.ClearSelected()
	}
	e.active.OnChanged = e.onActive
	if _, ok := e.set.Get(e.selected); !ok {
		e.selected = cur
	}
	e.list.RemoveAll()
	if len(e.set.Profiles) == 0 {
		e.list.Add(emptyState("No profiles. Press New Profile."))
		return
	}
	for _, p := range e.set.Profiles {
		name := p.Name
		icon := theme.RadioButtonIcon()
		if name == e.selected {
			icon = theme.RadioButtonCheckedIcon()
		}
		pick := esc.NewButtonWithIcon(name, icon, func() {
			e.selected = name
			e.refresh()
		})
		pick.Importance = widget.LowImportance
		pick.Alignment = widget.ButtonAlignLeading
		t := describe(p)
		if p.Name == cur {
			t += " · active"
		}
		l := mutedLabel(t)
		l.Wrapping = fyne.TextWrapOff
		l.Truncation = fyne.TextTruncateEllipsis
		e.list.Add(container.NewBorder(nil, nil, container.New(&fixedWidth{w: 190}, pick), nil, l))
	}
}

// onActive makes a profile the active one and saves.
func (e *ProfilesEditor) onActive(name string) {
	if name == "" || name == e.set.Active {
		return
	}
	next := e.set.clone()
	next.Active = name
	e.save(next, "“"+name+"” is the active profile.")
}

// onNew starts editing a new profile.
func (e *ProfilesEditor) onNew() {
	n := 1
	name := "New Profile"
	for {
		if _, ok := e.set.Get(name); !ok {
			break
		}
		n++
		name = fmt.Sprintf("New Profile %d", n)
	}
	e.isNew = true
	e.load(Profile{Name: name, Provider: ProviderMock, AutoRespond: true, Template: "This is a mock LLM response for testing purposes.", Model: DefaultModel, StopReason: StopEndTurn})
	e.editing = ""
	e.editTitle.SetText("New profile [Editing]")
}

// onEdit starts editing the named profile.
func (e *ProfilesEditor) onEdit(name string) {
	p, ok := e.set.Get(name)
	if !ok {
		setError(e.errLbl, "Select a profile first.")
		return
	}
	e.isNew = false
	e.editing = name
	e.load(p)
	e.editTitle.SetText("Profile: " + name + " [Editing]")
}

// load puts p into the edit fields and shows them.
func (e *ProfilesEditor) load(p Profile) {
	setError(e.errLbl, "")
	e.name.SetText(p.Name)
	if l, ok := providerLabels[p.Provider]; ok {
		e.provider.SetSelected(l)
	} else {
		e.provider.SetSelected(providerLabels[ProviderManual])
	}
	e.auto.SetChecked(p.AutoRespond)
	e.callTools.SetChecked(p.CallTools)
	e.template.SetText(p.Template)
	e.model.SetText(p.Model)
	stop := p.StopReason
	if stop == "" {
		stop = StopEndTurn
	}
	e.stop.SetSelected(stop)
	e.overrides.RemoveAll()
	e.rows = nil
	for _, o := range p.Overrides {
		e.addOverride(o)
	}
	e.editBox.Show()
}

// addOverride adds an override row.
func (e *ProfilesEditor) addOverride(o Override) {
	r := &overrideRow{pattern: esc.NewEntry(), template: esc.NewEntry()}
	r.pattern.SetPlaceHolder("claude-*")
	r.pattern.SetText(o.Pattern)
	r.template.SetPlaceHolder("Response template for matching model hints")
	r.template.SetText(o.Template)
	rm := esc.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		for i, x := range e.rows {
			if x == r {
				e.rows = append(e.rows[:i], e.rows[i+1:]...)
				e.overrides.Remove(r.obj)
				return
			}
		}
	})
	rm.Importance = widget.LowImportance
	pat := container.New(&fixedWidth{w: 140}, r.pattern)
	r.obj = container.NewBorder(nil, nil, pat, rm, r.template)
	e.rows = append(e.rows, r)
	e.overrides.Add(r.obj)
}

// edited returns the profile in the edit fields.
func (e *ProfilesEditor) edited() (Profile, error) {
	p := Profile{
		Name:        strings.TrimSpace(e.name.Text),
		Provider:    ProviderManual,
		AutoRespond: e.auto.Checked,
		CallTools:   e.callTools.Checked,
		Template:    e.template.Text,
		Model:       strings.TrimSpace(e.model.Text),
		StopReason:  e.stop.Selected,
	}
	if e.provider.Selected == providerLabels[ProviderMock] {
		p.Provider = ProviderMock
	}
	if p.Name == "" {
		return p, fmt.Errorf("give the profile a name")
	}
	if other, ok := e.set.Get(p.Name); ok && (e.isNew || other.Name != e.editing) {
		return p, fmt.Errorf("a profile called “%s” already exists", p.Name)
	}
	if p.Provider == ProviderManual && p.AutoRespond {
		return p, fmt.Errorf("a Manual profile cannot auto-respond: choose Mock/Template or untick Auto-respond")
	}
	for i, r := range e.rows {
		pat := strings.TrimSpace(r.pattern.Text)
		if pat == "" && strings.TrimSpace(r.template.Text) == "" {
			continue
		}
		if pat == "" {
			return p, fmt.Errorf("override %d has no pattern", i+1)
		}
		p.Overrides = append(p.Overrides, Override{Pattern: pat, Template: r.template.Text})
	}
	return p, nil
}

// onSave saves the edited profile.
func (e *ProfilesEditor) onSave() {
	p, err := e.edited()
	if err != nil {
		setError(e.errLbl, "Not saved: "+err.Error()+".")
		return
	}
	next := e.set.clone()
	old := e.editing
	if e.isNew {
		old = "\x00new"
	}
	next.Put(old, p)
	if next.Active == "" {
		next.Active = p.Name
	}
	if e.save(next, "Saved “"+p.Name+"”.") {
		e.selected = p.Name
		e.editBox.Hide()
		e.refresh()
		if e.scroll != nil {
			e.scroll.ScrollToTop()
			e.scroll.Refresh()
		}
	}
}

// onCancelEdit closes the edit fields without saving.
func (e *ProfilesEditor) onCancelEdit() {
	e.editBox.Hide()
	setError(e.errLbl, "")
}

// onDelete deletes the selected profile.
func (e *ProfilesEditor) onDelete() {
	if _, ok := e.set.Get(e.selected); !ok {
		setError(e.errLbl, "Select a profile first.")
		return
	}
	if len(e.set.Profiles) == 1 {
		setError(e.errLbl, "Keep at least one profile.")
		return
	}
	name := e.selected
	next := e.set.clone()
	next.Delete(name)
	msg := "Deleted “" + name + "”."
	if next.Active == "" {
		// the active one went: the next to answer is one that asks the
		// user, never a mock that would answer every request by itself
		for _, p := range next.Profiles {
			if !p.AutoRespond {
				next.Active = p.Name
				break
			}
		}
		if next.Active == "" {
			setError(e.errLbl, "“"+name+"” is the active profile and the others answer by themselves: make another one active first, or add one that asks you.")
			return
		}
		msg += " “" + next.Active + "” is active now."
	}
	if e.save(next, msg) && e.editing == name {
		e.editBox.Hide()
	}
}

// save stores next; on success it becomes the set shown.
func (e *ProfilesEditor) save(next ProfileSet, msg string) bool {
	if err := e.store.Save(next); err != nil {
		setError(e.errLbl, "The profiles could not be saved. "+plain.Headline(err))
		e.refresh()
		return false
	}
	e.set = next
	setError(e.errLbl, "")
	e.status.SetText(msg)
	e.status.Show()
	e.refresh()
	if e.OnSaved != nil {
		e.OnSaved(e.set.clone())
	}
	return true
}

// ShowProfilesEditor opens the editor in a dialog over w.
func ShowProfilesEditor(w fyne.Window, store ProfileStore, onSaved func(ProfileSet)) *ProfilesEditor {
	e := NewProfilesEditor(store)
	e.OnSaved = onSaved
	e.scroll = esc.NewVScroll(container.New(&rightInset{w: theme.Padding() * 3}, e.Object()))
	d := esc.NewCustom("Sampling profiles", "Close", e.scroll, w)
	size := w.Canvas().Size()
	d.Resize(fyne.NewSize(fyne.Min(720, size.Width*0.95), fyne.Min(680, size.Height*0.95)))
	esc.Show(d, w)
	return e
}

// fixedWidth gives its child a width of w points.
type fixedWidth struct{ w float32 }

// MinSize implements fyne.Layout.
func (f *fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(f.w, 0)
	for _, o := range objs {
		s.Height = fyne.Max(s.Height, o.MinSize().Height)
	}
	return s
}

// Layout implements fyne.Layout.
func (f *fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}
