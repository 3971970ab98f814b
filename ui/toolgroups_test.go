package ui

import (
	"encoding/json"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// manyTools are n tools named as the thousand-tool test server names them
// (core/session/testdata/tssdk_many_tools.mjs): a prefix per hundred.
func manyTools(n int) []Tool {
	out := make([]Tool, n)
	for i := range out {
		id := fmt.Sprintf("%04d", i)
		out[i] = Tool{Name: fmt.Sprintf("group%02d_tool%s", i/100, id), Title: "Tool " + id,
			Description: "Looks up record " + id + " in the test catalogue.", ReadOnly: i%10 == 0,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)}
	}
	return out
}

// listTools puts tools into the screen as a listing does.
func listTools(ss *serverScreens, tools []Tool) {
	ss.tools.all = tools
	ss.tools.hay = nil
	ss.tools.applyFilter()
}

// TestToolListThousandsGrouped: 10,000 tools are listed under a header
// per name prefix, drawn as a virtualized list (only the rows on screen
// exist), a header collapses its group, and search finds the last tool,
// whose form opens.
func TestToolListThousandsGrouped(t *testing.T) {
	w, _, ss := connected(t, nil)
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
		listTools(ss, manyTools(10000))
	})
	Sync(func() {
		tl := ss.tools
		if got := tl.list.Length(); got != 10000+100 {
			t.Fatalf("the list has %d rows, want 10,000 tools and 100 headers", got)
		}
		if head, sub := tl.rows[0].headerText(false); tl.rows[0].tool != nil || head != "▾ group00_…" || sub != "100 tools · tap to collapse" {
			t.Fatalf("the first row is %+v (%q, %q), want group00_'s header", tl.rows[0], head, sub)
		}
		if r := tl.rows[1]; r.tool == nil || r.tool.Name != "group00_tool0000" {
			t.Fatalf("the second row is %+v, want the first tool", r)
		}
		labels := 0
		walkVisible(w.win.Content(), func(o fyne.CanvasObject) {
			if _, ok := o.(*widget.Label); ok {
				labels++
			}
		})
		if labels > 400 {
			t.Errorf("%d labels are drawn for 10,000 tools: the list is not virtualized", labels)
		}
		if tl.status.Text != "10000 tools" {
			t.Errorf("status %q", tl.status.Text)
		}
		tl.list.Select(0) // the header: collapses group00_
		if got := tl.list.Length(); got != 10000 {
			t.Errorf("with group00_ collapsed the list has %d rows, want 10,000", got)
		}
		if tl.selected != nil {
			t.Errorf("tapping a header selected %s", tl.selected.Name)
		}
		tl.list.Select(0) // and opens it again
		if got := tl.list.Length(); got != 10100 {
			t.Errorf("with group00_ open again the list has %d rows, want 10,100", got)
		}

		tl.search.SetText("TOOL9999")
		if len(tl.rows) != 2 || tl.rows[1].tool == nil || tl.rows[1].tool.Name != "group99_tool9999" {
			t.Fatalf("searching tool9999 shows %d rows, want group99_'s header and the last tool", len(tl.rows))
		}
		if tl.status.Text != "1 of 10000 tools" {
			t.Errorf("status %q", tl.status.Text)
		}
		if !tl.selectTool("group99_tool9999") || tl.selected == nil || tl.selected.Name != "group99_tool9999" {
			t.Fatal("the last tool cannot be selected")
		}
		if tl.name.Text != "Tool 9999" || tl.ident.Identifier() != "group99_tool9999" || ss.tools.detail.Objects[0] != tl.formObj {
			t.Errorf("the form shows %q (%q)", tl.name.Text, tl.ident.Identifier())
		}
		tl.search.SetText("")
		if i := tl.rowOf("group99_tool9999"); i != 10099 {
			t.Errorf("after the search the selection is at row %d, want it kept at 10,099", i)
		}
	})
}

// TestToolListFlatUnderGroupMin: a server with fewer than groupMin tools,
// or whose names share no prefix, keeps a flat list in its order.
func TestToolListFlatUnderGroupMin(t *testing.T) {
	test.NewTempApp(t)
	if g := toolGroups(manyTools(groupMin - 1)); g != nil {
		t.Errorf("%d tools are grouped", groupMin-1)
	}
	var flat []Tool
	for i := range 200 {
		flat = append(flat, Tool{Name: fmt.Sprintf("tool%d", i)})
	}
	if g := toolGroups(flat); g != nil {
		t.Error("names without a shared prefix are grouped")
	}
	mixed := append(manyTools(200), Tool{Name: "lonely"}, Tool{Name: "x_only"})
	g := toolGroups(mixed)
	if g == nil || g[0] != "group00_" || g[200] != "" || g[201] != "" {
		t.Errorf("groups %v…, want group00_ and the odd ones in Other", g[:1])
	}
	for _, tc := range []struct{ name, want string }{
		{"github_create_issue", "github_"}, {"fs.read", "fs."}, {"plain", ""}, {"trailing_", ""}, {"_x", ""},
	} {
		if got := namePrefix(tc.name); got != tc.want {
			t.Errorf("namePrefix(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
