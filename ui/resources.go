package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/ident"
)

// resourcesScreen lists resources and templates, reads them and manages
// subscriptions.
type resourcesScreen struct {
	ss        *serverScreens
	resources []Resource
	templates []ResourceTemplate
	// rows are the resources, then the templates; view is what the list
	// draws of them: those the search matches, under headers of their URI
	// prefix when there are many (issue #17). hay is each row's lower-cased
	// text, groupOf each row's group (nil: not grouped).
	rows      []resRow
	view      []groupRow
	hay       []string
	groupOf   []string
	collapsed map[string]bool
	search    *widget.Entry
	reselect  bool // applyFilter selects the row already shown
	subs      map[string]bool
	updated   map[string]time.Time

	list    *widget.List
	banner  *listBanner
	status  *widget.Label
	cache   *cacheBadge            // the list's
	reads   map[string]*cacheBadge // each read result's, by URI
	detail  *fyne.Container
	offer   *offerPane // the pane while the server offers no resources
	title   *widget.Label
	uri     *ident.Text
	desc    *widget.Label
	vars    *fyne.Container
	params  *paramForm // the template's variables
	expand  *ident.Text
	readBtn *widget.Button
	subBtn  *widget.Button
	updLbl  *widget.Label
	content *fyne.Container
	answer  *answerPane // content: reading, then what was read or an error
	cur     *resRow
	// readGen is the selection's and Read's generation: the answer to an
	// older read (another row was selected since) is dropped.
	readGen int
	formObj fyne.CanvasObject
	drops   *fyne.Container // the variables' suggestions layer
	next    string
	more    *widget.Button
}

type resRow struct {
	res  *Resource
	tmpl *ResourceTemplate
}

func (r resRow) name() string {
	if r.res != nil {
		return orDash(firstNonEmpty(r.res.Title, r.res.Name, r.res.URI))
	}
	return orDash(firstNonEmpty(r.tmpl.Title, r.tmpl.Name, r.tmpl.URITemplate))
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// newBadgedRow is a list row: a bold name with a badge at its end, a
// caption line (a URI) under it, ending a scroll bar's width before the
// row's edge so that the bar Fyne draws over a long list does not cover
// the badge. setBadgedRow fills one.
func newBadgedRow() fyne.CanvasObject {
	n := widget.NewLabel("")
	n.TextStyle.Bold = true
	n.Truncation = fyne.TextTruncateEllipsis
	u := widget.NewLabel("")
	u.Truncation = fyne.TextTruncateEllipsis
	u.SizeName = theme.SizeNameCaptionText
	return barRoom(container.NewVBox(container.NewBorder(nil, nil, nil, newBadge("", ""), n), u), false)
}

// setBadgedRow fills a row made by newBadgedRow.
func setBadgedRow(o fyne.CanvasObject, name, caption, badgeText, level string) {
	box := o.(*fyne.Container).Objects[0].(*fyne.Container) // inside barRoom
	top := box.Objects[0].(*fyne.Container)
	top.Objects[0].(*widget.Label).SetText(name)
	top.Objects[1].(*badge).Set(badgeText, level)
	box.Objects[1].(*widget.Label).SetText(caption)
}

func (r *resourcesScreen) buildUI() fyne.CanvasObject {
	r.subs = map[string]bool{}
	r.updated = map[string]time.Time{}
	r.collapsed = map[string]bool{}
	r.search = widget.NewEntry()
	r.search.SetPlaceHolder("Search resources")
	r.search.OnChanged = func(string) { r.applyFilter() }
	r.list = widget.NewList(
		func() int { return len(r.view) },
		newBadgedRow,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(r.view) {
				return
			}
			if v := r.view[i]; v.item < 0 {
				head, sub := r.headerText(v)
				setBadgedRow(o, head, sub, "", "")
				return
			}
			row := r.rows[r.view[i].item]
			switch {
			case row.tmpl != nil:
				setBadgedRow(o, row.name(), row.tmpl.URITemplate, "template", "primary")
			case r.subs[row.res.URI]:
				setBadgedRow(o, row.name(), row.res.URI, "subscribed", "ok")
			default:
				setBadgedRow(o, row.name(), row.res.URI, "", "")
			}
		})
	r.list.OnSelected = func(i widget.ListItemID) {
		if i >= len(r.view) {
			return
		}
		if v := r.view[i]; v.item < 0 {
			r.list.Unselect(i)
			r.collapsed[v.group] = !r.collapsed[v.group]
			r.applyFilter()
			return
		}
		if !r.reselect {
			r.onSelect(r.rows[r.view[i].item])
		}
	}
	r.banner = newListBanner(r.onRefresh)
	r.status = widget.NewLabel("Loading resources…")
	r.status.Importance = widget.LowImportance
	r.status.Wrapping = fyne.TextWrapWord // a long "No resource matches …" must not widen the list
	r.more = nextPageButton(r.onNextPage)
	r.cache = r.ss.cache.badge()
	r.reads = map[string]*cacheBadge{}
	left := container.NewBorder(container.NewVBox(r.banner.obj, r.search, r.status, r.cache.obj), r.more, nil, nil, r.list)

	r.title = heading("")
	r.title.SizeName = theme.SizeNameSubHeadingText
	r.title.Wrapping = fyne.TextWrapWord
	// the URI wraps after its '/', never inside a name (identtext.go);
	// the description under it wraps at its words
	r.uri = ident.New("")
	r.uri.Plain = true
	r.desc = wrapLabel("")
	r.vars = container.NewVBox()
	r.expand = ident.New("")
	r.expand.Plain, r.expand.Monospace = true, true
	r.expand.Hide()
	r.readBtn = widget.NewButtonWithIcon("Read again", theme.ViewRefreshIcon(), r.onRead)
	r.readBtn.Importance = widget.HighImportance
	r.subBtn = widget.NewButtonWithIcon("Subscribe", theme.VisibilityIcon(), r.onSubscribe)
	r.updLbl = widget.NewLabel("")
	r.updLbl.Importance = widget.LowImportance
	r.content = container.NewVBox()
	actions := wrapRow(r.readBtn, runHint(), r.subBtn, r.updLbl)
	if b := r.ss.s.w.saveLatestButton(r.ss.s.cfg.Name, "resources/read", func() (func(json.RawMessage) bool, error) {
		uri, err := r.currentURI() // the resource shown, as Read reads it
		if err != nil {
			return nil, err
		}
		return paramIs("uri", uri)()
	}); b != nil {
		actions.Add(b)
	}
	// the variables' suggestions layer lies over the whole pane, so a
	// list under the last variable lies over the buttons below it
	r.drops = container.NewStack()
	r.formObj = esc.NewVScroll(container.NewStack(container.NewPadded(container.NewVBox(
		r.title, r.uri, r.desc, r.vars, r.expand, actions, widget.NewSeparator(), r.content)), r.drops))
	r.answer = newAnswerPane(r.content, r.formObj.(*container.Scroll))
	r.detail = container.NewStack(emptyState("Select a resource or template to read it."))
	r.offer = newOfferPane(r.detail, r.search)
	return listSplit(left, r.detail)
}

func (r *resourcesScreen) onRefresh() {
	r.banner.hide()
	r.load(false)
}

// onNextPage loads the next page of a paginated resource list.
func (r *resourcesScreen) onNextPage() { r.load(true) }

func (r *resourcesScreen) load(more bool) {
	type lists struct {
		res   []Resource
		tmpl  []ResourceTemplate
		terr  error
		next  string
		asked time.Time
	}
	cursor := r.next
	if !more {
		cursor = ""
	}
	run(r.ss, func(ctx context.Context, c Conn) (lists, error) {
		asked := time.Now()
		res, next, err := c.ListResources(ctx, cursor)
		if err != nil {
			return lists{}, err
		}
		if more {
			return lists{res: res, next: next}, nil
		}
		tmpl, terr := c.ListResourceTemplates(ctx)
		return lists{res, tmpl, terr, next, asked}, nil
	}, func(l lists, err error) {
		if err != nil {
			r.offer.failed(r.status, "resources", err, "resources", "resources/list")
			return
		}
		r.offer.offered()
		if more {
			r.resources = append(r.resources, l.res...)
		} else {
			r.resources, r.templates = l.res, l.tmpl
			r.banner.listed(l.asked)
			if c := r.ss.conn(); c != nil {
				r.cache.set(lastHint(c, "resources/list"), listContent(l.res))
			}
		}
		r.next = l.next
		if l.next != "" {
			r.more.Show()
		} else {
			r.more.Hide()
		}
		r.rows = r.rows[:0]
		for i := range r.resources {
			r.rows = append(r.rows, resRow{res: &r.resources[i]})
		}
		for i := range r.templates {
			r.rows = append(r.rows, resRow{tmpl: &r.templates[i]})
		}
		r.hay = nil // a new listing: search and groups are made again
		r.applyFilter()
	})
}

func (r *resourcesScreen) onListChanged(at time.Time) {
	r.cache.listChanged()
	if r.ss.s.cfg.AutoRefreshOnListChanged {
		r.onRefresh()
		return
	}
	r.banner.listChanged(at)
}

// onUpdated marks a subscribed resource as updated.
func (r *resourcesScreen) onUpdated(n Notification) {
	var p struct {
		URI string `json:"uri"`
	}
	_ = json.Unmarshal(n.Params, &p)
	r.updated[p.URI] = n.Time
	if b := r.reads[p.URI]; b != nil {
		b.listChanged() // updated while the last read was still fresh
	}
	if r.cur != nil && r.cur.res != nil && r.cur.res.URI == p.URI {
		r.showUpdated(p.URI)
	}
}

func (r *resourcesScreen) showUpdated(uri string) {
	if t, ok := r.updated[uri]; ok {
		r.updLbl.SetText("updated at " + t.Local().Format("15:04:05"))
	} else {
		r.updLbl.SetText("")
	}
}

// onSelect shows row: a resource is read at once (resources/read), as a
// desktop inspector does on selection, with Read again beside it; a
// template shows its variables' form, read with Read (or Enter).
func (r *resourcesScreen) onSelect(row resRow) {
	r.cur = &row
	r.readGen++
	r.readBtn.Enable() // a read of the row shown before answers into nothing
	r.answer.set()
	r.vars.Objects = nil
	r.params = nil
	r.drops.Objects = nil
	r.expand.Hide()
	r.title.SetText(row.name())
	if row.tmpl != nil {
		r.showURI(row.tmpl.URITemplate, row.tmpl.Description)
		r.readBtn.SetText("Read")
		r.readBtn.SetIcon(theme.DocumentIcon())
		r.subBtn.Hide()
		r.updLbl.SetText("")
		params, err := templateParams(row.tmpl.URITemplate)
		if err != nil {
			r.showError(err)
		} else {
			r.params = newParamForm(r.ss, "ref/resource", row.tmpl.URITemplate, params, r.onRead)
			r.params.onChanged = r.showExpansion
			r.vars.Objects = []fyne.CanvasObject{heading("Variables"), r.params.Object()}
			r.params.view = r.formObj.(*container.Scroll)
			r.drops.Objects = []fyne.CanvasObject{r.params.Layer()}
			r.showExpansion()
		}
	} else {
		r.showURI(row.res.URI, row.res.Description)
		r.readBtn.SetText("Read again")
		r.readBtn.SetIcon(theme.ViewRefreshIcon())
		r.subBtn.Show()
		r.styleSub()
		r.showUpdated(row.res.URI)
	}
	r.vars.Refresh()
	r.drops.Refresh()
	r.detail.Objects = []fyne.CanvasObject{r.formObj}
	r.detail.Refresh()
	r.formObj.(*container.Scroll).ScrollToTop() // a new row's pane starts at its top
	r.ss.s.w.updateMenu()                       // Run tool (mod+Enter) reads it now
	if row.res != nil {
		r.onRead()
	} else if r.params != nil {
		r.ss.focusField(r.params.FirstField())
	}
}

// showURI shows a resource's or template's URI and its description (a
// line each, the description hidden when there is none).
func (r *resourcesScreen) showURI(uri, desc string) {
	r.uri.SetText(uri)
	desc = strings.TrimSpace(desc)
	r.desc.SetText(desc)
	setVisible(r.desc, desc != "")
}

// showExpansion shows the URI the template's variables expand to, the
// one Read will read.
func (r *resourcesScreen) showExpansion() {
	uri, err := r.currentURI()
	switch {
	case err != nil:
		r.expand.SetText(plainHeadline(err))
	default:
		r.expand.SetText("→ " + uri)
	}
	r.expand.Show()
}

func (r *resourcesScreen) styleSub() {
	if r.cur != nil && r.cur.res != nil && r.subs[r.cur.res.URI] {
		r.subBtn.SetText("Unsubscribe")
	} else {
		r.subBtn.SetText("Subscribe")
	}
}

// currentURI is the URI to read: the resource's, or the template expanded.
func (r *resourcesScreen) currentURI() (string, error) {
	if r.cur == nil {
		return "", fmt.Errorf("nothing selected")
	}
	if r.cur.res != nil {
		return r.cur.res.URI, nil
	}
	if r.params == nil {
		return "", fmt.Errorf("bad URI template %q", r.cur.tmpl.URITemplate)
	}
	vals, err := r.params.Values()
	if err != nil {
		return "", err
	}
	return r.ss.s.w.expandTemplate(r.cur.tmpl.URITemplate, vals)
}

func (r *resourcesScreen) onRead() {
	r.readGen++
	gen := r.readGen
	uri, err := r.currentURI()
	if err == nil && r.cur != nil && r.cur.tmpl != nil && r.params != nil {
		vals, _ := r.params.Values() // currentURI read them
		if miss := r.params.missing(vals); len(miss) > 0 {
			r.params.form.Validate() // marks the empty fields
			what := "the required variable "
			if len(miss) > 1 {
				what = "the required variables "
			}
			err = fmt.Errorf("fill in %s%s, then read the template again", what, strings.Join(miss, ", "))
		}
	}
	if err != nil {
		r.readBtn.Enable()
		r.showError(err)
		return
	}
	if r.ss.conn() == nil {
		return // not connected: run would not answer
	}
	r.readBtn.Disable()
	r.answer.wait("Reading " + uri + "…")
	run(r.ss, func(ctx context.Context, c Conn) (ReadResult, error) { return c.ReadResource(ctx, uri) },
		func(res ReadResult, err error) {
			if gen != r.readGen {
				return // another row is shown now, or read again
			}
			r.readBtn.Enable()
			if err != nil {
				r.showError(err)
				return
			}
			head := ident.New(uri)
			head.Heading = true
			objs := []fyne.CanvasObject{container.NewBorder(nil, nil, nil, rawButton(r.ss.s.w, "resources/read result", res.Raw), head)}
			if b := r.readBadge(uri, res); b != nil {
				objs = append(objs, b.obj)
			}
			for _, c := range res.Contents {
				objs = append(objs, r.ss.readContentView(c))
			}
			if len(res.Contents) == 0 {
				objs = append(objs, emptyState("The resource has no contents."))
			}
			r.answer.show(objs...)
		})
}

func (r *resourcesScreen) showError(err error) {
	r.answer.show(errorView(err, "Resource error", r.ss.s.w.win))
}

func (r *resourcesScreen) onSubscribe() {
	if r.cur == nil || r.cur.res == nil {
		return
	}
	uri := r.cur.res.URI
	sub := !r.subs[uri]
	run(r.ss, func(ctx context.Context, c Conn) (struct{}, error) {
		if sub {
			return struct{}{}, c.Subscribe(ctx, uri)
		}
		return struct{}{}, c.Unsubscribe(ctx, uri)
	}, func(_ struct{}, err error) {
		if err != nil {
			r.ss.s.w.toastErr("error", "Could not change the subscription", err)
			return
		}
		r.subs[uri] = sub
		r.styleSub()
		r.list.Refresh()
		if sub {
			r.ss.s.w.toast("ok", "Subscribed to "+uri)
		}
	})
}

// rawButton shows raw JSON in a dialog.
func rawButton(w *Window, title string, raw json.RawMessage) *widget.Button {
	b := widget.NewButtonWithIcon("Raw JSON", theme.FileTextIcon(), func() {
		showRawJSON(title, raw, w.win)
	})
	b.Importance = widget.LowImportance
	return b
}
