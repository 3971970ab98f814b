package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// TestRawViewWrapsAtPunctuation: a compact message in the Raw view of a
// narrow pane is cut into rows at spaces and JSON's punctuation, so no
// key, word or number is split between letters ("too" / "ls" before); a
// base64 string longer than a row is cut at the width, each row that
// goes on with the line above marked in its gutter; the rows hold the
// exact bytes, and a newline of the text starts a row unmarked (#12).
func TestRawViewWrapsAtPunctuation(t *testing.T) {
	test.NewTempApp(t)
	b64 := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk", 8)
	raw := `{"jsonrpc":"2.0","id":3,"result":{"tools":[{"annotations":{"title":"Bump counter","readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false},"description":"Increments demo://counter; subscribers get an update.","name":"bump_counter"}],"data":"` + b64 + `"}}`
	Sync(func() {
		j := newJSONTree()
		w := test.NewTempWindow(t, j.obj)
		w.Resize(fyne.NewSize(320, 500))
		j.SetJSON([]byte(raw))
		j.rawChk.SetChecked(true)
		w.Resize(fyne.NewSize(321, 500)) // laid out with Raw shown
		p := j.paged
		if p == nil || p.cols > 40 {
			t.Fatalf("the raw view is not cut into rows for a narrow pane (%v)", p)
		}
		if got := j.rawShown(); got != raw {
			t.Fatalf("the rows hold\n%s\nwant the exact bytes\n%s", got, raw)
		}
		rows := make([]string, len(p.rows))
		for i := range rows {
			rows[i] = p.row(i)
			if len(rows[i]) > p.cols {
				t.Errorf("row %d %q is wider than the %d columns", i, rows[i], p.cols)
			}
		}
		for _, word := range []string{`"jsonrpc"`, `"tools"`, "Bump", "counter", `"readOnlyHint"`, `"destructiveHint"`, `"idempotentHint"`, `"openWorldHint"`, "Increments", "demo://counter;", `"bump_counter"`} {
			whole := false
			for _, r := range rows {
				whole = whole || strings.Contains(r, word)
			}
			if !whole {
				t.Errorf("%s is split between rows:\n%s", word, strings.Join(rows, "\n"))
			}
		}
		var cutToken int
		for i := 1; i < len(rows); i++ {
			if !p.wraps(i) {
				t.Errorf("row %d %q is not marked as going on with the line above (the message has no newline)", i, rows[i])
			}
			if strings.Contains(b64, rows[i]) && len(rows[i]) == p.cols {
				cutToken++
			}
		}
		if cutToken == 0 {
			t.Errorf("the base64 string is not cut at the width:\n%s", strings.Join(rows, "\n"))
		}
		o := p.list.CreateItem()
		p.list.UpdateItem(1, o)
		var marks []string
		walkVisible(o, func(x fyne.CanvasObject) {
			if tx, ok := x.(*canvas.Text); ok {
				marks = append(marks, tx.Text)
			}
		})
		if len(marks) != 2 || marks[0] != wrapMark || marks[1] != rows[1] {
			t.Errorf("row 1 draws %q, want the mark %q and its text", marks, wrapMark)
		}

		pretty := "{\n  \"a\": 1\n}"
		j.SetJSON([]byte(pretty))
		if got := j.rawShown(); got != pretty || j.paged.wraps(1) {
			t.Errorf("a message with newlines reads %q (row 1 marked %v), want its lines as they are", got, j.paged.wraps(1))
		}
	})
}
