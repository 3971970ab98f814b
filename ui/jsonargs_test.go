package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// The JSON text field for arguments marks where the text stops being JSON
// as it is typed, where its message says, and clears the mark when fixed.
func TestJSONArgsMarksProblem(t *testing.T) {
	test.NewTempApp(t)
	// on the UI thread: a toast of an earlier test expiring touches
	// Fyne's render cache too (a data race under -race otherwise)
	Sync(func() {
		j := newJSONArgs(nil, `{"a": 1,,}`)
		msg, wl, wc := jsonProblem(`{"a": 1,,}`)
		if l, c := j.ed.Problem(); l != wl || c != wc || l != 1 || c != 9 {
			t.Fatalf("marked %d:%d, want 1:9 as the message says (%s)", l, c, msg)
		}
		if j.Object() != j.ed {
			t.Fatal("the field shown is not the JSON editor")
		}
		j.e.SetText(`{"a": 1}`)
		if l, c := j.ed.Problem(); l != 0 || c != 0 {
			t.Fatalf("still marked %d:%d on valid JSON", l, c)
		}
		if b, err := j.JSON(); err != nil || string(b) != `{"a": 1}` {
			t.Fatalf("JSON() = %s, %v", b, err)
		}
	})
}
