package ui

import (
	"fmt"
	"strings"
)

// Thousand-tool servers (issue #17): the tool list is a widget.List (only
// the rows on screen exist), searched over a lower-cased copy of each
// tool's text made once per listing, and grouped by name prefix
// ("github_…", "fs.…") when the server's names have that structure, with
// headers that collapse. The resources list is grouped the same way by
// URI prefix (prefixGroups, groupedRows; ui/resgroups.go).

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

// prefixGroups maps each of n items to its group, given each one's
// prefix (a tool's name prefix, a resource's URI prefix): a prefix at
// least two items share, else "" (Other). It returns nil when the list
// is not grouped: fewer than groupMin items, or fewer than two groups.
// The tools and the resources lists share it.
func prefixGroups(n int, prefix func(i int) string) []string {
	if n < groupMin {
		return nil
	}
	prefixes := make([]string, n)
	count := map[string]int{}
	for i := range n {
		prefixes[i] = prefix(i)
		count[prefixes[i]]++
	}
	groups := 0
	for p, c := range count {
		if p != "" && c >= 2 {
			groups++
		}
	}
	if groups < 2 {
		return nil
	}
	for i, p := range prefixes {
		if count[p] < 2 {
			prefixes[i] = ""
		}
	}
	return prefixes
}

// toolGroups maps each tool of all to its group by name prefix (see
// prefixGroups).
func toolGroups(all []Tool) []string {
	return prefixGroups(len(all), func(i int) string { return namePrefix(all[i].Name) })
}

// groupRow is one row of a grouped list: a header (item < 0) or the
// item at position item of the matches.
type groupRow struct {
	item  int
	group string
	count int // a header's matching items
}

// groupedRows lays out the matches (indexes into the list's items, in
// order) under their group headers: groups in order of their first
// match, Other last; a collapsed group shows its header only, unless
// searching. groupOf nil lays them out flat.
func groupedRows(match []int, groupOf []string, collapsed map[string]bool, searching bool) []groupRow {
	rows := make([]groupRow, 0, len(match))
	if groupOf == nil {
		for k := range match {
			rows = append(rows, groupRow{item: k})
		}
		return rows
	}
	var order []string
	members := map[string][]int{} // positions in match
	for k, i := range match {
		g := groupOf[i]
		if _, ok := members[g]; !ok && g != "" {
			order = append(order, g)
		}
		members[g] = append(members[g], k)
	}
	if len(members[""]) > 0 {
		order = append(order, "")
	}
	for _, g := range order {
		rows = append(rows, groupRow{item: -1, group: g, count: len(members[g])})
		if collapsed[g] && !searching {
			continue
		}
		for _, k := range members[g] {
			rows = append(rows, groupRow{item: k})
		}
	}
	return rows
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
// the list is grouped (see groupedRows).
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
	for _, r := range groupedRows(match, t.groupOf, t.collapsed, q != "") {
		if r.item < 0 {
			t.rows = append(t.rows, toolRow{group: r.group, count: r.count})
		} else {
			t.rows = append(t.rows, toolRow{tool: &t.shown[r.item]})
		}
	}
}

// headerText is a group header's two lines: its name, and how many
// tools it holds and what a tap does. (A header is as tall as a tool's
// row: List.SetItemHeight refreshes the whole list on every call, and
// giving 100 headers their own height made each keystroke of a search
// take seconds in the real window.)
func (r toolRow) headerText(collapsed bool) (head, sub string) {
	return groupHeaderText(r.group, r.count, "tool", "tools", collapsed)
}

// groupHeaderText is a header's two lines for a group of count items
// (one, many: the noun), "" being Other.
func groupHeaderText(group string, count int, one, many string, collapsed bool) (head, sub string) {
	name := group + "…"
	if group == "" {
		name = "Other"
	}
	head = "▾ " + name
	if collapsed {
		head = "▸ " + name
	}
	noun := many
	if count == 1 {
		noun = one
	}
	sub = fmt.Sprintf("%d %s · tap to collapse", count, noun)
	if collapsed {
		sub = fmt.Sprintf("%d %s · collapsed, tap to open", count, noun)
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
