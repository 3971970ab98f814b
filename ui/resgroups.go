package ui

import (
	"strings"
)

// A server with thousands of resources (issue #17): the resources list is
// searched over a lower-cased copy of each row's text made once per
// listing, and grouped by URI prefix under headers that collapse, as the
// tools list is by name prefix (prefixGroups, groupedRows in
// toolgroups.go).

// templatesGroup is the group of the templates in a grouped list.
const templatesGroup = "\x00templates"

// uriPrefix is the part of a resource's URI its group is named by: the
// scheme and authority with the first path segment when more follows it
// (test://records/g07/0712 → test://records/g07/, file:///home/u/a →
// file:///home/), the scheme and authority when only one segment does
// (test://records/0712 → test://records/), the scheme alone when nothing
// does (demo://readme → demo://), and an opaque URI's scheme (urn:).
func uriPrefix(u string) string {
	i := strings.Index(u, "://")
	if i <= 0 {
		if j := strings.IndexByte(u, ':'); j > 0 {
			return u[:j+1]
		}
		return ""
	}
	start := i + len("://")
	a := strings.IndexByte(u[start:], '/')
	if a < 0 {
		return u[:start]
	}
	path := start + a + 1
	s := strings.IndexByte(u[path:], '/')
	if s <= 0 || path+s+1 == len(u) {
		return u[:path]
	}
	return u[:path+s+1]
}

// indexResources prepares a new listing for search and grouping.
func (r *resourcesScreen) indexResources() {
	r.hay = make([]string, len(r.rows))
	for i, row := range r.rows {
		if row.res != nil {
			r.hay[i] = strings.ToLower(row.res.Name + " " + row.res.Title + " " + row.res.URI + " " + row.res.Description)
		} else {
			r.hay[i] = strings.ToLower(row.tmpl.Name + " " + row.tmpl.Title + " " + row.tmpl.URITemplate + " " + row.tmpl.Description)
		}
	}
	res := r.resources
	r.groupOf = prefixGroups(len(res), func(i int) string { return uriPrefix(res[i].URI) })
	if r.groupOf != nil {
		for range r.templates {
			r.groupOf = append(r.groupOf, templatesGroup)
		}
	}
}

// applyFilter lays out the rows the search matches and says how many.
func (r *resourcesScreen) applyFilter() {
	if len(r.hay) != len(r.rows) {
		r.indexResources()
	}
	q := strings.ToLower(strings.TrimSpace(r.search.Text))
	var match []int
	res := 0
	for i := range r.rows {
		if q == "" || strings.Contains(r.hay[i], q) {
			match = append(match, i)
			if r.rows[i].res != nil {
				res++
			}
		}
	}
	r.view = groupedRows(match, r.groupOf, r.collapsed, q != "")
	for k := range r.view {
		if r.view[k].item >= 0 {
			r.view[k].item = match[r.view[k].item] // a position in rows
		}
	}
	switch {
	case len(r.rows) == 0:
		r.status.SetText("This server offers no resources.")
	case len(match) == 0:
		r.status.SetText(noMatch("resource", r.search.Text))
	default: // as the tools list counts: "4 of 26 resources · 3 templates"
		st := listCount(res, len(r.resources), "resource")
		if q == "" || len(r.templates) > 0 { // a search leaves out "0 templates"
			st += " · " + listCount(len(match)-res, len(r.templates), "template")
		}
		r.status.SetText(st)
	}
	r.list.UnselectAll()
	r.list.Refresh()
	if r.cur != nil {
		if i := r.viewOf(r.cur.key()); i >= 0 {
			r.reselect = true // the row shown stays, with its read
			r.list.Select(i)
			r.reselect = false
		}
	}
}

// headerText is a group header's two lines.
func (r *resourcesScreen) headerText(v groupRow) (head, sub string) {
	collapsed := r.collapsed[v.group]
	if v.group == templatesGroup {
		head, sub = groupHeaderText("Templates", v.count, "template", "templates", collapsed)
		return strings.Replace(head, "Templates…", "Templates", 1), sub
	}
	head, sub = groupHeaderText(v.group, v.count, "resource", "resources", collapsed)
	if v.group != "" {
		// its own segment first: a narrow pane cuts the end, and every
		// group of a server starts alike (test://records/…)
		head = strings.Replace(head, v.group+"…", groupName(v.group), 1)
	}
	return head, sub
}

// groupName is how a header names a URI prefix: its last segment, then
// where it is (group07/ in test://records/), or the prefix itself when
// it is only a scheme (demo://, urn:).
func groupName(prefix string) string {
	i := strings.Index(prefix, "://")
	trimmed := strings.TrimSuffix(prefix, "/")
	j := strings.LastIndexByte(trimmed, '/')
	if i < 0 || j < i+2 { // j at "://"'s last slash names the authority
		return prefix
	}
	return trimmed[j+1:] + "/ in " + prefix[:j+1]
}

// viewOf is the list row of the resource or template whose key is key
// (-1 when not shown).
func (r *resourcesScreen) viewOf(key string) int {
	for i, v := range r.view {
		if v.item >= 0 && r.rows[v.item].key() == key {
			return i
		}
	}
	return -1
}

// selectKey selects the resource or template whose key is key (see
// resRow.key), clearing a search that hides it and opening its group.
func (r *resourcesScreen) selectKey(key string) {
	i := r.viewOf(key)
	if i < 0 && r.search.Text != "" {
		r.search.SetText("")
		i = r.viewOf(key)
	}
	if i < 0 && r.groupOf != nil {
		for k, row := range r.rows {
			if row.key() == key && r.collapsed[r.groupOf[k]] {
				r.collapsed[r.groupOf[k]] = false
				r.applyFilter()
				i = r.viewOf(key)
			}
		}
	}
	if i >= 0 {
		r.list.Select(i)
		r.list.ScrollTo(i)
	}
}
