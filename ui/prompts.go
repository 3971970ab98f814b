package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// promptsScreen lists prompts, fills their arguments (with completions)
// and shows prompts/get's messages by role.
type promptsScreen struct {
	ss      *serverScreens
	prompts []Prompt // all of them, as listed
	// shown are the prompts the search matches, what the list draws; hay
	// is each prompt's lower-cased text, made once per listing.
	shown    []Prompt
	hay      []string
	search   *widget.Entry
	reselect bool // applyFilter selects the prompt already shown
	cur      *Prompt
	// gen is the selection's and Get's generation: an answer to an older
	// one (another prompt was selected since) is dropped.
	gen int

	list    *widget.List
	banner  *listBanner
	cache   *cacheBadge
	status  *widget.Label
	detail  *fyne.Container
	offer   *offerPane // the pane while the server offers no prompts
	title   *widget.Label
	desc    *widget.Label
	formBox *fyne.Container
	args    *paramForm // the selected prompt's arguments
	getBtn  *widget.Button
	msgs    *fyne.Container
	answer  *answerPane // msgs: getting, then the messages or an error
	formObj fyne.CanvasObject
	// drops holds the arguments' suggestions layer, over the whole pane
	// so a list under the last field lies over the button below it
	drops *fyne.Container
	next  string
	more  *widget.Button
}

func (p *promptsScreen) buildUI() fyne.CanvasObject {
	p.search = widget.NewEntry()
	p.search.SetPlaceHolder("Search prompts")
	p.search.OnChanged = func(string) { p.applyFilter() }
	p.list = widget.NewList(
		func() int { return len(p.shown) },
		func() fyne.CanvasObject {
			n := widget.NewLabel("")
			n.TextStyle.Bold = true
			n.Truncation = fyne.TextTruncateEllipsis
			d := widget.NewLabel("")
			d.Truncation = fyne.TextTruncateEllipsis
			d.SizeName = theme.SizeNameCaptionText
			return container.NewVBox(n, d)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(p.shown) {
				return
			}
			b := o.(*fyne.Container)
			b.Objects[0].(*widget.Label).SetText(firstNonEmpty(p.shown[i].Title, p.shown[i].Name))
			b.Objects[1].(*widget.Label).SetText(firstLine(p.shown[i].Description))
		})
	p.list.OnSelected = func(i widget.ListItemID) {
		if i < len(p.shown) && !p.reselect {
			p.onSelect(p.shown[i])
		}
	}
	p.banner = newListBanner(p.onRefresh)
	p.status = widget.NewLabel("Loading prompts…")
	p.status.Importance = widget.LowImportance
	p.status.Wrapping = fyne.TextWrapWord // a long server name must not widen the list
	p.more = nextPageButton(p.onNextPage)
	p.cache = p.ss.cache.badge()
	left := container.NewBorder(container.NewVBox(p.banner.obj, p.search, p.status, p.cache.obj), p.more, nil, nil, p.list)
	p.title = heading("")
	p.title.SizeName = theme.SizeNameSubHeadingText
	p.title.Wrapping = fyne.TextWrapWord
	p.desc = wrapLabel("")
	p.formBox = container.NewStack()
	p.getBtn = widget.NewButtonWithIcon("Get prompt", theme.MediaPlayIcon(), p.onGet)
	p.getBtn.Importance = widget.HighImportance
	p.msgs = container.NewVBox()
	p.drops = container.NewStack()
	p.formObj = esc.NewVScroll(container.NewStack(container.NewPadded(container.NewVBox(
		p.title, p.desc, p.formBox, wrapRow(p.getBtn, runHint()), widget.NewSeparator(), p.msgs)), p.drops))
	p.answer = newAnswerPane(p.msgs, p.formObj.(*container.Scroll))
	p.detail = container.NewStack(emptyState("Select a prompt to fill its arguments and get it."))
	p.offer = newOfferPane(p.detail, p.search)
	return listSplit(left, p.detail)
}

func (p *promptsScreen) onRefresh() {
	p.banner.hide()
	p.prompts = nil
	p.loadPage("")
}

// onNextPage loads the next page of a paginated list.
func (p *promptsScreen) onNextPage() { p.loadPage(p.next) }

func (p *promptsScreen) loadPage(cursor string) {
	run(p.ss, func(ctx context.Context, c Conn) (page[Prompt], error) {
		asked := time.Now()
		ps, next, err := c.ListPrompts(ctx, cursor)
		return page[Prompt]{ps, next, asked}, err
	},
		func(pg page[Prompt], err error) {
			if err != nil {
				p.offer.failed(p.status, "prompts", err, "prompts", "prompts/list")
				return
			}
			p.offer.offered()
			if cursor == "" {
				p.banner.listed(pg.asked)
			}
			p.prompts = append(p.prompts, pg.items...)
			if c := p.ss.conn(); c != nil && cursor == "" {
				p.cache.set(lastHint(c, "prompts/list"), listContent(pg.items))
			}
			p.next = pg.next
			if pg.next != "" {
				p.more.Show()
			} else {
				p.more.Hide()
			}
			p.hay = nil // a new listing: the search's text is made again
			p.applyFilter()
		})
}

// applyFilter shows the prompts the search matches and says how many, as
// the Tools list does ("2 of 9 prompts").
func (p *promptsScreen) applyFilter() {
	if len(p.hay) != len(p.prompts) {
		p.hay = make([]string, len(p.prompts))
		for i, pr := range p.prompts {
			p.hay[i] = strings.ToLower(pr.Name + " " + pr.Title + " " + pr.Description)
		}
	}
	q := strings.ToLower(strings.TrimSpace(p.search.Text))
	p.shown = p.shown[:0]
	for i, pr := range p.prompts {
		if q == "" || strings.Contains(p.hay[i], q) {
			p.shown = append(p.shown, pr)
		}
	}
	switch {
	case len(p.prompts) == 0:
		p.status.SetText("This server offers no prompts.")
	case len(p.shown) == 0:
		p.status.SetText(noMatch("prompt", p.search.Text))
	default:
		p.status.SetText(listCount(len(p.shown), len(p.prompts), "prompt"))
	}
	p.list.UnselectAll()
	p.list.Refresh()
	if p.cur != nil {
		if i := p.rowOf(p.cur.Name); i >= 0 {
			p.reselect = true // the prompt shown stays, with what was typed
			p.list.Select(i)
			p.reselect = false
		}
	}
}

// rowOf is the list row of the prompt named name (-1 when not shown).
func (p *promptsScreen) rowOf(name string) int {
	for i, pr := range p.shown {
		if pr.Name == name {
			return i
		}
	}
	return -1
}

// selectName selects and shows the prompt named name, clearing a search
// that hides it (the command palette's "Open prompt").
func (p *promptsScreen) selectName(name string) {
	if p.rowOf(name) < 0 && p.search.Text != "" {
		p.search.SetText("")
	}
	selectWhere(p.list, p.shown, func(x Prompt) bool { return x.Name == name })
}

func (p *promptsScreen) onListChanged(at time.Time) {
	p.cache.listChanged()
	if p.ss.s.cfg.AutoRefreshOnListChanged {
		p.onRefresh()
		return
	}
	p.banner.listChanged(at)
}

func (p *promptsScreen) onSelect(pr Prompt) {
	p.cur = &pr
	p.gen++
	p.getBtn.Enable() // a Get of the prompt shown before answers into nothing
	p.title.SetText(firstNonEmpty(pr.Title, pr.Name))
	p.desc.SetText(pr.Description)
	p.desc.Hidden = pr.Description == ""
	p.args = newParamForm(p.ss, "ref/prompt", pr.Name, promptParams(pr), p.onGet)
	p.formBox.Objects = []fyne.CanvasObject{container.NewVBox(heading("Arguments"), p.args.Object())}
	p.args.view = p.formObj.(*container.Scroll)
	p.drops.Objects = []fyne.CanvasObject{p.args.Layer()}
	p.drops.Refresh()
	if len(pr.Arguments) == 0 {
		p.formBox.Hide()
	} else {
		p.formBox.Show()
	}
	p.formBox.Refresh()
	p.answer.set()
	p.detail.Objects = []fyne.CanvasObject{p.formObj}
	p.detail.Refresh()
	p.formObj.(*container.Scroll).ScrollToTop() // a new prompt's form starts at its top
	p.ss.s.w.updateMenu()                       // Run tool (mod+Enter) gets it now
	p.ss.focusField(p.args.FirstField())
}

// onGet sends prompts/get with the filled arguments.
func (p *promptsScreen) onGet() {
	if p.cur == nil {
		return
	}
	args, err := p.args.Values()
	if err != nil {
		p.showError(err)
		return
	}
	if miss := p.args.missing(args); len(miss) > 0 {
		p.args.form.Validate() // marks the empty fields
		what := "the required argument "
		if len(miss) > 1 {
			what = "the required arguments "
		}
		p.showError(fmt.Errorf("fill in %s%s, then get the prompt again", what, strings.Join(miss, ", ")))
		return
	}
	name := p.cur.Name
	p.gen++
	gen := p.gen
	if p.ss.conn() == nil {
		return // not connected: run would not answer
	}
	p.getBtn.Disable()
	p.answer.wait("Getting " + name + "…")
	run(p.ss, func(ctx context.Context, c Conn) (PromptResult, error) { return c.GetPrompt(ctx, name, args) },
		func(res PromptResult, err error) {
			if gen != p.gen {
				return // another prompt is shown now
			}
			p.getBtn.Enable()
			if err != nil {
				p.showError(err)
				return
			}
			// a row that wraps: at 1024 px Messages, Raw JSON and Save to
			// collection… in one line widened the pane past its room
			objs := []fyne.CanvasObject{wrapRow(heading("Messages"), rawButton(p.ss.s.w, "prompts/get result", res.Raw))}
			if b := p.ss.s.w.saveLatestButton(p.ss.s.cfg.Name, "prompts/get", paramIs("name", name)); b != nil {
				objs[0].(*fyne.Container).Add(b)
			}
			if res.Description != "" {
				objs = append(objs, wrapLabel(res.Description))
			}
			for _, m := range res.Messages {
				role := newBadge(m.Role+" · "+m.Content.Type, map[string]string{"user": "primary", "assistant": "ok"}[m.Role])
				objs = append(objs, container.NewVBox(container.NewHBox(role), p.ss.contentView(m.Content)), widget.NewSeparator())
			}
			if len(res.Messages) == 0 {
				objs = append(objs, emptyState("The prompt has no messages."))
			}
			p.answer.show(objs...)
		})
}

func (p *promptsScreen) showError(err error) {
	p.answer.show(errorView(err, "Prompt error", p.ss.s.w.win))
}
