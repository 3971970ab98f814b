package ui

import (
	"context"
	"fmt"
	"strings"

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
	prompts []Prompt
	cur     *Prompt

	list    *widget.List
	banner  *fyne.Container
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
	formObj fyne.CanvasObject
	next    string
	more    *widget.Button
}

func (p *promptsScreen) buildUI() fyne.CanvasObject {
	p.list = widget.NewList(
		func() int { return len(p.prompts) },
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
			if i >= len(p.prompts) {
				return
			}
			b := o.(*fyne.Container)
			b.Objects[0].(*widget.Label).SetText(firstNonEmpty(p.prompts[i].Title, p.prompts[i].Name))
			b.Objects[1].(*widget.Label).SetText(firstLine(p.prompts[i].Description))
		})
	p.list.OnSelected = func(i widget.ListItemID) {
		if i < len(p.prompts) {
			p.onSelect(p.prompts[i])
		}
	}
	p.banner = listChangedBanner(p.onRefresh)
	p.status = widget.NewLabel("Loading prompts…")
	p.status.Importance = widget.LowImportance
	p.status.Wrapping = fyne.TextWrapWord // a long server name must not widen the list
	p.more = nextPageButton(p.onNextPage)
	p.cache = p.ss.cache.badge()
	left := container.NewBorder(container.NewVBox(p.banner, p.status, p.cache.obj), p.more, nil, nil, p.list)
	p.title = heading("")
	p.title.SizeName = theme.SizeNameSubHeadingText
	p.title.Wrapping = fyne.TextWrapWord
	p.desc = wrapLabel("")
	p.formBox = container.NewStack()
	p.getBtn = widget.NewButtonWithIcon("Get prompt", theme.MediaPlayIcon(), p.onGet)
	p.getBtn.Importance = widget.HighImportance
	p.msgs = container.NewVBox()
	p.formObj = esc.NewVScroll(container.NewPadded(container.NewVBox(
		p.title, p.desc, p.formBox, container.NewHBox(p.getBtn), widget.NewSeparator(), p.msgs)))
	p.detail = container.NewStack(emptyState("Select a prompt to fill its arguments and get it."))
	p.offer = newOfferPane(p.detail)
	return listSplit(left, p.detail)
}

func (p *promptsScreen) onRefresh() {
	p.banner.Hide()
	p.prompts = nil
	p.loadPage("")
}

// onNextPage loads the next page of a paginated list.
func (p *promptsScreen) onNextPage() { p.loadPage(p.next) }

func (p *promptsScreen) loadPage(cursor string) {
	run(p.ss, func(ctx context.Context, c Conn) (page[Prompt], error) {
		ps, next, err := c.ListPrompts(ctx, cursor)
		return page[Prompt]{ps, next}, err
	},
		func(pg page[Prompt], err error) {
			if err != nil {
				p.offer.failed(p.status, "prompts", err, "prompts", "prompts/list")
				return
			}
			p.offer.offered()
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
			ps := p.prompts
			if len(ps) == 0 {
				p.status.SetText("This server offers no prompts.")
			} else {
				p.status.SetText(listCount(len(ps), len(ps), "prompt"))
			}
			p.list.Refresh()
		})
}

func (p *promptsScreen) onListChanged() {
	p.cache.listChanged()
	if p.ss.s.cfg.AutoRefreshOnListChanged {
		p.onRefresh()
		return
	}
	p.banner.Show()
}

func (p *promptsScreen) onSelect(pr Prompt) {
	p.cur = &pr
	p.title.SetText(firstNonEmpty(pr.Title, pr.Name))
	p.desc.SetText(pr.Description)
	p.desc.Hidden = pr.Description == ""
	p.args = newParamForm(p.ss, "ref/prompt", pr.Name, promptParams(pr), p.onGet)
	p.args.relayout = p.formObj.Refresh
	p.formBox.Objects = []fyne.CanvasObject{container.NewVBox(heading("Arguments"), p.args.Object())}
	if len(pr.Arguments) == 0 {
		p.formBox.Hide()
	} else {
		p.formBox.Show()
	}
	p.formBox.Refresh()
	p.msgs.Objects = nil
	p.msgs.Refresh()
	p.detail.Objects = []fyne.CanvasObject{p.formObj}
	p.detail.Refresh()
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
	p.getBtn.Disable()
	run(p.ss, func(ctx context.Context, c Conn) (PromptResult, error) { return c.GetPrompt(ctx, name, args) },
		func(res PromptResult, err error) {
			p.getBtn.Enable()
			if err != nil {
				p.showError(err)
				return
			}
			objs := []fyne.CanvasObject{container.NewHBox(heading("Messages"), rawButton(p.ss.s.w, "prompts/get result", res.Raw))}
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
			p.msgs.Objects = objs
			p.msgs.Refresh()
		})
}

func (p *promptsScreen) showError(err error) {
	p.msgs.Objects = []fyne.CanvasObject{errorView(err, "Prompt error", p.ss.s.w.win)}
	p.msgs.Refresh()
}
