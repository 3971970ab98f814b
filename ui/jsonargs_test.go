package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/spyglass-mcp/spyglass/ui/plain"
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

// Arguments that are not a JSON object are said in plain words, at the
// place in the text, never in encoding/json's ("invalid character",
// "unexpected end of JSON input", "cannot unmarshal").
func TestJSONArgsErrorInPlainWords(t *testing.T) {
	test.NewTempApp(t)
	Sync(func() {
		for text, want := range map[string]string{
			`{"a": `:  "it ends too early",
			`{"a" 1}`: "expected ':' after the member name",
			`[1, 2]`:  "a list where an object is expected",
		} {
			j := newJSONArgs(nil, text)
			_, err := j.JSON()
			if err == nil {
				t.Fatalf("%s: no error", text)
			}
			head := plain.Headline(err)
			if !strings.Contains(head, want) {
				t.Errorf("%s: headline %q, want it to say %q", text, head, want)
			}
			for _, gos := range []string{"invalid character", "unexpected end", "unmarshal", "Go value"} {
				if strings.Contains(head, gos) {
					t.Errorf("%s: headline %q has encoding/json's words %q", text, head, gos)
				}
			}
		}
	})
}
