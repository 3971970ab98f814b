package plain

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// worded is an Error as cmd makes them.
type worded struct{ head, chain string }

func (w worded) Error() string    { return w.chain }
func (w worded) Headline() string { return w.head }
func (w worded) Detail() string   { return w.chain }

// TestJSONErrorsInPlainWords: a JSON parse error of the user's text or a
// server's payload reads in plain words, never in Go's, with Go's whole
// message behind Show full error; an error worded already keeps its
// words, and any other starts with a capital.
func TestJSONErrorsInPlainWords(t *testing.T) {
	var v any
	var typed struct {
		Max int `json:"maxTokens"`
	}
	cut := json.Unmarshal([]byte(`{"a": [1, 2`), &v)
	bad := json.Unmarshal([]byte(`{"a": x}`), &v)
	key := json.Unmarshal([]byte(`{"a" 1}`), &v)
	typ := json.Unmarshal([]byte(`{"maxTokens": "many"}`), &typed)
	dec := json.NewDecoder(strings.NewReader(`{"a": `)).Decode(&v)
	for _, c := range []struct {
		err  error
		want string
	}{
		{cut, "This is not valid JSON: it ends too early"},
		{fmt.Errorf("read profiles: %w", bad), "This is not valid JSON: unexpected character 'x' (at character 7)."},
		{key, "expected ':' after the member name, found '1'"},
		{typ, `"maxTokens" is text where a number is expected`},
		{dec, "it ends too early"},
		{worded{"Cannot reach the server.", "dial tcp: refused"}, "Cannot reach the server."},
		{errors.New("plain"), "Plain"},
	} {
		head, full := Words(c.err)
		if !strings.Contains(head, c.want) {
			t.Errorf("Words(%q) says %q, want %q", c.err, head, c.want)
		}
		for _, goWords := range []string{"invalid character", "looking for", "JSON input", "unmarshal", "Go struct", "unexpected EOF"} {
			if strings.Contains(head, goWords) {
				t.Errorf("Words(%q) says %q, in Go's words", c.err, head)
			}
		}
		if full != c.err.Error() {
			t.Errorf("Show full error of %q shows %q", c.err, full)
		}
		if Headline(c.err) != head {
			t.Errorf("Headline(%q) = %q, Words' headline %q", c.err, Headline(c.err), head)
		}
	}
	if h, f := Words(nil); h != "" || f != "" {
		t.Errorf("no error reads %q, %q", h, f)
	}
}
