package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestJSONTreeLazy: only the nodes of opened branches are built; a
// branch's children appear when it is opened, in wire order.
func TestJSONTreeLazy(t *testing.T) {
	test.NewTempApp(t)
	// on the UI thread: a toast of an earlier test expiring touches
	// Fyne's render cache too (a data race under -race otherwise)
	Sync(func() {
		j := newJSONTree()
		test.NewTempWindow(t, j.obj)
		// three levels open at once (the root and its children); deeper
		// containers wait
		j.SetJSON([]byte(`{"a":{"b":{"c":[1,2,3],"d":{"e":1}}},"z":[{"y":1}]}`))
		for _, id := range []string{"", "/0", "/1", "/0/0", "/1/0"} {
			if j.nodes[id] == nil {
				t.Fatalf("node %q is not built, want the first levels open", id)
			}
		}
		for _, id := range []string{"/0/0/0", "/0/0/1", "/1/0/0"} {
			if j.nodes[id] != nil {
				t.Errorf("node %q is built before its parent was opened", id)
			}
		}
		if got := j.nodes["/0/0"].label(); got != "b: {2}" {
			t.Errorf("a closed branch reads %q, want b: {2}", got)
		}
		j.tree.OpenBranch("/0/0")
		if n := j.nodes["/0/0/0"]; n == nil || n.label() != "c: [3]" {
			t.Fatalf("opening b built %v, want c: [3]", n)
		}
		if j.nodes["/0/0/0/0"] != nil {
			t.Error("opening b built c's children too")
		}
	})
}

// TestJSONTreeHuge: a document beyond bigText is shown without building
// it: big containers read as their size, Expand all is not offered, and
// the raw view shows a page with Load more.
func TestJSONTreeHuge(t *testing.T) {
	test.NewTempApp(t)
	// on the UI thread: a toast of an earlier test expiring touches
	// Fyne's render cache too (a data race under -race otherwise)
	Sync(func() {
		items := strings.Repeat(`{"n":1,"s":"text"},`, 20000)
		raw := []byte(`{"items":[` + items + `{"last":true}],"tail":"` + strings.Repeat("x", 2<<20) + `"}`)
		j := newJSONTree()
		test.NewTempWindow(t, j.obj)
		j.SetJSON(raw)
		if got := j.nodes["/0"].label(); !strings.HasPrefix(got, "items: […] ") {
			t.Errorf("the big array reads %q, want its size", got)
		}
		if n := len(j.nodes); n > 3+20001 {
			t.Errorf("%d nodes built, want the root, its children and the items' row only", n)
		}
		if j.nodes["/0/0/0"] != nil {
			t.Error("an item's members are built before the item was opened")
		}
		if got := j.nodes["/1"].label(); !strings.HasPrefix(got, `tail: "xxx`) || len(got) > 320*3 {
			t.Errorf("the 2 MB string reads %.80q (%d bytes), want its first 300 characters", got, len(got))
		}
		if last := j.childIDs("/0"); len(last) != 20001 || j.nodes[last[20000]].label() != "20000: {1}" {
			t.Errorf("the array has %d items, the last %q", len(last), j.nodes[last[len(last)-1]].label())
		}
		if j.bar.Objects[1].Visible() {
			t.Error("Expand all is offered on a document beyond bigText")
		}
		j.rawChk.SetChecked(true)
		if j.paged == nil || !j.rawBx.Visible() {
			t.Fatal("the raw view of a big document is not paged")
		}
		if j.paged.foot.Hidden || !j.paged.more.Visible() {
			t.Error("the raw view of a big document offers no Load more")
		}
		if j.paged.shown != textPage {
			t.Errorf("the raw view shows %d bytes, want the first %d", j.paged.shown, textPage)
		}
	})
}

// TestPagedTextLoadMore: a 50 MB text shows its first page; Load more
// adds the next; the rows join up to exactly the text shown.
func TestPagedTextLoadMore(t *testing.T) {
	test.NewTempApp(t)
	// on the UI thread: a toast of an earlier test expiring touches
	// Fyne's render cache too (a data race under -race otherwise)
	Sync(func() {
		text := strings.Repeat("a line of the demo's README, about sixty bytes long…\n", (50<<20)/56)
		p := newPagedText(text)
		w := test.NewTempWindow(t, p.obj)
		w.Resize(fyne.NewSize(600, 500))
		if p.shown != textPage || !p.more.Visible() {
			t.Fatalf("shows %d bytes (Load more shown %v), want the first %d", p.shown, p.more.Visible(), textPage)
		}
		if !strings.Contains(p.note.Text, " of 49.1 MB") {
			t.Errorf("note %q does not say how much there is", p.note.Text)
		}
		rows := len(p.rows)
		test.Tap(p.more)
		if p.shown != textPage+morePage || len(p.rows) <= rows {
			t.Fatalf("after Load more: %d bytes in %d rows (was %d rows), want %d bytes", p.shown, len(p.rows), rows, textPage+morePage)
		}
		var b strings.Builder
		for i := range p.rows {
			b.WriteString(p.row(i))
		}
		if want := strings.ReplaceAll(text[:p.shown], "\n", ""); b.String() != want {
			t.Error("the rows do not join up to the text shown")
		}
		if p.list.Length() != len(p.rows) {
			t.Errorf("the list has %d rows, want %d", p.list.Length(), len(p.rows))
		}
	})
}

// TestPagedTextCutsToWidth: rows follow the list's width in monospace
// cells, so a long line reads on without being clipped.
func TestPagedTextCutsToWidth(t *testing.T) {
	test.NewTempApp(t)
	// on the UI thread: a toast of an earlier test expiring touches
	// Fyne's render cache too (a data race under -race otherwise)
	Sync(func() {
		p := newPagedText(strings.Repeat("0123456789", 30000))
		w := test.NewTempWindow(t, p.obj)
		w.Resize(fyne.NewSize(400, 400))
		narrow := p.cols
		w.Resize(fyne.NewSize(900, 400))
		if p.cols <= narrow {
			t.Fatalf("cols %d at 900 px, %d at 400 px: the rows do not follow the width", p.cols, narrow)
		}
		if got := len(p.row(0)); got != p.cols { // no spaces: cut at the width
			t.Errorf("the first row has %d bytes, want %d", got, p.cols)
		}
	})
}

// TestPagedTextKeepsWords: a long line of words is cut at spaces, so no
// word is split across two rows.
func TestPagedTextKeepsWords(t *testing.T) {
	test.NewTempApp(t)
	// on the UI thread: a toast of an earlier test expiring touches
	// Fyne's render cache too (a data race under -race otherwise)
	Sync(func() {
		p := newPagedText(strings.Repeat("alpha beta gamma delta ", 5000))
		w := test.NewTempWindow(t, p.obj)
		w.Resize(fyne.NewSize(500, 400))
		for i := 0; i+1 < len(p.rows); i++ {
			if r := p.row(i); !strings.HasSuffix(r, " ") || len(r) > p.cols {
				t.Fatalf("row %d %q (of %d columns) splits a word", i, r, p.cols)
			}
		}
	})
}

// TestResultContentViewPages: a text block or a read's text item beyond
// bigText is paged (tool results and resource reads both use this); a
// small one keeps the rendered view, and the paged view holds no label
// with the whole text.
func TestResultContentViewPages(t *testing.T) {
	_, _, ss := connected(t, nil)
	big := strings.Repeat("0123456789 abcdefghij\n", bigText/22+100)
	Sync(func() {
		var labels []string
		walkVisible(ss.resultContentView(Content{Type: "text", Text: "small"}), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok {
				labels = append(labels, l.Text)
			}
		})
		if len(labels) != 1 || labels[0] != "small" {
			t.Errorf("a small text shows %q, want its label", labels)
		}
		for _, c := range []Content{
			{Type: "text", Text: big},
			{Type: "resource", URI: "test://big", Text: big},
		} {
			o := ss.resultContentView(c)
			test.NewTempWindow(t, o).Resize(fyne.NewSize(600, 600))
			var note string
			walkVisible(o, func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok {
					if len(l.Text) >= bigText {
						t.Errorf("a %s block draws a label of %d bytes", c.Type, len(l.Text))
					}
					if strings.HasPrefix(l.Text, "Showing the first") {
						note = l.Text
					}
				}
			})
			if note != "Showing the first 64.0 KB of "+sizeText(len(big))+"." {
				t.Errorf("a big %s block's note is %q", c.Type, note)
			}
		}
	})
}
