package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCollectionRunErrorWording: a run that cannot start says why in plain
// words (a trace picked by mistake is named as one, another JSON file is
// not a collection), never the decoder's chain, which stays behind Show
// full error.
func TestCollectionRunErrorWording(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path string
		err        error // nil: the error of reading the file as a collection
		want       string
	}{
		{"trace", write("run.json", `{"format":"spyglass-trace","formatVersion":1,"meta":{"app":"spyglass"},"events":[]}`), nil,
			"run.json is a recorded session (a trace), not a collection: open it with File → Open trace…"},
		{"other JSON", write("package.json", `{"name":"x","version":"1.0.0"}`), nil,
			"package.json is not a collection Spyglass can run"},
		{"run failure", write("smoke.json", `{}`), errors.New("cannot reach the server"),
			"Could not run smoke.json: Cannot reach the server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err
			if err == nil {
				_, err = readCollectionFile(tc.path)
				if err == nil {
					t.Fatal("the file read as a collection")
				}
			}
			w := newTestWindowBackend(t, newFakeBackend("demo"))
			v := &collectionView{w: w, path: tc.path}
			var got string
			var full bool
			Sync(func() {
				v.buildUI()
				v.show("demo", nil, err)
				got, full = v.status.Text, v.full.Visible()
			})
			if !strings.HasPrefix(got, tc.want) {
				t.Fatalf("the run reads %q, want it to start %q", got, tc.want)
			}
			if strings.Contains(got, "unknown field") || strings.Contains(got, "read collection") {
				t.Fatalf("the headline carries the error chain: %q", got)
			}
			if !full {
				t.Fatal("Show full error is hidden")
			}
		})
	}
}
