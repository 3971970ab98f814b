package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// manyResources are n resources named as the thousand-tool test server
// names them (core/session/testdata/tssdk_many_tools.mjs): a folder per
// hundred.
func manyResources(n int) []Resource {
	out := make([]Resource, n)
	for i := range out {
		id := fmt.Sprintf("%04d", i)
		out[i] = Resource{URI: fmt.Sprintf("test://records/group%02d/%s", i/100, id), Name: "record" + id,
			Description: "Record " + id, MIMEType: "text/plain"}
	}
	return out
}

// listResources puts resources and templates into the screen as a
// listing does.
func listResources(ss *serverScreens, res []Resource, tmpl []ResourceTemplate) {
	r := ss.resources
	r.resources, r.templates = res, tmpl
	r.rows = r.rows[:0]
	for i := range r.resources {
		r.rows = append(r.rows, resRow{res: &r.resources[i]})
	}
	for i := range r.templates {
		r.rows = append(r.rows, resRow{tmpl: &r.templates[i]})
	}
	r.hay = nil
	r.applyFilter()
}

func TestGroupName(t *testing.T) {
	for p, want := range map[string]string{
		"test://records/group07/": "group07/ in test://records/",
		"test://records/":         "records/ in test://",
		"file:///home/":           "home/ in file:///",
		"demo://":                 "demo://",
		"urn:":                    "urn:",
	} {
		if got := groupName(p); got != want {
			t.Errorf("groupName(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestURIPrefix(t *testing.T) {
	for u, want := range map[string]string{
		"test://records/group07/0712": "test://records/group07/",
		"test://records/0712":         "test://records/",
		"file:///home/u/a.go":         "file:///home/",
		"file:///etc":                 "file:///",
		"demo://readme":               "demo://",
		"demo://items/":               "demo://items/",
		"urn:isbn:0451450523":         "urn:",
		"plain":                       "",
	} {
		if got := uriPrefix(u); got != want {
			t.Errorf("uriPrefix(%q) = %q, want %q", u, got, want)
		}
	}
}

// TestResourceListThousandsGrouped: 10,000 resources are listed under a
// header per URI prefix (the templates under their own), drawn as a
// virtualized list; a header collapses its group; search says how many of
// how many match and finds the last resource, which reads; the palette's
// jump finds a resource in a collapsed group.
func TestResourceListThousandsGrouped(t *testing.T) {
	w, _, ss := connected(t, nil)
	tmpl := []ResourceTemplate{{URITemplate: "test://records/{id}", Name: "record"}}
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		_ = w.ShowScreenNow("Resources")
		listResources(ss, manyResources(10000), tmpl)
	})
	Sync(func() {
		r := ss.resources
		if got := r.list.Length(); got != 10000+100+1+1 {
			t.Fatalf("the list has %d rows, want 10,000 resources, 100 headers, the template and its header", got)
		}
		if head, sub := r.headerText(r.view[0]); r.view[0].item >= 0 || head != "▾ group00/ in test://records/" || sub != "100 resources · tap to collapse" {
			t.Fatalf("the first row is %+v (%q, %q), want group00's header", r.view[0], head, sub)
		}
		if last := r.view[len(r.view)-2]; last.item >= 0 {
			t.Fatalf("the row before the template is %+v, want the templates' header", last)
		} else if head, _ := r.headerText(last); head != "▾ Templates" {
			t.Fatalf("the templates' header reads %q", head)
		}
		labels := 0
		walkVisible(w.win.Content(), func(o fyne.CanvasObject) {
			if _, ok := o.(*widget.Label); ok {
				labels++
			}
		})
		if labels > 400 {
			t.Errorf("%d labels are drawn for 10,000 resources: the list is not virtualized", labels)
		}
		if r.status.Text != "10000 resources · 1 template" {
			t.Errorf("status %q", r.status.Text)
		}
		r.list.Select(0) // the header: collapses group00
		if got := r.list.Length(); got != 10000+100+2-100 {
			t.Errorf("with group00 collapsed the list has %d rows", got)
		}
		if r.cur != nil {
			t.Errorf("a header's tap selected %v", r.cur.key())
		}

		r.search.SetText("record999")
		if r.status.Text != "10 of 10000 resources · 0 of 1 template" {
			t.Errorf("searching: status %q", r.status.Text)
		}
		r.search.SetText("group99/9999")
		if r.status.Text != "1 of 10000 resources · 0 of 1 template" || r.list.Length() != 2 {
			t.Fatalf("the last resource: status %q, %d rows", r.status.Text, r.list.Length())
		}
		r.list.Select(1)
		if r.cur == nil || r.cur.res == nil || r.cur.res.URI != "test://records/group99/9999" {
			t.Fatalf("selected %+v", r.cur)
		}
		r.search.SetText("nothing like it")
		if r.status.Text != `No resource matches "nothing like it".` || r.list.Length() != 0 {
			t.Errorf("no match: status %q, %d rows", r.status.Text, r.list.Length())
		}
		r.search.SetText("")
	})
	// The palette's jump to a resource of the collapsed group opens it.
	Sync(func() { w.openResource("res:test://records/group00/0042") })
	Sync(func() {
		r := ss.resources
		if r.cur == nil || r.cur.res == nil || r.cur.res.URI != "test://records/group00/0042" {
			t.Fatalf("the palette's jump selected %+v", r.cur)
		}
		if r.collapsed["test://records/group00/"] {
			t.Error("the jump left the resource's group collapsed")
		}
	})
}

// A server's few resources stay a flat list in its order, searchable.
func TestResourceListFewFlat(t *testing.T) {
	_, _, ss := connected(t, nil)
	Sync(func() {
		listResources(ss, manyResources(20), nil)
		r := ss.resources
		if r.groupOf != nil || r.list.Length() != 20 || r.view[0].item != 0 {
			t.Fatalf("20 resources: %d rows, grouped %v", r.list.Length(), r.groupOf != nil)
		}
		r.search.SetText("record0019")
		if r.list.Length() != 1 || r.status.Text != "1 of 20 resources" {
			t.Errorf("search: %d rows, status %q", r.list.Length(), r.status.Text)
		}
	})
}
