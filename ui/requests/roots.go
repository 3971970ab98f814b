package requests

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// nameWidth is the width of the Name column.
const nameWidth = 150

// RootsOptions configure a RootsPanel.
type RootsOptions struct {
	// Window hosts the folder dialog of [Browse] (hidden when nil).
	Window fyne.Window
	// Stat reports whether a local path is a directory; os.Stat when nil
	// (tests may fake it).
	Stat func(path string) (isDir bool, err error)
}

// RootsPanel configures the filesystem roots exposed to servers: a list with
// name, URI and Remove, an Add form (name, path, Browse), the security
// warning, and OnDropped for folders dropped onto the window. Every change is
// reported through OnChanged (the adapter then sends
// notifications/roots/list_changed).
type RootsPanel struct {
	// OnChanged gets the new list after every change.
	OnChanged func([]Root)

	opts RootsOptions

	mu    sync.Mutex
	roots []Root

	list    *fyne.Container
	caption *widget.Label
	name    *esc.Entry
	path    *esc.Entry
	status  *widget.Label
	errLbl  *widget.Label
	obj     fyne.CanvasObject
}

// NewRootsPanel returns a panel holding roots.
func NewRootsPanel(roots []Root, opts *RootsOptions) *RootsPanel {
	p := &RootsPanel{roots: append([]Root(nil), roots...)}
	if opts != nil {
		p.opts = *opts
	}
	p.obj = p.buildUI()
	return p
}

// Object returns the panel's view.
func (p *RootsPanel) Object() fyne.CanvasObject { return p.obj }

// Roots returns a copy of the roots. Safe from any goroutine (roots/list).
func (p *RootsPanel) Roots() []Root {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Root(nil), p.roots...)
}

// SetRoots replaces the roots without reporting a change (for example when
// another server is selected).
func (p *RootsPanel) SetRoots(roots []Root) {
	p.mu.Lock()
	p.roots = append([]Root(nil), roots...)
	p.mu.Unlock()
	p.refreshList()
}

func (p *RootsPanel) buildUI() fyne.CanvasObject {
	p.list = container.NewVBox()
	p.caption = wrapLabel("Filesystem roots exposed to the connected server:")
	p.name = esc.NewEntry()
	p.name.SetPlaceHolder("Name (optional), e.g. Project")
	p.path = esc.NewEntry()
	p.path.SetPlaceHolder("/path/to/folder")
	p.path.OnSubmitted = func(string) { p.onAdd() }
	browse := esc.NewButtonWithIcon("Browse", theme.FolderOpenIcon(), p.onBrowse)
	if p.opts.Window == nil {
		browse.Hide()
	}
	add := esc.NewButtonWithIcon("Add", theme.ContentAddIcon(), p.onAdd)
	add.Importance = widget.HighImportance
	p.status = wrapLabel("")
	p.status.Importance = widget.SuccessImportance
	p.status.Hide()
	p.errLbl = errorLine()
	warn, _ := warning("Roots give the server access to these directories. Only add directories you trust the server to access.")
	addForm := container.New(layout.NewFormLayout(),
		widget.NewLabel("Name:"), p.name,
		widget.NewLabel("Path:"), p.path,
	)
	p.refreshList()
	return container.NewVBox(
		heading("Roots Configuration"),
		p.caption,
		box("", p.list),
		widget.NewSeparator(),
		heading("Add New Root:"),
		addForm,
		container.NewHBox(layout.NewSpacer(), browse, add),
		p.errLbl,
		p.status,
		mutedLabel("Tip: drop folders onto the window to add them as roots."),
		warn,
	)
}

// refreshList redraws the list of roots.
func (p *RootsPanel) refreshList() {
	roots := p.Roots()
	p.list.RemoveAll()
	if len(roots) == 0 {
		p.list.Add(emptyState("No roots yet. Add a folder below, or drop one onto the window."))
		return
	}
	probe := esc.NewButtonWithIcon("Remove", theme.DeleteIcon(), nil)
	actionsW := probe.MinSize().Width
	actions := heading("Actions")
	actions.Alignment = fyne.TextAlignCenter
	p.list.Add(container.NewBorder(nil, nil, container.New(&fixedWidth{w: nameWidth}, heading("Name")),
		container.New(&fixedWidth{w: actionsW}, actions), heading("URI")))
	for _, r := range roots {
		r := r
		name := widget.NewLabel(r.Name)
		if r.Name == "" {
			name.SetText("(unnamed)")
			name.Importance = widget.LowImportance
		}
		name.Truncation = fyne.TextTruncateEllipsis
		uri := widget.NewLabel(r.URI)
		uri.TextStyle = fyne.TextStyle{Monospace: true}
		uri.Truncation = fyne.TextTruncateEllipsis
		rm := esc.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { p.onRemove(r.URI) })
		rm.Importance = widget.LowImportance
		p.list.Add(widget.NewSeparator())
		p.list.Add(container.NewBorder(nil, nil, container.New(&fixedWidth{w: nameWidth}, name), rm, uri))
	}
}

// SetServer names the server whose roots are shown ("" for the generic
// caption).
func (p *RootsPanel) SetServer(name string) {
	if name == "" {
		p.caption.SetText("Filesystem roots exposed to the connected server:")
		return
	}
	p.caption.SetText("Filesystem roots exposed to “" + name + "”:")
}

// onAdd adds the typed folder.
func (p *RootsPanel) onAdd() {
	path := strings.TrimSpace(p.path.Text)
	if path == "" {
		setError(p.errLbl, "Type the folder's path, or press Browse.")
		return
	}
	var u fyne.URI
	if strings.HasPrefix(path, "file://") {
		parsed, err := url.Parse(path)
		if err != nil || parsed.Path == "" {
			setError(p.errLbl, "That is not a valid file URI; give the folder's path, or file:///path.")
			return
		}
		u = storage.NewFileURI(parsed.Path)
	} else {
		if !filepath.IsAbs(path) {
			setError(p.errLbl, "Give the folder's full path (it starts with /).")
			return
		}
		u = storage.NewFileURI(filepath.Clean(path))
	}
	msg, ok := p.add(strings.TrimSpace(p.name.Text), u)
	if !ok {
		setError(p.errLbl, msg)
		return
	}
	setError(p.errLbl, "")
	p.name.SetText("")
	p.path.SetText("")
	p.say(msg)
	p.changed()
}

// add adds a folder root; it returns what happened and whether it was added.
func (p *RootsPanel) add(name string, u fyne.URI) (string, bool) {
	if u.Scheme() != "file" {
		return fmt.Sprintf("%s is not a local folder (only file: roots are supported).", u.String()), false
	}
	dir, err := p.isDir(u.Path())
	switch {
	case err != nil:
		return fmt.Sprintf("%s: no such folder.", u.Path()), false
	case !dir:
		return fmt.Sprintf("%s is a file; roots must be folders.", u.Path()), false
	}
	if name == "" {
		name = filepath.Base(u.Path())
	}
	// an RFC 8089 URI, percent-encoded (Fyne's String() leaves spaces raw)
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(u.Path())}).String()
	p.mu.Lock()
	for _, r := range p.roots {
		if r.URI == uri {
			p.mu.Unlock()
			return fmt.Sprintf("%s is already a root.", u.Path()), false
		}
	}
	p.roots = append(p.roots, Root{Name: name, URI: uri})
	p.mu.Unlock()
	p.refreshList()
	return fmt.Sprintf("Added %s.", u.Path()), true
}

func (p *RootsPanel) isDir(path string) (bool, error) {
	if p.opts.Stat != nil {
		return p.opts.Stat(path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}

// onRemove removes the root with uri.
func (p *RootsPanel) onRemove(uri string) {
	p.mu.Lock()
	removed := false
	for i, r := range p.roots {
		if r.URI == uri {
			p.roots = append(p.roots[:i], p.roots[i+1:]...)
			removed = true
			break
		}
	}
	p.mu.Unlock()
	if !removed {
		return
	}
	p.refreshList()
	p.say("Removed " + uri + ".")
	p.changed()
}

// onBrowse picks a folder with the folder dialog.
func (p *RootsPanel) onBrowse() {
	if p.opts.Window == nil {
		return
	}
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil || u == nil {
			return
		}
		p.path.SetText(u.Path())
		if p.name.Text == "" {
			p.name.SetText(filepath.Base(u.Path()))
		}
	}, p.opts.Window)
	esc.Show(d, p.opts.Window)
}

// OnDropped adds dropped folders as roots and refuses files with a message.
// The window calls it from Window.SetOnDropped (on the UI goroutine).
func (p *RootsPanel) OnDropped(uris []fyne.URI) {
	var added, refused []string
	for _, u := range uris {
		msg, ok := p.add("", u)
		if ok {
			added = append(added, u.Path())
		} else {
			refused = append(refused, msg)
		}
	}
	switch {
	case len(added) == 1:
		p.say("Added " + added[0] + " as a root.")
	case len(added) > 1:
		p.say(fmt.Sprintf("Added %d folders as roots.", len(added)))
	default:
		p.say("")
	}
	setError(p.errLbl, strings.Join(refused, "\n"))
	if len(added) > 0 {
		p.changed()
	}
}

// Message returns the last status and error texts (tests and the window's
// toasts).
func (p *RootsPanel) Message() (status, problem string) {
	return p.status.Text, p.errLbl.Text
}

func (p *RootsPanel) say(s string) {
	p.status.SetText(s)
	if s == "" {
		p.status.Hide()
	} else {
		p.status.Show()
	}
}

func (p *RootsPanel) changed() {
	if p.OnChanged != nil {
		p.OnChanged(p.Roots())
	}
}

// SplitFolders separates dropped URIs into local folders and everything
// else, so a window that also imports dropped files can send the folders to
// RootsPanel.OnDropped and the rest to its importer.
func SplitFolders(uris []fyne.URI) (folders, others []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() == "file" {
			if fi, err := os.Stat(u.Path()); err == nil && fi.IsDir() {
				folders = append(folders, u)
				continue
			}
		}
		others = append(others, u)
	}
	return folders, others
}
