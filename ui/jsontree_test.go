package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// labels returns the tree's node labels depth first, in display order.
func (j *jsonTree) labels() []string {
	var out []string
	var walk func(id string)
	walk = func(id string) {
		out = append(out, j.nodes[id].label())
		for _, c := range j.childIDs(id) {
			walk(c)
		}
	}
	if j.nodes[""] != nil {
		walk("")
	}
	return out
}

func TestJSONTreeWireOrderAndKeys(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct {
		name, raw string
		want      []string
	}{
		{"wire order, not sorted", `{"z":1,"a":2,"m":[true,null]}`,
			[]string{"{3}", "z: 1", "a: 2", "m: [2]", "0: true", "1: null"}},
		{"a key with a slash is its own key", `{"a":{"b":1},"a/b":2}`,
			[]string{"{2}", "a: {1}", "b: 1", `"a/b": 2`}},
		{"duplicate keys stay visible", `{"id":1,"id":2}`,
			[]string{"{2}", "id: 1", "id: 2"}},
		{"odd keys are quoted", `{"":1," x":2,"a.b":"s\n"}`,
			[]string{"{3}", `"": 1`, `" x": 2`, `"a.b": "s⏎"`}},
		{"numbers keep their text", `[1.50,1e400]`,
			[]string{"[2]", "0: 1.50", "1: 1e400"}},
	}
	// on the UI thread: a toast of an earlier test expiring touches
	// Fyne's render cache too (a data race under -race otherwise)
	Sync(func() {
		for _, tt := range tests {
			j := newJSONTree()
			j.SetJSON([]byte(tt.raw))
			if got := j.labels(); !slices.Equal(got, tt.want) {
				t.Errorf("%s: tree %q, want %q", tt.name, got, tt.want)
			}
		}
	})
}

// rawShown is what the raw view's rows show, joined as the text they
// cut: a row that goes on with the one above follows it, any other
// starts a new line.
func (j *jsonTree) rawShown() string {
	if j.paged == nil {
		return ""
	}
	var b strings.Builder
	for i := range j.paged.rows {
		if i > 0 && !j.paged.wraps(i) {
			b.WriteByte('\n')
		}
		b.WriteString(j.paged.row(i))
	}
	return b.String()
}

func TestJSONTreeRawAndExpandAll(t *testing.T) {
	test.NewTempApp(t)
	Sync(func() {
		raw := `{"b" : {"c":{"d":1}}, "b":2}`
		j := newJSONTree()
		test.NewTempWindow(t, j.obj)
		j.SetJSON([]byte(raw))
		if !j.tree.Visible() || j.rawBx.Visible() {
			t.Fatal("the tree is not the first view")
		}
		if j.paged != nil {
			t.Error("the hidden raw view holds the payload (laying it out froze the window on a 16 KB tools/list)")
		}
		if j.tree.IsBranchOpen("/0/0") {
			t.Fatal("the third level is open before Expand all")
		}
		test.Tap(j.bar.Objects[1].(*widget.Button))
		if !j.tree.IsBranchOpen("/0/0") {
			t.Error("Expand all left the third level closed")
		}
		j.rawChk.SetChecked(true)
		if j.tree.Visible() || !j.rawBx.Visible() {
			t.Fatal("Raw does not show the raw view")
		}
		if ex := j.bar.Objects[1].(*widget.Button); !ex.Visible() || !ex.Disabled() {
			t.Error("Expand all is not greyed in its place in the raw view (hidden, it gave its room to Raw)")
		}
		if got := j.rawShown(); got != raw {
			t.Errorf("raw view %q, want the exact bytes %q", got, raw)
		}
		j.SetJSON([]byte(`{"c":3}`)) // a new payload while Raw is shown
		if got := j.rawShown(); got != `{"c":3}` {
			t.Errorf("raw view after SetJSON in Raw: %q", got)
		}
		j.SetJSON([]byte(`not json`))
		if !j.empty.Visible() || j.empty.Text != "not json" || j.bar.Visible() {
			t.Errorf("invalid JSON: text %q shown %v, bar shown %v", j.empty.Text, j.empty.Visible(), j.bar.Visible())
		}
		j.SetJSON([]byte(`{"a":1} {"b":2}`))
		if !j.empty.Visible() {
			t.Error("two values are shown as one tree")
		}
	})
}
