package ui

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/sahilm/fuzzy"
)

// paletteLabel is the command palette's own menu item (View menu): the
// palette lists every other menu item, not itself.
const paletteLabel = "Command palette…"

// paletteItem is one line of the command palette: what it reaches, its
// kind ("Action", "Server", "Tool", "Prompt", "Resource") and what
// choosing it does.
type paletteItem struct {
	kind  string
	label string
	run   func()
}

// palette is the command palette (Ctrl+K): a filterable list of the
// window's menu actions, the servers, and the selected server's tools,
// prompts and resources. The menu is its registry of actions: it walks
// the main menu instead of keeping a list of its own.
type palette struct {
	w     *Window
	all   []paletteItem
	shown []paletteItem
	cur   int
	// moving: the selection changes from the keyboard or the filter, so
	// the list's OnSelected must not run the item.
	moving bool

	entry *paletteEntry
	list  *widget.List
	empty *widget.Label
	pop   *widget.PopUp
}

// paletteEntry is the palette's filter field: arrows move the selection,
// Enter runs it, Esc closes the palette.
type paletteEntry struct {
	widget.Entry
	p *palette
}

// TypedKey implements fyne.Focusable.
func (e *paletteEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyDown:
		e.p.move(1)
	case fyne.KeyUp:
		e.p.move(-1)
	case fyne.KeyPageDown:
		e.p.move(8)
	case fyne.KeyPageUp:
		e.p.move(-8)
	case fyne.KeyEscape:
		e.p.close()
	case fyne.KeyReturn, fyne.KeyEnter:
		e.p.runCurrent()
	default:
		e.Entry.TypedKey(k)
	}
}

// onCommandPalette opens the command palette (View → Command palette…,
// Ctrl+K), or closes it when it is open.
func (w *Window) onCommandPalette() {
	if w.palette != nil && w.palette.pop != nil && w.palette.pop.Visible() {
		w.palette.close()
		return
	}
	p := &palette{w: w}
	w.palette = p
	// from the detached inspector's window: the palette opens in the main one
	w.win.RequestFocus()
	p.all = w.paletteItems()
	p.show()
}

// paletteItems gathers what the palette reaches, in the order it lists
// them before anything is typed: the selected server's tools, prompts
// and resources, the servers, then every enabled menu action.
func (w *Window) paletteItems() []paletteItem {
	var items []paletteItem
	if s := w.selected; s != nil && s.screens != nil && s.state.State == StateConnected {
		ss := s.screens
		for _, t := range ss.tools.all {
			name := t.Name
			items = append(items, paletteItem{"Tool", labelWithTitle(t.Title, name), func() { w.openTool(name) }})
		}
		for _, pr := range ss.prompts.prompts {
			name := pr.Name
			items = append(items, paletteItem{"Prompt", labelWithTitle(pr.Title, name), func() { w.openPrompt(name) }})
		}
		for _, row := range ss.resources.rows {
			key, label := row.key(), row.name()
			if row.res != nil && row.res.URI != label {
				label += " · " + row.res.URI
			}
			items = append(items, paletteItem{"Resource", label, func() { w.openResource(key) }})
		}
	}
	for _, s := range w.servers {
		items = append(items, paletteItem{"Server", "Go to " + s.cfg.Name, func() { w.selectServer(s) }})
		if st := s.state.State; st != StateConnected && st != StateConnecting && st != StateAuthorizing {
			items = append(items, paletteItem{"Server", "Connect " + s.cfg.Name, func() {
				w.selectServer(s)
				s.onConnect()
			}})
		}
	}
	if mm := w.win.MainMenu(); mm != nil {
		for _, m := range mm.Items {
			items = appendMenuItems(items, m.Label, m.Items)
		}
	}
	return items
}

// appendMenuItems adds a menu's enabled actions, submenus included, as
// "Menu › Item" lines.
func appendMenuItems(items []paletteItem, path string, menu []*fyne.MenuItem) []paletteItem {
	for _, it := range menu {
		if it.IsSeparator || it.Disabled || it.Label == paletteLabel {
			continue
		}
		label := path + " › " + strings.TrimSuffix(it.Label, "…")
		if it.ChildMenu != nil {
			items = appendMenuItems(items, label, it.ChildMenu.Items)
			continue
		}
		if it.Action != nil {
			items = append(items, paletteItem{"Action", label, it.Action})
		}
	}
	return items
}

// labelWithTitle is "Title (name)", or the name alone.
func labelWithTitle(title, name string) string {
	if title == "" || title == name {
		return name
	}
	return title + " (" + name + ")"
}

func (p *palette) show() {
	p.entry = &paletteEntry{p: p}
	p.entry.ExtendBaseWidget(p.entry)
	p.entry.SetPlaceHolder("Type a tool, prompt, resource, server or action")
	p.entry.OnChanged = func(string) { p.filter() }
	p.list = widget.NewList(
		func() int { return len(p.shown) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			k := widget.NewLabel("")
			k.SizeName = theme.SizeNameCaptionText
			return container.NewBorder(nil, nil, nil, k, l)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(p.shown) {
				return
			}
			c := o.(*fyne.Container)
			c.Objects[0].(*widget.Label).SetText(p.shown[i].label)
			c.Objects[1].(*widget.Label).SetText(p.shown[i].kind)
		})
	p.list.OnSelected = func(i widget.ListItemID) {
		p.cur = i
		if !p.moving {
			p.runCurrent()
		}
	}
	p.empty = widget.NewLabel("")
	p.empty.Hide()
	hint := widget.NewLabel("↑ ↓ to choose · Enter to open · Esc to close")
	hint.SizeName = theme.SizeNameCaptionText
	body := container.NewBorder(container.NewVBox(p.entry, p.empty), hint, nil, nil, p.list)
	c := p.w.win.Canvas()
	p.pop = widget.NewModalPopUp(body, c)
	// the palette sits in the upper part of the window, like a search
	// box, and never wider or taller than the window
	size := fyne.NewSize(min(600, c.Size().Width-40), min(420, c.Size().Height-80))
	p.pop.Resize(size)
	p.filter()
	p.pop.Show()
	p.pop.Move(fyne.NewPos((c.Size().Width-size.Width)/2, min(60, c.Size().Height/10)))
	c.Focus(p.entry)
}

// filter shows the items matching the typed text (paletteMatches), or
// everything when nothing is typed.
func (p *palette) filter() {
	q := strings.TrimSpace(p.entry.Text)
	p.shown = p.shown[:0]
	if q == "" {
		p.shown = append(p.shown, p.all...)
	} else {
		p.shown = append(p.shown, paletteMatches(q, p.all)...)
	}
	if len(p.shown) == 0 {
		p.empty.SetText("Nothing matches \"" + q + "\".")
		p.empty.Show()
	} else {
		p.empty.Hide()
	}
	p.list.UnselectAll()
	p.list.Refresh()
	p.cur = -1
	p.move(1)
}

// How well the query matches a line, best first (matchTier).
const (
	tierPrefix    = iota // the line begins with the query
	tierWordStart        // the query begins a word of the line
	tierWords            // the query is the beginnings of words, in order
	tierInside           // the query is inside a word, its letters together
	tierScattered        // only the letters in order, scattered: no match
)

// paletteMatches is what the palette lists for the query q, best first.
// An item is matched on its label and kind ("echo Tool"). The rule
// (issue #12): github.com/sahilm/fuzzy finds the items that hold the
// query's letters in order (its spaces left out), and of those the
// palette lists the ones a user calls matches, ranked:
//
//  1. the line begins with the query: "echo" → echo;
//  2. the query, as typed, begins a word: "time" → get_time, "dark" →
//     View › Theme › Dark (a word begins after a space, punctuation or
//     "_", or at a capital after a small letter);
//  3. the query is the beginnings of words, in order, each word typed
//     beginning one: "theme dark" and "vtd" → View › Theme › Dark,
//     "get time" → get_time;
//  4. the query is inside a word, its letters together: "ound" → Round.
//
// Within each rank the library's score decides (fewer letters between
// and before the matched ones first), then the order before anything was
// typed. Letters merely scattered in order are no match, even when
// nothing else matches: the library alone listed Image (get_image) and
// Settings › Event log memory for "time", where "Nothing matches" is
// the answer.
func paletteMatches(q string, items []paletteItem) []paletteItem {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil
	}
	ms := fuzzy.FindFrom(strings.Join(words, ""), paletteSource(items))
	type ranked struct{ tier, index int }
	var kept []ranked
	for _, m := range ms {
		if tier := matchTier(words, m.Str); tier != tierScattered {
			kept = append(kept, ranked{tier, m.Index})
		}
	}
	// ms is sorted by score already (a stable sort: ties keep the items'
	// order), so a stable sort by rank keeps the score within each
	sort.SliceStable(kept, func(a, b int) bool { return kept[a].tier < kept[b].tier })
	out := make([]paletteItem, len(kept))
	for i, k := range kept {
		out[i] = items[k.index]
	}
	return out
}

// matchTier is how the query's words (lower case) match s: one of the
// tier constants, tierScattered when none of the others.
func matchTier(words []string, s string) int {
	line := []rune(s)
	low := make([]rune, len(line))
	starts := make([]bool, len(line))
	for i, r := range line {
		low[i] = unicode.ToLower(r)
		starts[i] = i == 0 || !isWordRune(line[i-1]) || unicode.IsLower(line[i-1]) && unicode.IsUpper(r)
	}
	tier := tierScattered
	phrase := []rune(strings.Join(words, " "))
	for at := range len(low) - len(phrase) + 1 {
		if !slices.Equal(low[at:at+len(phrase)], phrase) {
			continue
		}
		switch {
		case at == 0:
			return tierPrefix
		case starts[at]:
			tier = tierWordStart
		default:
			tier = min(tier, tierInside)
		}
	}
	if tier == tierWordStart {
		return tier
	}
	if wordPieces(words, low, starts) {
		return tierWords
	}
	return tier
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordPieces reports whether the words can be cut into pieces that each
// begin a word of low (starts tells where words begin), in order, every
// word typed beginning a piece of its own.
func wordPieces(words []string, low []rune, starts []bool) bool {
	var q []rune
	var first []bool // q[i] begins a word typed
	for _, w := range words {
		for i, r := range []rune(w) {
			q = append(q, r)
			first = append(first, i == 0)
		}
	}
	failed := map[[2]int]bool{}
	var match func(qi, si int) bool
	match = func(qi, si int) bool {
		if qi == len(q) {
			return true
		}
		if failed[[2]int{qi, si}] {
			return false
		}
		for at := si; at < len(low); at++ {
			if !starts[at] || low[at] != q[qi] {
				continue
			}
			n := 1
			for qi+n < len(q) && at+n < len(low) && !first[qi+n] && low[at+n] == q[qi+n] {
				n++
			}
			for k := n; k > 0; k-- { // the longest piece first
				if match(qi+k, at+k) {
					return true
				}
			}
		}
		failed[[2]int{qi, si}] = true
		return false
	}
	return match(0, 0)
}

// paletteSource lets the fuzzy matcher read the items' labels and kinds.
type paletteSource []paletteItem

func (s paletteSource) String(i int) string { return s[i].label + " " + s[i].kind }
func (s paletteSource) Len() int            { return len(s) }

// move selects the item d lines below (above, when negative) the current
// one, without running it.
func (p *palette) move(d int) {
	if len(p.shown) == 0 {
		p.cur = -1
		return
	}
	i := max(0, min(len(p.shown)-1, p.cur+d))
	p.moving = true
	p.list.Select(i)
	p.list.ScrollTo(i)
	p.moving = false
	p.cur = i
}

// runCurrent closes the palette and runs the selected item.
func (p *palette) runCurrent() {
	if p.cur < 0 || p.cur >= len(p.shown) {
		return
	}
	it := p.shown[p.cur]
	p.close()
	it.run()
}

func (p *palette) close() {
	if p.pop != nil {
		p.pop.Hide()
	}
}

// openTool shows the named tool of the selected server on its Tools
// screen, its form ready to fill.
func (w *Window) openTool(name string) {
	ss := w.selectedScreens()
	if ss == nil {
		return
	}
	_ = w.ShowScreenNow("Tools")
	t := ss.tools
	named := func(x Tool) bool { return x.Name == name }
	if !slices.ContainsFunc(t.shown, named) && t.search.Text != "" {
		t.search.SetText("")
	}
	t.selectTool(name) // a row of the list, which may hold group headers
}

// selectWhere selects and shows the first row of list whose item matches.
func selectWhere[T any](list *widget.List, items []T, match func(T) bool) {
	if i := slices.IndexFunc(items, match); i >= 0 {
		list.Select(i)
		list.ScrollTo(i)
	}
}

// openPrompt shows the named prompt of the selected server.
func (w *Window) openPrompt(name string) {
	ss := w.selectedScreens()
	if ss == nil {
		return
	}
	_ = w.ShowScreenNow("Prompts")
	ss.prompts.selectName(name) // clears a search that hides it
}

// openResource shows the resource or template of the selected server
// whose key (URI or URI template) is key.
func (w *Window) openResource(key string) {
	ss := w.selectedScreens()
	if ss == nil {
		return
	}
	_ = w.ShowScreenNow("Resources")
	ss.resources.selectKey(key)
}

// selectedScreens is the selected server's screens, or nil with a toast
// when it has none (not connected).
func (w *Window) selectedScreens() *serverScreens {
	if w.selected == nil || w.selected.screens == nil {
		w.toast("error", "Connect a server first.")
		return nil
	}
	return w.selected.screens
}

// key is what tells a resource row from the others: the resource's URI or
// the template's URI template.
func (r resRow) key() string {
	if r.res != nil {
		return "res:" + r.res.URI
	}
	return "tmpl:" + r.tmpl.URITemplate
}
