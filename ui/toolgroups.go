package ui

import (
	"fmt"
	"strings"
)

// Thousand-tool servers (issue #17): the tool list is a widget.List (only
// the rows on screen exist), searched over a lower-cased copy of each
// tool's text made once per listing, and grouped by name prefix
// ("github_…", "fs.…") when the server's names have that structure, with
// headers that collapse.

// groupMin is the fewest tools a list is grouped from; a smaller server's
// list stays flat and in the server's order.
const groupMin = 50

// toolRow is one row of the tool list: a tool, or a group's header.
type toolRow struct {
	tool  *Tool  // nil for a header
	group string // the header's prefix ("" for Other)
	count int    // the tools under a header that match the search
}

// namePrefix is the part of a tool's name up to and including its first
// separator (_ . / : -), "" when it has none or nothing follows it.
func namePrefix(name string) string {
	i := strings.IndexAny(name, "_./:-")
	if i <= 0 || i == len(name)-1 {
		return ""
	}
	return name[:i+1]
}

// toolGroups maps each tool of all to its group: a prefix at least two
// tools share, else "" (Other). It returns nil when the list is not
// grouped: fewer than groupMin tools, or fewer than two groups.
func toolGroups(all []Tool) []string {
	if len(all) < groupMin {
		return nil
	}
	count := map[string]int{}
	for _, t := range all {
		count[namePrefix(t.Name)]++
	}
	groups := 0
	for p, n := range count {
		if p != "" && n >= 2 {
			groups++
		}
	}
	if groups < 2 {
		return nil
	}
	out := make([]string, len(all))
	for i, t := range all {
		if p := namePrefix(t.Name); p != "" && count[p] >= 2 {
			out[i] = p
		}
	}
	return out
}

// indexTools prepares a new listing for search and grouping.
func (t *toolsScreen) indexTools() {
	t.hay = make([]string, len(t.all))
	for i, tool := range t.all {
		t.hay[i] = strings.ToLower(tool.Name + " " + tool.Title + " " + tool.Description)
	}
	t.groupOf = toolGroups(t.all)
	if t.collapsed == nil {
		t.collapsed = map[string]bool{}
	}
}

// filterRows fills shown with the tools matching q (lower case) and rows
// with what the list draws: the tools, under their group headers when
// the list is grouped (groups in order of their first tool, Other last;
// a collapsed group shows its header only, unless a search is typed).
func (t *toolsScreen) filterRows(q string) {
	if len(t.hay) != len(t.all) {
		t.indexTools()
	}
	t.shown = t.shown[:0]
	t.rows = t.rows[:0]
	var match []int
	for i := range t.all {
		if q == "" || strings.Contains(t.hay[i], q) {
			match = append(match, i)
			t.shown = append(t.shown, t.all[i])
		}
	}
	if t.groupOf == nil {
		for i := range t.shown {
			t.rows = append(t.rows, toolRow{tool: &t.shown[i]})
		}
		return
	}
	var order []string
	members := map[string][]int{} // positions in shown
	for k, i := range match {
		g := t.groupOf[i]
		if _, ok := members[g]; !ok && g != "" {
			order = append(order, g)
		}
		members[g] = append(members[g], k)
	}
	if len(members[""]) > 0 {
		order = append(order, "")
	}
	for _, g := range order {
		t.rows = append(t.rows, toolRow{group: g, count: len(members[g])})
		if t.collapsed[g] && q == "" {
			continue
		}
		for _, k := range members[g] {
			t.rows = append(t.rows, toolRow{tool: &t.shown[k]})
		}
	}
}

// headerText is a group header's two lines: its name, and how many
// tools it holds and what a tap does. (A header is as tall as a tool's
// row: List.SetItemHeight refreshes the whole list on every call, and
// giving 100 headers their own height made each keystroke of a search
// take seconds in the real window.)
func (r toolRow) headerText(collapsed bool) (head, sub string) {
	name := r.group + "…"
	if r.group == "" {
		name = "Other"
	}
	head = "▾ " + name
	if collapsed {
		head = "▸ " + name
	}
	noun := "tools"
	if r.count == 1 {
		noun = "tool"
	}
	sub = fmt.Sprintf("%d %s · tap to collapse", r.count, noun)
	if collapsed {
		sub = fmt.Sprintf("%d %s · collapsed, tap to open", r.count, noun)
	}
	return head, sub
}

// onToggleGroup collapses or opens a group.
func (t *toolsScreen) onToggleGroup(g string) {
	t.collapsed[g] = !t.collapsed[g]
	t.applyFilter()
}

// rowOf is the list row of the tool named name (-1 when not shown).
func (t *toolsScreen) rowOf(name string) int {
	for i, r := range t.rows {
		if r.tool != nil && r.tool.Name == name {
			return i
		}
	}
	return -1
}

// selectTool selects the tool named name in the list, as a click on its
// row does; false when it is not shown.
func (t *toolsScreen) selectTool(name string) bool {
	i := t.rowOf(name)
	if i < 0 {
		return false
	}
	t.list.Select(i)
	t.list.ScrollTo(i)
	return true
}
